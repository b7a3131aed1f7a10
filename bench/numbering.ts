/**
 * Invoices issued per second over HTTP (POST /invoices, every one numbered from the same series), with
 * 1 and 16 concurrent clients, on SQLite and PostgreSQL, against the ceiling of the same number of bare
 * single-row inserts into the same `invoices` table at the same concurrency. Prints the ratio.
 *
 *   npx tsx bench/numbering.ts
 *   BENCH_N=3000 BENCH_DIALECTS=sqlite npx tsx bench/numbering.ts
 *
 * The HTTP clients run in a child process (as real clients run on other machines), over keep-alive
 * connections, with a lean load generator (bench/raw-http-client.ts) so that the client's own cost
 * stays out of the figure; the service and the bare inserts run in this process, each alone in its
 * turn. Response validation is off, as in production (`VALIDATE_RESPONSES=1` includes it). The load
 * average of the machine is printed before and after: on a shared two-core machine the figures move
 * with it.
 *
 * Two more columns say where the time goes: `inject/s`, the same POST /invoices through Fastify's
 * `inject` in this process (the whole service: auth, validation, numbering, the transaction, the
 * reply; no socket, no client), and `GET /me/s`, an authenticated request that does nothing, over the
 * same HTTP client (the platform's and the network's floor).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { encodeRequest, RawConnection } from './raw-http-client';

const N = Number(process.env.BENCH_N ?? 2000);
/** Each figure is the best of this many runs, alternating HTTP and bare inserts: the machine is shared and noisy. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = [1, 16];
const WARM_UP = 1000;

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
    const issuing = message.what === 'issue';
    const request = encodeRequest(
      issuing
        ? {
            method: 'POST', path: '/v1/invoices',
            headers: { authorization: `Bearer ${message.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              client_id: message.clientId,
              series_id: message.seriesId,
              items: [
                { description: 'Cafea boabe', quantity: 2, price: 45.5, vat_rate: 21 },
                { description: 'Lapte', quantity: 1, price: 8.99, vat_rate: 9 },
              ],
            }),
          }
        : { method: 'GET', path: '/v1/me', headers: { authorization: `Bearer ${message.key}` } },
      `127.0.0.1:${message.port}`,
    );
    // An invoice is created (201); GET /me answers 200.
    const expected = issuing ? 201 : 200;
    const connections = await Promise.all(Array.from({ length: message.concurrency }, () => RawConnection.open(message.port)));
    try {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        connections.map(async (connection) => {
          while (next < message.total) {
            next += 1;
            const reply = await connection.send(request);
            if (reply.status !== expected) throw new Error(`${reply.status} ${reply.body.toString('utf8')}`);
          }
        }),
      );
      process.send!({ seconds: (performance.now() - started) / 1000 });
    } catch (error) {
      process.send!({ error: String(error) });
    } finally {
      for (const connection of connections) connection.close();
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

  const rows: Array<{ dialect: Dialect; c: number; http: number; bare: number; inject: number; me: number }> = [];
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
        const best = { http: 0, bare: 0, inject: 0, me: 0 };
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
          const injectSeries = await post('/invoice-series', { name: `I${c}R${round}` });
          const injectBody = {
            client_id: client.id, series_id: injectSeries.id,
            items: [
              { description: 'Cafea boabe', quantity: 2, price: 45.5, vat_rate: 21 },
              { description: 'Lapte', quantity: 1, price: 8.99, vat_rate: 9 },
            ],
          };
          const injectSeconds = await inParallel(N, c, async () => {
            const res = await app.inject({ method: 'POST', url: '/v1/invoices', headers: { authorization: `Bearer ${key}` }, payload: injectBody });
            if (res.statusCode !== 201) throw new Error(`inject: ${res.statusCode} ${res.body}`);
          });
          const meSeconds = await overHttp({ what: 'me', port, key, clientId: client.id, seriesId: series.id, concurrency: c, total: N });
          best.http = Math.max(best.http, N / httpSeconds);
          best.bare = Math.max(best.bare, N / bareSeconds);
          best.inject = Math.max(best.inject, N / injectSeconds);
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
  console.log('(inject: the same POST in process, no socket; GET /me: an authenticated request that does nothing, over HTTP)');
  console.log('dialect    clients   http/s   bare/s   ratio   inject/s  ratio  GET /me/s  ratio');
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1).padStart(6)}%`;
  for (const r of rows) {
    console.log(
      `${r.dialect.padEnd(10)} ${String(r.c).padStart(7)} ${r.http.toFixed(0).padStart(8)} ${r.bare.toFixed(0).padStart(8)} ${pct(r.http, r.bare)}` +
        ` ${r.inject.toFixed(0).padStart(10)} ${pct(r.inject, r.bare)} ${r.me.toFixed(0).padStart(10)} ${pct(r.me, r.bare)}`,
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
