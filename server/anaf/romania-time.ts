/**
 * ANAF stamps its answers in Romanian local time without an offset (`dateResponse`, `data_creare`:
 * `yyyyMMddHHmm`). These helpers convert between that and instants, through the IANA zone so
 * daylight saving is right on both sides of the switch.
 */
import { bucharestOffsetSeconds, bucharestParts } from '../platform/bucharest-time';

/** Offset of Bucharest from UTC at an instant, in minutes (120 or 180). */
function offsetMinutes(epochMs: number): number {
  return bucharestOffsetSeconds(Math.floor(epochMs / 1000)) / 60;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `202210311452` (Bucharest wall time) -> `2022-10-31T14:52:00+02:00`; undefined if malformed. */
export function anafStampToIso(stamp: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?$/.exec(stamp.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '00'].map(Number) as [number, number, number, number, number, number];
  const wallAsUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  // Two passes: the offset depends on the instant we are trying to find.
  let offset = offsetMinutes(wallAsUtc);
  offset = offsetMinutes(wallAsUtc - offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${pad(s)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** An instant as Bucharest wall-time parts. */
export const romaniaParts = bucharestParts;

/** An instant as ANAF's `yyyyMMddHHmm`. */
export function toAnafStamp(epochMs: number): string {
  const p = romaniaParts(epochMs);
  return `${p.year}${pad(p.month)}${pad(p.day)}${pad(p.hour)}${pad(p.minute)}`;
}

/** An instant as `yyyy-MM-dd` in Romania (the `data` of registry queries). */
export function romaniaDate(epochMs: number): string {
  const p = romaniaParts(epochMs);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}
