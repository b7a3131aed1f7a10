/**
 * The counter as the cashier sees it, in Chromium: a barcode scanned (digits a few ms apart, then
 * Enter, focus anywhere) until the frame that shows the line in the cart, and F9 until the frame that
 * shows the issued panel with its number — online (the service up) and offline (the service stopped,
 * numbers from the device's reserve). Each is measured first with the e2e seed only (8 products, no
 * history: the baseline of the same run, same page, same device), then with BENCH_PRODUCTS products
 * imported on the service (a CSV through POST /products/imports) and copied into the device's cache as
 * its pull leaves them (the pull is paced to the contract's request budget: half an hour for 50,000), and
 * BENCH_INVOICES earlier invoices written into the device's cache; the ratio says what the size costs.
 * Every sale is real: the device holds each one and its outbox sends it to the service, paced to the
 * contract's 100 creates a minute (the run's 1,200 documents take minutes to drain; the bench does not
 * wait for that, it checks the device's count).
 * Budgets (issue 13): scan to line p99 under 16 ms, F9 to issued p99 under 150 ms.
 *
 *   npx tsx bench/counter-screen.ts
 *   BENCH_PRODUCTS=50000 BENCH_INVOICES=100000 BENCH_ROUNDS=100 npx tsx bench/counter-screen.ts
 *
 * Times come from the page, from the key event's own timeStamp (when the browser received the key):
 * to the moment the DOM shows the answer (the bridge, the main process and React are all in; the
 * budgets apply to this), and to the first frame painted after it. The frame adds the wait for the
 * display's next refresh, up to 16.7 ms at 60 Hz, which no code of ours can shorten: a 16 ms budget
 * "to the painted frame" would fail an answer that arrives in 1 ms a frame too late.
 * bench/counter.ts measures the same two actions host-side only.
 */
import type { Page } from 'playwright-core';
import type { Desktop } from '../test/e2e/support/desktop';
import { openDevice } from '../test/e2e/support/fixture';
import { eventually, indicator } from '../test/e2e/support/flows';
import { seed, startE2eServer, type E2eServer } from '../test/e2e/support/stack';
import { benchBarcode, cacheServiceProducts, catalogueCsv, p99, percentile, seedHistory } from './support/counter-seed';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
/** Enough to load the page's code and warm the caches; every sale spends the contract's request budget. */
const WARM_UP_ROUNDS = Math.min(ROUNDS, 20);
const SCAN_BUDGET_MS = 16;
const F9_BUDGET_MS = 150;

/**
 * In-page helpers, as a string (tsx's keepNames wrappers do not exist inside the page). `arm(kind)`
 * waits for the next key of that kind and resolves with the time from the key's timeStamp to the
 * first frame after the screen answered: a changed grand total for a scan, the issued panel for F9.
 */
const PAGE_HELPERS = `
window.__cbench = {
  text(id) { const el = document.querySelector('[data-testid=' + id + ']'); return el ? el.textContent : null; },
  arm(kind, timeoutMs) {
    const before = this.text('total-grand');
    const self = this;
    return new Promise((resolve, reject) => {
      let t0 = null;
      const done = () => (kind === 'scan'
        ? self.text('total-grand') !== before && !document.querySelector('[data-testid=issued-panel]')
        : !!document.querySelector('[data-testid=issued-panel]'));
      const onKey = (e) => {
        if ((kind === 'scan' && e.key === 'Enter') || (kind === 'issue' && e.key === 'F9')) { t0 = e.timeStamp; check(); }
      };
      const check = () => {
        if (t0 === null || !done()) return;
        const dom = performance.now() - t0;
        observer.disconnect();
        window.removeEventListener('keydown', onKey, true);
        requestAnimationFrame(() => resolve({ dom, frame: performance.now() - t0 }));
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      window.addEventListener('keydown', onKey, true);
      setTimeout(() => { observer.disconnect(); reject(new Error(kind + ': no answer on screen')); }, timeoutMs);
    });
  },
};`;

/** From the key to the DOM showing the answer, and to the first frame painted after it. */
interface Timing {
  dom: number;
  frame: number;
}

/** p99s of the DOM times; `frame` the same actions to the painted frame. */
interface Figures {
  scan: number;
  online: number;
  offline: number;
  frame: { scan: number; online: number; offline: number };
}

async function timed(page: Page, kind: 'scan' | 'issue', press: () => Promise<void>): Promise<Timing> {
  await page.evaluate(PAGE_HELPERS);
  // Armed before the key is sent (an evaluate and a key event are not ordered with each other).
  await page.evaluate(`window.__cbench.pending = window.__cbench.arm('${kind}', 20000); 0`);
  await press();
  return (await page.evaluate('window.__cbench.pending')) as Timing;
}

