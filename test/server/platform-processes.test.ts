import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestStorage, DIALECTS, type TestStorage } from '../support/storage';
import { callApi, PROJECT_ROOT, randomCui, runCli, runCommand, spawnServer, spawnServerCommand, type ChildServer } from '../support/server';
import { appliedMigrations, migrate, openStorage, UnknownMigrationError } from '../../server/db/connect';
import { migrations } from '../../server/db/migrations/index';
import { createApiKey } from '../../server/platform/api-keys';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Children and databases of this file, so that a failing test still cleans up. */
const children: ChildServer[] = [];
/** Process groups of this file (npm and the service under it), killed whole if a test left them. */
const groups: number[] = [];
const storages: TestStorage[] = [];
afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone: the test's own stop ended it.
    }
  }
  for (const s of storages) await s.drop();
});

async function storageFor(dialect: 'sqlite' | 'postgres', migrated = true): Promise<TestStorage> {
  const s = await createTestStorage(dialect, { migrate: migrated });
  storages.push(s);
  return s;
}

async function serverOn(env: Record<string, string>): Promise<ChildServer> {
  const child = await spawnServer(env);
  children.push(child);
  return child;
}

/** Sends the headers and half the body of a POST, and finishes it only when told. */
function startSlowPost(url: string, key: string, body: string) {
  let finish: () => void = () => undefined;
  const reply = new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    finish = () => req.end(body.slice(half));
  });
  return { reply, finish: () => finish() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * After a server stopped: on SQLite the log was checkpointed and removed by a clean close and the file
 * is sound; the work point the request in flight created is there.
 */
async function expectWrittenWhole(store: TestStorage, dialect: 'sqlite' | 'postgres', id: string, expected: Record<string, unknown>) {
  let db = store.storage;
  if (dialect === 'sqlite') {
    const path = store.env.DB_PATH!;
    expect(!existsSync(`${path}-wal`) || statSync(`${path}-wal`).size === 0, 'no write-ahead log left behind').toBe(true);
    db = openStorage({ dialect: 'sqlite', path });
    const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db.db);
    expect(check.rows[0]!.integrity_check).toBe('ok');
  }
  try {
    const row = await db.db.selectFrom('work_points').selectAll().where('id', '=', id).executeTakeFirst();
    expect(row).toMatchObject(expected);
  } finally {
    if (db !== store.storage) await db.close();
  }
}

