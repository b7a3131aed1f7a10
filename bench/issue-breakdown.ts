/**
 * Where the time of one issued invoice goes (POST /invoices, next number of one series), in process
 * through Fastify's `inject`, one request at a time, on SQLite and PostgreSQL:
 *   auth      request arrives → key lookup, rate limit and scope done, and the JSON body read and parsed
 *   validate  → Fastify's own validation stage (ours runs in the handler, so this is near zero)
 *   prepare   → handler up to the series row lock (zod checks of the body, client, pricing, transaction begin)
 *   number    → lock granted through the number, the inserts and the COMMIT, and the reply's view
 *   reply     → the reply is serialised and handed to the socket
 * printed as µs per issue and share of the whole, beside the cost of one bare INSERT into `invoices`
 * measured in the same run (the floor a database write sets).
 *
 *   npx tsx bench/issue-breakdown.ts            # N=2000, both dialects
 *   N=5000 DIALECTS=sqlite npx tsx bench/issue-breakdown.ts
 */
import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import { buildApp } from '../server/app';
import { createApiKey } from '../server/platform/api-keys';
import { newId } from '../server/platform/ids';
import { setSeriesLockListener } from '../server/platform/lock-probe';
import { createTestStorage } from '../test/support/storage';

const N = Number(process.env.N ?? 2000);
const DIALECTS = (process.env.DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const PHASES = ['auth', 'validate', 'prepare', 'number', 'reply'] as const;

interface Marks {
  start: number;
  /** When the series row lock was granted (one request at a time, so the listener knows whose). */
  lockedAt?: number;
  preValidation?: number;
  preHandler?: number;
  onSend?: number;
}

for (const dialect of DIALECTS) {
  const testStorage = await createTestStorage(dialect);
  const { app } = buildApp({ storage: testStorage.storage, validateResponses: false, rateLimits: { requestsPerHour: 1e9, createsPerMinute: 1e9 } });
  const marks = new WeakMap<FastifyRequest, Marks>();
  const sums = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<(typeof PHASES)[number], number>;
  let measured = 0;
  let measuring = false;
  let current: Marks | null = null;
  setSeriesLockListener(() => {
    if (current && current.lockedAt === undefined) current.lockedAt = performance.now();
  });
  app.addHook('onRequest', (request, _reply, done) => {
    current = { start: performance.now() };
    marks.set(request, current);
    done();
  });
  app.addHook('preValidation', (request, _reply, done) => {
    marks.get(request)!.preValidation = performance.now();
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    marks.get(request)!.preHandler = performance.now();
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    marks.get(request)!.onSend = performance.now();
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const m = marks.get(request)!;
    if (measuring && m.preValidation && m.preHandler && m.lockedAt && m.onSend) {
      sums.auth += m.preValidation - m.start;
      sums.validate += m.preHandler - m.preValidation;
      sums.prepare += m.lockedAt - m.preHandler;
      sums.number += m.onSend - m.lockedAt;
      sums.reply += performance.now() - m.onSend;
      measured += 1;
    }
    done();
  });
  await app.ready();
  try {
    const db = testStorage.storage.db;
    const { api_key: key } = await createApiKey(db, { companyName: 'Bench SRL', cui: '18547290', now: Math.floor(Date.now() / 1000) });
    const headers = { authorization: `Bearer ${key}` };
    const post = async (url: string, payload: unknown) => {
      const res = await app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
      if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return (res.json() as { data: { id: string } }).data.id;
    };
    const clientId = await post('/v1/clients', { name: 'Client Bench SRL', cui: 'RO18547290' });
    const seriesId = await post('/v1/invoice-series', { name: 'BD' });
    const body = {
      client_id: clientId, series_id: seriesId,
      items: [
        { description: 'Cafea boabe', quantity: 2, price: 45.5, vat_rate: 21 },
        { description: 'Lapte', quantity: 1, price: 8.99, vat_rate: 11 },
      ],
    };
    for (let i = 0; i < 300; i++) await post('/v1/invoices', body);
    measuring = true;
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await post('/v1/invoices', body);
    const whole = ((performance.now() - t0) * 1000) / N;
    measuring = false;
    const template = await db.selectFrom('invoices').selectAll().where('series_id', '=', seriesId).executeTakeFirstOrThrow();
    const bareSeries = newId('ser');
    const t1 = performance.now();
    for (let i = 0; i < N; i++) {
      await db.insertInto('invoices').values({ ...template, id: newId('inv'), series_id: bareSeries, number: i + 1, full_number: `BARE-${i + 1}`, client_local_uuid: null }).execute();
    }
    const bare = ((performance.now() - t1) * 1000) / N;
    const phased = PHASES.reduce((s, p) => s + sums[p], 0);
    console.log(`\n${dialect}: one POST /invoices in process = ${whole.toFixed(0)} µs (${N} issues, one at a time); one bare INSERT = ${bare.toFixed(0)} µs (ratio ${(bare / whole).toFixed(2)})`);
    for (const p of PHASES) {
      const us = (sums[p] * 1000) / measured;
      console.log(`  ${p.padEnd(9)} ${us.toFixed(0).padStart(6)} µs  ${((100 * sums[p]) / phased).toFixed(1).padStart(5)}%`);
    }
    console.log(`  (inject's own cost and the gaps between hooks: ${(whole - (phased * 1000) / measured).toFixed(0)} µs)`);
  } finally {
    await app.close();
    await testStorage.drop();
  }
}
