/**
 * Stock at shop scale: 50 000 products and 1 000 000 movements in the ledger, then, in the same run,
 * (a) an issue whose line sells a stocked product (the decrement: level locked, moved, movement
 * written, in the issue's transaction) against an issue with a free-text line (no stock at all), and
 * (b) the stock list searched by product name (what the counter's product search shows) against the
 * product list searched the same way. Prints ms per request and the ratio to its baseline.
 *
 *   npx tsx bench/stock.ts                                   # small: 5 000 products, 100 000 movements
 *   BENCH_PRODUCTS=50000 BENCH_MOVEMENTS=1000000 npx tsx bench/stock.ts
 *   BENCH_DIALECT=postgres npx tsx bench/stock.ts
 *
 * The real service over HTTP on loopback (response validation off, as in production); the ledger is
 * seeded straight into the tables in one transaction, shaped as receptions would leave it (levels equal
 * to the sum of their movements). Rounds alternate the measured and the baseline requests, so the load
 * of a shared machine falls on both alike.
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
const CHUNK = 500;

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

    const db = server.storage.db;
    const seeded = performance.now();
    const now = server.clock.now();
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < PRODUCTS; start += CHUNK) {
        const ids = Array.from({ length: Math.min(CHUNK, PRODUCTS - start) }, (_, i) => start + i);
        await trx.insertInto('products').values(ids.map((i) => ({
          id: `prd_bench${i}`, company_id: key.company_id, name: `Produs ${i} ${i % 7 === 0 ? 'cafea' : 'diverse'}`, code: `B${i}`,
          unit: 'buc', unit_code: 'H87', price: 1000, price_includes_vat: 0, vat_rate_bp: 2100, currency: 'RON', is_service: 0,
          created_at: now, created_on: '2026-11-21', updated_at: null,
        }))).execute();
      }
      const perProduct = Math.max(1, Math.floor(MOVEMENTS / PRODUCTS));
      // Each movement takes in 1 unit at 5 lei: the level is then perProduct units worth 5 lei each.
      for (let start = 0; start < PRODUCTS * perProduct; start += CHUNK) {
        const rows = Array.from({ length: Math.min(CHUNK, PRODUCTS * perProduct - start) }, (_, i) => start + i);
        await trx.insertInto('stock_movements').values(rows.map((r) => ({
          id: `stm_bench${r}`, company_id: key.company_id, warehouse_id: warehouseId, product_id: `prd_bench${r % PRODUCTS}`, quantity_milli: 1000,
          unit_cost_milli: 500_000, value_bani: 500, document_type: 'nir' as const, document_id: `nir_bench${Math.floor(r / 50)}`, date: '2026-11-01', created_at: now,
        }))).execute();
      }
      for (let start = 0; start < PRODUCTS; start += CHUNK) {
        const ids = Array.from({ length: Math.min(CHUNK, PRODUCTS - start) }, (_, i) => start + i);
        await trx.insertInto('stock_levels').values(ids.map((i) => ({
          warehouse_id: warehouseId, product_id: `prd_bench${i}`, company_id: key.company_id, quantity_milli: perProduct * 1000,
          value_bani: perProduct * 500, unit_cost_milli: 500_000, updated_at: now,
        }))).execute();
      }
    });
    // Fresh statistics, as autovacuum (PostgreSQL) or the service's own optimize would leave them after such a load.
    await sql`analyze`.execute(db);
    console.log(`${DIALECT}: seeded ${PRODUCTS} products, ${PRODUCTS * Math.max(1, Math.floor(MOVEMENTS / PRODUCTS))} movements in ${((performance.now() - seeded) / 1000).toFixed(1)} s; load ${loadavg()[0]!.toFixed(2)}`);

    let sold = 0;
    const withStock = () => call('POST', '/invoices', {
      client_id: clientId, items: [{ product_id: `prd_bench${(sold++ * 7919) % PRODUCTS}`, description: 'Produs', quantity: 1, price: 10, vat_rate: 21 }],
    }, 201);
    const withoutStock = () => call('POST', '/invoices', { client_id: clientId, items: [{ description: 'Produs', quantity: 1, price: 10, vat_rate: 21 }] }, 201);
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
    console.log(`issue with a stocked line: ${best.issueStock.toFixed(2)} ms; free-text line (no stock): ${best.issuePlain.toFixed(2)} ms; ratio ${(best.issueStock / best.issuePlain).toFixed(2)}`);
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
