import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHED_RULES, gs1CheckDigit, gs1CheckDigitOk, readScan, weighedQuantityMilli } from '../../renderer/counter/barcode';
import { cartProblems, cartReducer, cartTender, emptyCart, type Cart, type CartAction } from '../../renderer/counter/cart';
import { MAX_QUANTITY_MILLI, parseCounterEntry, readQuantity } from '../../renderer/counter/scanner';
import { translator } from '../../renderer/i18n';
import { plural } from '../../renderer/i18n/plural';
import { describeSaleError, fieldInWords } from '../../renderer/lib/errors';
import { IpcCallError } from '../../renderer/ipc';
import { maskCnp } from '../../shared/ro/cnp';

const ro = translator('ro');
const run = (actions: CartAction[], from: Cart = emptyCart('receipt', '00000000-0000-4000-8000-000000000001')) => actions.reduce(cartReducer, from);
const tea = { id: 'p1', name: 'Ceai', code: 'C1', unit: 'buc', unit_code: 'H87', price_bani: 1850, price_includes_vat: true, vat_rate: 11 };

describe('barcodes at the counter', () => {
  it('checks the GS1 check digit of EAN-13, EAN-8 and UPC-A', () => {
    expect(gs1CheckDigit('400638133393')).toBe(1);
    expect(gs1CheckDigitOk('4006381333931')).toBe(true);
    expect(gs1CheckDigitOk('4006381333932')).toBe(false);
    expect(gs1CheckDigitOk('96385074')).toBe(true);
    expect(gs1CheckDigitOk('036000291452')).toBe(true);
  });

  it('reads weight and price labels by the layout rules, and refuses a misread one', () => {
    const weight = readScan('2112345012506', DEFAULT_WEIGHED_RULES);
    expect(weight).toMatchObject({ kind: 'weighed', value: 1250, rule: { kind: 'weight' } });
    if (weight.kind !== 'weighed') throw new Error('not weighed');
    expect(weight.product_keys[0]).toBe('2112345');
    expect(weighedQuantityMilli(weight, 3200)).toBe(1250);
    const price = readScan('2722222008999', DEFAULT_WEIGHED_RULES);
    if (price.kind !== 'weighed') throw new Error('not weighed');
    expect(price.rule.kind).toBe('price');
    expect(weighedQuantityMilli(price, 1798)).toBe(500);
    expect(readScan('2112345012501', DEFAULT_WEIGHED_RULES).kind).toBe('bad_check');
    expect(readScan('4006381333931', DEFAULT_WEIGHED_RULES).kind).toBe('other');
    // A custom layout: prefix 22 carries a price with a 4-digit article.
    const custom = readScan('2212340008997'.slice(0, 12) + String(gs1CheckDigit('221234000899')), [{ prefix: '22', kind: 'price', item_digits: 4 }]);
    expect(custom).toMatchObject({ kind: 'weighed', value: 899, product_keys: ['221234', expect.any(String), '1234'] });
  });
});

describe('quantities', () => {
  it('reads commas and n*, and names what is refused', () => {
    expect(readQuantity('1,25')).toEqual({ milli: 1250 });
    expect(readQuantity('0')).toEqual({ problem: 'zero' });
    expect(readQuantity('-2')).toEqual({ problem: 'negative' });
    expect(readQuantity('1e9')).toEqual({ problem: 'too_large' });
    expect(readQuantity('1000000000')).toEqual({ problem: 'too_large' });
    expect(readQuantity(String(MAX_QUANTITY_MILLI / 1000))).toEqual({ milli: MAX_QUANTITY_MILLI });
    expect(readQuantity('1,2345')).toEqual({ problem: 'too_many_decimals' });
    expect(readQuantity('abc')).toEqual({ problem: 'not_a_number' });
    expect(parseCounterEntry('3*5941234567890')).toEqual({ quantity_milli: 3000, query: '5941234567890' });
    expect(parseCounterEntry('0*cafea')).toEqual({ quantity_milli: 0, query: 'cafea', problem: 'zero' });
    expect(parseCounterEntry('-2*cafea')).toMatchObject({ problem: 'negative' });
  });
});

