import { describe, expect, it } from 'vitest';
import { bucharestWallTimeToUnix, formatBucharestWallTime } from '../../shared/dates';
import { toUnix } from '../../main/sync/pull';

const utc = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`) / 1000;

describe('Bucharest wall time -> Unix seconds (expense timestamps)', () => {
  it('reads winter time as UTC+2 and summer time as UTC+3', () => {
    expect(bucharestWallTimeToUnix('2025-01-15 12:00:00')).toBe(utc('2025-01-15 10:00:00'));
    expect(bucharestWallTimeToUnix('2025-07-15 12:00:00')).toBe(utc('2025-07-15 09:00:00'));
    // What the pull reads for an expense's updated_at: the same instant, not 2-3 hours later.
    expect(toUnix('2025-07-15 12:00:00')).toBe(utc('2025-07-15 09:00:00'));
  });

  it('spring forward (30 March 2025, 03:00 EET -> 04:00 EEST): both sides exact, the skipped hour read early', () => {
    expect(bucharestWallTimeToUnix('2025-03-30 02:59:59')).toBe(utc('2025-03-30 00:59:59'));
    expect(bucharestWallTimeToUnix('2025-03-30 04:00:00')).toBe(utc('2025-03-30 01:00:00'));
    // 03:30 never shows on a Bucharest clock that day: the earlier reading (a cursor must not jump ahead).
    expect(bucharestWallTimeToUnix('2025-03-30 03:30:00')).toBe(utc('2025-03-30 00:30:00'));
  });

  it('fall back (26 October 2025, 04:00 EEST -> 03:00 EET): both sides exact, the repeated hour read as its first time', () => {
    expect(bucharestWallTimeToUnix('2025-10-26 02:59:59')).toBe(utc('2025-10-25 23:59:59'));
    expect(bucharestWallTimeToUnix('2025-10-26 03:30:00')).toBe(utc('2025-10-26 00:30:00'));
    expect(bucharestWallTimeToUnix('2025-10-26 04:00:00')).toBe(utc('2025-10-26 02:00:00'));
  });

  it('round-trips every quarter hour across both changes (the repeated hour maps to its first occurrence)', () => {
    for (const day of ['2025-03-30', '2025-10-26']) {
      const start = utc(`${day} 00:00:00`) - 86_400;
      for (let t = start; t < start + 2 * 86_400; t += 900) {
        const text = formatBucharestWallTime(t);
        const back = bucharestWallTimeToUnix(text);
        const repeated = day === '2025-10-26' && t >= utc('2025-10-26 01:00:00') && t < utc('2025-10-26 02:00:00');
        expect(back, text).toBe(repeated ? t - 3600 : t);
      }
    }
  });

  it('refuses what is not a wall time', () => {
    expect(bucharestWallTimeToUnix('2025-02-30 10:00:00')).toBeNull();
    expect(bucharestWallTimeToUnix('2025-02-10 24:00:00')).toBeNull();
    expect(bucharestWallTimeToUnix('yesterday')).toBeNull();
  });
});
