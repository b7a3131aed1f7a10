import { z } from 'zod';

/**
 * Calendar dates are 'YYYY-MM-DD' strings in Europe/Bucharest (the invoice date is the Romanian
 * calendar day, whatever the machine's time zone); timestamps are integer Unix seconds.
 */

export const BUCHAREST_TIME_ZONE = 'Europe/Bucharest';

// Building a DateTimeFormat is slow (it loads zone data); one instance serves every call.
let bucharestFormat: Intl.DateTimeFormat | undefined;

function getBucharestFormat(): Intl.DateTimeFormat {
  bucharestFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: BUCHAREST_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return bucharestFormat;
}

/** The calendar day in Bucharest at `now` (default: the current instant), as 'YYYY-MM-DD'. */
export function todayInBucharest(now: Date = new Date()): string {
  // formatToParts, not format(): the assembled string's order and separators vary with locale data.
  const parts = getBucharestFormat().formatToParts(now);
  const get = (type: 'year' | 'month' | 'day'): string => {
    const part = parts.find((p) => p.type === type);
    if (!part) throw new Error(`Intl.DateTimeFormat returned no ${type}`);
    return part.value;
  };
  return `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month of the proleptic Gregorian calendar (month 1-12). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' naming a real calendar day: '2024-02-29' yes, '2026-02-30' and '2026-13-01' no. */
export function isValidIsoDate(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const match = ISO_DATE.exec(s);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Adds whole days to a 'YYYY-MM-DD' date (negative to go back); calendar arithmetic, no time zone. */
export function addDays(isoDate: string, days: number): string {
  if (!isValidIsoDate(isoDate)) throw new RangeError(`Not a valid date: ${isoDate}`);
  if (!Number.isInteger(days)) throw new RangeError(`Days must be an integer, got ${String(days)}`);
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  date.setUTCFullYear(y, m - 1, d + days);
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) throw new RangeError('Date out of range');
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${month}-${day}`;
}

/** A calendar date 'YYYY-MM-DD' that exists (rejects 2026-02-30). */
export const zIsoDate = z
  .string()
  .regex(ISO_DATE, { message: 'Date must be YYYY-MM-DD|Data trebuie scrisă AAAA-LL-ZZ' })
  .refine(isValidIsoDate, { message: 'Date does not exist in the calendar|Data nu există în calendar' });

/** Integer Unix seconds for `date` (default: now), rounded down. */
export function unixSeconds(date: Date = new Date()): number {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('Invalid Date');
  return Math.floor(ms / 1000);
}

let bucharestWallFormat: Intl.DateTimeFormat | undefined;

/** Bucharest wall time of an instant (Unix seconds) as `YYYY-MM-DD HH:MM:SS`. */
export function formatBucharestWallTime(unix: number): string {
  bucharestWallFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: BUCHAREST_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  });
  const parts: Record<string, string> = {};
  for (const p of bucharestWallFormat.formatToParts(new Date(unix * 1000))) parts[p.type] = p.value;
  return `${(parts.year ?? '').padStart(4, '0')}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;

/**
 * Unix seconds of a Bucharest wall time `YYYY-MM-DD HH:MM:SS` (how the service prints expense
 * timestamps); null when it is not one. Bucharest is UTC+2 or UTC+3, so the instant is one of two;
 * the one that formats back to the same text is it. The hour repeated when clocks go back (03:00-03:59
 * on the last Sunday of October) has both: the EARLIER is returned, and so is the earlier reading of
 * an hour skipped in March, because callers use it as a lower bound (a pull cursor) where reading too
 * early costs a few repeated records and reading too late loses changes.
 */
export function bucharestWallTimeToUnix(text: string): number | null {
  const m = WALL_TIME.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (!isValidIsoDate(`${m[1]}-${m[2]}-${m[3]}`) || h > 23 || mi > 59 || s > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  const asUtc = Math.floor(date.getTime() / 1000);
  const wall = `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}`;
  for (const offset of [10_800, 7_200]) {
    if (formatBucharestWallTime(asUtc - offset) === wall) return asUtc - offset;
  }
  return asUtc - 10_800;
}
