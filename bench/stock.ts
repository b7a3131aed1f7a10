/**
 * Stock at shop scale: 50 000 products and 1 000 000 movements in the ledger, then, in the same run,
 * (a) an issue whose line sells a stocked product (the decrement: level locked, moved, movement
 * written, in the issue's transaction) against the same issue of a service (a catalogue line that moves no stock), and
 * (b) the stock list searched by product name (what the counter's product search shows) against the
 * product list searched the same way. Prints ms per request and the ratio to its baseline.
 *
 *   npx tsx bench/stock.ts                                   # small: 5 000 products, 100 000 movements
 *   BENCH_PRODUCTS=50000 BENCH_MOVEMENTS=1000000 npx tsx bench/stock.ts
 *   BENCH_DIALECT=postgres npx tsx bench/stock.ts
 *   BENCH_VALUATION=fifo npx tsx bench/stock.ts                # the decrement under FIFO (lots seeded too)
 *
 * The real service over HTTP on loopback (response validation off, as in production); the ledger is
 * seeded straight into the tables in one transaction, each table by one INSERT ... SELECT over a row
 * source made in SQL (generate_series / a recursive CTE), so a million movements load in seconds, shaped as receptions would leave it (levels equal
 * to the sum of their movements). Rounds alternate the measured and the baseline requests, so the load
 * of a shared machine falls on both alike.
 *
 * Figures at 50 000 products / 1 000 000 movements, 2026-11-26, 2-core machine shared by 8 agents, at a
 * quieter moment (load 4-10; runs at load 14-35 are in docs/api-decisions.md, "Stock"). Issue with a
 * stocked line vs a service line; GET /stock?search vs GET /products?search (term matching 1 product in 7):
 *   SQLite CMP      issue  5,83 vs  4,11 ms (1,42)   search  48,5 vs 16,1 ms (3,01)
 *   PostgreSQL CMP  issue  9,84 vs  6,57 ms (1,50)   search  93,8 vs 68,4 ms (1,37)
 *   SQLite FIFO     issue  4,32 vs  2,83 ms (1,52)   search  28,8 vs 12,0 ms (2,40)
 *   PostgreSQL FIFO issue 17,44 vs 13,25 ms (1,32)   search 137,2 vs 68,7 ms (2,00)
 * Seeding the million movements: 8-14 s on SQLite, 33-58 s on PostgreSQL.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { loadavg } from 'node:os';
import { randomCui, startTestServer } from '../test/support/server';
import type { Dialect } from '../server/db/types';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 5_000);
const MOVEMENTS = Number(process.env.BENCH_MOVEMENTS ?? 100_000);
const N = Number(process.env.BENCH_N ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DIALECT = (process.env.BENCH_DIALECT ?? 'sqlite') as Dialect;
/** `fifo`: the firm values at FIFO; each seeded movement is then also a lot of 1 unit (20 open lots per product at 1M). */
const VALUATION = process.env.BENCH_VALUATION === 'fifo' ? 'fifo' : 'cmp';

