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
  .regex(ISO_DATE, { message: 'Date must be YYYY-MM-DD' })
  .refine(isValidIsoDate, { message: 'Date does not exist in the calendar' });

/** Integer Unix seconds for `date` (default: now), rounded down. */
export function unixSeconds(date: Date = new Date()): number {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('Invalid Date');
  return Math.floor(ms / 1000);
}
