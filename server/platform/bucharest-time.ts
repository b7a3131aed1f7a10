import { BUCHAREST_TIME_ZONE, todayInBucharest } from '../../shared/dates';

/**
 * Bucharest wall time of an instant, for every part of the service that files or prints by the
 * firm's own calendar (list date filters, "today", expense timestamps, ANAF's local stamps). One
 * formatter serves them all: building a DateTimeFormat loads zone data.
 */
const wallClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: BUCHAREST_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** An instant (milliseconds) as Bucharest wall-time parts. */
export function bucharestParts(epochMs: number): WallTime {
  const parts: Record<string, string> = {};
  for (const p of wallClock.formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Seconds Bucharest is ahead of UTC at the instant `epochSeconds` (7200 or 10800). */
export function bucharestOffsetSeconds(epochSeconds: number): number {
  const p = bucharestParts(epochSeconds * 1000);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) / 1000 - epochSeconds;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Unix seconds -> `YYYY-MM-DD HH:MM:SS`, Bucharest wall time. */
export function formatBucharestDateTime(unixSeconds: number): string {
  const p = bucharestParts(unixSeconds * 1000);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

// The calendar day changes once a day; time-zone formatting is slow enough to matter per request.
let lastDay: { from: number; to: number; day: string } | null = null;

/** The calendar day (`YYYY-MM-DD`) in Bucharest at service time `now` (Unix seconds). */
export function todayAt(now: number): string {
  if (lastDay && now >= lastDay.from && now < lastDay.to) return lastDay.day;
  const day = todayInBucharest(new Date(now * 1000));
  // Valid for the rest of this minute at least: no time zone moves the day inside a minute.
  const from = now - (now % 60);
  lastDay = { from, to: from + 60, day };
  return day;
}
