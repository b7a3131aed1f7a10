import { describe, expect, it } from 'vitest';
import { cartItems, cartReducer, cartTotals, emptyCart, type Cart, type CartAction } from '../../renderer/counter/cart';
import { MAX_PRICE_E4, readUnitPrice } from '../../renderer/counter/price-input';
import { translator } from '../../renderer/i18n';
import { zCounterCart, zLineInput } from '../../shared/ipc/contract';

/**
 * The unit price typed at the counter (issue 14, prices with up to 4 decimals): what is read from
 * the cashier's text, what the cart keeps and sends, and that a kept cart comes back with it.
 */
const ro = translator('ro');
const run = (actions: CartAction[], from: Cart = emptyCart('receipt', '00000000-0000-4000-8000-000000000002')) => actions.reduce(cartReducer, from);
const filters = { id: 'p1', name: 'Filtre hârtie', code: 'F1', unit: 'buc', unit_code: 'H87', price_bani: 1235, price_includes_vat: true, vat_rate: 21 };
const fitting = { id: 'p2', name: 'Montaj', code: 'M1', unit: 'ora', unit_code: 'HUR', price_bani: 10_000, price_includes_vat: false, vat_rate: 21 };

describe('a unit price as typed', () => {
  it('reads Romanian and English decimals up to 4, and the cell\'s own text', () => {
    expect(readUnitPrice('12,3456')).toEqual({ e4: 123_456 });
    expect(readUnitPrice('12.3456')).toEqual({ e4: 123_456 });
    expect(readUnitPrice(' 1,2345 ')).toEqual({ e4: 12_345 });
    expect(readUnitPrice('7')).toEqual({ e4: 70_000 });
    expect(readUnitPrice('0,0125')).toEqual({ e4: 125 });
    expect(readUnitPrice(',5')).toEqual({ e4: 5000 });
    expect(readUnitPrice('12,35 lei')).toEqual({ e4: 123_500 });
    // One separator is the decimal point: "12.345" is twelve lei and a bit, as a 4-decimal price reads.
    expect(readUnitPrice('12.345')).toEqual({ e4: 123_450 });
    // What the cell shows for a large price reads back unchanged, in either language.
    expect(readUnitPrice('1.234,5678')).toEqual({ e4: 12_345_678 });
    expect(readUnitPrice('1,234.5678')).toEqual({ e4: 12_345_678 });
    expect(readUnitPrice('1 234,50')).toEqual({ e4: 12_345_000 });
    expect(readUnitPrice('1.234.567')).toEqual({ e4: 12_345_670_000 });
  });

  it('refuses 5 decimals, negative, zero, absurd and non-numbers, each with its Romanian reason', () => {
    expect(readUnitPrice('1,23456')).toEqual({ problem: 'too_many_decimals' });
    expect(readUnitPrice('-1,5')).toEqual({ problem: 'negative' });
    expect(readUnitPrice('0')).toEqual({ problem: 'zero' });
    expect(readUnitPrice('0,0000')).toEqual({ problem: 'zero' });
    expect(readUnitPrice('5941234567890')).toEqual({ problem: 'too_large' });
    expect(readUnitPrice('10000000,0001')).toEqual({ problem: 'too_large' });
    expect(readUnitPrice('10000000')).toEqual({ e4: MAX_PRICE_E4 });
    for (const bad of ['', 'abc', '1e5', '1,2,3', '1.23.4', '1.2,3.4', '12,3a']) expect(readUnitPrice(bad), bad).toEqual({ problem: 'not_a_number' });
    expect(ro('counter.price.too_many_decimals')).toBe('Prețul are cel mult 4 zecimale, de exemplu 12,3456.');
    expect(ro('counter.price.zero')).toContain('reducere 100%');
    expect(ro('counter.price.negative')).toContain('Storno');
  });
});

describe('a price changed on a cart line', () => {
  it('keeps the 4 decimals, sends them, and totals the line once to the ban by shared/invoice-math', () => {
    const cart = run([{ type: 'addProduct', product: filters, quantity_milli: 3000 }, { type: 'setUnitPrice', index: 0, unit_price_e4: 12_345 }]);
    expect(cart.lines[0]).toMatchObject({ unit_price_e4: 12_345, unit_price_bani: 123, price_includes_vat: true });
    // A shelf price: 3 x 1,2345 = 3,7035, paid 3,70 lei exactly; the VAT is extracted from it.
    const totals = cartTotals(cart);
    expect(totals.lines[0]!.total_bani).toBe(370);
    expect(totals.total_bani).toBe(370);
    expect(totals.vat_bani + totals.net_bani).toBe(370);
    const [item] = cartItems(cart);
    expect(item).toMatchObject({ unit_price_e4: 12_345, unit_price_bani: 123, quantity: 3, price_includes_vat: true });
    expect(zLineInput.safeParse(item).success).toBe(true);
  });

  it('types a net price on a net product: VAT is added to it', () => {
    const cart = run([{ type: 'addProduct', product: fitting, quantity_milli: 3000 }, { type: 'setUnitPrice', index: 0, unit_price_e4: 12_345 }]);
    const line = cartTotals(cart).lines[0]!;
    expect([line.net_bani, line.vat_bani, line.total_bani]).toEqual([370, 78, 448]);
  });

  it('sends a whole number of bani as bani alone, ignores a refused price, and leaves an unchanged price alone', () => {
    const start = run([{ type: 'addProduct', product: filters }]);
    const cart = cartReducer(start, { type: 'setUnitPrice', index: 0, unit_price_e4: 99_900 });
    expect(cart.lines[0]!.unit_price_e4).toBeUndefined();
    expect(cart.lines[0]!.unit_price_bani).toBe(999);
    expect(cartReducer(cart, { type: 'setUnitPrice', index: 0, unit_price_e4: 0 })).toBe(cart);
    expect(cartReducer(cart, { type: 'setUnitPrice', index: 0, unit_price_e4: -5 })).toBe(cart);
    expect(cartReducer(cart, { type: 'setUnitPrice', index: 3, unit_price_e4: 5 })).toBe(cart);
    expect(cartReducer(start, { type: 'setUnitPrice', index: 0, unit_price_e4: 123_500 })).toBe(start);
  });

  it('adds the same product scanned again to a new line at its own price, not to the line priced by hand', () => {
    let cart = run([{ type: 'addProduct', product: filters, quantity_milli: 3000 }, { type: 'setUnitPrice', index: 0, unit_price_e4: 12_345 }]);
    cart = cartReducer(cart, { type: 'addProduct', product: filters });
    expect(cart.lines.map((l) => [l.quantity_milli, l.unit_price_e4 ?? l.unit_price_bani * 100])).toEqual([[3000, 12_345], [1000, 123_500]]);
    // The line at the product's price takes the next scan, as before.
    cart = cartReducer(cart, { type: 'addProduct', product: filters });
    expect(cart.lines.map((l) => l.quantity_milli)).toEqual([3000, 2000]);
  });

  it('comes back from the cart kept on the device (leaving the counter, parking) with its price', () => {
    const cart = run([{ type: 'addProduct', product: filters, quantity_milli: 3000 }, { type: 'setUnitPrice', index: 0, unit_price_e4: 12_345 }]);
    const kept = zCounterCart.parse(JSON.parse(JSON.stringify({ ...cart, parked_at: 1_780_000_000 })));
    expect(kept.lines[0]).toMatchObject({ unit_price_e4: 12_345, unit_price_bani: 123 });
    expect(cartTotals(kept as Cart).total_bani).toBe(370);
  });
});
