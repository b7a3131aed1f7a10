/**
 * ANAF stamps its answers in Romanian local time without an offset (`dateResponse`, `data_creare`:
 * `yyyyMMddHHmm`). These helpers convert between that and instants, through the IANA zone so
 * daylight saving is right on both sides of the switch.
 */
const ZONE = 'Europe/Bucharest';

const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'longOffset' });
const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Offset of Bucharest from UTC at an instant, in minutes (120 or 180). */
function offsetMinutes(epochMs: number): number {
  const name = offsetFormat.formatToParts(new Date(epochMs)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!m) return 0;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * (Number(m[2]) * 60 + Number(m[3]));
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
export function romaniaParts(epochMs: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = Object.fromEntries(partsFormat.formatToParts(new Date(epochMs)).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

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
