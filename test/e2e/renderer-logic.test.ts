import { describe, expect, it } from 'vitest';
import { computeTotals } from '../../shared/invoice-math';
import { cartIssueBuyer, cartItems, cartProblems, cartReducer, cartTotals, emptyCart, netUnitPrice, type Cart, type CartAction, type CartClient, type CartProduct } from '../../renderer/counter/cart';
import { looksLikeCode, parseCounterEntry, WedgeDetector } from '../../renderer/counter/scanner';
import { formatBani, formatMoney, formatQuantity, formatScaled, parseAmountInput, parsePercentInput, parseQuantityInput } from '../../renderer/lib/format';
import { parseHash, routeHash } from '../../renderer/app/router';
import { domainsOf } from '../../renderer/data/hooks';
import { CHANNELS, contract } from '../../shared/ipc';

const coffee: CartProduct = { id: 'prd_1', name: 'Cafea', code: '5941234567890', unit: 'buc', unit_code: 'H87', price_bani: 4990, price_includes_vat: false, vat_rate: 11 };
const shelf: CartProduct = { id: 'prd_2', name: 'Apă', code: '5940000000017', unit: 'buc', unit_code: 'H87', price_bani: 1000, price_includes_vat: true, vat_rate: 21 };

const run = (actions: CartAction[], start: Cart = emptyCart()) => actions.reduce(cartReducer, start);