/** One customer: a scan (timed from its Enter), then F9 (timed). */
async function sale(page: Page, code: string): Promise<{ scan: Timing; issue: Timing }> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.type(code, { delay: 4 });
  const scan = await timed(page, 'scan', () => page.keyboard.press('Enter'));
  const issue = await timed(page, 'issue', () => page.keyboard.press('F9'));
  return { scan, issue };
}

/**
 * `last`: nothing is measured after this phase, so the device is not waited for to come back online
 * after the offline part: with the run's hundreds of documents pushed within the hour, the device's
 * pacer may rightly hold its first probe until the contract's hourly request budget allows it.
 */
async function measure(desktop: Desktop, server: E2eServer, label: string, codes: () => string, rounds = ROUNDS, last = false): Promise<Figures> {
  const { page } = desktop;
  const scans: Timing[] = [];
  const online: Timing[] = [];
  const offline: Timing[] = [];
  for (const [phase, into] of [['online', online], ['offline', offline]] as const) {
    if (phase === 'offline') {
      // The reserve must cover the offline phase: topped up while the service is still there.
      await ensureReserve(page, 'TJ', ROUNDS);
      await ensureReserve(page, 'CHB', ROUNDS);
      await server.stop();
      // A sync attempt meets the refused connection: the engine goes offline at once.
      await desktop.open('#/sync');
      await page.getByTestId('sync-now').click();
      await eventually('offline', async () => (await indicator(page)).mode !== 'online', 60_000);
    }
    await desktop.open('#/counter');
    await page.getByTestId('product-search').waitFor();
    for (let i = 0; i < rounds; i++) {
      const r = await sale(page, codes());
      scans.push(r.scan);
      into.push(r.issue);
    }
    if (phase === 'offline') {
      await server.start();
      if (!last) await eventually('online again', async () => (await indicator(page)).mode !== 'offline', 120_000);
    }
  }
  const dom = (t: Timing[]) => p99(t.map((x) => x.dom));
  const frame = (t: Timing[]) => p99(t.map((x) => x.frame));
  const f = { scan: dom(scans), online: dom(online), offline: dom(offline), frame: { scan: frame(scans), online: frame(online), offline: frame(offline) } };
  const ms = (n: number) => `${n.toFixed(1).padStart(6)} ms`;
  // The median beside the p99: on a shared machine the p99 of 100 samples is its one or two slowest.
  const median = (t: Timing[]) => percentile(t.map((x) => x.dom), 0.5);
  console.log(`${label.padEnd(34)} scan→line p50 ${ms(median(scans))} p99 ${ms(f.scan)} (frame ${ms(f.frame.scan)})   F9→issued online p50 ${ms(median(online))} p99 ${ms(f.online)} (frame ${ms(f.frame.online)})   offline p50 ${ms(median(offline))} p99 ${ms(f.offline)} (frame ${ms(f.frame.offline)})`);
  return f;
}

async function importCatalogue(server: E2eServer, products: number): Promise<void> {
  const up = await server.api('POST', '/products/imports', { content: Buffer.from(catalogueCsv(products)).toString('base64'), format: 'csv' });
  if (up.status !== 201) throw new Error(`import upload: ${up.status} ${up.text.slice(0, 300)}`);
  const done = await server.api('POST', `/products/imports/${up.body.data.id as string}/commit`, {});
  if (done.status !== 200) throw new Error(`import commit: ${done.status} ${done.text.slice(0, 300)}`);
}

interface DeviceSeries {
  id: string;
  name: string;
  pool: { available: number; target: number };
}

async function deviceSeries(page: Page, name: string): Promise<DeviceSeries> {
  const list = (await page.evaluate("window.tejghea.invoke('series.list', undefined)")) as { ok: boolean; value?: DeviceSeries[] };
  const series = list.value?.find((s) => s.name === name);
  if (!series) throw new Error(`series ${name} is not on the device`);
  return series;
}

async function ensureReserve(page: Page, name: string, atLeast: number): Promise<void> {
  const { id } = await deviceSeries(page, name);
  await eventually(`${atLeast} numbers of ${name} on the device`, async () => {
    if ((await deviceSeries(page, name)).pool.available >= atLeast) return true;
    await page.evaluate(`window.tejghea.invoke('series.refill', ${JSON.stringify({ id })})`);
    return (await deviceSeries(page, name)).pool.available >= atLeast;
  }, 120_000);
}

