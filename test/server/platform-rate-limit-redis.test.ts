import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { callApi, randomCui, spawnServer, startTestServer, type ChildServer, type TestServer } from '../support/server';
import { createTestStorage, type TestStorage } from '../support/storage';
import { createApiKey } from '../../server/platform/api-keys';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS, MemoryRateLimitStore, RedisRateLimitStore, type RateLimitLog } from '../../server/platform/rate-limit';

/**
 * Redis going away under a running service: the service keeps answering, counting per process in
 * memory, and goes back to Redis when it answers again. Every Redis here is a private redis-server of
 * this file on a port of its own (the shared one on 6379 is never touched).
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback port nobody listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface PrivateRedis {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

const redisChildren: ChildProcess[] = [];
const clients: Redis[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  for (const client of clients) client.disconnect();
  for (const child of redisChildren) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  }
});

/** redis-server on `port`, nothing saved to disk; resolved once it accepts connections. */
async function startRedis(port: number): Promise<PrivateRedis> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  redisChildren.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!out.includes('Ready to accept connections')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on ${port}:\n${out}`);
    await sleep(20);
  }
  return {
    port,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The test's own look into a private Redis; quiet (and let go of at the end) if a test leaves it behind a stopped server. */
function redisClient(url: string): Redis {
  const client = new Redis(url);
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}

/** What the store logged, in order. */
function collectingLog() {
  const lines: Array<{ level: 'warn' | 'info'; msg: string }> = [];
  const log: RateLimitLog = {
    warn: (_obj, msg) => lines.push({ level: 'warn', msg }),
    info: (_obj, msg) => lines.push({ level: 'info', msg }),
  };
  return { log, lines, levels: () => lines.map((l) => l.level) };
}

async function timedGet(base: string, key: string, path = '/me') {
  const t = performance.now();
  const res = await callApi(base, key, 'GET', path);
  return { res, ms: performance.now() - t };
}

function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1]! };
}

const fmt = (s: ReturnType<typeof summary>) => `median ${s.median.toFixed(1)} ms, p90 ${s.p90.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await sleep(50);
  }
}

/** Real-clock windows: keep clear of an hour's last seconds, where a counter would expire mid-test. */
async function clearOfHourEnd(): Promise<void> {
  for (;;) {
    const d = new Date();
    if (!(d.getUTCMinutes() === 59 && d.getUTCSeconds() > 20)) return;
    await sleep(1000);
  }
}

async function testServerWith(store: RedisRateLimitStore | MemoryRateLimitStore, requestsPerHour: number): Promise<TestServer> {
  const server = await startTestServer('sqlite', { rateLimitStore: store, rateLimits: { requestsPerHour, createsPerMinute: 3 } });
  cleanups.push(async () => {
    await server.close();
    await store.close();
  });
  // Redis's EXPIREAT runs on the real clock: the service's windows must be the real ones too.
  server.clock.set(Math.floor(Date.now() / 1000));
  return server;
}

