import { describe, expect, it } from 'vitest';
import {
  MAX_WIRE_BANI,
  addBani,
  baniToDecimalString,
  decimalStringToBani,
  formatRon,
  fromBani,
  isWireMoney,
  mulDivRound,
  roundHalfAwayFromZero,
  toBani,
  zBani,
  zDecimalString2,
  zDecimalString2ToBani,
  zMoney,
  zMoneyToBani,
} from '../../shared/money';

/** Deterministic PRNG so a failing case can be replayed. */
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

/** The decimal text a client would put in JSON for `bani` (built from integers, not floats). */
function wireText(bani: bigint): string {
  const negative = bani < 0n;
  const abs = negative ? -bani : bani;
  return `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

describe('toBani', () => {
  it('converts the classic floating-point traps exactly', () => {
    expect(toBani(0.29)).toBe(29);
    expect(toBani(1.15)).toBe(115);
    expect(toBani(1005)).toBe(100500);
    expect(toBani(1234567.89)).toBe(123456789);
    expect(toBani(-0.07)).toBe(-7);
    expect(toBani(4.35)).toBe(435);
    expect(toBani(8.2)).toBe(820);
    expect(toBani(0.57)).toBe(57);
    expect(toBani(19.99)).toBe(1999);
    expect(toBani(0)).toBe(0);
    expect(Object.is(toBani(-0), 0)).toBe(true);
    expect(toBani(12)).toBe(1200);
  });

  it('is exact for every amount from -2000.00 to 2000.00 as parsed from JSON', () => {
    for (let i = -200_000; i <= 200_000; i++) {
      const n = JSON.parse(wireText(BigInt(i))) as number;
      if (toBani(n) !== i) throw new Error(`toBani(${wireText(BigInt(i))}) = ${toBani(n)}, expected ${i}`);
    }
  });

  it('is exact for large random amounts up to the wire limit (10^13 lei)', () => {
    const random = mulberry32(42);
    for (let k = 0; k < 50_000; k++) {
      const digits = 1 + Math.floor(random() * 15);
      const bani = BigInt(Math.floor(random() * 10 ** digits)) * (random() < 0.3 ? -1n : 1n);
      const n = JSON.parse(wireText(bani)) as number;
      expect(toBani(n)).toBe(Number(bani));
      expect(fromBani(Number(bani))).toBe(n);
    }
  });

  it('rejects more than 2 decimals, NaN and Infinity with RangeError', () => {
    expect(() => toBani(0.001)).toThrow(RangeError);
    expect(() => toBani(1.155)).toThrow(RangeError);
    expect(() => toBani(0.1 + 0.2)).toThrow(RangeError);
    expect(() => toBani(1.005 * 1000)).toThrow(RangeError); // 1004.9999999999999
    expect(() => toBani(1e-9)).toThrow(RangeError);
    expect(() => toBani(Number.NaN)).toThrow(RangeError);
    expect(() => toBani(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => toBani(Number.NEGATIVE_INFINITY)).toThrow(RangeError);
    expect(() => toBani(1e20)).toThrow(RangeError);
    expect(() => toBani(1e21)).toThrow(/out of range/);
    expect(() => toBani('1.00' as unknown as number)).toThrow(RangeError);
  });
});

describe('wire range', () => {
  it('stops where a double can no longer tell two amounts apart', () => {
    expect(MAX_WIRE_BANI).toBe(999_999_999_999_999);
    expect(toBani(9999999999999.99)).toBe(MAX_WIRE_BANI);
    expect(toBani(-9999999999999.99)).toBe(-MAX_WIRE_BANI);
    expect(fromBani(MAX_WIRE_BANI)).toBe(9999999999999.99);
    expect(() => toBani(10000000000000)).toThrow(/out of range/);
    // Above 2^46 lei neighbouring doubles are 0.015625 apart: .52 and .53 would collide.
    expect(() => toBani(43316765802500.52)).toThrow(RangeError);
    expect(() => fromBani(MAX_WIRE_BANI + 1)).toThrow(RangeError);
  });
});

describe('fromBani', () => {
  it('gives the wire number and serialises to the shortest decimal', () => {
    expect(fromBani(29)).toBe(0.29);
    expect(fromBani(115)).toBe(1.15);
    expect(fromBani(123456789)).toBe(1234567.89);
    expect(fromBani(-7)).toBe(-0.07);
    expect(JSON.stringify({ amount: fromBani(123456789) })).toBe('{"amount":1234567.89}');
    expect(JSON.stringify(fromBani(1000))).toBe('10');
    expect(Object.is(fromBani(-0), 0)).toBe(true);
  });

  it('rejects non-integers', () => {
    expect(() => fromBani(1.5)).toThrow(RangeError);
    expect(() => fromBani(Number.NaN)).toThrow(RangeError);
    expect(() => fromBani(2 ** 53)).toThrow(RangeError);
  });
});

describe('decimal strings', () => {
  it('formats bani with two decimals', () => {
    expect(baniToDecimalString(1234)).toBe('12.34');
    expect(baniToDecimalString(-5)).toBe('-0.05');
    expect(baniToDecimalString(0)).toBe('0.00');
    expect(baniToDecimalString(-0)).toBe('0.00');
    expect(baniToDecimalString(100)).toBe('1.00');
    expect(baniToDecimalString(-123456789)).toBe('-1234567.89');
    expect(baniToDecimalString(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
    expect(() => baniToDecimalString(1.5)).toThrow(RangeError);
  });

  it('parses the accepted spellings', () => {
    expect(decimalStringToBani('12')).toBe(1200);
    expect(decimalStringToBani('12.3')).toBe(1230);
    expect(decimalStringToBani('12.34')).toBe(1234);
    expect(decimalStringToBani('-1.00')).toBe(-100);
    expect(decimalStringToBani('-0.05')).toBe(-5);
    expect(decimalStringToBani('0.00')).toBe(0);
    expect(Object.is(decimalStringToBani('-0.00'), 0)).toBe(true);
    expect(decimalStringToBani('007.10')).toBe(710);
    expect(decimalStringToBani('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('rejects everything else with RangeError', () => {
    for (const bad of ['12.345', '1,2', '', ' 12', '12 ', '.5', '12.', '+1', '1e3', '--1', '1.2.3', 'NaN', '90071992547409.92']) {
      expect(() => decimalStringToBani(bad), bad).toThrow(RangeError);
    }
  });

  it('round-trips', () => {
    const random = mulberry32(7);
    for (let k = 0; k < 10_000; k++) {
      const b = Math.floor((random() - 0.5) * 2e12);
      expect(decimalStringToBani(baniToDecimalString(b))).toBe(b);
    }
  });
});

describe('formatRon', () => {
  it('writes Romanian display form', () => {
    expect(formatRon(123450, 'ro')).toBe('1.234,50 lei');
    expect(formatRon(5, 'ro')).toBe('0,05 lei');
    expect(formatRon(0, 'ro')).toBe('0,00 lei');
    expect(formatRon(-123450, 'ro')).toBe('-1.234,50 lei');
    expect(formatRon(100000000, 'ro')).toBe('1.000.000,00 lei');
    expect(formatRon(99999, 'ro')).toBe('999,99 lei');
    expect(formatRon(12345678901, 'ro')).toBe('123.456.789,01 lei');
  });

  it('writes English display form', () => {
    expect(formatRon(123450, 'en')).toBe('RON 1,234.50');
    expect(formatRon(-123450, 'en')).toBe('-RON 1,234.50');
    expect(formatRon(0, 'en')).toBe('RON 0.00');
    expect(formatRon(100000000, 'en')).toBe('RON 1,000,000.00');
  });

  it('rejects non-integers', () => {
    expect(() => formatRon(0.5, 'ro')).toThrow(RangeError);
  });
});

describe('roundHalfAwayFromZero', () => {
  it('rounds ties away from zero for every sign combination', () => {
    expect(roundHalfAwayFromZero(15, 10)).toBe(2);
    expect(roundHalfAwayFromZero(-15, 10)).toBe(-2);
    expect(roundHalfAwayFromZero(15, -10)).toBe(-2);
    expect(roundHalfAwayFromZero(-15, -10)).toBe(2);
    expect(roundHalfAwayFromZero(14, 10)).toBe(1);
    expect(roundHalfAwayFromZero(-14, 10)).toBe(-1);
    expect(roundHalfAwayFromZero(25, 10)).toBe(3);
    expect(roundHalfAwayFromZero(5, 10)).toBe(1);
    expect(roundHalfAwayFromZero(4, 10)).toBe(0);
    expect(Object.is(roundHalfAwayFromZero(-4, 10), 0)).toBe(true);
    expect(roundHalfAwayFromZero(1, 3)).toBe(0);
    expect(roundHalfAwayFromZero(2, 3)).toBe(1);
    expect(roundHalfAwayFromZero(0, 7)).toBe(0);
  });

  it('agrees with a BigInt reference on random inputs', () => {
    const random = mulberry32(1);
    for (let k = 0; k < 20_000; k++) {
      const n = Math.floor((random() - 0.5) * 2 * Number.MAX_SAFE_INTEGER);
      const d = Math.floor((random() - 0.5) * 2e6) || 1;
      // Reference: sign * floor((2|n| + |d|) / 2|d|), a different formula from the code's.
      const absN = n < 0 ? -BigInt(n) : BigInt(n);
      const absD = d < 0 ? -BigInt(d) : BigInt(d);
      const sign = (n < 0) !== (d < 0) ? -1 : 1;
      const expected = sign * Number((2n * absN + absD) / (2n * absD));
      expect(roundHalfAwayFromZero(n, d) + 0).toBe(expected + 0);
    }
  });

  it('is exact beyond 2^53 with bigint inputs and via mulDivRound', () => {
    // 123456789012345 * 9999 = 1234444433334437655 > 2^53; / 10000 = 123444443333443.7655
    expect(roundHalfAwayFromZero(123456789012345n * 9999n, 10_000n)).toBe(123444443333444);
    expect(mulDivRound(123456789012345, 9999, 10_000)).toBe(123444443333444);
    expect(mulDivRound(-123456789012345, 9999, 10_000)).toBe(-123444443333444);
    // A tie that float arithmetic would lose: 2^53 + 1 is not representable.
    expect(mulDivRound(4503599627370497, 2, 4)).toBe(2251799813685249);
    expect(mulDivRound(9007199254740991, 5, 10)).toBe(4503599627370496);
    expect(mulDivRound(-9007199254740991, 5, 10)).toBe(-4503599627370496);
    expect(() => mulDivRound(9007199254740991, 3, 1)).toThrow(RangeError);
  });

  it('rejects non-integers and division by zero', () => {
    expect(() => roundHalfAwayFromZero(1.5, 2)).toThrow(RangeError);
    expect(() => roundHalfAwayFromZero(1, 0)).toThrow(RangeError);
    expect(() => roundHalfAwayFromZero(1n, 0n)).toThrow(RangeError);
    expect(() => roundHalfAwayFromZero(2 ** 60, 2)).toThrow(RangeError);
  });
});

describe('addBani', () => {
  it('adds and refuses overflow', () => {
    expect(addBani(1, 2)).toBe(3);
    expect(() => addBani(Number.MAX_SAFE_INTEGER, 1)).toThrow(RangeError);
  });
});

describe('zod helpers', () => {
  it('zMoney accepts wire numbers with at most 2 decimals', () => {
    for (const ok of [0, 0.29, 1.15, -0.07, 1234567.89, 12, 9999999999999.99, -9999999999999.99]) {
      expect(zMoney.safeParse(ok).success, String(ok)).toBe(true);
      expect(isWireMoney(ok)).toBe(true);
    }
    for (const bad of [0.001, 1.155, 0.1 + 0.2, Number.NaN, Number.POSITIVE_INFINITY, '1.00', null, 1e20, 1e13, 90071992547409.91]) {
      expect(zMoney.safeParse(bad).success, String(bad)).toBe(false);
      expect(isWireMoney(bad)).toBe(false);
    }
    const failure = zMoney.safeParse(1.155);
    expect(failure.success).toBe(false);
    expect(failure.error?.issues.some((i) => i.message.includes('at most 2 decimals'))).toBe(true);
  });

  it('zMoneyToBani outputs bani', () => {
    expect(zMoneyToBani.parse(1234567.89)).toBe(123456789);
    expect(zMoneyToBani.parse(-0.07)).toBe(-7);
    expect(zMoneyToBani.safeParse(0.005).success).toBe(false);
  });

  it('zDecimalString2 accepts expense strings and rejects the rest', () => {
    for (const ok of ['12.34', '0.00', '-1.00', '12', '12.3']) expect(zDecimalString2.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['12.345', '1,2', '', 12.34, '1e3', '99999999999999999.00']) {
      expect(zDecimalString2.safeParse(bad).success, String(bad)).toBe(false);
    }
    expect(zDecimalString2ToBani.parse('12.34')).toBe(1234);
    expect(zDecimalString2ToBani.parse('-0.05')).toBe(-5);
  });

  it('zBani accepts integers only', () => {
    expect(zBani.safeParse(12).success).toBe(true);
    expect(zBani.safeParse(1.5).success).toBe(false);
    expect(zBani.safeParse(2 ** 53).success).toBe(false);
  });
});
