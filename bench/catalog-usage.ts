/**
 * What a firm's history costs the reads that should not depend on it: every GET route without a path
 * parameter (its first page, default query), for a firm with BENCH_INVOICES invoices (with as many
 * lines and payments), against the same read for a firm with none, in the same database and run (the
 * baseline). It began with the catalog's `is_used` (`GET /currencies` read all of a firm's invoices).
 * A read whose cost grows with the firm's history fails the service under load: the goal is a ratio
 * near 1; routes that answer other than 200 without a query (exports needing a period) are listed.
 *
 *   npx tsx bench/catalog-usage.ts
 *   BENCH_INVOICES=100000 DIALECTS=sqlite npx tsx bench/catalog-usage.ts
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { buildApp } from '../server/app';
import { allRoutes } from '../server/modules/index';
import { createApiKey } from '../server/platform/api-keys';
import { newId } from '../server/platform/ids';
import { createTestStorage } from '../test/support/storage';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const DIALECTS = (process.env.DIALECTS ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const ONLY = process.env.BENCH_PATHS?.split(',');
const PATHS = ONLY ?? allRoutes.filter((r) => r.method === 'GET' && !r.path.includes(':')).map((r) => `/v1${r.path}`);

for (const dialect of DIALECTS) {
  const testStorage = await createTestStorage(dialect);
  const { app } = buildApp({ storage: testStorage.storage, validateResponses: false, rateLimits: { requestsPerHour: 1e9, createsPerMinute: 1e9 } });
  await app.ready();
  try {
    const db = testStorage.storage.db;
    const now = Math.floor(Date.now() / 1000);
    const firm = async (cui: string) => {
      const { api_key: key } = await createApiKey(db, { companyName: `Firma ${cui} SRL`, cui, now });
      const headers = { authorization: `Bearer ${key}` };
      const call = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
        const res = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
        if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
        return res.json() as { data: { id: string } };
      };
      return { call, headers };
    };
    const big = await firm('18547290');
    const empty = await firm('1590082');
    for (const f of [big, empty]) {
      await f.call('POST', '/v1/currencies', { code: 'EUR' });
      await f.call('POST', '/v1/currencies', { code: 'USD' });
    }
    // One real invoice and payment, then copies of them: the history a busy firm has after some years.
    const client = (await big.call('POST', '/v1/clients', { name: 'Client SRL', cui: 'RO18547290' })).data.id;
    const seriesId = (await big.call('POST', '/v1/invoice-series', { name: 'CU' })).data.id;
    const invoice = (await big.call('POST', '/v1/invoices', {
      client_id: client, series_id: seriesId, items: [{ description: 'Cafea', quantity: 1, price: 45.5, vat_rate: 21 }],
    })).data.id;
    await big.call('POST', '/v1/payments', { invoice_id: invoice, amount: 55.06 });
    const template = await db.selectFrom('invoices').selectAll().where('id', '=', invoice).executeTakeFirstOrThrow();
    const payment = await db.selectFrom('payments').selectAll().where('invoice_id', '=', invoice).executeTakeFirstOrThrow();
    const line = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', invoice).executeTakeFirstOrThrow();
    const t0 = performance.now();
    const series = newId('ser');
    for (let i = 0; i < INVOICES; i += 500) {
      const n = Math.min(500, INVOICES - i);
      await db.transaction().execute(async (trx) => {
        const ids = Array.from({ length: n }, () => newId('inv'));
        await trx.insertInto('invoices').values(ids.map((id, k) => ({
          ...template, id, series_id: series, number: i + k + 1, full_number: `COPY-${i + k + 1}`, client_local_uuid: null,
        }))).execute();
        await trx.insertInto('invoice_lines').values(ids.map((id) => ({ ...line, id: newId('lin'), invoice_id: id }))).execute();
        await trx.insertInto('payments').values(Array.from({ length: n }, () => ({ ...payment, id: newId('pay') }))).execute();
      });
    }
    // What autovacuum does on a live PostgreSQL after a burst of rows: without statistics the planner
    // takes the tables for empty (GET /invoices/stats then took 16 s), and without the visibility map
    // a count over an index reads the table too. A year of gradual growth never shows either.
    if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
    console.log(`\n${dialect}: ${INVOICES} invoices with their lines and payments copied in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const time = async (f: typeof big, path: string) => {
      for (let i = 0; i < 5; i++) await f.call('GET', path); // warm-up
      const t = performance.now();
      for (let i = 0; i < ROUNDS; i++) await f.call('GET', path);
      return ((performance.now() - t) * 1000) / ROUNDS;
    };
    const refused: string[] = [];
    const ratios: Array<[string, number]> = [];
    for (const path of PATHS) {
      const probe = await app.inject({ method: 'GET', url: path, headers: big.headers });
      if (probe.statusCode !== 200) {
        refused.push(`${path} ${probe.statusCode}`);
        continue;
      }
      // Alternated, so that a slower second of the machine weighs on both.
      let withHistory = 0;
      let without = 0;
      for (let r = 0; r < 3; r++) {
        without += await time(empty, path);
        withHistory += await time(big, path);
      }
      ratios.push([path, withHistory / without]);
      console.log(`  GET ${path.padEnd(34)} firm with ${INVOICES} invoices ${(withHistory / 3).toFixed(0).padStart(7)} µs, ` +
        `firm with none ${(without / 3).toFixed(0).padStart(5)} µs: ratio ${(withHistory / without).toFixed(2)}`);
    }
    const worst = ratios.sort((a, b) => b[1] - a[1]).slice(0, 3).map(([p, r]) => `${p} ${r.toFixed(2)}`).join(', ');
    console.log(`  worst ratios: ${worst} (goal: near 1)`);
    if (refused.length) console.log(`  not measured (no 200 without a query): ${refused.join(', ')}`);
  } finally {
    await app.close();
    await testStorage.drop();
  }
}
