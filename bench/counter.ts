/**
 * The counter's host side with a shop's catalogue and history in the local cache: a scan turned into
 * the product for the line (products.list with the exact barcode) and F9 turned into an issued sale
 * (counter.sell: invoice, number, chitanță, outbox), offline and online. Each is measured first with an
 * almost empty cache (the baseline, same run, same device) and then with BENCH_PRODUCTS products and
 * BENCH_INVOICES cached invoices; the ratio says what the size costs. Budgets: scan p99 under 16 ms,
 * F9 p99 under 150 ms. Through the real IPC router, as the renderer calls it (the browser's part, React
 * drawing the line, is not in these figures).
 *
 *   npx tsx bench/counter.ts
 *   BENCH_PRODUCTS=50000 BENCH_INVOICES=100000 BENCH_ROUNDS=200 npx tsx bench/counter.ts
 */
import { performance } from 'node:perf_hooks';
import { p99, seedCatalogueAndHistory } from './support/counter-seed';
import { closeServerBehindProxy, createSeries, newCompany, openDevice, removeTempDirs, startServerBehindProxy } from '../test/desktop/support/harness';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const SCAN_BUDGET_MS = 16;
const SELL_BUDGET_MS = 150;

function uuid(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `5e11c0de-0000-4000-8000-${hex}`;
}

async function run(): Promise<number> {
  const stack = await startServerBehindProxy();
  const company = await newCompany(stack.server);
  const seriesId = await createSeries(stack.server, company.apiKey, 'BC');
  const rs = await stack.server.api(company.apiKey, 'POST', '/receipt-series', { prefix: 'BCH' });
  const receiptSeriesId: string = rs.body.data.id;
  const device = openDevice(stack.proxy.base, company.apiKey);
  let failures = 0;
  try {
    await device.call('sync.now');
    // Numbers for every sale of the run, reserved on this device: F9 never waits for the service.
    const pool = ROUNDS * 6 + 10;
    await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: pool, low_water: 0 });
    await device.call('series.setMode', { id: receiptSeriesId, mode: 'shared', pool_target: pool, low_water: 0 });
    const client = await device.call('clients.create', { type: 'person', name: 'Client bench', country: 'RO' });
    for (let i = 0; i < 10; i++) await device.call('products.create', { name: `Produs ${i}`, barcode: `59400000${String(i).padStart(5, '0')}`, price_bani: 999, vat_rate: 21, price_includes_vat: true });
    let sale = 0;
    const measure = async (label: string): Promise<{ scan: number; sell: number; sellOffline: number }> => {
      const scans: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const code = `59400000${String(i % 10).padStart(5, '0')}`;
        const t0 = performance.now();
        const found = await device.call('products.list', { search: code, limit: 20, offset: 0 });
        scans.push(performance.now() - t0);
        if (found.items.length !== 1) throw new Error(`scan ${code} found ${found.items.length}`);
      }
      const sells = async (): Promise<number[]> => {
        const times: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          const t0 = performance.now();
          await device.call('counter.sell', {
            cart_id: uuid(sale++), series_id: seriesId, client_id: client.id, payment_method: 'receipt',
            lines: [{ description: 'Produs', quantity: 1, unit_price_bani: 826, vat_rate: 21 }],
          });
          times.push(performance.now() - t0);
        }
        return times;
      };
      const online = await sells();
      stack.proxy.setDown(true);
      const offline = await sells();
      stack.proxy.setDown(false);
      const r = { scan: p99(scans), sell: p99(online), sellOffline: p99(offline) };
      console.log(`${label.padEnd(34)} scan p99 ${r.scan.toFixed(2).padStart(7)} ms   F9 online p99 ${r.sell.toFixed(2).padStart(7)} ms   F9 offline p99 ${r.sellOffline.toFixed(2).padStart(7)} ms`);
      return r;
    };

    // The first calls pay for JIT and SQLite's page cache: a pass not counted before the baseline.
    await measure('warm-up (not counted)');
    const base = await measure('baseline (10 products, no history)');
    seedCatalogueAndHistory(device.services.store.raw, PRODUCTS, INVOICES);
    const full = await measure(`${PRODUCTS} products, ${INVOICES} invoices`);
    console.log(
      `ratio to baseline: scan ×${(full.scan / base.scan).toFixed(2)}, F9 online ×${(full.sell / base.sell).toFixed(2)}, F9 offline ×${(full.sellOffline / base.sellOffline).toFixed(2)}`,
    );
    if (full.scan > SCAN_BUDGET_MS) {
      console.log(`OVER BUDGET: scan p99 ${full.scan.toFixed(2)} ms > ${SCAN_BUDGET_MS} ms`);
      failures++;
    }
    for (const [name, v] of [['online', full.sell], ['offline', full.sellOffline]] as const) {
      if (v > SELL_BUDGET_MS) {
        console.log(`OVER BUDGET: F9 ${name} p99 ${v.toFixed(2)} ms > ${SELL_BUDGET_MS} ms`);
        failures++;
      }
    }
  } finally {
    await device.close();
    await closeServerBehindProxy(stack);
    removeTempDirs();
  }
  return failures;
}

run().then(
  (failures) => process.exit(failures > 0 ? 1 : 0),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
