/**
 * Throughput and latency of the full service stack against a bare Fastify route, measured in one run
 * with the same process layout and the same load generator:
 *
 *   npx tsx bench/server.ts [--rounds 6] [--seconds 1.5] [--connections 50]
 *
 * Each server runs in a child process of its own (one core each way on a two-core machine: server
 * and load generator); the load generator is a plain keep-alive `http.Agent` loop here. The targets are
 * loaded in short interleaved rounds, and each round's full/bare ratio is kept: the ratio printed is
 * their median, so that a slow minute of a shared machine does not land on one side only. The full
 * stack is the real entry point (`server/cli.ts`) on a temporary SQLite file, answering an
 * authenticated `GET /v1/currencies` when that route exists, else `GET /v1/me`: key lookup, rate
 * limit, scope, query validation, handler queries, envelope. Response validation is off, as in
 * production (`VALIDATE_RESPONSES=1` in this shell turns it on in the server measured, to see its cost).
 * Goals (issue 17): GET /v1/me keeps at least 60% of the bare route's throughput, a list at least 45%,
 * with p99 < 10 ms. When the bare server uses well under a core, the load generator bounded it and the
 * ratio swings from run to run: compare the server CPU µs per request then (and see
 * bench/platform-ab.ts for the platform's part alone, bench/profile-top.ts for a profile by stage).
 * `--skip-me` measures the route alone (for a CPU profile of it with `--cpu-prof`). `--base <checkout>`
 * also runs that checkout's service and loads it in the same rounds: a change's effect, measured over
 * real sockets (bench/platform-ab.ts compares builds without sockets).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

function start(args: string[], env: Record<string, string>, nodeFlags: string[] = [], cwd = ROOT): Promise<Child> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', ...args], {
    cwd,
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

/** `connections` loops, each one request at a time on its own kept-alive socket. */
class Target {
  readonly latencies: number[] = [];
  readonly roundRps: number[] = [];
  requests = 0;
  errors = 0;
  seconds = 0;
  cpu: number | null = 0;
  private agent: http.Agent | null = null;
  private readonly target: URL;

  constructor(
    readonly name: string,
    url: string,
    private readonly headers: Record<string, string>,
    private readonly connections: number,
    private readonly pid: number | undefined,
  ) {
    this.target = new URL(url);
  }