describe.each(DIALECTS)('the service process on %s', (dialect) => {
  it('migrates on start, prints the real port, and on SIGTERM finishes the request in flight, then exits 0', async () => {
    const store = await storageFor(dialect, false);
    expect(await appliedMigrations(store.storage)).toEqual([]);
    const server = await serverOn(store.env);
    expect(server.stdout()).toMatch(/^listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
    const port = Number(/:(\d+)\n/.exec(server.stdout())![1]);
    expect(port).toBeGreaterThan(0);
    expect(new URL(server.url).port).toBe(String(port));
    expect(await appliedMigrations(store.storage)).toEqual(Object.keys(migrations).sort());

    const key = await createApiKey(store.storage.db, { companyName: 'Oprire SRL', cui: randomCui(), now: Math.floor(Date.now() / 1000) });
    expect((await callApi(server.base, key.api_key, 'GET', '/me')).status).toBe(200);
    // The server must be the last to close the file for SQLite to fold its log back: let go of ours.
    if (dialect === 'sqlite') await store.storage.close();

    // A create whose body is still arriving when SIGTERM lands.
    const slow = startSlowPost(`${server.base}/work-points`, key.api_key, JSON.stringify({ name: 'În zbor', address: 'Str. Ultima 1' }));
    await sleep(150);
    server.child.kill('SIGTERM');
    await sleep(300);
    expect(server.child.exitCode, 'still running while a request is in flight').toBeNull();
    // No new connections once shutdown began.
    await expect(fetch(`${server.base}/openapi.json`)).rejects.toThrow();
    slow.finish();
    const reply = await slow.reply;
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers.connection).toBe('close');
    const created = JSON.parse(reply.text) as { data: { id: string } };
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stdout()).toContain('SIGTERM: finishing in-flight requests');

    await expectWrittenWhole(store, dialect, created.data.id, { name: 'În zbor', address: 'Str. Ultima 1', company_id: key.company_id });
  });

  it('refuses to start on a database that applied a migration this build does not know', async () => {
    const store = await storageFor(dialect);
    const table = store.storage.schema ? sql.table(`${store.storage.schema}.kysely_migration`) : sql.table('kysely_migration');
    await sql`insert into ${table} (name, timestamp) values ('0050_from_a_newer_build', ${new Date().toISOString()})`.execute(store.storage.db);
    await expect(migrate(store.storage)).rejects.toBeInstanceOf(UnknownMigrationError);
    await expect(migrate(store.storage)).rejects.toThrow(/0050_from_a_newer_build/);
    await expect(spawnServer(store.env)).rejects.toThrow(/does not know: 0050_from_a_newer_build/);
    const cli = await runCli(['migrate'], store.env);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('0050_from_a_newer_build');
  });

  it('creates, lists and revokes keys with the CLI, and the printed key works over HTTP', async () => {
    const store = await storageFor(dialect, false);
    const cui = randomCui();
    const created = await runCli(
      ['keys', 'create', '--company', 'Cheie SRL', '--cui', `RO${cui}`, '--work-point', 'Magazin 1', '--name', 'casa 1',
        '--scopes', 'work_points:read', '--expires', '2099-01-01', '--allow-ip', '127.0.0.1', '--allow-ip', '10.0.0.0/8', '--allow-ip', '::1', '--json'],
      store.env,
    );
    expect(created.code, created.stderr).toBe(0);
    const lines = created.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]!) as Record<string, string>;
    expect(Object.keys(printed).sort()).toEqual(['api_key', 'company_id', 'work_point_id']);
    expect(printed.api_key).toMatch(/^sk_live_[0-9A-Za-z]{24}$/);

    // A second key of the same company at another work point, and a test-mode key.
    const second = await runCli(['keys', 'create', '--company', 'Cheie SRL', '--cui', cui, '--work-point', 'Magazin 2', '--test', '--json', '--allow-ip', '10.0.0.0/8'], store.env);
    expect(second.code, second.stderr).toBe(0);
    const secondKey = JSON.parse(second.stdout) as Record<string, string>;
    expect(secondKey.company_id).toBe(printed.company_id);
    expect(secondKey.work_point_id).not.toBe(printed.work_point_id);
    expect(secondKey.api_key).toMatch(/^sk_test_/);

    const listed = await runCli(['keys', 'list', '--json'], store.env);
    expect(listed.code, listed.stderr).toBe(0);
    const keys = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(keys).toHaveLength(2);
    // Both were made within the same second: find each by its name, not its place.
    const firstKey = keys.find((k) => k.name === 'casa 1')!;
    expect(firstKey).toMatchObject({
      name: 'casa 1', company: 'Cheie SRL', cui, work_point: 'Magazin 1', scopes: ['work_points:read'],
      allow_ips: ['127.0.0.1', '10.0.0.0/8', '::1'], expires_at: Date.parse('2098-12-31T22:00:00Z') / 1000, status: 'active',
    });
    expect(listed.stdout).not.toContain(printed.api_key!);
    expect(listed.stdout).not.toContain('key_hash');

    const server = await serverOn({ ...store.env, KEY_CACHE_SECONDS: '0' });
    const me = await callApi(server.base, printed.api_key!, 'GET', '/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ company: { id: printed.company_id, cui }, work_point: { id: printed.work_point_id, name: 'Magazin 1' }, scopes: ['work_points:read'] });
    expect((await callApi(server.base, printed.api_key!, 'POST', '/work-points', { name: 'Nu' })).body.error.code).toBe('insufficient_permissions');
    expect((await callApi(server.base, secondKey.api_key!, 'GET', '/me')).body.error.code).toBe('ip_restricted');

    const revoked = await runCli(['keys', 'revoke', String(firstKey.id)], store.env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`revoked ${String(firstKey.id)}\n`);
    expect((await callApi(server.base, printed.api_key!, 'GET', '/me')).body.error.code).toBe('invalid_api_key');
    const again = await runCli(['keys', 'revoke', String(firstKey.id)], store.env);
    expect(again.code).toBe(2);
    const after = JSON.parse((await runCli(['keys', 'list', '--json'], store.env)).stdout) as Array<{ name: string; status: string }>;
    expect(Object.fromEntries(after.map((k) => [k.name, k.status]))).toEqual({ 'casa 1': 'revoked', default: 'active' });
    expect((await server.stop()).code).toBe(0);
  });
});

