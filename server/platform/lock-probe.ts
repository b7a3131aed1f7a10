import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/**
 * How long a request held a series row lock: the scale benchmark (bench/scale.ts) runs each request
 * inside {@link lockProbe} and reads `lockedAt` once the reply is being sent, after the commit that
 * released the lock. Outside such a run (production, tests) `getStore()` is undefined and the mark
 * costs one lookup.
 */
export interface LockProbeStore {
  /** performance.now() when the first series row lock of the request was granted. */
  lockedAt?: number;
}

export const lockProbe = new AsyncLocalStorage<LockProbeStore>();

export function noteSeriesLocked(): void {
  const store = lockProbe.getStore();
  if (store && store.lockedAt === undefined) store.lockedAt = performance.now();
}