/** The series named `name` on this device (its local id) set to keep `pool` numbers here. */
async function setReserve(page: Page, name: string, pool: number): Promise<void> {
  const series = await deviceSeries(page, name);
  const set = (await page.evaluate(`window.tejghea.invoke('series.setMode', ${JSON.stringify({ id: series.id, mode: 'shared', pool_target: pool, low_water: 0 })})`)) as { value?: { pool: { target: number } } };
  if (set.value?.pool.target !== pool) throw new Error(`series ${name}: the reserve was not set (${JSON.stringify(set).slice(0, 200)})`);
}

async function run(): Promise<number> {
  const server = await startE2eServer();
  let desktop: Desktop | undefined;
  let failures = 0;
  try {
    const data = await seed(server);
    const receiptSeries = await server.api('POST', '/receipt-series', { prefix: 'CHB', description: 'Casa bench' });
    if (receiptSeries.status >= 300) throw new Error(`receipt series: ${receiptSeries.status}`);
    desktop = await openDevice(server);
    const { page } = desktop;
    await page.setViewportSize({ width: 1366, height: 768 });
    // Every sale of the run gets its invoice and chitanță numbers from a reserve taken at the start: the
    // outbox drains at the contract's pace during the run, and a refill would wait behind it.
    const pool = Math.min(1000, 6 * ROUNDS + 20);
    await setReserve(page, 'TJ', pool);
    await setReserve(page, 'CHB', pool);
    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    await eventually('reserve on the device', async () => (await indicator(page)).pending === 0 && (await indicator(page)).mode === 'online', 60_000);

    const seeded = data.products.map((p) => p.code);
    let n = 0;
    await measure(desktop, server, 'warm-up (not counted)', () => seeded[n++ % seeded.length]!, WARM_UP_ROUNDS);
    const base = await measure(desktop, server, 'baseline (8 products, no history)', () => seeded[n++ % seeded.length]!);
    const importStarted = Date.now();
    await importCatalogue(server, PRODUCTS);
    console.log(`${PRODUCTS} products imported on the service in ${((Date.now() - importStarted) / 1000).toFixed(1)} s`);
    const rows = await server.inner.storage.db
      .selectFrom('products')
      .select(['id', 'name', 'code', 'barcode', 'unit', 'unit_code', 'price', 'price_includes_vat', 'vat_rate_bp'])
      .where('code', 'like', 'A%')
      .execute();
    cacheServiceProducts(desktop.services.store.raw, rows);
    const cached = desktop.services.store.raw.prepare('SELECT COUNT(*) AS n FROM products WHERE server_id IS NOT NULL').get() as { n: number };
    console.log(`${cached.n} products in the device's cache`);
    if (cached.n < PRODUCTS) throw new Error(`only ${cached.n} products cached`);
    seedHistory(desktop.services.store.raw, INVOICES);
    let k = 0;
    const full = await measure(desktop, server, `${PRODUCTS} products, ${INVOICES} invoices`, () => benchBarcode((k++ * 7919) % PRODUCTS), ROUNDS, true);
    const local = desktop.services.store.raw.prepare("SELECT COUNT(*) AS n FROM invoices WHERE id NOT LIKE 'inv_bench_%'").get() as { n: number };
    const expected = 4 * ROUNDS + 2 * WARM_UP_ROUNDS;
    console.log(`the device holds ${local.n} invoices of this run (${expected} sold)`);
    if (local.n !== expected) failures++;
    console.log(`ratio to baseline: scan ×${(full.scan / base.scan).toFixed(2)}, F9 online ×${(full.online / base.online).toFixed(2)}, F9 offline ×${(full.offline / base.offline).toFixed(2)}`);
    if (full.scan > SCAN_BUDGET_MS) {
      console.log(`OVER BUDGET: scan→line p99 ${full.scan.toFixed(1)} ms > ${SCAN_BUDGET_MS} ms`);
      failures++;
    }
    for (const [name, v] of [['online', full.online], ['offline', full.offline]] as const) {
      if (v > F9_BUDGET_MS) {
        console.log(`OVER BUDGET: F9→issued ${name} p99 ${v.toFixed(1)} ms > ${F9_BUDGET_MS} ms`);
        failures++;
      }
    }
  } catch (error) {
    await desktop?.page.screenshot({ path: '/tmp/counter-screen-failure.png' }).catch(() => undefined);
    throw error;
  } finally {
    await desktop?.close();
    await server.close();
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
