/** Time as the service sees it. Tests pass their own to move it forward without sleeping. */
export interface Clock {
  /** Unix seconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) };

export function fixedClock(start: number): Clock & { advance(seconds: number): void; set(t: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (s) => {
      t += s;
    },
    set: (v) => {
      t = v;
    },
  };
}
