import type { PacerClock } from '../../../main/api/pacer';

/**
 * A clock that runs `speed` times faster than real time, shared by the server (rate-limit windows in
 * Unix seconds) and the device's pacer (ms, sleeping `ms / speed` of real time): an hour of rate
 * limiting passes in 3600/speed real seconds with both sides agreeing on every window.
 */
export function fastClock(speed: number, startUnixSeconds = Math.floor(Date.now() / 1000)) {
  const realStart = performance.now();
  const nowMs = () => startUnixSeconds * 1000 + (performance.now() - realStart) * speed;
  const pacer: PacerClock = {
    now: nowMs,
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        const timer = setTimeout(resolve, Math.max(0, ms / speed));
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      }),
  };
  return {
    speed,
    nowMs,
    /** Server and device `Clock` (Unix seconds). */
    seconds: { now: () => Math.floor(nowMs() / 1000) },
    pacer,
  };
}

/** A virtual clock for unit tests: sleeping advances time at once. */
export function virtualClock(startMs = 1_795_000_000_000) {
  let t = startMs;
  const slept: number[] = [];
  const clock: PacerClock & { advance(ms: number): void; slept: number[] } = {
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
      // Let timers and I/O run between virtual sleeps (a waiting loop must not starve the test).
      await new Promise((resolve) => setImmediate(resolve));
    },
    advance: (ms) => {
      t += ms;
    },
    slept,
  };
  return clock;
}
