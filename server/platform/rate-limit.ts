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
    return this.hitAtLeast(key, windowSeconds, now, 0);
  }

  /**
   * One more hit, and the count made at least `floor`. The Redis store passes the shared count: this
   * one then holds no less than Redis nor than this process's own hits (those counted here while Redis
   * was gone included), and counting can go on here without starting over when Redis goes.
   */
  hitAtLeast(key: string, windowSeconds: number, now: number, floor: number): WindowHit {
    const { start, resetAt } = windowOf(windowSeconds, now);
    const id = `${key}:${start}`;
    const next = { count: Math.max((this.counters.get(id)?.count ?? 0) + 1, floor), resetAt };
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

/** Where the store says that Redis went away and came back: the app's logger (pino's call shape). */
export interface RateLimitLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const silentLog: RateLimitLog = { warn: () => undefined, info: () => undefined };

export interface RedisStoreOptions {
  /** Start of every counter's name; processes that must share budgets use the same one. */
  prefix?: string;
  /** Longest a counter may take (ms) before Redis is taken as gone and the hit is counted in memory. */
  commandTimeoutMs?: number;
  /** Longest a connection attempt may take (ms), so a silent (firewalled) host is noticed and retried. */
  connectTimeoutMs?: number;
  log?: RateLimitLog;
}

export const DEFAULT_REDIS_PREFIX = 'tejghea:rl:';
/**
 * A counter on a reachable Redis answers in about a millisecond; a quarter second means the server is
 * stuck or gone. Not much lower: a loaded machine can delay a healthy answer by tens of milliseconds,
 * and each false alarm would split the shared budget into per-process ones for a second.
 */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 250;
/** While Redis is taken as gone but its connection still looks open (a stuck server), how often to ask it. */
const PROBE_INTERVAL_MS = 1000;

/**
 * Counters in Redis, shared by every process. When Redis cannot be reached, the service does not fail:
 * counting goes on in this process's memory (fail-open to per-process limits, see docs/api-decisions.md)
 * and returns to Redis once it answers again, with one warning and one info line in the log.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  /**
   * Follows every count Redis gives (so it is as far along as the shared count when Redis goes), and
   * counts on its own while Redis is gone.
   */
  private readonly memory = new MemoryRateLimitStore();
  /** starting: until the first connection succeeds or fails; hits meanwhile are counted in memory. */
  private state: 'starting' | 'up' | 'down' = 'starting';
  private settledWaiters: Array<() => void> = [];
  private probing = false;
  private lastProbe = 0;
  private closing = false;
  private log: RateLimitLog;

  constructor(url: string, options: RedisStoreOptions = {}) {
    this.prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
    this.log = options.log ?? silentLog;
    this.redis = new Redis(url, {
      // A hit never waits for Redis to come back: no queue while disconnected, no retry of a command
      // after a reconnect (nor a late replay of an INCR that memory has already counted), and a bound on
      // a command sent to a server that stopped answering.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout: options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: options.connectTimeoutMs ?? 1000,
      // ioredis's default reconnect schedule (50 ms more each time, at most 2 s apart) stays: Redis is
      // back in use at most ~2 s after it answers again.
    });
    // Without a listener ioredis prints every failed reconnection to the console.
    this.redis.on('error', (error: Error) => this.markDown(error));
    this.redis.on('close', () => {
      if (!this.closing) this.markDown(new Error('connection to Redis closed'));
    });
    this.redis.on('ready', () => this.markUp());
  }

  /** Logs to the app's logger from now on (the app is built after its store). */
  useLog(log: RateLimitLog): void {
    this.log = log;
  }

  /** Resolves once the first connection attempt has succeeded or failed, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    if (this.state !== 'starting') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.settledWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async hit(key: string, windowSeconds: number, now: number): Promise<WindowHit> {
    if (this.state === 'up') {
      const { start, resetAt } = windowOf(windowSeconds, now);
      try {
        // The counter lives a few seconds past its window so that a clock a little behind Redis's still finds it.
        const count = (await this.redis.eval(HIT_SCRIPT, 1, `${this.prefix}${key}:${start}`, String(resetAt + 5))) as number;
        // After an outage Redis may hold less than this process counted (hits counted in memory, or a
        // restarted Redis that lost its counters): the higher of the two is the budget spent.
        return this.memory.hitAtLeast(key, windowSeconds, now, count);
      } catch (error) {
        this.markDown(error);
      }
    } else if (this.state === 'down') {
      this.probe();
    }
    return this.memory.hit(key, windowSeconds, now);
  }

  /**
   * A server that stopped answering on an open connection (stuck, or a network that drops packets)
   * gives no 'ready' when it recovers: ask it, at most once a second, while traffic comes.
   */
  private probe(): void {
    if (this.probing || this.redis.status !== 'ready' || Date.now() - this.lastProbe < PROBE_INTERVAL_MS) return;
    this.probing = true;
    this.lastProbe = Date.now();
    this.redis
      .ping()
      .then(
        () => this.markUp(),
        () => undefined,
      )
      .finally(() => {
        this.probing = false;
      });
  }

  private markDown(error: unknown): void {
    if (this.closing || this.state === 'down') return;
    this.state = 'down';
    this.settle();
    this.log.warn({ err: error }, 'Redis unreachable: rate limits are counted per process, in memory, until it answers');
  }

  private markUp(): void {
    if (this.closing || this.state === 'up') return;
    const wasDown = this.state === 'down';
    this.state = 'up';
    this.settle();
    if (wasDown) this.log.info({}, 'Redis answers again: rate limits are counted in Redis again');
  }

  private settle(): void {
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }

  async close() {
    this.closing = true;
    this.settle();
    // QUIT needs a live connection (there is no queue to wait in); without one there is nothing to say goodbye to.
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
    await this.memory.close();
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