async function main(): Promise<void> {
  const server = await startTestServer(DIALECT, { rateLimits: { requestsPerHour: 1e9, createsPerMinute: 1e9 }, validateResponses: false });
  try {
    const key = await server.key();
    const call = async (method: string, path: string, body?: unknown, status = 200) => {
      const res = await server.api(key.api_key, method, path, body);
      if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    };
    const clientId = (await call('POST', '/clients', { name: 'Client Bench SRL', cui: randomCui(), address: 'Str. Lungă 1', city: 'Brașov', county: 'Brașov' }, 201)).data.id as string;
    await call('POST', '/invoice-series', { name: 'BN', is_primary: true }, 201);
    const warehouseId = (await call('GET', '/warehouses')).data.data[0].id as string;
    await call('PUT', '/stock/settings', { valuation: VALUATION });

    const db = server.storage.db;
    const seeded = performance.now();
    const now = server.clock.now();
    const perProduct = Math.max(1, Math.floor(MOVEMENTS / PRODUCTS));
    const total = PRODUCTS * perProduct;
    const company = key.company_id;
    // Numbers go in as literals: better-sqlite3 binds a JS number as a double, and 'prd_bench' || (x % 5000.0) names no product.
    // A row source 0..n-1 in SQL, so a million rows are one INSERT ... SELECT each and never cross the wire.
    const rows = (n: number) => DIALECT === 'postgres'
      ? sql`select g as x from generate_series(0, ${sql.lit(n - 1)}) as g`
      : sql`with recursive g(x) as (select 0 union all select x + 1 from g where x < ${sql.lit(n - 1)}) select x from g`;
    await db.transaction().execute(async (trx) => {
      // The service's statement timeout guards requests; a million-row load with its foreign-key checks is not one.
      if (DIALECT === 'postgres') await sql`set local statement_timeout = 0`.execute(trx);
      await sql`insert into products (id, company_id, name, code, unit, unit_code, price, price_includes_vat, vat_rate_bp, currency, is_service, created_at, created_on, updated_at)
        select 'prd_bench' || r.x, ${company}, 'Produs ' || r.x || case when r.x % 7 = 0 then ' cafea' else ' diverse' end, 'B' || r.x,
          'buc', 'H87', 1000, 0, 2100, 'RON', 0, cast(${now} as bigint), '2026-11-21', null
        from (${rows(PRODUCTS)}) as r`.execute(trx);
      // The baseline of (b): the same catalogue line, a service, which moves no stock.
      await trx.insertInto('products').values({
        id: 'prd_benchsvc', company_id: company, name: 'Manoperă bench', code: 'SVC', unit: 'ora', unit_code: 'HUR', price: 1000,
        price_includes_vat: 0, vat_rate_bp: 2100, currency: 'RON', is_service: 1, created_at: now, created_on: '2026-11-21', updated_at: null,
      }).execute();
      // Each movement takes in 1 unit at 5 lei: the level is then perProduct units worth 5 lei each.
      await sql`insert into stock_movements (id, company_id, warehouse_id, product_id, quantity_milli, unit_cost_milli, value_bani, document_type, document_id, date, created_at)
        select 'stm_bench' || r.x, ${company}, ${warehouseId}, 'prd_bench' || (r.x % ${sql.lit(PRODUCTS)}), 1000, 500000, 500, 'nir', 'nir_bench' || (r.x / 50), '2026-11-01', cast(${now} as bigint)
        from (${rows(total)}) as r`.execute(trx);
      await sql`insert into stock_levels (warehouse_id, product_id, company_id, quantity_milli, value_bani, unit_cost_milli, updated_at, lot_seq)
        select ${warehouseId}, 'prd_bench' || r.x, ${company}, cast(${perProduct * 1000} as bigint), cast(${perProduct * 500} as bigint), 500000, cast(${now} as bigint),
          ${sql.lit(VALUATION === 'fifo' ? perProduct : 0)}
        from (${rows(PRODUCTS)}) as r`.execute(trx);
      if (VALUATION === 'fifo') {
        await sql`insert into stock_lots (id, company_id, warehouse_id, product_id, received_date, seq, unit_cost_milli, quantity_milli, remaining_milli, remaining_value_bani, movement_id, created_at)
          select 'lot_bench' || r.x, ${company}, ${warehouseId}, 'prd_bench' || (r.x % ${sql.lit(PRODUCTS)}), '2026-11-01', r.x / ${sql.lit(PRODUCTS)} + 1,
            500000, 1000, 1000, 500, 'stm_bench' || r.x, cast(${now} as bigint)
          from (${rows(total)}) as r`.execute(trx);
      }
    });
    // Fresh statistics, as autovacuum (PostgreSQL) or the service's own optimize would leave them after such a load.
    await sql`analyze`.execute(db);
    console.log(`${DIALECT} (${VALUATION}): seeded ${PRODUCTS} products, ${total} movements in ${((performance.now() - seeded) / 1000).toFixed(1)} s; load ${loadavg()[0]!.toFixed(2)}`);

    // The client's pooled socket sat idle through the seeding and the server has closed it: the first
    // request after a long seed can meet a reset. One harmless GET takes that hit, retried once.
    await call('GET', '/warehouses').catch(() => call('GET', '/warehouses'));

    let sold = 0;
    const withStock = () => call('POST', '/invoices', {
      client_id: clientId, items: [{ product_id: `prd_bench${(sold++ * 7919) % PRODUCTS}`, description: 'Produs', quantity: 1, price: 10, vat_rate: 21 }],
    }, 201);
    const withoutStock = () => call('POST', '/invoices', {
      client_id: clientId, items: [{ product_id: 'prd_benchsvc', description: 'Manoperă', quantity: 1, price: 10, vat_rate: 21 }],
    }, 201);
    const stockSearch = () => call('GET', '/stock?search=cafea&per_page=20');
    const productSearch = () => call('GET', '/products?search=cafea&per_page=20');

    const time = async (n: number, f: () => Promise<unknown>) => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await f();
      return (performance.now() - t0) / n;
    };
    await time(20, withStock);
    await time(20, withoutStock);
    const best = { issueStock: Infinity, issuePlain: Infinity, searchStock: Infinity, searchProducts: Infinity };
    for (let round = 0; round < ROUNDS; round++) {
      best.issueStock = Math.min(best.issueStock, await time(N, withStock));
      best.issuePlain = Math.min(best.issuePlain, await time(N, withoutStock));
      best.searchStock = Math.min(best.searchStock, await time(Math.ceil(N / 4), stockSearch));
      best.searchProducts = Math.min(best.searchProducts, await time(Math.ceil(N / 4), productSearch));
    }
    console.log(`issue with a stocked line: ${best.issueStock.toFixed(2)} ms; service line (no stock): ${best.issuePlain.toFixed(2)} ms; ratio ${(best.issueStock / best.issuePlain).toFixed(2)}`);
    console.log(`GET /stock?search: ${best.searchStock.toFixed(2)} ms; GET /products?search: ${best.searchProducts.toFixed(2)} ms; ratio ${(best.searchStock / best.searchProducts).toFixed(2)}`);
    console.log(`load after: ${loadavg()[0]!.toFixed(2)}`);
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
