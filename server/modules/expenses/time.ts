import { BUCHAREST_TIME_ZONE, todayInBucharest } from '../../../shared/dates';

/** The calendar day in Bucharest at service time `now` (Unix seconds). */
export function todayAt(now: number): string {
  return todayInBucharest(new Date(now * 1000));
}

/** `YYYY-MM` of a `YYYY-MM-DD` date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

// Building a DateTimeFormat loads zone data; one instance serves every call.
let wallClock: Intl.DateTimeFormat | undefined;

/**
 * Unix seconds -> `YYYY-MM-DD HH:MM:SS`, the wall time in Bucharest (the contract's format for
 * expense timestamps gives no zone; the firm's own is the one its users read).
 */
export function formatDateTime(unixSeconds: number): string {
  wallClock ??= new Intl.DateTimeFormat('en-US', {
    timeZone: BUCHAREST_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const parts = wallClock.formatToParts(new Date(unixSeconds * 1000));
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year').padStart(4, '0')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}
