/**
 * One service process of bench/scale.ts: the service as `npm run server` builds it (PostgreSQL from
 * DATABASE_URL/DATABASE_SCHEMA and the DATABASE_POOL_* settings, rate limits shared in Redis), plus
 * a timer on PostgreSQL's connections of how long each transaction held a series row lock: from the
 * answer to the statement that locks the row to the answer to its COMMIT (or ROLLBACK).
 * The parent asks for its figures over the IPC channel: `reset` starts a measured phase, `stats`
 * answers CPU time and lock hold times since.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../server/app';
import { openStorage, storageConfigFromEnv } from '../server/db/connect';
import { RedisRateLimitStore } from '../server/platform/rate-limit';

export interface ServerStats {
  cpuMs: number;
  /** The measured phase's V8 CPU profile, when SCALE_PROFILE_DIR asked for one. */
  profile?: string;
  requests: number;
  holdsMs: number[];
  /** Context switches of this process in the phase: voluntary (it waited: idle loop, I/O) and forced (preempted). */
  voluntarySwitches: number;
  forcedSwitches: number;
  /** Statements sent to PostgreSQL and commands sent to Redis in the phase: the work asked of them. */
  pgQueries: number;
  redisCommands: number;
}

// Counted at the drivers' single entry points, so that a second process can be seen to ask for no more.
let pgQueries = 0;
let redisCommands = 0;
let holds: number[] = [];
/** The statements that lock a series row (numbering.ts: the row `for update`, alone or with the counter move). */
const SERIES_LOCK = /\bnumber_series\b[\s\S]*\bfor update\b/i;
const END = /^\s*(commit|rollback)\b/i;
/** When the series row lock of a connection's open transaction was granted. */
const lockedAt = new WeakMap<pg.Client, number>();
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  pgQueries += 1;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- forwards whatever overload was called
  const result = (pgQuery as any).apply(this, args) as unknown;
  const first = args[0] as string | { text?: string } | undefined;
  const text = typeof first === 'string' ? first : first?.text;
  if (text && result instanceof Promise) {
    if (SERIES_LOCK.test(text)) {
      result.then(() => { if (!lockedAt.has(this)) lockedAt.set(this, performance.now()); }, () => undefined);
    } else if (END.test(text)) {
      // Timed as the client sees the lock released: PostgreSQL releases it as the COMMIT completes.
      result.then(() => {
        const at = lockedAt.get(this);
        if (at === undefined) return;
        lockedAt.delete(this);
        holds.push(performance.now() - at);
      }, () => lockedAt.delete(this));
    }
  }
  return result;
} as typeof pg.Client.prototype.query;
const redisSend = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<typeof redisSend>) {
  redisCommands += 1;
  return redisSend.apply(this, args);
};

/** This process's context switch counts so far (Linux; zeros elsewhere). */
function switches(): { voluntary: number; forced: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const count = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { voluntary: count('voluntary_ctxt_switches'), forced: count('nonvoluntary_ctxt_switches') };
  } catch {
    return { voluntary: 0, forced: 0 };
  }
}

const storage = openStorage(storageConfigFromEnv(process.env));
const rateLimitStore = new RedisRateLimitStore(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  prefix: process.env.RATE_LIMIT_PREFIX ?? 'bench-scale',
});
const { app } = buildApp({
  storage,
  rateLimitStore,
  rateLimits: { requestsPerHour: 1e9, createsPerMinute: 1e9 },
  validateResponses: false,
});

let requests = 0;
let cpuAtReset = process.cpuUsage();
let switchesAtReset = switches();

app.addHook('onSend', (_request, _reply, payload, done) => {
  requests += 1;
  done(null, payload);
});

// SCALE_PROFILE_DIR: a V8 CPU profile of the measured phase alone (reset → stats), one file per
// process, so that bench/scale-profile.ts can say where the CPU of one process and of two went.
const profileDir = process.env.SCALE_PROFILE_DIR;
const inspector = profileDir ? new Session() : null;
if (inspector) {
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
}

await rateLimitStore.settled(2000);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;

process.on('message', async (message: string) => {
  if (message === 'reset') {
    holds = [];
    requests = 0;
    if (inspector) await inspector.post('Profiler.start');
    cpuAtReset = process.cpuUsage();
    switchesAtReset = switches();
    pgQueries = 0;
    redisCommands = 0;
    process.send!({ reset: true });
  } else if (message === 'stats') {
    const cpu = process.cpuUsage(cpuAtReset);
    const now = switches();
    const stats: ServerStats = {
      cpuMs: (cpu.user + cpu.system) / 1000, requests, holdsMs: holds,
      voluntarySwitches: now.voluntary - switchesAtReset.voluntary, forcedSwitches: now.forced - switchesAtReset.forced,
      pgQueries, redisCommands,
    };
    if (inspector && profileDir) {
      const { profile } = await inspector.post('Profiler.stop');
      stats.profile = join(profileDir, `scale-${process.env.SCALE_RUN_LABEL ?? 'run'}-pid${process.pid}.cpuprofile`);
      writeFileSync(stats.profile, JSON.stringify(profile));
    }
    process.send!({ stats });
  } else if (message === 'close') {
    void app.close().then(() => rateLimitStore.close()).then(() => storage.close()).then(() => process.exit(0));
  }
});
process.send!({ port });
