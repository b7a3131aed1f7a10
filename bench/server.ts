/**
 * Throughput and latency of the full service stack against a bare Fastify route, measured in one run
 * with the same process layout and the same load generator:
 *
 *   npx tsx bench/server.ts [--seconds 5] [--connections 50]
 *
 * Each server runs in a child process of its own (one core each way on a two-core machine: server
 * and load generator); the load generator is a plain keep-alive `http.Agent` loop here. The full
 * stack is the real entry point (`server/cli.ts`) on a temporary SQLite file, answering an
 * authenticated `GET /v1/currencies` when that route exists, else `GET /v1/me`: key lookup, rate
 * limit, scope, query validation, handler queries, envelope. Response validation is off, as in
 * production (`VALIDATE_RESPONSES=1` in this shell turns it on in the server measured, to see its cost).
 * Goals (issue 17): GET /v1/me keeps at least 60% of the bare route's throughput, a list at least 45%,
 * with p99 < 10 ms. When the bare server uses well under a core, the load generator bounded it and the
 * ratio swings from run to run: compare the server CPU µs per request then (and see
 * bench/platform-ab.ts for the platform's part alone, bench/profile-top.ts for a profile by stage).
 * `--skip-me` measures the route alone (for a CPU profile of it with `--cpu-prof`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function serveBare(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  // A reply of the same order of size as the full stack's, built per request like a handler would.
  app.get('/v1/bare', async () => ({
    success: true,
    data: { object: 'api_key', key_id: 'key_x', company: { id: 'cmp_x', name: 'Bench SRL', cui: '1590082' }, scopes: ['*'] },
    meta: { version: 'v1', request_id: 'x', response_time: '0ms' },
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

interface Child {
  process: ChildProcess;
  url: string;
}

function start(args: string[], env: Record<string, string>, nodeFlags: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ process: child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${String(code)} before listening:\n${out}`)));
  });
}

/** User + system CPU seconds of a process so far (Linux), or null elsewhere. */
function cpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

interface Result {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  serverCpu: number | null;
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `connections` loops, each one request at a time on its own kept-alive socket, for `seconds`. */
async function load(url: string, headers: Record<string, string>, seconds: number, connections: number, pid: number | undefined): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname + target.search, headers }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  const run = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const status = await once().catch(() => 0);
          if (!record) continue;
          if (status !== 200) errors += 1;
          latencies.push(performance.now() - t0);
        }
      }),
    );
    return { latencies, errors };
  };
  await run(1000, false); // warm-up: JIT, caches, sockets
  const cpu0 = pid ? cpuSeconds(pid) : null;
  const t0 = performance.now();
  const { latencies, errors } = await run(seconds * 1000, true);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu1 = pid ? cpuSeconds(pid) : null;
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    errors,
    seconds: elapsed,
    rps: latencies.length / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    serverCpu: cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / elapsed : null,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      bare: { type: 'boolean' }, seconds: { type: 'string' }, connections: { type: 'string' },
      /** Another authenticated GET to measure, e.g. /v1/work-points. */
      path: { type: 'string' },
      /** Measure only the route itself, not GET /v1/me beside it (for a profile of that route alone). */
      'skip-me': { type: 'boolean' },
      /** Directory for V8 CPU profiles of both servers (bare/, full/; open them in Chrome DevTools). */
      'cpu-prof': { type: 'string' },
    },
  });
  if (values.bare) return serveBare();
  const seconds = Number(values.seconds ?? 5);
  const connections = Number(values.connections ?? 50);

  const { migrate, openStorage } = await import('../server/db/connect');
  const { createApiKey } = await import('../server/platform/api-keys');
  const { allRoutes } = await import('../server/modules/index');
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-bench-'));
  const dbPath = join(dir, 'bench.sqlite');
  const storage = openStorage({ dialect: 'sqlite', path: dbPath });
  await migrate(storage);
  const key = await createApiKey(storage.db, { companyName: 'Bench SRL', cui: '1590082', now: Math.floor(Date.now() / 1000) });
  await storage.close();
  const path = values.path ?? (allRoutes.some((r) => r.method === 'GET' && r.path === '/currencies') ? '/v1/currencies' : '/v1/me');
  const paths = path === '/v1/me' || values['skip-me'] ? [path] : [path, '/v1/me'];

  const children: ChildProcess[] = [];
  const loadBefore = loadavg().map((l) => l.toFixed(2)).join(' ');
  try {
    const profile = (name: string) => (values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(values['cpu-prof'], name)}`] : []);
    const bare = await start(['bench/server.ts', '--bare'], {}, profile('bare'));
    children.push(bare.process);
    const full = await start(['server/cli.ts'], {
      DB_PATH: dbPath,
      ...(process.env.VALIDATE_RESPONSES ? { VALIDATE_RESPONSES: process.env.VALIDATE_RESPONSES } : {}),
      // The budgets would stop the load within a second; the counting itself still runs.
      RATE_LIMIT_PER_HOUR: '1000000000',
      RATE_LIMIT_CREATES_PER_MINUTE: '1000000000',
    }, profile('full'));
    children.push(full.process);

    for (const p of paths) {
      const check = await fetch(`${full.url}${p}`, { headers: { authorization: `Bearer ${key.api_key}` } });
      if (check.status !== 200) throw new Error(`${p} answered ${check.status}: ${await check.text()}`);
    }

    const bareResult = await load(`${bare.url}/v1/bare`, {}, seconds, connections, bare.process.pid);
    const fullResults: Array<[string, Result]> = [];
    for (const p of paths) {
      fullResults.push([p, await load(`${full.url}${p}`, { authorization: `Bearer ${key.api_key}` }, seconds, connections, full.process.pid)]);
    }

    const row = (name: string, r: Result) =>
      `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   ` +
      `${String(r.requests).padStart(7)} requests, ${r.errors} errors, server CPU ${r.serverCpu === null ? '?' : `${(r.serverCpu * 100).toFixed(0)}% = ${((r.serverCpu / r.rps) * 1e6).toFixed(0)} µs/request`}`;
    const verdict = (p: string, r: Result) => {
      const ratio = r.rps / bareResult.rps;
      const goal = p === '/v1/me' ? 0.6 : 0.45;
      return `${p}: ratio full/bare ${(ratio * 100).toFixed(1)}% (goal >= ${goal * 100}%: ${ratio >= goal ? 'met' : 'MISSED'}); ` +
        `p99 ${r.p99.toFixed(2)} ms (goal < 10 ms: ${r.p99 < 10 ? 'met' : 'MISSED'})`;
    };
    process.stdout.write(
      [
        `bench/server.ts: ${connections} keep-alive connections, ${seconds} s each after 1 s warm-up, SQLite, Node ${process.version}`,
        `load average before: ${loadBefore}; after: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min)`,
        row('bare Fastify GET /v1/bare', bareResult),
        ...fullResults.map(([p, r]) => row(`full stack GET ${p}`, r)),
        ...fullResults.map(([p, r]) => verdict(p, r)),
        bareResult.serverCpu !== null && bareResult.serverCpu < 0.9
          ? `note: the bare server used ${(bareResult.serverCpu * 100).toFixed(0)}% of a core: the load generator, not the server, bounded its figure.`
          : '',
      ]
        .filter(Boolean)
        .join('\n') + '\n',
    );
    const fullResult = fullResults[0]![1];
    if (fullResult.errors || bareResult.errors) process.exitCode = 1;
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
