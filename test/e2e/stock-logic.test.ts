import { describe, expect, it } from 'vitest';
import { emptyCart, cartReducer, type CartAction } from '../../renderer/counter/cart';
import { cartStockWarnings } from '../../renderer/counter/stock-warning';
import { countDifference, countOneMore } from '../../renderer/screens/stock/CountScreen';
import { requestKey } from '../../main/local/stock/book';

/** The stock screens' pure parts: the counter's below-zero warning, the count's arithmetic, the form's request keys. */
const coffee = { id: 'p1', name: 'Cafea', code: 'C1', unit: 'buc', unit_code: 'H87', price_bani: 8990, price_includes_vat: true, vat_rate: 11 };
const tea = { ...coffee, id: 'p2', name: 'Ceai', code: 'C2' };
const cart = (actions: CartAction[]) => actions.reduce(cartReducer, emptyCart('receipt', '00000000-0000-4000-8000-000000000001'));

describe('the counter\'s warning when a cart takes more than the cached stock', () => {
  it('counts every line of a product together, and flags only the products short of stock', () => {
    const c = cart([
      { type: 'addProduct', product: coffee, quantity_milli: 2000 },
      { type: 'addProduct', product: tea, quantity_milli: 1000 },
    ]);
    const twoLines = { ...c, lines: [...c.lines, { ...c.lines[0]!, key: 'x', quantity_milli: 2000 }] };
    const stock = { negative_stock: 'allow' as const, levels: [{ product_id: 'p1', quantity: 3 }, { product_id: 'p2', quantity: 1 }] };
    expect(cartStockWarnings(c.lines, stock)).toEqual([null, null]);
    // 2 + 2 coffees against 3: both coffee lines warn, the tea (1 of 1) does not.
    expect(cartStockWarnings(twoLines.lines, stock)).toEqual([
      { in_stock: 3, unit: 'buc', rule: 'allow' }, null, { in_stock: 3, unit: 'buc', rule: 'allow' },
    ]);
    // The rule not known yet reads as the service's default; a blocked firm's lines say so.
    expect(cartStockWarnings(twoLines.lines, { ...stock, negative_stock: null })[0]?.rule).toBe('allow');
    expect(cartStockWarnings(twoLines.lines, { ...stock, negative_stock: 'block' })[0]?.rule).toBe('block');
    // Unknown stock (a service, never moved) and no answer yet: no warning.
    expect(cartStockWarnings(twoLines.lines, { negative_stock: 'allow', levels: [{ product_id: 'p1', quantity: null }] })).toEqual([null, null, null]);
    expect(cartStockWarnings(twoLines.lines, undefined)).toEqual([null, null, null]);
    // Zero or below on the shelf: any sale warns.
    expect(cartStockWarnings(c.lines, { negative_stock: 'allow', levels: [{ product_id: 'p2', quantity: -2 }] })[1]).toEqual({ in_stock: -2, unit: 'buc', rule: 'allow' });
  });
});

describe('the inventory count', () => {
  it('adds one per scan and shows counted minus book', () => {
    expect(countOneMore('1')).toBe('2');
    expect(countOneMore('1,5')).toBe('2,5');
    expect(countOneMore('abc')).toBe('1');
    expect(countDifference({ book: 10, counted: '3' })).toBe(-7);
    expect(countDifference({ book: 20, counted: '22' })).toBe(2);
    expect(countDifference({ book: 0.25, counted: '0,5' })).toBe(0.25);
    expect(countDifference({ book: null, counted: '3' })).toBeNull();
    expect(countDifference({ book: 3, counted: '-1' })).toBeNull();
  });
});

describe('a stock form\'s Idempotency-Key', () => {
  it('is the same for a resend and another one for a corrected request', () => {
    const id = '9b2f3c9e-8c1a-4c55-9d1e-2f7d3c1b0a11';
    const body = { supplier_bill_id: 'sb_1', lines: [{ line_id: '1', product_id: 'prd_1' }] };
    expect(requestKey(id, body)).toBe(requestKey(id, JSON.parse(JSON.stringify(body))));
    expect(requestKey(id, body)).not.toBe(requestKey(id, { ...body, lines: [] }));
    expect(requestKey(id, body).length).toBeLessThanOrEqual(255);
  });
});
