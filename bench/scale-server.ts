/**
 * One service process of bench/scale.ts: the service as `npm run server` builds it (PostgreSQL from
 * DATABASE_URL/DATABASE_SCHEMA and the DATABASE_POOL_* settings, rate limits shared in Redis), plus
 * two hooks that time how long each request held a series row lock (server/platform/lock-probe.ts).
 * The parent asks for its figures over the IPC channel: `reset` starts a measured phase, `stats`
 * answers CPU time and lock hold times since.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import { buildApp } from '../server/app';
import { openStorage, storageConfigFromEnv } from '../server/db/connect';
import { lockProbe, type LockProbeStore } from '../server/platform/lock-probe';
import { RedisRateLimitStore } from '../server/platform/rate-limit';

export interface ServerStats {
  cpuMs: number;
  requests: number;
  holdsMs: number[];
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

await rateLimitStore.settled(2000);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;

process.on('message', (message: string) => {
  if (message === 'reset') {
    holds = [];
    requests = 0;
    cpuAtReset = process.cpuUsage();
    process.send!({ reset: true });
  } else if (message === 'stats') {
    const cpu = process.cpuUsage(cpuAtReset);
    const stats: ServerStats = { cpuMs: (cpu.user + cpu.system) / 1000, requests, holdsMs: holds };
    process.send!({ stats });
  } else if (message === 'close') {
    void app.close().then(() => rateLimitStore.close()).then(() => storage.close()).then(() => process.exit(0));
  }
});
process.send!({ port });
