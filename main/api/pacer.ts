/**
 * Keeps the client under the contract's two budgets without ever being told 429 in normal operation:
 * every request per hour (1000), creates per minute (100).
 *
 * The hourly budget is a token bucket filled from the server's own counters: every reply carries
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset`, so the bucket holds exactly what the server says
 * is left in its current window, less what is in flight, and refills at the reset time. The creates
 * budget has no header, so it is counted here: a create may leave only when fewer than
 * `createsPerMinute` earlier creates could still share a server minute with it. The server counts a
 * request when it arrives, somewhere between its sending and its reply; so an earlier create is
 * surely in another minute only once its REPLY is a full minute old (plus a margin for clock skew),
 * and one still in flight always counts. That holds whatever the latency, with no tuning.
 *
 * Bulk traffic (pushing the outbox) leaves a small reserve so that the probe and the user's own
 * online actions still get through when a large backlog drains.
 */

export interface PacerClock {
  /** Milliseconds (Unix epoch in production; any monotonic origin agreeing with the server's reset in tests). */
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realPacerClock: PacerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(resolve, Math.max(0, ms));
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    }),
};

export interface PacerOptions {
  clock?: PacerClock;
  requestsPerHour?: number;
  createsPerMinute?: number;
  /** Extra seconds added to the creates window, covering clock skew between this machine and the server. */
  createMarginSeconds?: number;
  /** Requests of the hourly window that bulk traffic leaves for interactive calls. */
  interactiveReserve?: number;
  /** Seconds to wait past a reset before assuming the new window (clock skew). */
  resetMarginSeconds?: number;
}

export type Priority = 'interactive' | 'bulk';

/** One request's place in the budgets, handed back when it ends. */
export interface PacerTicket {
  observe(headers: Headers): void;
  abandon(): void;
}

export interface PacerStats {
  waits: number;
  waitedMs: number;
  limit: number;
  remaining: number | null;
  resetAt: number | null;
}

export class RatePacer {
  readonly clock: PacerClock;
  private limit: number;
  private readonly createsPerMinute: number;
  private readonly createWindowMs: number;
  private readonly reserve: number;
  private readonly resetMarginMs: number;
  /** What the server said is left in its window (null: unknown, before the first reply or after a reset). */
  private remaining: number | null = null;
  /** Server's window end, Unix seconds. */
  private resetAt: number | null = null;
  private inFlight = 0;
  /** Creates of the last minute or so: when sent, and when their reply (or failure) came (null: in flight). */
  private readonly creates: Array<{ sent: number; done: number | null }> = [];
  private pausedUntilMs = 0;
  private readonly stats = { waits: 0, waitedMs: 0 };
  /** Serializes acquisitions per priority: callers are served in order, and bulk waits never hold up the user. */
  private readonly queues: Record<Priority, Promise<unknown>> = { interactive: Promise.resolve(), bulk: Promise.resolve() };

  constructor(options: PacerOptions = {}) {
    this.clock = options.clock ?? realPacerClock;
    this.limit = options.requestsPerHour ?? 1000;
    this.createsPerMinute = options.createsPerMinute ?? 100;
    this.createWindowMs = (60 + (options.createMarginSeconds ?? 1)) * 1000;
    this.reserve = options.interactiveReserve ?? Math.max(2, Math.floor(this.limit * 0.02));
    this.resetMarginMs = (options.resetMarginSeconds ?? 1) * 1000;
  }

  /**
   * Waits until a request (and a create, when `create`) fits both budgets, then counts it as in flight.
   * The ticket is handed back with the reply's headers (`observe`) or without a reply (`abandon`).
   */
  acquire(create: boolean, priority: Priority = 'bulk', signal?: AbortSignal): Promise<PacerTicket> {
    const turn = this.queues[priority].then(() => this.waitForRoom(create, priority, signal));
    this.queues[priority] = turn.catch(() => undefined);
    return turn;
  }

  private async waitForRoom(create: boolean, priority: Priority, signal?: AbortSignal): Promise<PacerTicket> {
    for (;;) {
      if (signal?.aborted) throw new Error('aborted');
      const now = this.clock.now();
      const wait = this.delayFor(create, priority, now);
      if (wait <= 0) break;
      this.stats.waits += 1;
      this.stats.waitedMs += wait;
      await this.clock.sleep(wait, signal);
    }
    this.inFlight += 1;
    if (this.remaining !== null) this.remaining -= 1;
    const entry = create ? { sent: this.clock.now(), done: null as number | null } : null;
    if (entry) this.creates.push(entry);
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      if (entry) entry.done = this.clock.now();
      return true;
    };
    return {
      observe: (headers) => {
        if (settle()) this.observe(headers);
      },
      abandon: () => {
        if (settle()) this.abandon();
      },
    };
  }

  private delayFor(create: boolean, priority: Priority, now: number): number {
    if (this.pausedUntilMs > now) return this.pausedUntilMs - now;
    if (this.resetAt !== null && now >= this.resetAt * 1000 + this.resetMarginMs) {
      // The server's window has closed: the next reply tells the new one.
      this.remaining = null;
      this.resetAt = null;
    }
    const floor = priority === 'bulk' ? this.reserve : 0;
    if (this.remaining !== null && this.remaining <= floor) {
      // Unknown reset (none seen yet) cannot happen with a known remaining; still never wait longer than a window.
      const until = this.resetAt !== null ? this.resetAt * 1000 + this.resetMarginMs : now + 1000;
      return Math.min(Math.max(until - now, 1), 3_600_000);
    }
    if (this.remaining === null && this.inFlight > 0) {
      // Before the first reply of a window: one request at a time until the server tells its counters.
      return 5;
    }
    if (create) {
      while (this.creates.length && this.creates[0]!.done !== null && this.creates[0]!.done <= now - this.createWindowMs) this.creates.shift();
      const recent = this.creates.filter((c) => c.done === null || c.done > now - this.createWindowMs);
      if (recent.length >= this.createsPerMinute) {
        // The oldest of the last `createsPerMinute` must be out of the window first; in flight: check again shortly.
        const oldest = recent[recent.length - this.createsPerMinute]!;
        return oldest.done === null ? 5 : oldest.done + this.createWindowMs - now + 1;
      }
    }
    return 0;
  }

  /** Feeds the bucket from a reply's headers (any status, including errors). Use the ticket's `observe`. */
  private observe(headers: Headers): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const limit = Number(headers.get('x-ratelimit-limit'));
    const remaining = Number(headers.get('x-ratelimit-remaining'));
    const reset = Number(headers.get('x-ratelimit-reset'));
    if (!headers.has('x-ratelimit-remaining') || !Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    if (Number.isFinite(limit) && limit > 0) this.limit = limit;
    // Requests still in flight will be counted by the server too: assume after this one.
    const estimate = remaining - this.inFlight;
    if (this.resetAt === null || reset > this.resetAt) {
      this.resetAt = reset;
      this.remaining = estimate;
    } else if (reset === this.resetAt) {
      this.remaining = this.remaining === null ? estimate : Math.min(this.remaining, estimate);
    }
  }

  /** A request ended without a reply (network error): it may or may not have been counted. */
  private abandon(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** 429 or Retry-After: nothing leaves before `ms` from now. */
  pauseFor(ms: number): void {
    this.pausedUntilMs = Math.max(this.pausedUntilMs, this.clock.now() + ms);
  }

  snapshot(): PacerStats {
    return { ...this.stats, limit: this.limit, remaining: this.remaining, resetAt: this.resetAt };
  }
}
