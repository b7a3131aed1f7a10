import { describe, expect, it } from 'vitest';
import { addDays, daysInMonth, isValidIsoDate, todayInBucharest, unixSeconds, zIsoDate } from '../../shared/dates';

describe('todayInBucharest', () => {
  it('uses the Bucharest calendar day, not UTC (winter, UTC+2)', () => {
    expect(todayInBucharest(new Date('2026-01-14T21:59:59Z'))).toBe('2026-01-14');
    expect(todayInBucharest(new Date('2026-01-14T22:00:00Z'))).toBe('2026-01-15');
  });

  it('follows summer time (UTC+3)', () => {
    expect(todayInBucharest(new Date('2026-07-01T20:59:59Z'))).toBe('2026-07-01');
    expect(todayInBucharest(new Date('2026-07-01T21:00:00Z'))).toBe('2026-07-02');
  });

  it('crosses the year boundary', () => {
    expect(todayInBucharest(new Date('2025-12-31T22:30:00Z'))).toBe('2026-01-01');
  });

  it('handles the DST switch nights', () => {
    // 29 March 2026, 03:00 local becomes 04:00; 01:00Z is 04:00 EEST.
    expect(todayInBucharest(new Date('2026-03-28T21:59:00Z'))).toBe('2026-03-28');
    expect(todayInBucharest(new Date('2026-03-28T22:00:00Z'))).toBe('2026-03-29');
    // 25 October 2026, 04:00 local goes back to 03:00.
    expect(todayInBucharest(new Date('2026-10-24T20:59:00Z'))).toBe('2026-10-24');
    expect(todayInBucharest(new Date('2026-10-24T21:00:00Z'))).toBe('2026-10-25');
  });

  it('defaults to now and returns the YYYY-MM-DD shape', () => {
    expect(isValidIsoDate(todayInBucharest())).toBe(true);
  });
});

describe('isValidIsoDate', () => {
  it('accepts real days', () => {
    for (const ok of ['2026-01-01', '2026-12-31', '2024-02-29', '2000-02-29', '2026-04-30', '1999-02-28', '0001-01-01']) {
      expect(isValidIsoDate(ok), ok).toBe(true);
    }
  });

  it('rejects impossible days and other shapes', () => {
    for (const bad of [
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-1-01',
      '26-01-01',
      '2026/01/01',
      '2026-01-01T00:00:00Z',
      ' 2026-01-01',
      '0000-01-01',
      '',
    ]) {
      expect(isValidIsoDate(bad), bad).toBe(false);
    }
    expect(isValidIsoDate(20260101)).toBe(false);
    expect(isValidIsoDate(null)).toBe(false);
  });

  it('knows month lengths', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2026, m))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2400, 2)).toBe(29);
  });
});

describe('zIsoDate', () => {
  it('accepts real dates and rejects 2026-02-30 with a clear message', () => {
    expect(zIsoDate.parse('2026-02-28')).toBe('2026-02-28');
    const result = zIsoDate.safeParse('2026-02-30');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain('Date does not exist in the calendar|Data nu există în calendar');
    expect(zIsoDate.safeParse('30.02.2026').error?.issues[0]?.message).toBe('Date must be YYYY-MM-DD|Data trebuie scrisă AAAA-LL-ZZ');
    expect(zIsoDate.safeParse(20260228).success).toBe(false);
  });
});

describe('addDays', () => {
  it('does calendar arithmetic', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2026-03-29', 30)).toBe('2026-04-28');
    expect(addDays('2026-01-15', 0)).toBe('2026-01-15');
    expect(addDays('0050-01-01', 1)).toBe('0050-01-02');
  });

  it('rejects bad input', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
    expect(() => addDays('2026-02-01', 1.5)).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
  });
});

describe('unixSeconds', () => {
  it('floors to whole seconds', () => {
    expect(unixSeconds(new Date('2026-01-01T00:00:00.999Z'))).toBe(1_767_225_600);
    expect(unixSeconds(new Date(0))).toBe(0);
    expect(unixSeconds(new Date(-1))).toBe(-1);
  });

  it('defaults to now', () => {
    const before = Math.floor(Date.now() / 1000);
    const now = unixSeconds();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(Number.isInteger(now)).toBe(true);
  });

  it('rejects an invalid Date', () => {
    expect(() => unixSeconds(new Date('nope'))).toThrow(RangeError);
  });
});
