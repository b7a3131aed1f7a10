import { describe, expect, it } from 'vitest';
import {
  STANDARD_VAT_RATES_BP,
  bpToPercent,
  computeLine,
  computeTotals,
  storedBreakdownCategory,
  fromMilli,
  percentToBp,
  toMilli,
  zQuantity,
  zVatRatePercent,
  type LineInput,
} from '../../shared/invoice-math';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Independent reference: exact rational rounding in BigInt, ties away from zero. */
function refRound(numerator: bigint, denominator: bigint): bigint {
  const negative = (numerator < 0n) !== (denominator < 0n);
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

function refLine(line: LineInput) {
  const gross = refRound(BigInt(line.quantity_milli) * BigInt(line.unit_price_bani), 1000n);
  const discount = refRound(gross * BigInt(line.discount_bp ?? 0), 10_000n);
  const net = gross - discount;
  const vat = refRound(net * BigInt(line.vat_rate_bp), 10_000n);
  return { gross: Number(gross), discount: Number(discount), net: Number(net), vat: Number(vat), total: Number(net + vat) };
}

function randomLine(random: () => number): LineInput {
  const rates = [...STANDARD_VAT_RATES_BP, 2050, 1234];
  // Up to 10^7 x 10^10: products past 2^53 take the BigInt path.
  const quantityScale = [1, 10, 1000, 100_000, 10_000_000][Math.floor(random() * 5)]!;
  const priceScale = [1, 100, 10_000, 1_000_000, 100_000_000, 10_000_000_000][Math.floor(random() * 6)]!;
  return {
    quantity_milli: Math.floor(random() * quantityScale) * (random() < 0.15 ? -1 : 1),
    unit_price_bani: Math.floor(random() * priceScale),
    vat_rate_bp: rates[Math.floor(random() * rates.length)]!,
    discount_bp: random() < 0.5 ? 0 : Math.floor(random() * 10_001),
  };
}

describe('quantities and rates', () => {
  it('converts wire quantities to thousandths exactly', () => {
    expect(toMilli(1)).toBe(1000);
    expect(toMilli(1.5)).toBe(1500);
    expect(toMilli(0.125)).toBe(125);
    expect(toMilli(0.001)).toBe(1);
    expect(toMilli(-2)).toBe(-2000);
    expect(toMilli(1.005)).toBe(1005);
    expect(toMilli(123456.789)).toBe(123456789);
    expect(fromMilli(1500)).toBe(1.5);
    expect(fromMilli(-2000)).toBe(-2);
    expect(fromMilli(1)).toBe(0.001);
  });

  it('round-trips every quantity from -100.000 to 100.000', () => {
    for (let i = -100_000; i <= 100_000; i++) {
      const text = `${i < 0 ? '-' : ''}${Math.floor(Math.abs(i) / 1000)}.${String(Math.abs(i) % 1000).padStart(3, '0')}`;
      const n = JSON.parse(text) as number;
      if (toMilli(n) !== i || fromMilli(i) !== n) throw new Error(`quantity ${text}`);
    }
  });

  it('rejects quantities with more than 3 decimals', () => {
    expect(() => toMilli(0.0005)).toThrow(RangeError);
    expect(() => toMilli(1.2345)).toThrow(RangeError);
    expect(() => toMilli(Number.NaN)).toThrow(RangeError);
    expect(() => fromMilli(1.5)).toThrow(RangeError);
    expect(zQuantity.safeParse(1.234).success).toBe(true);
    expect(zQuantity.safeParse(1.2345).success).toBe(false);
    expect(zQuantity.safeParse('1').success).toBe(false);
  });

  it('converts percent and basis points', () => {
    expect(percentToBp(21)).toBe(2100);
    expect(percentToBp(20.5)).toBe(2050);
    expect(percentToBp(0)).toBe(0);
    expect(bpToPercent(2100)).toBe(21);
    expect(bpToPercent(2050)).toBe(20.5);
    expect(() => percentToBp(20.555)).toThrow(RangeError);
    expect(zVatRatePercent.safeParse(21).success).toBe(true);
    expect(zVatRatePercent.safeParse(20.5).success).toBe(true);
    expect(zVatRatePercent.safeParse(-1).success).toBe(false);
    expect(zVatRatePercent.safeParse(101).success).toBe(false);
    expect(zVatRatePercent.safeParse(20.555).success).toBe(false);
  });

  it('lists the standard Romanian rates highest first', () => {
    expect(STANDARD_VAT_RATES_BP).toEqual([2100, 1900, 1100, 900, 500, 0]);
  });
});

describe('computeLine', () => {
  it('computes a plain line', () => {
    expect(computeLine({ quantity_milli: 1000, unit_price_bani: 1000, vat_rate_bp: 2100 })).toEqual({
      gross_before_discount_bani: 1000,
      discount_bani: 0,
      net_bani: 1000,
      vat_bani: 210,
      total_bani: 1210,
    });
  });

  it('rounds VAT half away from zero per line', () => {
    // 99 * 19% = 18.81 -> 19
    expect(computeLine({ quantity_milli: 3000, unit_price_bani: 33, vat_rate_bp: 1900 }).vat_bani).toBe(19);
    // 50 * 9% = 4.5 -> 5, and -4.5 -> -5
    expect(computeLine({ quantity_milli: 1000, unit_price_bani: 50, vat_rate_bp: 900 }).vat_bani).toBe(5);
    expect(computeLine({ quantity_milli: -1000, unit_price_bani: 50, vat_rate_bp: 900 }).vat_bani).toBe(-5);
    // 1000 * 20.5% = 205 (a firm's custom rate)
    expect(computeLine({ quantity_milli: 1000, unit_price_bani: 1000, vat_rate_bp: 2050 }).vat_bani).toBe(205);
    expect(computeLine({ quantity_milli: 1000, unit_price_bani: 1000, vat_rate_bp: 0 }).vat_bani).toBe(0);
  });

  it('rounds quantity times price half away from zero', () => {
    // 2.5 * 1.99 = 4.975 -> 4.98
    const line = computeLine({ quantity_milli: 2500, unit_price_bani: 199, vat_rate_bp: 2100 });
    expect(line.gross_before_discount_bani).toBe(498);
    expect(line.vat_bani).toBe(105); // 104.58
    expect(line.total_bani).toBe(603);
    // 0.333 * 10.00 = 3.33
    expect(computeLine({ quantity_milli: 333, unit_price_bani: 1000, vat_rate_bp: 0 }).net_bani).toBe(333);
  });

  it('applies a percent discount, rounded, before VAT', () => {
    // 10.00 less 12.5% = 1.25 -> net 8.75, VAT 21% = 1.8375 -> 1.84
    expect(computeLine({ quantity_milli: 1000, unit_price_bani: 1000, vat_rate_bp: 2100, discount_bp: 1250 })).toEqual({
      gross_before_discount_bani: 1000,
      discount_bani: 125,
      net_bani: 875,
      vat_bani: 184,
      total_bani: 1059,
    });
    // 0.10 less 5% = 0.005 -> discount 0.01
    expect(computeLine({ quantity_milli: 1000, unit_price_bani: 10, vat_rate_bp: 0, discount_bp: 500 }).discount_bani).toBe(1);
    // 100% discount leaves nothing to tax
    expect(computeLine({ quantity_milli: 7000, unit_price_bani: 333, vat_rate_bp: 2100, discount_bp: 10_000 })).toMatchObject({
      net_bani: 0,
      vat_bani: 0,
      total_bani: 0,
    });
  });

  it('is exact when quantity times price exceeds 2^53', () => {
    const line = { quantity_milli: 12_345_678, unit_price_bani: 987_654_321, vat_rate_bp: 2100, discount_bp: 333 };
    const ref = refLine(line);
    expect(line.quantity_milli * line.unit_price_bani).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
    const got = computeLine(line);
    expect(got.gross_before_discount_bani).toBe(ref.gross);
    expect(got.net_bani).toBe(ref.net);
    expect(got.vat_bani).toBe(ref.vat);
    expect(() => computeLine({ quantity_milli: 2 ** 52, unit_price_bani: 2 ** 30, vat_rate_bp: 0 })).toThrow(RangeError);
  });

  it('rejects malformed lines', () => {
    const base = { quantity_milli: 1000, unit_price_bani: 100, vat_rate_bp: 2100 };
    expect(() => computeLine({ ...base, quantity_milli: 1.5 })).toThrow(RangeError);
    expect(() => computeLine({ ...base, unit_price_bani: 0.5 })).toThrow(RangeError);
    expect(() => computeLine({ ...base, vat_rate_bp: -1 })).toThrow(RangeError);
    expect(() => computeLine({ ...base, vat_rate_bp: 10_001 })).toThrow(RangeError);
    expect(() => computeLine({ ...base, vat_rate_bp: 21.5 })).toThrow(RangeError);
    expect(() => computeLine({ ...base, discount_bp: -1 })).toThrow(RangeError);
    expect(() => computeLine({ ...base, discount_bp: 10_001 })).toThrow(RangeError);
  });

  it('agrees with an independent BigInt reference on 20000 random lines', () => {
    const random = mulberry32(2026);
    for (let k = 0; k < 20_000; k++) {
      const line = randomLine(random);
      const got = computeLine(line);
      const ref = refLine(line);
      expect([got.gross_before_discount_bani, got.discount_bani, got.net_bani, got.vat_bani, got.total_bani]).toEqual([
        ref.gross,
        ref.discount,
        ref.net,
        ref.vat,
        ref.total,
      ]);
    }
  });

  it('gives exactly the negated line for a negative quantity (storno)', () => {
    const random = mulberry32(99);
    for (let k = 0; k < 5_000; k++) {
      const line = randomLine(random);
      const positive = computeLine(line);
      const storno = computeLine({ ...line, quantity_milli: -line.quantity_milli });
      for (const key of Object.keys(positive) as (keyof typeof positive)[]) {
        expect(storno[key] + positive[key]).toBe(0);
      }
    }
  });
});

describe('computeTotals', () => {
  it("computes a rate's VAT on the rate's net and shares it out among the lines (BR-CO-17)", () => {
    // Three lines of 0.05 at 9%: each line's own VAT 0.0045 rounds to 0; the rate's, 9% of 0.15, to 0.01,
    // which the first line takes (all three were rounded down as far; ties go to the earlier line).
    const line = { quantity_milli: 1000, unit_price_bani: 5, vat_rate_bp: 900 };
    const totals = computeTotals([line, line, line]);
    expect(totals.net_bani).toBe(15);
    expect(totals.vat_bani).toBe(1);
    expect(totals.total_bani).toBe(16);
    expect(totals.lines.map((l) => l.vat_bani)).toEqual([1, 0, 0]);
    expect(totals.lines.map((l) => l.total_bani)).toEqual([6, 5, 5]);
    // 500 lines of 0,02 lei at 21%: per-line rounding gave 0 VAT; 21% of 10,00 lei is 2,10.
    const tiny = computeTotals(Array.from({ length: 500 }, () => ({ quantity_milli: 1000, unit_price_bani: 2, vat_rate_bp: 2100 })));
    expect(tiny.breakdown).toEqual([{ vat_rate_bp: 2100, vat_category: null, net_bani: 1000, vat_bani: 210, total_bani: 1210 }]);
    // The ban goes to a line whose VAT was rounded down furthest: the 0,02 lines (0,42 ban -> 0), not the
    // 0,04 line (0,84 ban -> 1, rounded up).
    const mixed = computeTotals([
      { quantity_milli: 1000, unit_price_bani: 2, vat_rate_bp: 2100 },
      { quantity_milli: 1000, unit_price_bani: 4, vat_rate_bp: 2100 },
      { quantity_milli: 1000, unit_price_bani: 2, vat_rate_bp: 2100 },
    ]);
    // Per line 0 + 1 + 0 = 1 ban; on the rate's net, 21% of 8 bani = 1,68 -> 2: the first 0,02 line (tie with the third) takes it.
    expect(mixed.lines.map((l) => l.vat_bani)).toEqual([1, 1, 0]);
    // A single line is what computeLine gives.
    expect(computeTotals([line]).lines[0]).toEqual(computeLine(line));
  });

  it('builds the breakdown per rate, highest rate first', () => {
    const totals = computeTotals([
      { quantity_milli: 2000, unit_price_bani: 1000, vat_rate_bp: 900 },
      { quantity_milli: 1000, unit_price_bani: 10_000, vat_rate_bp: 2100, discount_bp: 1000 },
      { quantity_milli: 1000, unit_price_bani: 500, vat_rate_bp: 0 },
      { quantity_milli: 1500, unit_price_bani: 333, vat_rate_bp: 2100 },
    ]);
    // line 2: 100.00 - 10.00 = 90.00, VAT 18.90; line 4: 1.5 * 3.33 = 4.995 -> 5.00, VAT 1.05
    expect(totals.breakdown).toEqual([
      { vat_rate_bp: 2100, vat_category: null, net_bani: 9500, vat_bani: 1995, total_bani: 11_495 },
      { vat_rate_bp: 900, vat_category: null, net_bani: 2000, vat_bani: 180, total_bani: 2180 },
      { vat_rate_bp: 0, vat_category: 'E', net_bani: 500, vat_bani: 0, total_bani: 500 },
    ]);
    expect(totals.gross_before_discount_bani).toBe(13_000);
    expect(totals.discount_bani).toBe(1000);
    expect(totals.net_bani).toBe(12_000);
    expect(totals.vat_bani).toBe(2175);
    expect(totals.total_bani).toBe(14_175);
    expect(totals.lines).toHaveLength(4);
    expect(totals.reverse_charge).toBe(false);
  });

  it('sums 0% lines per category, each exemption its own base (art. 319 (20) l), E when a line states none', () => {
    const totals = computeTotals([
      { quantity_milli: 1000, unit_price_bani: 12_000, vat_rate_bp: 0, vat_category: 'K' },
      { quantity_milli: 1000, unit_price_bani: 1000, vat_rate_bp: 2100 },
      { quantity_milli: 2000, unit_price_bani: 500, vat_rate_bp: 0 },
      { quantity_milli: 1000, unit_price_bani: 50_000, vat_rate_bp: 0, vat_category: 'G' },
      { quantity_milli: 1000, unit_price_bani: 300, vat_rate_bp: 0, vat_category: 'E' },
      { quantity_milli: 1000, unit_price_bani: 800, vat_rate_bp: 0, vat_category: 'Z' },
      { quantity_milli: 1000, unit_price_bani: 700, vat_rate_bp: 0, vat_category: 'K' },
      // A category on a line with VAT is ignored (the wire schemas refuse it before).
      { quantity_milli: 1000, unit_price_bani: 100, vat_rate_bp: 2100, vat_category: 'K' },
    ]);
    expect(totals.breakdown).toEqual([
      { vat_rate_bp: 2100, vat_category: null, net_bani: 1100, vat_bani: 231, total_bani: 1331 },
      { vat_rate_bp: 0, vat_category: 'E', net_bani: 1300, vat_bani: 0, total_bani: 1300 },
      { vat_rate_bp: 0, vat_category: 'Z', net_bani: 800, vat_bani: 0, total_bani: 800 },
      { vat_rate_bp: 0, vat_category: 'K', net_bani: 12_700, vat_bani: 0, total_bani: 12_700 },
      { vat_rate_bp: 0, vat_category: 'G', net_bani: 50_000, vat_bani: 0, total_bani: 50_000 },
    ]);
    expect(totals.net_bani).toBe(65_900);
    // Under reverse charge the whole net is one entry without a category, whatever the lines say.
    const reverse = computeTotals([
      { quantity_milli: 1000, unit_price_bani: 12_000, vat_rate_bp: 0, vat_category: 'K' },
      { quantity_milli: 1000, unit_price_bani: 1000, vat_rate_bp: 2100 },
    ], { reverse_charge: true });
    expect(reverse.breakdown).toEqual([{ vat_rate_bp: 0, vat_category: null, net_bani: 13_000, vat_bani: 0, total_bani: 13_000 }]);
  });

  it('reads the category of a breakdown entry stored before the split as E on 0%, none under reverse charge', () => {
    expect(storedBreakdownCategory({ vat_rate_bp: 0 }, false)).toBe('E');
    expect(storedBreakdownCategory({ vat_rate_bp: 0 }, true)).toBeNull();
    expect(storedBreakdownCategory({ vat_rate_bp: 2100 }, false)).toBeNull();
    expect(storedBreakdownCategory({ vat_rate_bp: 0, vat_category: 'K' }, false)).toBe('K');
    expect(storedBreakdownCategory({ vat_rate_bp: 0, vat_category: null }, true)).toBeNull();
  });

  it('gives zero totals for no lines', () => {
    expect(computeTotals([])).toMatchObject({ net_bani: 0, vat_bani: 0, total_bani: 0, discount_bani: 0, breakdown: [] });
  });

  it('zeroes VAT under reverse charge and reports the net under rate 0', () => {
    const lines = [
      { quantity_milli: 1000, unit_price_bani: 10_000, vat_rate_bp: 2100 },
      { quantity_milli: 3000, unit_price_bani: 2500, vat_rate_bp: 900 },
    ];
    const totals = computeTotals(lines, { reverse_charge: true });
    expect(totals.vat_bani).toBe(0);
    expect(totals.net_bani).toBe(17_500);
    expect(totals.total_bani).toBe(17_500);
    expect(totals.breakdown).toEqual([{ vat_rate_bp: 0, vat_category: null, net_bani: 17_500, vat_bani: 0, total_bani: 17_500 }]);
    expect(totals.lines.every((l) => l.vat_bani === 0)).toBe(true);
    expect(totals.reverse_charge).toBe(true);
    // Invalid rates are still refused under reverse charge.
    expect(() => computeTotals([{ ...lines[0]!, vat_rate_bp: -5 }], { reverse_charge: true })).toThrow(RangeError);
  });

  it('keeps breakdown sums equal to the totals on random invoices (property)', () => {
    const random = mulberry32(31337);
    for (let invoice = 0; invoice < 2_000; invoice++) {
      const lines = Array.from({ length: Math.floor(random() * 40) }, () => randomLine(random));
      const reverseCharge = random() < 0.1;
      const totals = computeTotals(lines, { reverse_charge: reverseCharge });
      const sum = (key: 'net_bani' | 'vat_bani' | 'total_bani') => totals.breakdown.reduce((acc, e) => acc + e[key], 0);
      expect(sum('net_bani')).toBe(totals.net_bani);
      expect(sum('vat_bani')).toBe(totals.vat_bani);
      expect(sum('total_bani')).toBe(totals.total_bani);
      expect(totals.total_bani).toBe(totals.net_bani + totals.vat_bani);
      expect(totals.net_bani).toBe(totals.gross_before_discount_bani - totals.discount_bani);
      for (const entry of totals.breakdown) expect(entry.total_bani).toBe(entry.net_bani + entry.vat_bani);
      const rates = totals.breakdown.map((e) => e.vat_rate_bp);
      expect(rates).toEqual([...new Set(rates)].sort((a, b) => b - a));
      // Independent: each rate's net and VAT are the sums of the reference lines at that rate.
      for (const entry of totals.breakdown) {
        const atRate = lines.filter((l) => (reverseCharge ? 0 : l.vat_rate_bp) === entry.vat_rate_bp);
        const refs = atRate.map((l) => refLine(reverseCharge ? { ...l, vat_rate_bp: 0 } : l));
        const refNet = refs.reduce((a, r) => a + BigInt(r.net), 0n);
        expect(entry.net_bani).toBe(Number(refNet));
        // BR-CO-17 to the half ban: the rate's VAT is its net x rate, rounded once.
        expect(entry.vat_bani).toBe(Number(refRound(refNet * BigInt(entry.vat_rate_bp), 10_000n)));
      }
      // Every line within a ban of its own exact VAT, and its total its net + VAT.
      totals.lines.forEach((amounts, i) => {
        const rate = reverseCharge ? 0 : lines[i]!.vat_rate_bp;
        const exact = BigInt(amounts.net_bani) * BigInt(rate);
        const off = BigInt(amounts.vat_bani) * 10_000n - exact;
        expect(off <= 10_000n && off >= -10_000n).toBe(true);
        expect(amounts.total_bani).toBe(amounts.net_bani + amounts.vat_bani);
      });
      if (reverseCharge) expect(totals.vat_bani).toBe(0);
    }
  });

  it('makes a storno invoice the exact negation of the original (property)', () => {
    const random = mulberry32(4242);
    for (let invoice = 0; invoice < 1_000; invoice++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 30) }, () => randomLine(random));
      const original = computeTotals(lines);
      const storno = computeTotals(lines.map((l) => ({ ...l, quantity_milli: -l.quantity_milli })));
      expect(storno.net_bani).toBe(-original.net_bani + 0);
      expect(storno.vat_bani).toBe(-original.vat_bani + 0);
      expect(storno.total_bani).toBe(-original.total_bani + 0);
      expect(storno.discount_bani).toBe(-original.discount_bani + 0);
      expect(storno.breakdown.map((e) => [e.vat_rate_bp, -e.net_bani + 0, -e.vat_bani + 0, -e.total_bani + 0])).toEqual(
        original.breakdown.map((e) => [e.vat_rate_bp, e.net_bani, e.vat_bani, e.total_bani]),
      );
    }
  });
});
