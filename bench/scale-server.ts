/**
 * One service process of bench/scale.ts: the service as `npm run server` builds it (PostgreSQL from
 * DATABASE_URL/DATABASE_SCHEMA and the DATABASE_POOL_* settings, rate limits shared in Redis), plus
 * two hooks that time how long each request held a series row lock (server/platform/lock-probe.ts).
 * The parent asks for its figures over the IPC channel: `reset` starts a measured phase, `stats`
 * answers CPU time and lock hold times since.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../server/app';
import { openStorage, storageConfigFromEnv } from '../server/db/connect';
import { lockProbe, type LockProbeStore } from '../server/platform/lock-probe';
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
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  pgQueries += 1;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- forwards whatever overload was called
  return (pgQuery as any).apply(this, args);
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

const probes = new WeakMap<FastifyRequest, LockProbeStore>();
let holds: number[] = [];
let requests = 0;
let cpuAtReset = process.cpuUsage();
let switchesAtReset = switches();

app.addHook('onRequest', (request, _reply, done) => {
  const store: LockProbeStore = {};
  probes.set(request, store);
  // The rest of the request (auth, handler, transaction) runs inside this store.
  lockProbe.run(store, done);
});
app.addHook('onSend', (request, _reply, payload, done) => {
  const lockedAt = probes.get(request)?.lockedAt;
  // onSend runs after the handler returned, so after the COMMIT that released the lock.
  if (lockedAt !== undefined) holds.push(performance.now() - lockedAt);
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
