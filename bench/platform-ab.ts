/**
 * The platform's CPU per request, two builds of the service side by side in one process: A from
 * another checkout (`--base <dir>`, e.g. a worktree of main), B from this one. Each answers the same
 * authenticated GETs through `app.inject` (no sockets: what is measured is Fastify plus our platform
 * and the handler, not the kernel), in short alternating rounds, so that a machine loaded by other work
 * weighs on both alike; the median of the rounds' CPU µs per request is printed for each.
 *
 *   npx tsx bench/platform-ab.ts --base /path/to/main-worktree [--rounds 20] [--per-round 400] [--path /v1/me]...
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

interface Side {
  name: string;
  inject: (path: string) => Promise<number>;
  close: () => Promise<void>;
}

async function side(name: string, root: string, key: { dir: string }): Promise<Side> {
  const mod = (p: string) => import(pathToFileURL(join(root, p)).href);
  const { migrate, openStorage } = await mod('server/db/connect.ts');
  const { createApiKey } = await mod('server/platform/api-keys.ts');
  const { buildApp } = await mod('server/app.ts');
  const storage = openStorage({ dialect: 'sqlite', path: join(key.dir, `${name}.sqlite`) });
  await migrate(storage);
  const created = await createApiKey(storage.db, { companyName: 'Bench SRL', cui: '1590082', now: Math.floor(Date.now() / 1000) });
  const { app } = buildApp({
    storage, validateResponses: false, logger: false,
    rateLimits: { requestsPerHour: 1e9, createsPerMinute: 1e9 },
  });
  await app.ready();
  const headers = { authorization: `Bearer ${created.api_key}` };
  return {
    name,
    inject: async (path) => (await app.inject({ method: 'GET', url: path, headers })).statusCode,
    close: async () => {
      await app.close();
      await storage.close();
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { base: { type: 'string' }, rounds: { type: 'string' }, 'per-round': { type: 'string' }, path: { type: 'string', multiple: true } },
  });
  if (!values.base) throw new Error('--base <checkout of the build to compare against> is required');
  const rounds = Number(values.rounds ?? 20);
  const perRound = Number(values['per-round'] ?? 400);
  const paths = values.path ?? ['/v1/me', '/v1/currencies', '/v1/clients'];
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-ab-'));
  const sides = [await side('A', resolve(values.base), { dir }), await side('B', resolve('.'), { dir })];
  try {
    for (const path of paths) {
      for (const s of sides) {
        const status = await s.inject(path);
        if (status !== 200) throw new Error(`${s.name} ${path} answered ${status}`);
        for (let i = 0; i < perRound * 2; i++) await s.inject(path); // warm-up: JIT, caches
      }
      const samples: Record<string, number[]> = { A: [], B: [] };
      for (let r = 0; r < rounds; r++) {
        for (const s of r % 2 ? [...sides].reverse() : sides) {
          const c0 = process.cpuUsage();
          // 10 in flight at a time, as a loaded server has them.
          for (let i = 0; i < perRound; i += 10) await Promise.all(Array.from({ length: 10 }, () => s.inject(path)));
          const c = process.cpuUsage(c0);
          samples[s.name]!.push((c.user + c.system) / perRound);
        }
      }
      const a = median(samples.A!);
      const b = median(samples.B!);
      console.log(`${path.padEnd(18)} A ${a.toFixed(1).padStart(6)} µs/request   B ${b.toFixed(1).padStart(6)} µs/request   B/A ${(b / a).toFixed(3)}`);
    }
  } finally {
    for (const s of sides) await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