  private once(agent: http.Agent): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const req = http.request(
        { agent, host: this.target.hostname, port: this.target.port, path: this.target.pathname + this.target.search, headers: this.headers },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** One round of `ms`; recorded unless it is the warm-up. */
  async run(ms: number, record: boolean): Promise<void> {
    // Sockets of a round of their own: between two rounds of a target the others run for longer than
    // the service keeps an idle connection, and a request sent as it closes one would count as an error.
    const agent = new http.Agent({ keepAlive: true, maxSockets: this.connections });
    const cpu0 = this.pid ? cpuSeconds(this.pid) : null;
    const t0 = performance.now();
    const end = t0 + ms;
    let count = 0;
    await Promise.all(
      Array.from({ length: this.connections }, async () => {
        while (performance.now() < end) {
          const started = performance.now();
          const status = await this.once(agent).catch(() => 0);
          if (!record) continue;
          count += 1;
          if (status !== 200) this.errors += 1;
          this.latencies.push(performance.now() - started);
        }
      }),
    );
    agent.destroy();
    if (!record) return;
    const elapsed = (performance.now() - t0) / 1000;
    const cpu1 = this.pid ? cpuSeconds(this.pid) : null;
    this.requests += count;
    this.seconds += elapsed;
    this.roundRps.push(count / elapsed);
    this.cpu = this.cpu !== null && cpu0 !== null && cpu1 !== null ? this.cpu + (cpu1 - cpu0) : null;
  }

  result(): Result {
    const sorted = Float64Array.from(this.latencies).sort();
    return {
      requests: this.requests,
      errors: this.errors,
      seconds: this.seconds,
      rps: this.requests / this.seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      serverCpu: this.cpu === null ? null : this.cpu / this.seconds,
    };
  }

}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      bare: { type: 'boolean' }, seconds: { type: 'string' }, connections: { type: 'string' }, rounds: { type: 'string' },
      /** Another authenticated GET to measure, e.g. /v1/work-points. */
      path: { type: 'string' },
      /** Measure only the route itself, not GET /v1/me beside it (for a profile of that route alone). */
      'skip-me': { type: 'boolean' },
      /** Another checkout (a worktree of main, say) whose service is measured beside this one's, round by round. */
      base: { type: 'string' },
      /** Directory for V8 CPU profiles of both servers (bare/, full/; open them in Chrome DevTools). */
      'cpu-prof': { type: 'string' },
    },
  });
  if (values.bare) return serveBare();
  const seconds = Number(values.seconds ?? 1.5);
  const rounds = Number(values.rounds ?? 6);
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
  // The other build gets a file of its own, migrated by its own code (a build refuses a database that
  // a newer one migrated), and a key of its own.
  const baseDb = values.base ? join(dir, 'base.sqlite') : null;
  let baseKey: string | null = null;
  if (values.base && baseDb) {
    const mod = (p: string) => import(pathToFileURL(join(resolve(values.base!), p)).href);
    const base = await mod('server/db/connect.ts');
    const baseStorage = base.openStorage({ dialect: 'sqlite', path: baseDb });
    await base.migrate(baseStorage);
    baseKey = (await (await mod('server/platform/api-keys.ts')).createApiKey(baseStorage.db, { companyName: 'Bench SRL', cui: '1590082', now: Math.floor(Date.now() / 1000) })).api_key;
    await baseStorage.close();
  }
  const path = values.path ?? (allRoutes.some((r) => r.method === 'GET' && r.path === '/currencies') ? '/v1/currencies' : '/v1/me');
  const paths = path === '/v1/me' || values['skip-me'] ? [path] : [path, '/v1/me'];

  const children: ChildProcess[] = [];
  const loadBefore = loadavg().map((l) => l.toFixed(2)).join(' ');
  try {
    const profile = (name: string) => (values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(values['cpu-prof'], name)}`] : []);
    const bareServer = await start(['bench/server.ts', '--bare'], {}, profile('bare'));
    children.push(bareServer.process);
    const serviceEnv = {
      DB_PATH: dbPath,
      ...(process.env.VALIDATE_RESPONSES ? { VALIDATE_RESPONSES: process.env.VALIDATE_RESPONSES } : {}),
      // The budgets would stop the load within a second; the counting itself still runs.
      RATE_LIMIT_PER_HOUR: '1000000000',
      RATE_LIMIT_CREATES_PER_MINUTE: '1000000000',
    };
    const full = await start(['server/cli.ts'], serviceEnv, profile('full'));
    children.push(full.process);
    const baseServer = values.base && baseDb ? await start(['server/cli.ts'], { ...serviceEnv, DB_PATH: baseDb }, [], values.base) : null;
    if (baseServer) children.push(baseServer.process);

    for (const p of paths) {
      const check = await fetch(`${full.url}${p}`, { headers: { authorization: `Bearer ${key.api_key}` } });
      if (check.status !== 200) throw new Error(`${p} answered ${check.status}: ${await check.text()}`);
    }

    const bare = new Target('bare Fastify GET /v1/bare', `${bareServer.url}/v1/bare`, {}, connections, bareServer.process.pid);
    const fulls = paths.map((p) => new Target(`full stack GET ${p}`, `${full.url}${p}`, { authorization: `Bearer ${key.api_key}` }, connections, full.process.pid));
    const bases = baseServer
      ? paths.map((p) => new Target(`base build GET ${p}`, `${baseServer.url}${p}`, { authorization: `Bearer ${baseKey}` }, connections, baseServer.process.pid))
      : [];
    const targets = [bare, ...fulls, ...bases];
    for (const t of targets) await t.run(1000, false); // warm-up: JIT, caches, sockets
    // Short rounds, interleaved and in a rotating order: a slower minute of a shared machine weighs on
    // the bare route and the full stack alike, and each round gives a ratio of its own.
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < targets.length; i++) await targets[(i + r) % targets.length]!.run(seconds * 1000, true);
    }

    const bareResult = bare.result();
    const row = (name: string, r: Result) =>
      `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   ` +
      `${String(r.requests).padStart(7)} requests, ${r.errors} errors, server CPU ${r.serverCpu === null ? '?' : `${(r.serverCpu * 100).toFixed(0)}% = ${((r.serverCpu / r.rps) * 1e6).toFixed(0)} µs/request`}`;
    const verdict = (p: string, t: Target) => {
      const r = t.result();
      const ratios = t.roundRps.map((rps, i) => rps / bare.roundRps[i]!);
      const ratio = median(ratios);
      const goal = p === '/v1/me' ? 0.6 : 0.45;
      return `${p}: ratio full/bare ${(ratio * 100).toFixed(1)}% (median of ${ratios.length} rounds, ${(Math.min(...ratios) * 100).toFixed(1)}–${(Math.max(...ratios) * 100).toFixed(1)}%; ` +
        `goal >= ${goal * 100}%: ${ratio >= goal ? 'met' : 'MISSED'}); p99 ${r.p99.toFixed(2)} ms (goal < 10 ms: ${r.p99 < 10 ? 'met' : 'MISSED'})`;
    };
    process.stdout.write(
      [
        `bench/server.ts: ${connections} keep-alive connections, ${rounds} interleaved rounds of ${seconds} s per target after 1 s warm-up, SQLite, Node ${process.version}`,
        `load average before: ${loadBefore}; after: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min)`,
        row(bare.name, bareResult),
        ...fulls.map((t) => row(t.name, t.result())),
        ...fulls.map((t, i) => verdict(paths[i]!, t)),
        ...bases.map((b, i) => {
          const t = fulls[i]!;
          const ratios = t.roundRps.map((rps, r) => rps / b.roundRps[r]!);
          const cpu = (x: Target) => (x.result().serverCpu ?? Number.NaN) / x.result().rps;
          return `${paths[i]}: this build / base build ${median(ratios).toFixed(3)} in throughput (median of ${ratios.length} rounds, ` +
            `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}), ${(cpu(t) / cpu(b)).toFixed(3)} in server CPU per request`;
        }),
        bareResult.serverCpu !== null && bareResult.serverCpu < 0.9
          ? `note: the bare server used ${(bareResult.serverCpu * 100).toFixed(0)}% of a core: the load generator, not the server, bounded its figure.`
          : '',
      ]
        .filter(Boolean)
        .join('\n') + '\n',
    );
    if (fulls.some((t) => t.errors) || bare.errors) process.exitCode = 1;
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