describe('the cart', () => {
  it('refuses a 0-lei total, splits card and cash with the change, and starts the next cart from the default method', () => {
    const free = run([{ type: 'addProduct', product: tea }, { type: 'setDiscount', index: 0, discount_bp: 10_000 }, { type: 'setClient', client: { id: 'c', name: 'X', cui: null, vat_payer: false, country: 'RO', county: null } }]);
    expect(cartProblems(free)).toEqual(['zero_total']);
    const sale = run([{ type: 'addProduct', product: tea, quantity_milli: 2000 }, { type: 'setSplit', card_bani: 1000 }, { type: 'setTendered', tendered_bani: 5000 }]);
    expect(cartTender(sale, 3700)).toEqual({ card_bani: 1000, cash_bani: 2700, change_bani: 2300 });
    expect(cartProblems(run([{ type: 'setSplit', card_bani: 9999 }], sale))).toContain('card_part_too_large');
    const card = run([{ type: 'setPayment', payment_method: 'card' }], sale);
    expect(cartTender(card, 3700)).toEqual({ card_bani: 3700, cash_bani: 0, change_bani: 0 });
    const next = run([{ type: 'clear', id: '00000000-0000-4000-8000-000000000002', payment_method: 'receipt' }], card);
    expect(next).toMatchObject({ id: '00000000-0000-4000-8000-000000000002', payment_method: 'receipt', card_bani: 0, lines: [] });
  });
});

describe('Romanian words', () => {
  it('uses the Romanian plural forms', () => {
    expect(plural(ro, 'ro', 'till.lines', 1)).toBe('1 produs');
    expect(plural(ro, 'ro', 'till.lines', 2)).toBe('2 produse');
    expect(plural(ro, 'ro', 'till.lines', 19)).toBe('19 produse');
    expect(plural(ro, 'ro', 'till.lines', 20)).toBe('20 de produse');
    expect(plural(ro, 'ro', 'till.lines', 101)).toBe('101 produse');
  });

  it('names refused fields in words, never "Invalid input" nor an identifier', () => {
    expect(fieldInWords('lines.2.quantity', ro)).toBe('rândul 3, cantitatea');
    const err = new IpcCallError({ type: 'validation_error', code: 'invalid_payload', message: 'Invalid input', fields: { 'lines.0.quantity': 'Must be positive|Trebuie să fie pozitivă', total: 'Too small: expected number to be >0' } });
    const text = describeSaleError(err, ro, 'ro');
    expect(text).toContain('rândul 1, cantitatea: Trebuie să fie pozitivă');
    expect(text).toContain('totalul: valoare nevalidă');
    expect(text).toContain('Coșul a rămas neschimbat.');
    expect(text).not.toMatch(/Invalid input|lines\.0|Too small/);
  });

  it('masks a CNP on screens', () => {
    expect(maskCnp('1960529460012')).toBe('1•••••••••012');
    expect(maskCnp(null)).toBeNull();
  });
});

describe('plural forms of the catalogue', () => {
  it('gives every counted message of the catalogue its Romanian forms: 1, 2-19, 20 and more with "de"', async () => {
    const { translate } = await import('../../renderer/i18n');
    const { ro: catalogue } = await import('../../renderer/i18n/ro');
    const counted = Object.entries(catalogue as Record<string, string>)
      // Keys that are themselves one form (`till.lines.few`, renderer/i18n/plural.ts) are checked by plural() above.
      .filter(([key, message]) => !key.includes('#') && !/\.(one|few|other)$/.test(key) && /\{count\} \p{L}/u.test(message))
      .map(([key]) => key as Parameters<typeof translate>[1]);
    expect(counted.length).toBeGreaterThan(15);
    const wrong = counted.filter((key) => {
      const [one, few, many] = [1, 2, 20].map((count) => translate('ro', key, { count })) as [string, string, string];
      return one === few.replace('2', '1') || !many.includes('20 de ') || few.includes('2 de ');
    });
    expect(wrong).toEqual([]);
    // English: one and other differ wherever a noun is counted.
    expect(translate('en', 'imports.commit', { count: 1 })).toBe('Import 1 row');
    expect(translate('ro', 'imports.commit', { count: 1 })).toBe('Importă 1 rând');
    expect(translate('ro', 'imports.commit', { count: 3 })).toBe('Importă 3 rânduri');
    expect(translate('ro', 'efacturaClock.summary', { count: 21 })).toMatch(/^21 de facturi trebuie încărcate/);
  });

  it('counts invoices, clients and reserved numbers in Romanian and English', async () => {
    const { translate } = await import('../../renderer/i18n');
    expect([1, 2, 19, 20, 101, 120].map((count) => translate('ro', 'invoices.count', { count }))).toEqual([
      '1 factură', '2 facturi', '19 facturi', '20 de facturi', '101 facturi', '120 de facturi',
    ]);
    expect(translate('ro', 'counter.reserved', { count: 1 })).toBe('1 număr rezervat');
    expect(translate('ro', 'clients.count', { count: 25 })).toBe('25 de clienți');
    expect(translate('en', 'invoices.count', { count: 1 })).toBe('1 invoice');
    expect(translate('en', 'invoices.count', { count: 20 })).toBe('20 invoices');
  });
});
