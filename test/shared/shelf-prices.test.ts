import { describe, expect, it } from 'vitest';
import { computeTotals, lineNetUnitPrice, type LineInput } from '../../shared/invoice-math';

/**
 * Shelf prices (VAT included): the customer pays exactly quantity x shelf price, to the ban, and the
 * VAT is extracted per rate. Before the fix the counter divided the shelf price back to a net price
 * rounded to the ban and added VAT to it: 2,10 lei at 21% became 1,74 + 0,37 = 2,11 lei.
 */
const shelf = (price: number, rate: number, quantity = 1000, discount = 0): LineInput => ({
  quantity_milli: quantity, unit_price_bani: price, vat_rate_bp: rate, discount_bp: discount, price_includes_vat: true,
});

describe('shelf prices', () => {
  it('bills a 2,10 lei loaf at 21% exactly 2,10 lei (the issue: a ban more)', () => {
    const t = computeTotals([shelf(210, 2100)]);
    expect(t.total_bani).toBe(210);
    expect(t.net_bani + t.vat_bani).toBe(210);
    expect(t.net_bani).toBe(174); // 210 / 1.21 = 173.55
    expect(t.vat_bani).toBe(36);
  });

  it('bills three cups of 11,20 lei at 21% exactly 33,60 lei', () => {
    const t = computeTotals([shelf(1120, 2100, 3000)]);
    expect(t.total_bani).toBe(3360);
    expect(t.breakdown).toEqual([{ vat_rate_bp: 2100, vat_category: null, net_bani: 2777, vat_bani: 583, total_bani: 3360 }]);
  });

  it('extracts VAT once per rate, not per line, so 300 small lines still meet BR-CO-17', () => {
    const lines = Array.from({ length: 300 }, () => shelf(112, 2100));
    const t = computeTotals(lines);
    expect(t.total_bani).toBe(300 * 112);
    // 33600 / 1.21 = 27768.595 -> 27769; VAT 5831, within a ban of 21% of 27769 (5831.49).
    expect(t.net_bani).toBe(27_769);
    expect(t.vat_bani).toBe(5_831);
    expect(t.lines.reduce((s, l) => s + l.net_bani, 0)).toBe(27_769);
    for (const l of t.lines) expect(l.net_bani + l.vat_bani).toBe(112);
  });

  it('mixes rates, kilograms and discounts: total is the sum of the rounded shelf lines', () => {
    const t = computeTotals([shelf(1299, 2100, 1250), shelf(899, 1100, 2000, 1000), shelf(2500, 0, 1000)]);
    // 1.25 kg x 12,99 = 16,2375 -> 16,24; 2 x 8,99 = 17,98 less 10% (1,80) = 16,18; 25,00.
    expect(t.total_bani).toBe(1624 + 1618 + 2500);
    expect(t.breakdown.map((b) => [b.vat_rate_bp, b.net_bani, b.vat_bani])).toEqual([[2100, 1342, 282], [1100, 1458, 160], [0, 2500, 0]]);
  });

  it('keeps net-priced (B2B) lines exactly as before', () => {
    const t = computeTotals([{ quantity_milli: 1000, unit_price_bani: 174, vat_rate_bp: 2100 }]);
    expect(t.total_bani).toBe(211);
  });

  it('writes the net unit price with the fewest decimals that give back the line net', () => {
    expect(lineNetUnitPrice(1000, 174)).toBe('1.74');
    expect(lineNetUnitPrice(3000, 2777)).toBe('9.257');
    expect(lineNetUnitPrice(-3000, -2777)).toBe('9.257');
    expect(lineNetUnitPrice(1250, 1342)).toBe('10.736');
  });

  it('under reverse charge extracts the net at the line\'s own rate and charges no VAT', () => {
    const t = computeTotals([shelf(1210, 2100, 2000)], { reverse_charge: true });
    expect(t.lines[0]).toMatchObject({ net_bani: 2000, vat_bani: 0, total_bani: 2000 });
    expect(t.breakdown).toEqual([{ vat_rate_bp: 0, vat_category: null, net_bani: 2000, vat_bani: 0, total_bani: 2000 }]);
  });

  it('mixes shelf and net lines of one rate in one breakdown entry, each line by its own rule', () => {
    const t = computeTotals([shelf(210, 2100), { quantity_milli: 1000, unit_price_bani: 174, vat_rate_bp: 2100 }]);
    expect(t.lines.map((l) => l.total_bani)).toEqual([210, 211]);
    expect(t.breakdown).toEqual([{ vat_rate_bp: 2100, vat_category: null, net_bani: 348, vat_bani: 73, total_bani: 421 }]);
  });

  it('gives a storno exactly the negated shelf amounts, the shared-out bans included', () => {
    const lines = [shelf(210, 2100), shelf(1120, 2100, 3000), shelf(3299, 1100, 785, 1000)];
    const original = computeTotals(lines);
    const storno = computeTotals(lines.map((l) => ({ ...l, quantity_milli: -l.quantity_milli })));
    expect(storno.lines).toEqual(original.lines.map((l) => ({
      gross_before_discount_bani: -l.gross_before_discount_bani, discount_bani: -l.discount_bani || 0, net_bani: -l.net_bani, vat_bani: -l.vat_bani, total_bani: -l.total_bani,
    })));
    // The loaf gave its ban back to its rate (173,55 and 2776,86 round to one ban over 2950,41).
    expect(original.lines[0]).toMatchObject({ net_bani: 173, vat_bani: 37, total_bani: 210 });
  });
});
