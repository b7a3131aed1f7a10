import { describe, expect, it } from 'vitest';
import { amountInWords } from '../../shared/ro';

const lei = (n: number) => amountInWords(n * 100);

describe('amountInWords: lei', () => {
  it.each([
    [0, 'zero lei'],
    [1, 'un leu'],
    [2, 'doi lei'],
    [3, 'trei lei'],
    [10, 'zece lei'],
    [11, 'unsprezece lei'],
    [12, 'doisprezece lei'],
    [14, 'paisprezece lei'],
    [16, 'șaisprezece lei'],
    [19, 'nouăsprezece lei'],
    [20, 'douăzeci de lei'],
    [21, 'douăzeci și unu de lei'],
    [22, 'douăzeci și doi de lei'],
    [60, 'șaizeci de lei'],
    [99, 'nouăzeci și nouă de lei'],
    [100, 'o sută de lei'],
    [101, 'o sută unu lei'],
    [102, 'o sută doi lei'],
    [110, 'o sută zece lei'],
    [112, 'o sută doisprezece lei'],
    [119, 'o sută nouăsprezece lei'],
    [120, 'o sută douăzeci de lei'],
    [121, 'o sută douăzeci și unu de lei'],
    [200, 'două sute de lei'],
    [222, 'două sute douăzeci și doi de lei'],
    [999, 'nouă sute nouăzeci și nouă de lei'],
    [1000, 'o mie de lei'],
    [1001, 'o mie unu lei'],
    [1002, 'o mie doi lei'],
    [1012, 'o mie doisprezece lei'],
    [1100, 'o mie o sută de lei'],
    [1234, 'o mie două sute treizeci și patru de lei'],
    [2000, 'două mii de lei'],
    [2001, 'două mii unu lei'],
    [12_000, 'douăsprezece mii de lei'],
    [20_000, 'douăzeci de mii de lei'],
    [21_000, 'douăzeci și una de mii de lei'],
    [22_000, 'douăzeci și două de mii de lei'],
    [100_000, 'o sută de mii de lei'],
    [101_000, 'o sută una mii de lei'],
    [102_000, 'o sută două mii de lei'],
    [112_000, 'o sută douăsprezece mii de lei'],
    [200_000, 'două sute de mii de lei'],
    [999_999, 'nouă sute nouăzeci și nouă de mii nouă sute nouăzeci și nouă de lei'],
    [1_000_000, 'un milion de lei'],
    [1_000_001, 'un milion unu lei'],
    [1_001_000, 'un milion o mie de lei'],
    [2_000_000, 'două milioane de lei'],
    [12_000_000, 'douăsprezece milioane de lei'],
    [21_000_000, 'douăzeci și unu de milioane de lei'],
    [22_000_000, 'douăzeci și două de milioane de lei'],
    [2_500_000, 'două milioane cinci sute de mii de lei'],
    [1_000_000_000, 'un miliard de lei'],
    [2_000_000_000, 'două miliarde de lei'],
    [1_000_000_000_000, 'un bilion de lei'],
    [3_000_000_000_000, 'trei bilioane de lei'],
  ])('%i lei -> %s', (n, words) => {
    expect(lei(n)).toBe(words);
  });
});

describe('amountInWords: bani', () => {
  it.each([
    [1, 'un ban'],
    [2, 'doi bani'],
    [5, 'cinci bani'],
    [12, 'doisprezece bani'],
    [19, 'nouăsprezece bani'],
    [20, 'douăzeci de bani'],
    [21, 'douăzeci și unu de bani'],
    [50, 'cincizeci de bani'],
    [99, 'nouăzeci și nouă de bani'],
  ])('%i bani -> %s', (n, words) => {
    expect(amountInWords(n)).toBe(words);
  });
});

describe('amountInWords: lei and bani together', () => {
  it('writes the receipt example with standard grammar', () => {
    expect(amountInWords(123_450)).toBe('o mie două sute treizeci și patru de lei și cincizeci de bani');
  });

  it('writes the receipt example without "de" when asked', () => {
    expect(amountInWords(123_450, { omitDe: true })).toBe('o mie două sute treizeci și patru lei și cincizeci bani');
    expect(amountInWords(2000, { omitDe: true })).toBe('douăzeci lei');
    expect(amountInWords(2_000_000_00, { omitDe: true })).toBe('două milioane lei');
  });

  it('joins lei and bani with "și" and keeps singulars', () => {
    expect(amountInWords(101)).toBe('un leu și un ban');
    expect(amountInWords(202)).toBe('doi lei și doi bani');
    expect(amountInWords(10_001)).toBe('o sută de lei și un ban');
    expect(amountInWords(2_105)).toBe('douăzeci și unu de lei și cinci bani');
    expect(amountInWords(100_000_099)).toBe('un milion de lei și nouăzeci și nouă de bani');
  });

  it('writes storno amounts with "minus"', () => {
    expect(amountInWords(-150)).toBe('minus un leu și cincizeci de bani');
    expect(amountInWords(-100)).toBe('minus un leu');
  });

  it('covers the largest safe amount', () => {
    expect(amountInWords(Number.MAX_SAFE_INTEGER)).toBe(
      'nouăzeci de bilioane șaptezeci și unu de miliarde nouă sute nouăzeci și două de milioane ' +
        'cinci sute patruzeci și șapte de mii patru sute nouă lei și nouăzeci și unu de bani',
    );
  });

  it('never produces empty words, double spaces or the wrong "one"', () => {
    for (let n = 1; n <= 1_200_000; n += 997) {
      const words = lei(n);
      expect(words).not.toMatch(/ {2}|^ | $/);
      expect(words).not.toMatch(/\bun (lei|mii|milioane)\b|\bunu (leu|mie|milion)\b|\bo (lei|mii)\b/);
      expect(words).not.toMatch(/\bdoi (mii|sute|milioane)\b|\bdouă lei\b/);
    }
  });

  it('rejects non-integers', () => {
    expect(() => amountInWords(1.5)).toThrow(RangeError);
    expect(() => amountInWords(Number.NaN)).toThrow(RangeError);
    expect(() => amountInWords(2 ** 53)).toThrow(RangeError);
  });
});
