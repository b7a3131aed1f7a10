/**
 * How the service scales on PostgreSQL + Redis: FIRMS firms × CLIENTS clients each issue invoices at
 * once (POST /invoices, the next number of the firm's own series), against 1 and then 2 service
 * processes on one PostgreSQL (rate limits shared in Redis; the load generator spreads connections
 * over the processes as a load balancer would). For each it prints throughput, latency p50/p99, the
 * CPU time per issued invoice of the service processes and of PostgreSQL, how long a series row stays
 * locked per issue (the locking statement answered → its COMMIT answered, timed on the service's
 * PostgreSQL connections), and the count of duplicated
 * and missing numbers, which must be zero. The 1-process run is the baseline of the 2-process one.
 *
 *   npx tsx bench/scale.ts
 *   FIRMS=64 CLIENTS=4 PER_CLIENT=25 PROCESSES=1,2 DATABASE_POOL_SIZE=10 npx tsx bench/scale.ts
 *   PROCESSES=1,2,1,2 POOL_TOTAL=10 SCALE_PROFILE_DIR=/tmp/prof npx tsx bench/scale.ts
 *
 * PROCESSES may repeat (1,2,1,2: alternating runs, so that a machine shared with other work weighs on
 * both alike; each configuration is then compared by its mean); `N:P` gives each of N processes a
 * pool of P connections (1,2,2:5: one process, two with the default pool, two with 5 each). POOL_TOTAL=n splits n PostgreSQL connections
 * over the processes (each gets n / processes) instead of giving each DATABASE_POOL_SIZE.
 * SCALE_PROFILE_DIR writes a CPU profile of each process's measured phase (bench/scale-profile.ts
 * sums them by component). PostgreSQL CPU counts this run's own backends (found by their
 * application_name) and the server's background processes, not other clients of the same server.
 *
 * Our machines have two cores shared by PostgreSQL, the service processes and this load generator, so
 * throughput cannot double here: what scaling needs is that a second process adds no contention, i.e.
 * that CPU per invoice stays flat (goal: at most +10% from 1 to 2 processes) and locks stay short.
 * docs/scaling.md turns these figures into a capacity model.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { encodeRequest, RawConnection } from './raw-http-client';
import type { ServerStats } from './scale-server';

const FIRMS = Number(process.env.FIRMS ?? 64);
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const PER_CLIENT = Number(process.env.PER_CLIENT ?? 25);
const WARM_UP_PER_CLIENT = Number(process.env.WARM_UP_PER_CLIENT ?? 3);
/** `N` (processes) or `N:P` (processes, pool size of each), e.g. `1,2,2:5`. */
const PROCESS_COUNTS = (process.env.PROCESSES ?? '1,2').split(',').map((entry) => {
  const [n, pool] = entry.split(':').map(Number);
  return { processes: n!, pool: pool ?? null };
});
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const POOL_TOTAL = process.env.POOL_TOTAL ? Number(process.env.POOL_TOTAL) : null;

interface Target {
  port: number;
  key: string;
  clientId: string;
  seriesId: string;
}

interface LoadRequest {
  targets: Target[];
  perClient: number;
}