describe('counter cart', () => {
  it('adds a scanned product, and the same product again to the same line', () => {
    const cart = run([{ type: 'addProduct', product: coffee }, { type: 'addProduct', product: coffee, quantity_milli: 2000 }]);
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]!.quantity_milli).toBe(3000);
    expect(cart.selected).toBe(0);
  });

  it('computes totals with shared/invoice-math: net lines VAT per line, shelf lines at their shelf price', () => {
    const cart = run([
      { type: 'addProduct', product: coffee, quantity_milli: 3000 },
      { type: 'addProduct', product: shelf },
      { type: 'setDiscount', index: 0, discount_bp: 1000 },
    ]);
    const totals = cartTotals(cart);
    const expected = computeTotals([
      { quantity_milli: 3000, unit_price_bani: 4990, vat_rate_bp: 1100, discount_bp: 1000 },
      { quantity_milli: 1000, unit_price_bani: 1000, vat_rate_bp: 2100, discount_bp: 0, price_includes_vat: true },
    ]);
    expect(totals).toEqual(expected);
    // The 10,00 lei shelf price is billed 10,00 lei (8,26 + 1,74), not 8,26 + 1,73 = 9,99 as before.
    expect(totals.lines[1]).toMatchObject({ net_bani: 826, vat_bani: 174, total_bani: 1000 });
    // 3 x 49,90 = 149,70; -10% = 134,73; VAT 11% = 14,82
    expect(totals.lines[0]).toMatchObject({ net_bani: 13_473, vat_bani: 1482 });
    expect(totals.breakdown.map((b) => b.vat_rate_bp)).toEqual([2100, 1100]);
  });

  it('takes the VAT out of a shelf price that includes it, rounding half away from zero', () => {
    expect(netUnitPrice(shelf)).toBe(826);
    expect(netUnitPrice({ price_bani: 12_100, price_includes_vat: true, vat_rate: 21 })).toBe(10_000);
    expect(netUnitPrice({ price_bani: 12_100, price_includes_vat: false, vat_rate: 21 })).toBe(12_100);
  });

  it('edits quantities and discounts inline, refusing zero, negative and over 100%', () => {
    let cart = run([{ type: 'addProduct', product: coffee }]);
    cart = cartReducer(cart, { type: 'setQuantity', index: 0, quantity_milli: 0 });
    expect(cart.lines[0]!.quantity_milli).toBe(1000);
    cart = cartReducer(cart, { type: 'setQuantity', index: 0, quantity_milli: 2500 });
    expect(cart.lines[0]!.quantity_milli).toBe(2500);
    cart = cartReducer(cart, { type: 'setDiscount', index: 0, discount_bp: 10_001 });
    expect(cart.lines[0]!.discount_bp).toBe(0);
  });

  it('nudges the selected line with + and -, removing it at zero', () => {
    let cart = run([{ type: 'addProduct', product: coffee }, { type: 'addProduct', product: shelf }]);
    cart = cartReducer(cart, { type: 'select', index: 0 });
    cart = cartReducer(cart, { type: 'nudgeQuantity', delta_milli: 1000 });
    expect(cart.lines[0]!.quantity_milli).toBe(2000);
    cart = cartReducer(cart, { type: 'nudgeQuantity', delta_milli: -1000 });
    cart = cartReducer(cart, { type: 'nudgeQuantity', delta_milli: -1000 });
    expect(cart.lines.map((l) => l.product_id)).toEqual(['prd_2']);
    expect(cart.selected).toBe(0);
  });

  it('sends the lines in the contract shape: bani prices, wire quantities and percents', () => {
    const cart = run([{ type: 'addProduct', product: coffee, quantity_milli: 1500 }, { type: 'setDiscount', index: 0, discount_bp: 1250 }]);
    expect(cartItems(cart)).toEqual([
      { product_id: 'prd_1', description: 'Cafea', quantity: 1.5, unit: 'buc', unit_code: 'H87', unit_price_bani: 4990, price_includes_vat: false, vat_rate: 11, discount_percent: 12.5, vat_exemption_reason: null, vat_category: null },
    ]);
  });

  it('gives a 0% line a VAT category, never a line with VAT; only an exempt line needs and sends its reason', () => {
    const client = { id: 'cli_1', name: 'Musterfirma GmbH', cui: 'DE123456789', vat_payer: true, country: 'DE', county: 'Berlin' };
    let cart = run([
      { type: 'addFree', description: 'Rulmenți', unit_price_bani: 2500, vat_rate_bp: 0 },
      { type: 'addProduct', product: coffee },
      { type: 'setClient', client },
    ]);
    expect(cartProblems(cart)).toEqual(['exemption_missing']);
    cart = run([{ type: 'setExemption', index: 0, reason: 'art. 292' }, { type: 'setVatCategory', index: 0, category: 'K' }, { type: 'setVatCategory', index: 1, category: 'K' }], cart);
    expect(cart.lines.map((l) => l.vat_category)).toEqual(['K', null]);
    expect(cartItems(cart).map((l) => [l.vat_category, l.vat_exemption_reason])).toEqual([['K', null], [null, null]]);
    // Back to exempt: the reason typed before is still there, and is sent again.
    cart = cartReducer(cart, { type: 'setVatCategory', index: 0, category: 'E' });
    expect(cartItems(cart)[0]).toMatchObject({ vat_category: 'E', vat_exemption_reason: 'art. 292' });
    // A K, G or Z line issues without a reason: its category is its ground.
    for (const category of ['K', 'G', 'Z'] as const) {
      const without = run([{ type: 'setExemption', index: 0, reason: null }, { type: 'setVatCategory', index: 0, category }], cart);
      expect(cartProblems(without)).toEqual([]);
    }
    expect(cartProblems(run([{ type: 'setExemption', index: 0, reason: null }, { type: 'setVatCategory', index: 0, category: null }], cart))).toEqual(['exemption_missing']);
    // What the counter sends passes the contract, which refuses a category on a line with VAT.
    const lines = cartItems(run([{ type: 'setVatCategory', index: 0, category: 'G' }], cart));
    expect(contract['invoices.saveDraft'].input.safeParse({ lines }).success).toBe(true);
    const wrong = contract['invoices.saveDraft'].input.safeParse({ lines: [lines[0], { ...lines[1], vat_category: 'K' }] });
    expect(wrong.error?.issues.map((i) => i.path.join('.'))).toEqual(['lines.1.vat_category']);
  });

  it('says what blocks issuing: no lines, a 0% line without its reason; no client is a walk-in sale', () => {
    expect(cartProblems(emptyCart())).toEqual(['no_lines']);
    expect(cartIssueBuyer(emptyCart())).toEqual({ walk_in: true });
    const zero = run([{ type: 'addFree', description: 'Carte', unit_price_bani: 5900, vat_rate_bp: 0 }, { type: 'setPayment', payment_method: 'bank_order' }]);
    expect(cartProblems(zero)).toEqual(['exemption_missing']);
    const fixed = run([{ type: 'setExemption', index: 0, reason: 'art. 292' }, { type: 'setClient', client: { id: 'cli_1', name: 'X SRL', cui: '14399840', vat_payer: true, country: 'RO', county: 'Cluj' } }], zero);
    expect(cartProblems(fixed)).toEqual([]);
    expect(cartIssueBuyer(fixed)).toEqual({ client_id: 'cli_1' });
  });

  it('keeps the invoice details of a reopened draft, changes one date at a time, and forgets them for the next sale', () => {
    const loaded = run([{ type: 'load', lines: [], client: null, payment_method: 'bank_order', reverse_charge: false, observations: 'Aviz 12', due_date: '2026-12-05', delivery_date: '2026-11-15' }]);
    expect(loaded).toMatchObject({ due_date: '2026-12-05', delivery_date: '2026-11-15', observations: 'Aviz 12' });
    expect(run([{ type: 'setDates', delivery_date: '' }], loaded)).toMatchObject({ due_date: '2026-12-05', delivery_date: '' });
    expect(run([{ type: 'setDates', due_date: '2026-12-20' }], loaded)).toMatchObject({ due_date: '2026-12-20', delivery_date: '2026-11-15' });
    expect(run([{ type: 'clear', id: '00000000-0000-4000-8000-000000000001', payment_method: 'receipt' }], loaded)).toMatchObject({ due_date: '', delivery_date: '', observations: '' });
  });

  it('refuses a due date before the invoice\'s date (today), and only when it knows today', () => {
    const sale = run([
      { type: 'addProduct', product: coffee },
      { type: 'setClient', client: { id: 'cli_1', name: 'X SRL', cui: '14399840', vat_payer: true, country: 'RO', county: 'Cluj' } },
      { type: 'setDates', due_date: '2026-11-20' },
    ]);
    expect(cartProblems(sale, '2026-11-21')).toEqual(['due_before_issue']);
    expect(cartProblems(sale, '2026-11-20')).toEqual([]);
    expect(cartProblems(sale)).toEqual([]);
    expect(cartProblems(run([{ type: 'setDates', due_date: '' }], sale), '2026-11-21')).toEqual([]);
  });

  it('asks an intra-community supply (K) for a buyer in another member state, with its VAT id and region', () => {
    const k = run([
      { type: 'addFree', description: 'Rulmenți', unit_price_bani: 2500, vat_rate_bp: 0 },
      { type: 'setVatCategory', index: 0, category: 'K' },
      { type: 'addProduct', product: coffee },
    ]);
    const withClient = (client: Partial<CartClient>) =>
      cartProblems(cartReducer(k, { type: 'setClient', client: { id: 'cli_1', name: 'Firma', cui: null, vat_payer: false, country: 'RO', county: null, ...client } }));
    expect(cartProblems(k)).toEqual(['intra_community_buyer']);
    expect(withClient({ cui: '14399840', vat_payer: true, county: 'Cluj' })).toEqual(['intra_community_buyer']);
    expect(withClient({ cui: 'NO999999999MVA', country: 'NO', county: 'Oslo' })).toEqual(['intra_community_buyer']);
    expect(withClient({ country: 'DE', county: 'Bayern' })).toEqual(['intra_community_vat_id']);
    expect(withClient({ cui: 'DE123456789', country: 'DE' })).toEqual(['intra_community_region']);
    expect(withClient({ cui: 'DE123456789', country: 'DE', county: '  ' })).toEqual(['intra_community_region']);
    expect(withClient({ cui: 'DE123456789', country: 'DE', county: 'Bayern' })).toEqual([]);
    // A bare number is a VAT id only for a buyer registered for VAT, whose prefix the service adds (EL for Greece).
    expect(withClient({ cui: '123456789', country: 'DE', county: 'Bayern' })).toEqual(['intra_community_vat_id']);
    expect(withClient({ cui: '123456789', vat_payer: true, country: 'gr', county: 'Attiki' })).toEqual([]);
    // Under reverse charge the line is AE, not K; an export (G) or a zero-rated line (Z) asks nothing of the buyer.
    const romanian = { type: 'setClient', client: { id: 'cli_2', name: 'X SRL', cui: '14399840', vat_payer: true, country: 'RO', county: 'Cluj' } } as const;
    expect(cartProblems(run([romanian, { type: 'setReverseCharge', value: true }], k))).toEqual([]);
    for (const category of ['G', 'Z'] as const) {
      expect(cartProblems(run([romanian, { type: 'setVatCategory', index: 0, category }], k))).toEqual([]);
    }
  });

  it('drops reverse charge when the buyer is not a VAT payer', () => {
    let cart = run([{ type: 'setClient', client: { id: 'c', name: 'A', cui: '1', vat_payer: true, country: 'RO', county: null } }, { type: 'setReverseCharge', value: true }]);
    expect(cart.reverse_charge).toBe(true);
    cart = cartReducer(cart, { type: 'setClient', client: { id: 'p', name: 'Ion', cui: null, vat_payer: false, country: 'RO', county: null } });
    expect(cart.reverse_charge).toBe(false);
  });
});

