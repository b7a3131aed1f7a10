/**
 * When a request's series row lock was granted, for bench/issue-breakdown.ts, which sends one request
 * at a time: it sets a listener, and numbering calls it as the lock is granted. Outside that bench the
 * listener is null and the mark costs one comparison. Not an AsyncLocalStorage: on Node 20 one `run`
 * turns on a hook for every promise of the process (see server/platform/warnings.ts). The scale
 * benchmark, whose requests run side by side, times lock holds on PostgreSQL's connections instead
 * (bench/scale-server.ts).
 */
let listener: (() => void) | null = null;

export function setSeriesLockListener(fn: (() => void) | null): void {
  listener = fn;
}

export function noteSeriesLocked(): void {
  listener?.();
}