interface LoadResult {
  seconds: number;
  latenciesMs: number[];
  errors: string[];
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

/** The load generator (a child process, as clients run on other machines): one connection per target. */
async function loadProcess(): Promise<void> {
  process.on('message', async (message: LoadRequest) => {
    const latenciesMs: number[] = [];
    const errors: string[] = [];
    const connections = await Promise.all(message.targets.map((t) => RawConnection.open(t.port)));
    const started = performance.now();
    await Promise.all(
      message.targets.map(async (target, i) => {
        const request = encodeRequest(
          {
            method: 'POST', path: '/v1/invoices',
            headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              client_id: target.clientId, series_id: target.seriesId,
              items: [
                { description: 'Cafea boabe', quantity: 2, price: 45.5, vat_rate: 21 },
                { description: 'Lapte', quantity: 1, price: 8.99, vat_rate: 11 },
              ],
            }),
          },
          `127.0.0.1:${target.port}`,
        );
        for (let n = 0; n < message.perClient; n++) {
          const t0 = performance.now();
          const reply = await connections[i]!.send(request);
          latenciesMs.push(performance.now() - t0);
          if (reply.status !== 201 && errors.length < 5) errors.push(`${reply.status} ${reply.body.toString('utf8').slice(0, 200)}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    for (const c of connections) c.close();
    process.send!({ seconds, latenciesMs, errors } satisfies LoadResult);
  });
  process.send!({ ready: true });
}

/** CPU seconds (user + system) of every process whose command is `postgres`, by pid. */
function postgresCpu(): Map<number, number> {
  const ticks = 100; // USER_HZ on Linux
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
      const fields = stat.slice(close + 2).split(' ');
      out.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / ticks);
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

function cpuSince(before: Map<number, number>, after: Map<number, number>, only?: Set<number>): number {
  let total = 0;
  for (const [pid, seconds] of after) if (!only || only.has(pid)) total += seconds - (before.get(pid) ?? 0);
  return total;
}

function once<T>(child: ChildProcess, pick: (m: Record<string, unknown>) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Record<string, unknown>) => {
      const value = pick(m);
      if (value === undefined) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(value);
    };
    const onExit = (code: number | null) => reject(new Error(`child exited with ${code}`));
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

async function main(): Promise<void> {
  const pg = (await import('pg')).default;
  const { migrate, openStorage } = await import('../server/db/connect');
  const { createApiKey } = await import('../server/platform/api-keys');
  const { randomBase62 } = await import('../server/platform/ids');
  const { cuiControlDigit } = await import('../shared/ro/cui');

  const schema = `bench_scale_${randomBase62(8).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const storage = openStorage({ dialect: 'postgres', url: PG_URL, schema });
  const children: ChildProcess[] = [];
  try {
    await migrate(storage);
    const now = Math.floor(Date.now() / 1000);
    const firms: Array<{ key: string }> = [];
    for (let f = 0; f < FIRMS; f++) {
      const body = String(20_000_000 + f * 7919);
      const created = await createApiKey(storage.db, { companyName: `Firma ${f} SRL`, cui: `${body}${cuiControlDigit(body)}`, now });
      firms.push({ key: created.api_key });
    }
    // pg reads PGAPPNAME: the backends of this run's service processes are found by it.
    const serverEnv = {
      ...process.env, DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL,
      RATE_LIMIT_PREFIX: `bench-scale-${schema}`, VALIDATE_RESPONSES: '0', PGAPPNAME: schema,
    };
    const load = fork(fileURLToPath(import.meta.url), ['load']);
    children.push(load);
    await once(load, (m) => (m.ready ? true : undefined));

    const rows: Array<{
      processes: number; pool: number; invoices: number; seconds: number; p50: number; p99: number; serviceCpuMs: number; pgCpuMs: number; pgAllCpuMs: number;
      holdMean: number; holdP99: number; holdsTimed: number; duplicates: number; missing: number; errors: string[];
      svcVoluntary: number; svcForced: number; pgQueries: number; redisCommands: number;
    }> = [];
    let clients: string[] | null = null;
    for (const [runIndex, { processes, pool: poolGiven }] of PROCESS_COUNTS.entries()) {
      const servers: ChildProcess[] = [];
      const ports: number[] = [];
      const pool = poolGiven ?? (POOL_TOTAL ? Math.max(1, Math.round(POOL_TOTAL / processes)) : Number(process.env.DATABASE_POOL_SIZE ?? 10));
      const env = { ...serverEnv, DATABASE_POOL_SIZE: String(pool), SCALE_RUN_LABEL: `${runIndex + 1}-p${processes}` };
      for (let p = 0; p < processes; p++) {
        const child = fork(fileURLToPath(new URL('./scale-server.ts', import.meta.url)), [], { env, execArgv: ['--import', 'tsx'] });
        children.push(child);
        servers.push(child);
        ports.push(await once(child, (m) => (typeof m.port === 'number' ? m.port : undefined)));
      }
      const api = async (key: string, path: string, body: unknown): Promise<string> => {
        const res = await fetch(`http://127.0.0.1:${ports[0]}/v1${path}`, {
          method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
        });
        const json = (await res.json()) as { data?: { id: string } };
        if (res.status !== 201 || !json.data) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
        return json.data.id;
      };
      clients ??= await Promise.all(firms.map((f) => api(f.key, '/clients', { name: 'Client Bench SRL', cui: 'RO18547290' })));
      const series = await Promise.all(firms.map((f) => api(f.key, '/invoice-series', { name: `P${runIndex + 1}` })));
      const warm = await Promise.all(firms.map((f) => api(f.key, '/invoice-series', { name: `W${runIndex + 1}` })));
      // Connection i goes to process i mod P: round robin, as a load balancer spreads new connections.
      const targets = (seriesIds: string[]): Target[] =>
        firms.flatMap((f, fi) =>
          Array.from({ length: CLIENTS }, (_, c) => ({ port: ports[(fi * CLIENTS + c) % processes]!, key: f.key, clientId: clients![fi]!, seriesId: seriesIds[fi]! })),
        );
      const run = async (seriesIds: string[], perClient: number): Promise<LoadResult> => {
        const result = once(load, (m) => ('seconds' in m ? (m as unknown as LoadResult) : undefined));
        load.send({ targets: targets(seriesIds), perClient } satisfies LoadRequest);
        return result;
      };
      await run(warm, WARM_UP_PER_CLIENT);
      await Promise.all(servers.map((s) => { const r = once(s, (m) => (m.reset ? true : undefined)); s.send('reset'); return r; }));
      const pgBefore = postgresCpu();
      const result = await run(series, PER_CLIENT);
      const pgAfter = postgresCpu();
      const ownPg = new Set(
        (await admin.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = $1 or backend_type <> 'client backend'`, [schema]))
          .rows.map((r) => r.pid),
      );
      const stats = await Promise.all(servers.map((s) => { const r = once(s, (m) => (m.stats as ServerStats | undefined)); s.send('stats'); return r; }));

      let duplicates = 0;
      let missing = 0;
      for (const id of series) {
        const numbers = (await storage.db.selectFrom('invoices').select('number').where('series_id', '=', id).execute()).map((r) => Number(r.number));
        const distinct = new Set(numbers);
        duplicates += numbers.length - distinct.size;
        const max = numbers.length ? Math.max(...numbers) : 0;
        missing += max - distinct.size; // numbers 1..max not issued
      }
      const invoices = FIRMS * CLIENTS * PER_CLIENT;
      const latencies = [...result.latenciesMs].sort((a, b) => a - b);
      const holds = stats.flatMap((s) => s.holdsMs).sort((a, b) => a - b);
      rows.push({
        processes, pool, invoices, seconds: result.seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99),
        serviceCpuMs: stats.reduce((sum, s) => sum + s.cpuMs, 0) / invoices,
        pgCpuMs: (1000 * cpuSince(pgBefore, pgAfter, ownPg)) / invoices,
        pgAllCpuMs: (1000 * cpuSince(pgBefore, pgAfter)) / invoices,
        holdMean: holds.reduce((a, b) => a + b, 0) / Math.max(1, holds.length), holdP99: percentile(holds, 99), holdsTimed: holds.length,
        duplicates, missing, errors: result.errors,
        svcVoluntary: stats.reduce((sum, s) => sum + s.voluntarySwitches, 0) / invoices,
        svcForced: stats.reduce((sum, s) => sum + s.forcedSwitches, 0) / invoices,
        pgQueries: stats.reduce((sum, s) => sum + s.pgQueries, 0) / invoices,
        redisCommands: stats.reduce((sum, s) => sum + s.redisCommands, 0) / invoices,
      });
      for (const s of stats) if (s.profile) console.log(`profile: ${s.profile}`);
      for (const s of servers) {
        const exited = new Promise((resolve) => s.once('exit', resolve));
        s.send('close');
        await exited;
      }
    }
    load.kill();

    console.log(`\nScale on PostgreSQL + Redis: ${FIRMS} firms × ${CLIENTS} clients × ${PER_CLIENT} invoices, each firm its own series`);
    console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min); ${(await import('node:os')).cpus().length} cores shared by everything`);
    console.log('(PG CPU: this run\'s backends and PostgreSQL\'s background processes; "all": every postgres process, other clients included)');
    console.log('procs  pool  invoices    inv/s   p50 ms   p99 ms  service CPU ms/inv  PG CPU ms/inv  (all)  lock held ms mean/p99  dup  missing');
    for (const r of rows) {
      console.log(
        `${String(r.processes).padStart(5)} ${String(r.pool).padStart(5)} ${String(r.invoices).padStart(9)} ${(r.invoices / r.seconds).toFixed(0).padStart(8)} ` +
          `${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${r.serviceCpuMs.toFixed(3).padStart(19)} ${r.pgCpuMs.toFixed(3).padStart(14)} ${r.pgAllCpuMs.toFixed(3).padStart(6)} ` +
          `${`${r.holdMean.toFixed(2)}/${r.holdP99.toFixed(2)}`.padStart(22)} ${String(r.duplicates).padStart(4)} ${String(r.missing).padStart(8)}`,
      );
      console.log(
        `      per invoice: ${r.pgQueries.toFixed(2)} PostgreSQL statements, ${r.redisCommands.toFixed(2)} Redis commands; service context switches ` +
          `${r.svcVoluntary.toFixed(2)} voluntary (waits), ${r.svcForced.toFixed(2)} forced (preempted); lock holds timed: ${r.holdsTimed} of ${r.invoices}`,
      );
      for (const e of r.errors) console.log(`   refused: ${e}`);
    }
    // Each process count by the mean of its runs; the first count is the baseline.
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const label = (r: { processes: number; pool: number }) => `${r.processes} process${r.processes > 1 ? 'es' : ''} × pool ${r.pool}`;
    const counts = [...new Set(rows.map(label))];
    const byCount = counts.map((n) => {
      const of = rows.filter((r) => label(r) === n);
      return { n, runs: of.length, rate: mean(of.map((r) => r.invoices / r.seconds)), svc: mean(of.map((r) => r.serviceCpuMs)), pg: mean(of.map((r) => r.pgCpuMs)) };
    });
    const base = byCount[0]!;
    for (const r of byCount.slice(1)) {
      const cpuGrowth = (r.svc + r.pg) / (base.svc + base.pg) - 1;
      const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
      console.log(
        `\n${r.n} vs ${base.n} (means of ${r.runs} and ${base.runs} runs): throughput ×${(r.rate / base.rate).toFixed(2)}, ` +
          `CPU per invoice (service + PostgreSQL) ${pct(cpuGrowth)} (goal ≤ +10%); service ${pct(r.svc / base.svc - 1)}, PostgreSQL ${pct(r.pg / base.pg - 1)}`,
      );
    }
    for (const r of rows) {
      console.log(`ceiling of one series with ${r.processes} process(es): 1 / mean lock hold = ${(1000 / r.holdMean).toFixed(0)} invoices/s`);
    }
    const bad = rows.reduce((n, r) => n + r.duplicates + r.missing, 0);
    console.log(bad === 0 ? 'numbering: no number duplicated or missing' : `numbering BROKEN: ${bad} duplicated or missing numbers`);
    if (bad !== 0) process.exitCode = 1;
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill();
    await storage.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

if (process.argv[2] === 'load') await loadProcess();
else await main();
