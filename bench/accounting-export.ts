/**
 * A month of N invoices (and N/4 expenses) exported to every accounting format, on SQLite: the time of
 * each export and the peak memory it added, at two sizes, to show that the exports stream (memory stays
 * flat as the month grows). The baseline, measured in the same run, is a bare read of the same rows in
 * the same chunks (no computation, no file): the ratio says what each format costs above reading.
 *
 *   npx tsx bench/accounting-export.ts                      # N = 2000 and 8000
 *   BENCH_SIZES=10000,100000 npx tsx bench/accounting-export.ts   # the issue's month of 100,000 documents
 *   BENCH_SIZES=10000,100000 BENCH_ONLY=arhiva npx tsx bench/accounting-export.ts   # the baselines and the archive only
 *
 * Each size runs in its own child process, so a size's peak memory is not the previous one's leftover.
 * Peak memory is the highest RSS sampled every 10 ms during the export minus the RSS just before it; the
 * same for `external` (Buffers outside the heap); and the heap still used after a full collection, each second.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { pageFrom } from '../server/modules/accounting/journal-source';

const SIZES = (process.env.BENCH_SIZES ?? '2000,8000').split(',').map(Number);
const MONTH = '2026-10';

interface Result { format: string; seconds: number; peakMb: number; retainedMb: number; externalMb: number; bytes: number }

async function child(n: number): Promise<Result[]> {
  const { buildApp } = await import('../server/app');
  const { createApiKey } = await import('../server/platform/api-keys');
  const { createTestStorage } = await import('../test/support/storage');
  const storage = await createTestStorage('sqlite');
  const db = storage.storage.db;
  const { api_key: key, company_id: companyId, work_point_id: workPointId } = await createApiKey(db, { companyName: 'Bench SRL', cui: '18547290', now: 1_790_000_000 });
  await db.insertInto('suppliers').values({ id: 'sup_bench', company_id: companyId, name: 'Furnizor Bench SRL', cui: '1590082', vat_payer: 1, reg_com: null, address: null, email: null, phone: null, iban: null, created_at: 1, updated_at: null }).execute();

  // Seeded with bare inserts (the API would take minutes at 100,000): the exports read rows, not requests.
  const buyer = JSON.stringify({ name: 'Client Bench SRL', cui: '18547290', vat_payer: true, reg_com: null, cnp: null, address: 'Str. Lungă 1', city: 'Brașov', county: 'Brașov', country: 'RO', iban: null, bank: null });
  for (let start = 0; start < n; start += 500) {
    const invoices = [];
    const lines = [];
    for (let i = start; i < Math.min(n, start + 500); i += 1) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const net = 1000 + (i % 997);
      const vat = Math.round((net * 21) / 100);
      const id = `inv_bench${String(i).padStart(8, '0')}`;
      invoices.push({
        id, company_id: companyId, work_point_id: workPointId, document_type: 'fiscal' as const, status: 'issued' as const, series_id: null, series_name: 'TJ',
        year: 2026, number: i + 1, full_number: `TJ-${i + 1}`, issue_date: `${MONTH}-${day}`, due_date: null, delivery_date: null, client_id: null,
        buyer_json: buyer, buyer_name: 'Client Bench SRL', currency: 'RON', exchange_rate: null, language: 'ro', reverse_charge: 0,
        net_bani: net, vat_bani: vat, total_bani: net + vat, discount_bani: 0,
        vat_breakdown_json: JSON.stringify([{ vat_rate_bp: 2100, vat_category: null, net_bani: net, vat_bani: vat, total_bani: net + vat }]),
        amount_paid_bani: 0, paid_state: 'unpaid' as const, payment_method: null, observations: null, storno_of: null, storno_id: null, converted_from: null,
        converted_to: null, efactura_enabled: 0, spv_environment: 'live' as const, efactura_status: 'not_sent' as const, client_local_uuid: null,
        device_id: null, reservation_token: null, issued_at: 1, created_at: 1, updated_at: null,
      });
      lines.push({
        id: `invl_bench${i}`, invoice_id: id, company_id: companyId, position: 1, product_id: null, description: 'Marfă', quantity_milli: 1000, unit: 'buc',
        unit_code: 'H87', price_bani: net, vat_rate_bp: 2100, discount_bp: 0, vat_exemption_reason: null, vat_category: null, price_includes_vat: 0, is_service: 0, discount_bani: 0,
        net_bani: net, vat_bani: vat, total_bani: net + vat,
      });
    }
    await db.insertInto('invoices').values(invoices).execute();
    await db.insertInto('invoice_lines').values(lines).execute();
    const expenses = invoices.slice(0, Math.ceil(invoices.length / 4)).map((inv, k) => ({
      id: `exp_bench${start + k}`, company_id: companyId, work_point_id: workPointId, supplier_id: 'sup_bench', category_id: null, user_id: null,
      reference: `F-${start + k}`, reference_key: `F-${start + k}`, description: 'Marfă', date: inv.issue_date, due_date: null, paid_date: null, is_paid: 0,
      payment_type: null, currency: 'RON', exchange_rate_micro: null, vat_percent: 21, with_vat: 0, itemized: 0, entered_amount_bani: inv.net_bani,
      vat_manual_bani: null, net_bani: inv.net_bani, vat_bani: inv.vat_bani, total_bani: inv.total_bani, account_net_bani: inv.net_bani,
      account_vat_bani: inv.vat_bani, account_total_bani: inv.total_bani, created_at: 1, updated_at: 1,
    }));
    await db.insertInto('expenses').values(expenses).execute();
  }

  // A Saga or WinMENTOR ZIP sends its first byte only once its DBF/TXT files are written (a minute or more at
  // 100,000 documents on a loaded machine): the service's idle timeout (60 s) would close the socket first.
  // The desktop uses an export job for these (no long silent request); the bench measures the export itself.
  const { app } = buildApp({
    storage: storage.storage, rateLimits: { requestsPerHour: 1e9, createsPerMinute: 1e9 },
    connectionLimits: { idleTimeoutMs: 3_600_000, requestTimeoutMs: 3_600_000 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const period = `start_date=${MONTH}-01&end_date=${MONTH}-31`;

  const measure = async (format: string, run: () => Promise<number>): Promise<Result> => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    // Buffers live outside the heap (`external`): where exceljs' writer queued its uncompressed sheet. Less
    // noisy than RSS, which also counts pages the allocator keeps from the steps before.
    const externalBefore = process.memoryUsage().external;
    let externalPeak = externalBefore;
    const timer = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      externalPeak = Math.max(externalPeak, m.external);
    }, 10);
    // RSS also counts garbage not yet collected and pages the allocator keeps: what the export really holds
    // is the heap still used right after a full collection, sampled every second.
    const heapBefore = process.memoryUsage().heapUsed;
    let retained = 0;
    const collector = setInterval(() => {
      global.gc?.();
      retained = Math.max(retained, process.memoryUsage().heapUsed - heapBefore);
    }, 1000);
    const started = performance.now();
    const bytes = await run();
    const seconds = (performance.now() - started) / 1000;
    clearInterval(timer);
    clearInterval(collector);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { format, seconds, peakMb: (peak - before) / 1024 / 1024, retainedMb: retained / 1024 / 1024, externalMb: (externalPeak - externalBefore) / 1024 / 1024, bytes };
  };
  const download = (path: string) => async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    let bytes = 0;
    // Read and dropped as it comes, as a client saving to disk would.
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    return bytes;
  };

  const results: Result[] = [];
  // BENCH_ONLY=arhiva: the baselines and the formats whose name contains it (the 100,000-document archive alone).
  const only = process.env.BENCH_ONLY;
  const step = async (format: string, job: () => Promise<number>) => {
    if (only && !format.startsWith('baseline') && !format.includes(only)) return;
    const r = await measure(format, job);
    results.push(r);
    // As it goes (a long run cut short still tells what it measured).
    console.error(`N=${n} ${format}: ${r.seconds.toFixed(2)} s, peak +${r.peakMb.toFixed(0)} MB RSS, heap held ${r.retainedMb.toFixed(1)} MB, peak external +${r.externalMb.toFixed(1)} MB, ${r.bytes} bytes`);
  };
  await step('baseline: bare read of the rows', async () => {
    // The same (date, id) keyset in chunks of 500 the exports walk, and nothing else.
    let after: { date: string; id: string } | null = null;
    // Read through a function: TypeScript would otherwise infer the query's type from the cursor it sets.
    const cursor = (): { date: string; id: string } | null => after;
    let count = 0;
    for (;;) {
      const q = db.selectFrom('invoices').select(['id', 'issue_date', 'vat_breakdown_json', 'buyer_json']).where('company_id', '=', companyId)
        .where(pageFrom('issue_date', 'id', `${MONTH}-01`, cursor())).where('issue_date', '<=', `${MONTH}-31`);
      const rows = await q.orderBy('issue_date').orderBy('id').limit(500).execute();
      count += rows.length;
      if (rows.length < 500) break;
      const last = rows[rows.length - 1]!;
      after = { date: last.issue_date, id: last.id };
    }
    return count;
  });
  await step('baseline: JSON dump of the same rows', async () => {
    // The plainest export of the month: the invoice rows and their lines as JSON lines, read in the same
    // chunks and written to a stream that drops them (what any export must at least do).
    const { Writable } = await import('node:stream');
    const sink = new Writable({ write: (_chunk, _enc, cb) => cb() });
    let after: { date: string; id: string } | null = null;
    // Read through a function: TypeScript would otherwise infer the query's type from the cursor it sets.
    const cursor = (): { date: string; id: string } | null => after;
    let bytes = 0;
    for (;;) {
      const q = db.selectFrom('invoices').selectAll().where('company_id', '=', companyId)
        .where(pageFrom('issue_date', 'id', `${MONTH}-01`, cursor())).where('issue_date', '<=', `${MONTH}-31`);
      const rows = await q.orderBy('issue_date').orderBy('id').limit(500).execute();
      if (!rows.length) break;
      const lines = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', 'in', rows.map((r) => r.id)).execute();
      const text = `${rows.map((r) => JSON.stringify({ ...r, lines: lines.filter((l) => l.invoice_id === r.id) })).join('\n')}\n`;
      bytes += text.length;
      if (!sink.write(text)) await new Promise((resolve) => sink.once('drain', resolve));
      if (rows.length < 500) break;
      const last = rows[rows.length - 1]!;
      after = { date: last.issue_date, id: last.id };
    }
    return bytes;
  });
  await step('jurnal vânzări JSON (totals + page 1)', download(`/accounting/journals/sales?${period}`));
  await step('jurnal vânzări XLSX', download(`/accounting/journals/sales/xlsx?${period}`));
  await step('jurnal vânzări HTML (print)', download(`/accounting/journals/sales/html?${period}`));
  await step('jurnal cumpărări XLSX', download(`/accounting/journals/purchases/xlsx?${period}`));
  await step('Saga DBF ZIP', download(`/accounting/exports/saga?${period}`));
  await step('WinMENTOR TXT ZIP', download(`/accounting/exports/winmentor?${period}`));
  await step('documente CSV', download(`/accounting/exports/documents/csv?${period}`));
  await step('documente XLSX', download(`/accounting/exports/documents/xlsx?${period}`));
  if (process.env.BENCH_ARCHIVE !== '0') await step('arhiva lunară ZIP', download(`/accounting/archive?month=${MONTH}`));
  await app.close();
  await storage.drop();
  return results;
}

async function main(): Promise<void> {
  if (process.argv[2] === 'child') {
    const results = await child(Number(process.argv[3]));
    process.send?.(results);
    return;
  }
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const bySize = new Map<number, Result[]>();
  for (const n of SIZES) {
    const proc = fork(fileURLToPath(import.meta.url), ['child', String(n)], { execArgv: [...process.execArgv, '--expose-gc'] });
    const results = await new Promise<Result[]>((resolve, reject) => {
      let answered = false;
      proc.once('message', (m) => {
        answered = true;
        resolve(m as Result[]);
      });
      // A child killed by a signal exits with code null, and one whose event loop ran dry with 0: either way
      // without its results, which must not end the bench silently with no table.
      proc.once('exit', (code, signal) => {
        if (!answered) reject(new Error(`child for ${n} ended without its results (code ${code}, signal ${signal})`));
      });
    });
    bySize.set(n, results);
  }
  const formats = bySize.get(SIZES[0]!)!.map((r) => r.format);
  console.log(`\nA month of N invoices (+ N/4 expenses), SQLite. Time in s (×: ratio to the bare read of the same N), peak added RSS in MB`);
  console.log('(m×: ratio to the peak of the JSON dump of the same rows, measured in the same run; heap: the most heap still in use');
  console.log('after a forced full collection, sampled every second: what the export holds, garbage aside; ext: the peak of');
  console.log('Buffer memory outside the heap, sampled every 10 ms).');
  console.log(['format'.padEnd(40), ...SIZES.map((n) => `N=${n}`.padStart(56))].join(''));
  for (const format of formats) {
    const cells = SIZES.map((n) => {
      const r = bySize.get(n)!.find((x) => x.format === format)!;
      const base = bySize.get(n)![0]!.seconds;
      const dump = Math.max(1, bySize.get(n)![1]!.peakMb);
      return `${r.seconds.toFixed(2)}s ×${(r.seconds / base).toFixed(1)} ${r.peakMb.toFixed(0)}MB m×${(Math.max(0, r.peakMb) / dump).toFixed(1)} heap ${r.retainedMb.toFixed(0)}MB ext ${r.externalMb.toFixed(0)}MB`.padStart(56);
    });
    console.log([format.padEnd(40), ...cells].join(''));
  }
  if (SIZES.length >= 2) {
    // The issue's test of streaming: what a month ten times longer costs. Time should grow with N (×10);
    // memory should not (about ×1).
    const [small, large] = [SIZES[0]!, SIZES[SIZES.length - 1]!];
    console.log(`\nRatio N=${large} / N=${small} (time: should follow N, ×${(large / small).toFixed(0)}; peak memory: should stay flat, ~×1)`);
    console.log(['format'.padEnd(40), 'time'.padStart(10), 'peak RSS'.padStart(12), 'heap held'.padStart(12), 'peak ext'.padStart(12)].join(''));
    for (const format of formats) {
      const a = bySize.get(small)!.find((x) => x.format === format)!;
      const b = bySize.get(large)!.find((x) => x.format === format)!;
      const ratio = (x: number, y: number) => `×${(x / Math.max(y, 1e-9)).toFixed(2)}`;
      // Below 1 MB a ratio says nothing: both are noise.
      const mem = (x: number, y: number) => (Math.max(x, y) < 1 ? '<1 MB' : ratio(Math.max(x, 1), Math.max(y, 1)));
      console.log([format.padEnd(40), ratio(b.seconds, a.seconds).padStart(10), mem(b.peakMb, a.peakMb).padStart(12), mem(b.retainedMb, a.retainedMb).padStart(12), mem(b.externalMb, a.externalMb).padStart(12)].join(''));
    }
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

void main();