describe('rate limits when Redis is unreachable', () => {
  it('answers every request, counts in memory and still refuses over budget, fast, when nothing listens on the Redis port', async () => {
    const { log, lines, levels } = collectingLog();
    const store = new RedisRateLimitStore(`redis://127.0.0.1:${await closedPort()}`, { log });
    await store.settled(2000);
    expect(levels()).toEqual(['warn']);
    expect(lines[0]!.msg).toMatch(/^Redis unreachable/);
    const server = await testServerWith(store, 40);
    // The same requests on a service that never had Redis, for the comparison.
    const memoryOnly = await testServerWith(new MemoryRateLimitStore(), 40);

    const writer = await server.key();
    const creates: number[] = [];
    for (let i = 0; i < 4; i += 1) creates.push((await server.api(writer.api_key, 'POST', '/work-points', { name: `Punct ${i}` })).status);
    expect(creates).toEqual([201, 201, 201, 429]);

    const reader = await server.key();
    const baseline = await memoryOnly.key();
    // One warm-up each (first compile of the route's reply check), not measured.
    expect((await server.api(reader.api_key, 'GET', '/me')).status).toBe(200);
    expect((await memoryOnly.api(baseline.api_key, 'GET', '/me')).status).toBe(200);
    const outage: number[] = [];
    const noRedis: number[] = [];
    for (let i = 2; i <= 40; i += 1) {
      const { res, ms } = await timedGet(server.base, reader.api_key);
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('40');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(40 - i));
      outage.push(ms);
      noRedis.push((await timedGet(memoryOnly.base, baseline.api_key)).ms);
    }
    const over = await server.api(reader.api_key, 'GET', '/me');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);

    const during = summary(outage);
    console.info(`request latency, Redis port closed: ${fmt(during)}; memory store, no Redis: ${fmt(summary(noRedis))}`);
    // Before the fallback, each of these waited for the client's reconnect attempts and then answered 500.
    // Generous bounds (a loaded CI machine): what they catch is a request that waits for Redis.
    expect(during.median).toBeLessThan(DEFAULT_REDIS_COMMAND_TIMEOUT_MS);
    expect(during.max).toBeLessThan(2000);
    // One warning for the whole outage, whatever the traffic.
    expect(levels()).toEqual(['warn']);
  });

  it('goes on in memory when a stuck Redis stops answering, waiting at most the command timeout, and comes back to it', async () => {
    const redis = await startRedis(await closedPort());
    const { log, levels } = collectingLog();
    const prefix = `tejghea-test:${randomUUID()}:`;
    const store = new RedisRateLimitStore(`redis://127.0.0.1:${redis.port}`, { prefix, log });
    await store.settled(2000);
    const server = await testServerWith(store, 100);
    const reader = await server.key();
    const client = redisClient(`redis://127.0.0.1:${redis.port}`);
    const counted = async () => Number(await client.get((await client.keys(`${prefix}h:${reader.key_id}:*`))[0] ?? 'none'));

    await clearOfHourEnd();
    expect((await server.api(reader.api_key, 'GET', '/me')).status).toBe(200);
    expect(await counted()).toBe(1);

    // The server takes the command and never answers: only the client's own timeout ends the wait.
    redis.child.kill('SIGSTOP');
    try {
      const first = await timedGet(server.base, reader.api_key);
      expect(first.res.status).toBe(200);
      expect(first.res.headers.get('x-ratelimit-remaining')).toBe('98');
      expect(first.ms).toBeGreaterThanOrEqual(DEFAULT_REDIS_COMMAND_TIMEOUT_MS - 5);
      const after: number[] = [];
      for (let i = 3; i <= 12; i += 1) {
        const { res, ms } = await timedGet(server.base, reader.api_key);
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(100 - i));
        after.push(ms);
      }
      const rest = summary(after);
      console.info(`stuck Redis: first request ${first.ms.toFixed(1)} ms (command timeout ${DEFAULT_REDIS_COMMAND_TIMEOUT_MS} ms), then ${fmt(rest)}`);
      // Once Redis is taken as gone, requests no longer wait for it.
      expect(rest.median).toBeLessThan(DEFAULT_REDIS_COMMAND_TIMEOUT_MS);
      expect(levels()).toEqual(['warn']);
    } finally {
      redis.child.kill('SIGCONT');
    }

    // The connection never dropped, so no reconnect announces the recovery: traffic makes the store ask.
    let made = 12;
    await until('the store to find Redis answering again', async () => {
      const res = await server.api(reader.api_key, 'GET', '/me');
      made += 1;
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(100 - made));
      return levels().length === 2;
    });
    expect(levels()).toEqual(['warn', 'info']);
    const before = await counted();
    const res = await server.api(reader.api_key, 'GET', '/me');
    made += 1;
    expect(await counted()).toBe(before + 1);
    // Redis missed the hits counted in memory meanwhile; this process still counts every one of them.
    expect(before + 1).toBeLessThan(made);
    expect(res.headers.get('x-ratelimit-remaining')).toBe(String(100 - made));
    await client.quit();
    await redis.stop();
  });
});

