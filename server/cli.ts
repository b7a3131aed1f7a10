import { parseArgs } from 'node:util';
import { z } from 'zod';
import { migrate, openStorage, storageConfigFromEnv } from './db/connect';
import { createApiKey, zIpOrCidr, zScopeName } from './platform/api-keys';
import { systemClock } from './platform/clock';
import { startServer } from './serve';

const USAGE = `usage:
  npm run server                        start the service (PORT, HOST, DB_PATH or DATABASE_URL, REDIS_URL)
  npm run server -- migrate             apply pending migrations and exit
  npm run --silent server -- keys create --company <name> --cui <cui> [--work-point <name>] [--name <key name>]
        [--scopes <a,b>] [--expires <YYYY-MM-DD>] [--allow-ip <ip-or-cidr>]... [--test] [--json]
  npm run --silent server -- keys list [--json]
  npm run --silent server -- keys revoke <key id>`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function keysCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const storage = openStorage(storageConfigFromEnv());
  try {
    await migrate(storage);
    const now = systemClock.now();
    if (sub === 'create') {
      const { values } = parseArgs({
        args: rest,
        options: {
          company: { type: 'string' }, cui: { type: 'string' }, 'work-point': { type: 'string' }, name: { type: 'string' },
          scopes: { type: 'string' }, expires: { type: 'string' }, 'allow-ip': { type: 'string', multiple: true },
          test: { type: 'boolean' }, json: { type: 'boolean' },
        },
        strict: true,
      });
      if (!values.company || !values.cui) fail('keys create needs --company and --cui\n' + USAGE);
      const cui = values.cui.replace(/^RO/i, '').replace(/\s+/g, '');
      if (!/^\d{2,10}$/.test(cui)) fail(`not a CUI: ${values.cui}`);
      const scopes = values.scopes ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : ['*'];
      for (const s of scopes) if (!zScopeName.safeParse(s).success) fail(`unknown scope: ${s}`);
      for (const ip of values['allow-ip'] ?? []) if (!zIpOrCidr().safeParse(ip).success) fail(`not an IP or CIDR range: ${ip}`);
      let expiresAt: number | null = null;
      if (values.expires) {
        const parsed = z.iso.date().safeParse(values.expires);
        if (!parsed.success) fail(`--expires wants YYYY-MM-DD: ${values.expires}`);
        expiresAt = Math.floor(Date.parse(`${values.expires}T00:00:00Z`) / 1000);
      }
      const created = await createApiKey(storage.db, {
        companyName: values.company, cui, workPointName: values['work-point'], keyName: values.name, scopes,
        expiresAt, allowIps: values['allow-ip'] ?? [], mode: values.test ? 'test' : 'live', now,
      });
      if (values.json) {
        process.stdout.write(`${JSON.stringify({ api_key: created.api_key, company_id: created.company_id, work_point_id: created.work_point_id })}\n`);
      } else {
        process.stdout.write(`API key (shown once, keep it safe): ${created.api_key}\nkey id: ${created.key_id}\ncompany: ${created.company_id}\nwork point: ${created.work_point_id}\n`);
      }
      return;
    }
    if (sub === 'list') {
      const json = rest.includes('--json');
      const rows = await storage.db
        .selectFrom('api_keys')
        .innerJoin('companies', 'companies.id', 'api_keys.company_id')
        .innerJoin('work_points', 'work_points.id', 'api_keys.work_point_id')
        .select(['api_keys.id', 'api_keys.name', 'api_keys.key_hint', 'api_keys.scopes', 'api_keys.expires_at', 'api_keys.revoked_at', 'companies.name as company', 'companies.cui', 'work_points.name as work_point'])
        .orderBy('api_keys.created_at')
        .execute();
      if (json) process.stdout.write(`${JSON.stringify(rows)}\n`);
      else for (const r of rows) process.stdout.write(`${r.id}\t${r.key_hint}\t${r.company} (${r.cui}) / ${r.work_point}\t${r.scopes}\t${r.revoked_at ? 'revoked' : r.expires_at && r.expires_at <= now ? 'expired' : 'active'}\n`);
      return;
    }
    if (sub === 'revoke') {
      const id = rest[0];
      if (!id) fail('keys revoke needs a key id\n' + USAGE);
      const result = await storage.db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) fail(`no active key ${id}`);
      process.stdout.write(`revoked ${id}\n`);
      return;
    }
    fail(USAGE);
  } finally {
    await storage.close();
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'keys') return keysCommand(args);
  if (command === 'migrate') {
    const storage = openStorage(storageConfigFromEnv());
    const applied = await migrate(storage);
    await storage.close();
    process.stdout.write(`applied: ${applied.join(', ') || 'nothing'}\n`);
    return;
  }
  if (command && command !== 'serve') fail(USAGE);
  const server = await startServer();
  process.stdout.write(`listening on ${server.url}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: finishing in-flight requests\n`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
