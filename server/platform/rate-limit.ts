import { Redis } from 'ioredis';

export interface WindowHit {
  count: number;
  /** Unix seconds when the window closes. */
  resetAt: number;
}

/** Fixed-window counters. One store serves every API process when it lives in Redis. */
export interface RateLimitStore {
  hit(key: string, windowSeconds: number, nowSeconds: number): Promise<WindowHit>;
  close(): Promise<void>;
}

function windowOf(windowSeconds: number, now: number) {
  const start = Math.floor(now / windowSeconds) * windowSeconds;
  return { start, resetAt: start + windowSeconds };
}

export class MemoryRateLimitStore implements RateLimitStore {
  private counters = new Map<string, WindowHit>();
  private lastSweep = 0;

  async hit(key: string, windowSeconds: number, now: number): Promise<WindowHit> {
    const { start, resetAt } = windowOf(windowSeconds, now);
    const id = `${key}:${start}`;
    const current = this.counters.get(id);
    const next = { count: (current?.count ?? 0) + 1, resetAt };
    this.counters.set(id, next);
    if (this.counters.size > 50_000 && now !== this.lastSweep) this.sweep(now);
    return next;
  }

  private sweep(now: number) {
    this.lastSweep = now;
    for (const [id, value] of this.counters) if (value.resetAt <= now) this.counters.delete(id);
  }

  async close() {
    this.counters.clear();
  }
}

// INCR and the first EXPIRE in one script: a crash between them would leave a counter that never resets.
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('EXPIREAT', KEYS[1], ARGV[1]) end
return c`;

export interface RedisStoreOptions {
  /** Start of every counter's name; processes that must share budgets use the same one. */
  prefix?: string;
}

export const DEFAULT_REDIS_PREFIX = 'tejghea:rl:';

export class RedisRateLimitStore implements RateLimitStore {
  private redis: Redis;
  private prefix: string;

  constructor(url: string, options: RedisStoreOptions = {}) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  }

  async hit(key: string, windowSeconds: number, now: number): Promise<WindowHit> {
    const { start, resetAt } = windowOf(windowSeconds, now);
    // The counter lives a few seconds past its window so that a clock a little behind Redis's still finds it.
    const count = (await this.redis.eval(HIT_SCRIPT, 1, `${this.prefix}${key}:${start}`, String(resetAt + 5))) as number;
    return { count, resetAt };
  }

  async close() {
    await this.redis.quit();
  }
}

export interface RateLimits {
  requestsPerHour: number;
  createsPerMinute: number;
}

export const CONTRACT_LIMITS: RateLimits = { requestsPerHour: 1000, createsPerMinute: 100 };

export interface RateDecision {
  headers: Record<string, string>;
  /** Seconds to wait, when refused. */
  retryAfter: number | null;
}

/** Both budgets of the contract, per key: every request counts per hour, creates also per minute. */
export async function checkRateLimit(
  store: RateLimitStore,
  limits: RateLimits,
  keyId: string,
  isCreate: boolean,
  now: number,
): Promise<RateDecision> {
  const hour = await store.hit(`h:${keyId}`, 3600, now);
  const headers = {
    'x-ratelimit-limit': String(limits.requestsPerHour),
    'x-ratelimit-remaining': String(Math.max(0, limits.requestsPerHour - hour.count)),
    'x-ratelimit-reset': String(hour.resetAt),
  };
  if (hour.count > limits.requestsPerHour) return { headers, retryAfter: Math.max(1, hour.resetAt - now) };
  if (isCreate) {
    const minute = await store.hit(`m:${keyId}`, 60, now);
    if (minute.count > limits.createsPerMinute) return { headers, retryAfter: Math.max(1, minute.resetAt - now) };
  }
  return { headers, retryAfter: null };
}
