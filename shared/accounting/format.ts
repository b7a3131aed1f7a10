/** `2026-11-25` -> `25.11.2026`, the Romanian way every register prints a date. */
export function formatDateRo(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : iso;
}