describe('the keys CLI', () => {
  it('prints exactly one JSON object through `npm run --silent server -- keys create … --json`', async () => {
    const store = await storageFor('sqlite', false);
    const res = await runCommand('npm', ['run', '--silent', 'server', '--', 'keys', 'create', '--company', 'Npm SRL', '--cui', randomCui(), '--json'], store.env, 60_000);
    expect(res.code, res.stderr).toBe(0);
    const parsed = JSON.parse(res.stdout) as Record<string, string>;
    expect(res.stdout).toBe(`${JSON.stringify(parsed)}\n`);
    expect(Object.keys(parsed)).toEqual(['api_key', 'company_id', 'work_point_id']);
  });

  it('checks its arguments before touching the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tejghea-cli-'));
    const path = join(dir, 'never-created.sqlite');
    const env = { DB_PATH: path };
    const cases: Array<[string[], RegExp]> = [
      [['keys', 'create', '--company', 'X', '--cui', '1234567'], /not a valid CUI \(checksum\)/],
      [['keys', 'create', '--cui', randomCui()], /needs --company and --cui/],
      [['keys', 'create', '--company', 'X', '--cui', randomCui(), '--scopes', 'work_points:delete'], /unknown scope: work_points:delete/],
      [['keys', 'create', '--company', 'X', '--cui', randomCui(), '--allow-ip', '10.0.0.0/33'], /not an IP or CIDR range/],
      [['keys', 'create', '--company', 'X', '--cui', randomCui(), '--expires', '2020-01-01'], /in the past/],
      [['keys', 'create', '--company', 'X', '--cui', randomCui(), '--expires', '2030-02-30'], /not a calendar date/],
      [['keys', 'revoke'], /needs one key id/],
      [['keys', 'rotate'], /usage:/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, env)));
    cases.forEach(([args, message], i) => {
      const res = results[i]!;
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(message);
      expect(res.stdout).toBe('');
    });
    expect(existsSync(path)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('rate limits shared through Redis', () => {
  it('gives two server processes on one Redis and one database a single budget per key', async () => {
    const store = await storageFor('postgres');
    const prefix = `tejghea-test:${randomUUID()}:`;
    const env = { ...store.env, REDIS_URL, RATE_LIMIT_PREFIX: prefix, RATE_LIMIT_PER_HOUR: '6', RATE_LIMIT_CREATES_PER_MINUTE: '3' };
    const [a, b] = await Promise.all([serverOn(env), serverOn(env)]);
    const redis = new Redis(REDIS_URL);
    try {
      // Fixed windows of the real clock: stay clear of a minute's (and so an hour's) last seconds.
      while (new Date().getSeconds() > 50) await sleep(500);
      const now = () => Math.floor(Date.now() / 1000);
      const reader = await createApiKey(store.storage.db, { companyName: 'Buget SRL', cui: randomCui(), now: now() });
      const servers = [a!, b!];
      const seen: string[] = [];
      for (let i = 0; i < 6; i += 1) {
        const res = await callApi(servers[i % 2]!.base, reader.api_key, 'GET', '/me');
        expect(res.status, `request ${i + 1}`).toBe(200);
        seen.push(res.headers.get('x-ratelimit-remaining')!);
      }
      expect(seen).toEqual(['5', '4', '3', '2', '1', '0']);
      for (const s of servers) {
        const over = await callApi(s.base, reader.api_key, 'GET', '/me');
        expect(over.status).toBe(429);
        expect(over.body.error.code).toBe('rate_limit_exceeded');
        expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      }

      const writer = await createApiKey(store.storage.db, { companyName: 'Creații SRL', cui: randomCui(), now: now() });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const res = await callApi(servers[i % 2]!.base, writer.api_key, 'POST', '/work-points', { name: `Punct ${i}` });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
      const counters = await redis.keys(`${prefix}*`);
      expect(counters.length).toBeGreaterThanOrEqual(3);
    } finally {
      const counters = await redis.keys(`${prefix}*`);
      if (counters.length) await redis.del(...counters);
      await redis.quit();
      await Promise.all([a!.stop(), b!.stop()]);
    }
  });
});

describe('npm scripts', () => {
  it('runs the service as the npm script\'s own process: `exec node --import tsx server/cli.ts`', () => {
    const pkg = JSON.parse(readFileSync(`${PROJECT_ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.server).toBe('exec node --import tsx server/cli.ts');
  });
});

/** The processes whose parent is `pid` (Linux `ps`; none: an empty list). */
function childrenOf(pid: number): Array<{ pid: number; args: string }> {
  const ps = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), args: m[2]! }));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// How the service is stopped where it runs under `npm run server`: `docker stop` signals the
// container's PID 1 (npm) alone; systemd (KillMode=control-group, its default) signals every process
// of the service; Ctrl-C in a terminal sends SIGINT to the foreground process group.
describe.each([
  { who: 'the npm process alone (docker stop)', signal: 'SIGTERM' as const, group: false },
  { who: 'the whole process group (systemd)', signal: 'SIGTERM' as const, group: true },
  { who: 'the whole process group (Ctrl-C)', signal: 'SIGINT' as const, group: true },
])('`npm run server` stopped by $signal to $who', ({ signal, group }) => {
  it('finishes the request in flight, closes the database and exits 0, npm with it', async () => {
    const store = await storageFor('sqlite');
    const key = await createApiKey(store.storage.db, { companyName: 'Npm Oprit SRL', cui: randomCui(), now: Math.floor(Date.now() / 1000) });
    await store.storage.close();
    const server = await spawnServerCommand('npm', ['run', 'server'], store.env, { detached: true, timeoutMs: 60_000 });
    const npmPid = server.child.pid!;
    groups.push(npmPid);
    // npm's own child is the service: no shell in between to swallow the signal.
    const [service, ...others] = childrenOf(npmPid);
    expect(others).toEqual([]);
    expect(service!.args).toMatch(/^node --import tsx server\/cli\.ts$/);

    const slow = startSlowPost(`${server.base}/work-points`, key.api_key, JSON.stringify({ name: 'Prin npm', address: 'Str. Semnal 2' }));
    await sleep(150);
    process.kill(group ? -npmPid : npmPid, signal);
    await sleep(300);
    expect(server.child.exitCode, 'npm waits for the service').toBeNull();
    expect(isRunning(service!.pid), 'the service is finishing its request').toBe(true);
    slow.finish();
    const reply = await slow.reply;
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers.connection).toBe('close');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stdout()).toContain(`${signal}: finishing in-flight requests`);
    expect(isRunning(service!.pid), 'no service left behind').toBe(false);
    const created = JSON.parse(reply.text) as { data: { id: string } };
    await expectWrittenWhole(store, 'sqlite', created.data.id, { name: 'Prin npm', address: 'Str. Semnal 2', company_id: key.company_id });
  });
});
