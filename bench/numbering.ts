/**
 * Invoices issued per second over HTTP (POST /invoices, every one numbered from the same series), with
 * 1 and 16 concurrent clients, on SQLite and PostgreSQL, against the ceiling of the same number of bare
 * single-row inserts into the same `invoices` table at the same concurrency. Prints the ratio.
 *
 *   npx tsx bench/numbering.ts
 *   BENCH_N=3000 BENCH_DIALECTS=sqlite npx tsx bench/numbering.ts
 *
 * The HTTP clients run in a child process (as real clients run on other machines), over keep-alive
 * connections; the service and the bare inserts run in this process, each alone in its turn. Response
 * validation is off, as in production (`VALIDATE_RESPONSES=1` includes it). The load average of the
 * machine is printed before and after: on a shared two-core machine the figures move with it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const N = Number(process.env.BENCH_N ?? 2000);
/** Each figure is the best of this many runs, alternating HTTP and bare inserts: the machine is shared and noisy. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = [1, 16];
const WARM_UP = 300;

interface RunRequest {
  /** `issue`: POST /invoices; `me`: GET /me, the platform's own cost per request (auth, envelope), for reference. */
  what: 'issue' | 'me';
  port: number;
  key: string;
  clientId: string;
  seriesId: string;
  concurrency: number;
  total: number;
}