describe('a service process whose Redis goes away and comes back', () => {
  const children: ChildServer[] = [];
  const storages: TestStorage[] = [];
  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    for (const s of storages) await s.drop();
  });

  it('keeps answering with rate-limit headers, refuses from memory over budget, logs once each way, and counts in Redis again', async () => {
    const redis = await startRedis(await closedPort());
    const store = await createTestStorage('postgres');
    storages.push(store);
    const prefix = `tejghea-test:${randomUUID()}:`;
    const url = `redis://127.0.0.1:${redis.port}`;
    const server = await spawnServer({ ...store.env, REDIS_URL: url, RATE_LIMIT_PREFIX: prefix, RATE_LIMIT_PER_HOUR: '6', LOG: '1' });
    children.push(server);
    const logged = (msg: RegExp) =>
      server
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((entry) => msg.test(entry.msg));
    const now = () => Math.floor(Date.now() / 1000);

    await clearOfHourEnd();
    const key = await createApiKey(store.storage.db, { companyName: 'Redis Căzut SRL', cui: randomCui(), now: now() });
    const hourCounter = async (client: Redis, keyId: string) => {
      const names = await client.keys(`${prefix}h:${keyId}:*`);
      return names.length ? Number(await client.get(names[0]!)) : null;
    };
    const seen: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await callApi(server.base, key.api_key, 'GET', '/me');
      expect(res.status).toBe(200);
      seen.push(res.headers.get('x-ratelimit-remaining')!);
    }
    const first = redisClient(url);
    expect(await hourCounter(first, key.key_id)).toBe(2);
    await first.quit();

    await redis.stop();
    const outage: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { res, ms } = await timedGet(server.base, key.api_key);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('6');
      seen.push(res.headers.get('x-ratelimit-remaining')!);
      outage.push(ms);
    }
    // Memory took over where Redis had got to.
    expect(seen).toEqual(['5', '4', '3', '2', '1', '0']);
    const over = await callApi(server.base, key.api_key, 'GET', '/me');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limit_exceeded');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    console.info(`request latency over HTTP to a service process, Redis stopped: ${fmt(summary(outage))}`);
    expect(summary(outage).max).toBeLessThan(2000);
    expect(logged(/^Redis unreachable/).map((e) => e.level)).toEqual([40]);

    // The same port again: an empty Redis (nothing was saved).
    const again = await startRedis(redis.port);
    await until('the service to log that Redis answers again', () => logged(/^Redis answers again/).length > 0);
    const client = redisClient(url);
    const fresh = await createApiKey(store.storage.db, { companyName: 'Redis Revenit SRL', cui: randomCui(), now: now() });
    const res = await callApi(server.base, fresh.api_key, 'GET', '/me');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('5');
    expect(await hourCounter(client, fresh.key_id)).toBe(1);
    // The spent key counts in Redis again too, and stays refused: this process had counted it past its budget.
    expect((await callApi(server.base, key.api_key, 'GET', '/me')).status).toBe(429);
    expect(await hourCounter(client, key.key_id)).toBe(1);
    await client.quit();
    expect(logged(/^Redis unreachable/)).toHaveLength(1);
    expect(logged(/^Redis answers again/).map((e) => e.level)).toEqual([30]);
    // No console noise from the Redis client about each failed reconnection.
    expect(server.stderr()).not.toMatch(/ioredis/i);

    // A stop while Redis is down again closes cleanly too.
    await again.stop();
    await until('the service to notice', () => logged(/^Redis unreachable/).length === 2);
    expect((await callApi(server.base, fresh.api_key, 'GET', '/me')).status).toBe(200);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});
