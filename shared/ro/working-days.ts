import { addDays } from '../dates';

/**
 * ANAF's clock: an invoice goes to RO e-Factura within 5 working days of its issue date (OUG 120/2021
 * art. 10, as amended), where working days skip weekends and Romania's public holidays (Codul muncii
 * art. 139). The Orthodox feasts move with Easter, computed here, so no table needs a yearly update.
 */

/** Orthodox Easter Sunday (Meeus' Julian algorithm, moved to the Gregorian calendar: +13 days from 1900 to 2099). */
export function orthodoxEaster(year: number): string {
  const a = year % 4;
  const b = year % 7;
  const c = year % 19;
  const d = (19 * c + 15) % 30;
  const e = (2 * a + 4 * b - d + 34) % 7;
  const month = Math.floor((d + e + 114) / 31);
  const day = ((d + e + 114) % 31) + 1;
  const julian = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const shift = Math.floor(year / 100) - Math.floor(year / 400) - 2;
  return addDays(julian, shift);
}

/** Romania's public holidays of a year (Codul muncii art. 139), 'YYYY-MM-DD', sorted. */
export function romanianPublicHolidays(year: number): string[] {
  const fixed = ['01-01', '01-02', '01-24', '05-01', '06-01', '08-15', '11-30', '12-01', '12-25', '12-26'];
  // Boboteaza and Sf. Ioan Botezătorul are holidays from 2024 (Legea 52/2023); Good Friday from 2018.
  if (year >= 2024) fixed.push('01-06', '01-07');
  const easter = orthodoxEaster(year);
  const moving = [addDays(easter, 0), addDays(easter, 1), addDays(easter, 49), addDays(easter, 50)];
  if (year >= 2018) moving.push(addDays(easter, -2));
  return [...new Set([...fixed.map((md) => `${year}-${md}`), ...moving])].sort();
}

const holidayCache = new Map<number, Set<string>>();

export function isRomanianWorkingDay(date: string): boolean {
  const year = Number(date.slice(0, 4));
  let holidays = holidayCache.get(year);
  if (!holidays) {
    holidays = new Set(romanianPublicHolidays(year));
    holidayCache.set(year, holidays);
  }
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.has(date);
}

/** The date `count` working days after `date` (the day itself not counted). */
export function addWorkingDays(date: string, count: number): string {
  let day = date;
  for (let left = count; left > 0; ) {
    day = addDays(day, 1);
    if (isRomanianWorkingDay(day)) left -= 1;
  }
  return day;
}

/** The last day an invoice issued on `issueDate` may be uploaded to RO e-Factura. */
export const EFACTURA_UPLOAD_WORKING_DAYS = 5;
export function efacturaUploadDeadline(issueDate: string): string {
  return addWorkingDays(issueDate, EFACTURA_UPLOAD_WORKING_DAYS);
}

export type DeadlineState = 'ok' | 'soon' | 'today' | 'overdue';

/** How urgent an unsent invoice is on `today`: 'soon' within 2 working days of the deadline. */
export function uploadDeadlineState(issueDate: string, today: string): { deadline: string; state: DeadlineState } {
  const deadline = efacturaUploadDeadline(issueDate);
  if (today > deadline) return { deadline, state: 'overdue' };
  if (today === deadline) return { deadline, state: 'today' };
  return { deadline, state: addWorkingDays(today, 2) >= deadline ? 'soon' : 'ok' };
}

/** ANAF keeps a received message for 60 days; we warn once 45 have passed and it is still not downloaded. */
export const SPV_MESSAGE_RETENTION_DAYS = 60;
export const SPV_MESSAGE_WARN_AFTER_DAYS = 45;
export function spvMessageExpiry(createdDate: string): { expires: string; warnFrom: string } {
  return { expires: addDays(createdDate, SPV_MESSAGE_RETENTION_DAYS), warnFrom: addDays(createdDate, SPV_MESSAGE_WARN_AFTER_DAYS) };
}
