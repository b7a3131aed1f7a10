import { formatBucharestDateTime, todayAt } from '../../platform/bucharest-time';

export { todayAt };

/** `YYYY-MM` of a `YYYY-MM-DD` date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/**
 * Unix seconds -> `YYYY-MM-DD HH:MM:SS`, the wall time in Bucharest (the contract's format for
 * expense timestamps gives no zone; the firm's own is the one its users read).
 */
export const formatDateTime = formatBucharestDateTime;