describe('barcode scanner (keyboard wedge)', () => {
  const type = (detector: WedgeDetector, text: string, start: number, gap: number) => {
    let t = start;
    let result = null;
    for (const ch of [...text, 'Enter']) {
      result = detector.key(ch === 'Enter' ? 'Enter' : ch, t) ?? result;
      t += gap;
    }
    return result;
  };

  it('recognises a fast burst of digits ended by Enter', () => {
    expect(type(new WedgeDetector(), '5941234567890', 1000, 8)).toEqual({ code: '5941234567890' });
  });

  it('ignores a person typing at human speed', () => {
    expect(type(new WedgeDetector(), '5941234567890', 1000, 150)).toBeNull();
  });

  it('ignores Enter alone and too-short bursts', () => {
    const d = new WedgeDetector();
    expect(d.key('Enter', 0)).toBeNull();
    expect(type(d, '12', 100, 5)).toBeNull();
  });

  it('parses a quantity prefix typed before the code or name', () => {
    expect(parseCounterEntry('3*5941234567890')).toEqual({ quantity_milli: 3000, query: '5941234567890' });
    expect(parseCounterEntry('2,5 x mere')).toEqual({ quantity_milli: 2500, query: 'mere' });
    expect(parseCounterEntry('cafea')).toEqual({ quantity_milli: 1000, query: 'cafea' });
    expect(looksLikeCode('5941234567890')).toBe(true);
    expect(looksLikeCode('cafea 1kg')).toBe(false);
  });
});

