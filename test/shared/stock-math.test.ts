import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { proposedSalePrice, stockIn, stockOut, valueOf, type StockPosition } from '../../shared/stock-math';

const EMPTY: StockPosition = { quantityMilli: 0, valueBani: 0, unitCostMilli: 0 };

describe('stock arithmetic (CMP)', () => {
  it('averages receptions and sells at the average', () => {
    const a = stockIn(EMPTY, 10_000, 2_000_000); // 10 at 20 lei
    const b = stockIn(a.after, 10_000, 3_000_000); // 10 at 30 lei
    expect(b.after).toEqual({ quantityMilli: 20_000, valueBani: 50_000, unitCostMilli: 2_500_000 });
    const sale = stockOut(b.after, 3_000);
    expect(sale.valueBani).toBe(-7_500);
    expect(sale.after).toEqual({ quantityMilli: 17_000, valueBani: 42_500, unitCostMilli: 2_500_000 });
    expect(valueOf(1_500, 333_333)).toBe(500); // 1.5 units at 3.33333 lei = 4.999995 lei -> 5.00
    expect(proposedSalePrice(4_000_000, 3000)).toBe(5_200);
  });

  it('emptying a position leaves value zero, whatever rounding happened before', () => {
    const p = stockIn(stockIn(EMPTY, 3_000, 1_000_001).after, 7_000, 333_333).after;
    const out = stockOut(stockOut(p, 4_321).after, 10_000 - 4_321);
    expect(out.after.quantityMilli).toBe(0);
    expect(out.after.valueBani).toBe(0);
  });

  it('a reception after selling below zero re-costs the units sold without stock', () => {
    const sold = stockOut(EMPTY, 2_000); // 2 sold of a product never received: cost unknown (0)
    expect(sold.after).toEqual({ quantityMilli: -2_000, valueBani: 0, unitCostMilli: 0 });
    const filled = stockIn(sold.after, 2_000, 500_000); // 2 received at 5 lei: back to zero, worth zero
    expect(filled.after).toEqual({ quantityMilli: 0, valueBani: 0, unitCostMilli: 500_000 });
    const more = stockIn(stockOut(EMPTY, 2_000).after, 10_000, 500_000);
    expect(more.after).toEqual({ quantityMilli: 8_000, valueBani: 4_000, unitCostMilli: 500_000 });
    expect(more.valueBani).toBe(4_000);
  });

  it('the position is always the sum of the movements it was given (property)', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('in' as const), q: fc.integer({ min: 1, max: 20 }).map((n) => n * 250), cost: fc.integer({ min: 0, max: 100_000_000 }) }),
      fc.record({ kind: fc.constant('out' as const), q: fc.integer({ min: 1, max: 20 }).map((n) => n * 250), cost: fc.constant(0) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let p = EMPTY;
        let quantity = 0;
        let value = 0;
        for (const s of steps) {
          const r = s.kind === 'in' ? stockIn(p, s.q, s.cost) : stockOut(p, s.q);
          quantity += s.kind === 'in' ? s.q : -s.q;
          value += r.valueBani;
          p = r.after;
          if (p.quantityMilli === 0) expect(p.valueBani).toBe(0);
        }
        expect(p.quantityMilli).toBe(quantity);
        expect(p.valueBani).toBe(value);
      }),
    );
  });
});