/** Runs `task` `total` times, `workers` at a time; answers the seconds it took. */
async function inParallel(total: number, workers: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < total) await task(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** The child: issues invoices over HTTP when told to, and reports how long it took. */
async function clientProcess(): Promise<void> {
  process.on('message', async (message: RunRequest) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: message.concurrency });
    const body = JSON.stringify({
      client_id: message.clientId,
      series_id: message.seriesId,
      items: [
        { description: 'Cafea boabe', quantity: 2, price: 45.5, vat_rate: 21 },
        { description: 'Lapte', quantity: 1, price: 8.99, vat_rate: 9 },
      ],
    });
    const issuing = message.what === 'issue';
    const issue = () =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1', port: message.port, path: issuing ? '/v1/invoices' : '/v1/me', method: issuing ? 'POST' : 'GET', agent,
            headers: issuing
              ? { authorization: `Bearer ${message.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
              : { authorization: `Bearer ${message.key}` },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (d: Buffer) => chunks.push(d));
            // An invoice is created (201); GET /me answers 200.
            res.on('end', () => (res.statusCode === (issuing ? 201 : 200) ? resolve() : reject(new Error(`${res.statusCode} ${Buffer.concat(chunks).toString()}`))));
          },
        );
        req.on('error', reject);
        if (issuing) req.end(body);
        else req.end();
      });
    try {
      const seconds = await inParallel(message.total, message.concurrency, issue);
      agent.destroy();
      process.send!({ seconds });
    } catch (error) {
      process.send!({ error: String(error) });
    }
  });
  process.send!({ ready: true });
}

async function main(): Promise<void> {
  const { buildApp } = await import('../server/app');
  const { createApiKey } = await import('../server/platform/api-keys');
  const { newId } = await import('../server/platform/ids');
  const { createTestStorage } = await import('../test/support/storage');
  type Dialect = 'sqlite' | 'postgres';
  const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as Dialect[];

  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['client']);
  const fromChild = () => new Promise<{ seconds?: number; error?: string; ready?: boolean }>((resolve) => child.once('message', resolve));
  await fromChild();
  const overHttp = async (request: RunRequest): Promise<number> => {
    const reply = fromChild();
    child.send(request);
    const { seconds, error } = await reply;
    if (error !== undefined || seconds === undefined) throw new Error(`client: ${error}`);
    return seconds;
  };

  const rows: Array<{ dialect: Dialect; c: number; http: number; bare: number; me: number }> = [];
  const loadBefore = loadavg().map((l) => l.toFixed(2)).join(' ');
  for (const dialect of dialects) {
    const testStorage = await createTestStorage(dialect);
    const { app } = buildApp({ storage: testStorage.storage, rateLimits: { requestsPerHour: 1e9, createsPerMinute: 1e9 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const db = testStorage.storage.db;
      const { api_key: key } = await createApiKey(db, { companyName: 'Bench SRL', cui: '18547290', now: Math.floor(Date.now() / 1000) });
      const post = async (path: string, body: unknown): Promise<{ id: string }> => {
        const res = await fetch(`http://127.0.0.1:${port}/v1${path}`, {
          method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
        });
        const json = (await res.json()) as { data: { id: string } };
        if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
        return json.data;
      };
      const client = await post('/clients', { name: 'Client Bench SRL', cui: 'RO18547290' });
      const warm = await post('/invoice-series', { name: 'WARM' });
      await overHttp({ what: 'issue', port, key, clientId: client.id, seriesId: warm.id, concurrency: 8, total: WARM_UP });
      await overHttp({ what: 'me', port, key, clientId: client.id, seriesId: warm.id, concurrency: 8, total: WARM_UP });
      const template = await db.selectFrom('invoices').selectAll().where('series_id', '=', warm.id).executeTakeFirstOrThrow();

      for (const c of CONCURRENCY) {
        const best = { http: 0, bare: 0, me: 0 };
        for (let round = 0; round < ROUNDS; round++) {
          const series = await post('/invoice-series', { name: `H${c}R${round}` });
          const httpSeconds = await overHttp({ what: 'issue', port, key, clientId: client.id, seriesId: series.id, concurrency: c, total: N });
          const numbers = (await db.selectFrom('invoices').select('number').where('series_id', '=', series.id).execute()).map((r) => Number(r.number));
          const distinct = new Set(numbers);
          if (numbers.length !== N || distinct.size !== N || Math.min(...numbers) !== 1 || Math.max(...numbers) !== N) {
            throw new Error(`numbering broken at ${c} clients on ${dialect}`);
          }
          const bareSeries = newId('ser');
          const bareSeconds = await inParallel(N, c, async (i) => {
            await db
              .insertInto('invoices')
              .values({ ...template, id: newId('inv'), series_id: bareSeries, number: i + 1, full_number: `BARE-${i + 1}`, client_local_uuid: null })
              .execute();
          });
          const meSeconds = await overHttp({ what: 'me', port, key, clientId: client.id, seriesId: series.id, concurrency: c, total: N });
          best.http = Math.max(best.http, N / httpSeconds);
          best.bare = Math.max(best.bare, N / bareSeconds);
          best.me = Math.max(best.me, N / meSeconds);
        }
        rows.push({ dialect, c, ...best });
      }
    } finally {
      await app.close();
      await testStorage.drop();
    }
  }
  child.kill();

  console.log(`\nInvoices issued per second (N=${N} per run, best of ${ROUNDS}): HTTP POST /invoices vs bare INSERT into invoices`);
  console.log(`load average before: ${loadBefore}; after: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min)`);
  console.log('(GET /me: one authenticated request that does nothing, the platform\'s floor, for reference)');
  console.log('dialect    clients   http/s   bare/s   ratio   GET /me/s  ratio');
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1).padStart(6)}%`;
  for (const r of rows) {
    console.log(
      `${r.dialect.padEnd(10)} ${String(r.c).padStart(7)} ${r.http.toFixed(0).padStart(8)} ${r.bare.toFixed(0).padStart(8)} ${pct(r.http, r.bare)}` +
        ` ${r.me.toFixed(0).padStart(10)} ${pct(r.me, r.bare)}`,
    );
  }
  const sqlite = rows.filter((r) => r.dialect === 'sqlite');
  if (sqlite.length) {
    const worst = Math.min(...sqlite.map((r) => r.http / r.bare));
    console.log(`\nGoal: at least 25% of the ceiling on SQLite; worst SQLite ratio ${(100 * worst).toFixed(1)}%`);
  }
}

if (process.argv[2] === 'client') await clientProcess();
else await main();