describe('formats and parsing of typed numbers', () => {
  it('formats amounts, quantities and rates the Romanian way', () => {
    expect(formatBani(123_456_789, 'ro')).toBe('1.234.567,89');
    expect(formatBani(-5, 'ro')).toBe('-0,05');
    expect(formatBani(123_450, 'en')).toBe('1,234.50');
    expect(formatMoney(123_450, 'RON', 'ro')).toBe('1.234,50 lei');
    expect(formatMoney(123_450, 'EUR', 'en')).toBe('1,234.50 EUR');
    expect(formatQuantity(1.5, 'ro')).toBe('1,5');
    expect(formatQuantity(-2, 'ro')).toBe('-2');
    expect(formatScaled(2050, 2, 'ro', 0)).toBe('20,5');
  });

  it('reads what a cashier types as an amount', () => {
    expect(parseAmountInput('12')).toBe(1200);
    expect(parseAmountInput('12,5')).toBe(1250);
    expect(parseAmountInput('12.50')).toBe(1250);
    expect(parseAmountInput('1.234,50')).toBe(123_450);
    expect(parseAmountInput('1.234')).toBe(123_400);
    expect(parseAmountInput('1 234,5 lei')).toBe(123_450);
    expect(parseAmountInput('abc')).toBeNull();
    expect(parseAmountInput('1,2345')).toBeNull();
  });

  it('reads quantities and percents', () => {
    expect(parseQuantityInput('1,5')).toBe(1500);
    expect(parseQuantityInput('0.125')).toBe(125);
    expect(parseQuantityInput('1,2345')).toBeNull();
    expect(parsePercentInput('12,5')).toBe(1250);
    expect(parsePercentInput('')).toBe(0);
    expect(parsePercentInput('101')).toBeNull();
  });
});

describe('hash routes', () => {
  it('round-trips screens and record ids', () => {
    expect(parseHash('#/invoices/inv_123')).toEqual({ screen: 'invoices', id: 'inv_123' });
    expect(parseHash('#/supplier-bills')).toEqual({ screen: 'supplierBills' });
    expect(parseHash('')).toEqual({ screen: 'counter' });
    expect(parseHash('#/nonsense')).toEqual({ screen: 'counter' });
    expect(routeHash({ screen: 'clients', id: 'cli/1' })).toBe('#/clients/cli%2F1');
  });
});

describe('query invalidation', () => {
  it('maps every channel that reads data to the domains whose changes must refresh it', () => {
    const unmapped = CHANNELS.filter((c) => c !== 'documents.savePdf' && domainsOf(c).length === 0);
    expect(unmapped).toEqual([]);
  });

  it('refreshes what a mutation changed: each mutated domain has a query reading it', () => {
    const readDomains = new Set(CHANNELS.filter((c) => !('mutates' in contract[c])).flatMap((c) => domainsOf(c)));
    const mutated = new Set(CHANNELS.flatMap((c) => ((contract[c] as { mutates?: readonly string[] }).mutates ?? []) as string[]));
    expect([...mutated].filter((d) => d !== 'catalog' && !readDomains.has(d as never))).toEqual([]);
  });
});
