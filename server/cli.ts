import { parseArgs } from 'node:util';
import { validateCui } from '../shared/ro/cui';
import { migrate, openStorage, storageConfigFromEnv } from './db/connect';
import { createApiKey, listApiKeys, parseIpRule, revokeApiKey, zScopeName } from './platform/api-keys';
import { bucharestMidnight } from './platform/list';
import { systemClock } from './platform/clock';

const USAGE = `usage:
  npm run server                        start the service (PORT, HOST, DB_PATH or DATABASE_URL [+ DATABASE_SCHEMA], REDIS_URL)
  npm run server -- migrate             apply pending migrations and exit
  npm run --silent server -- keys create --company <name> --cui <cui> [--work-point <name>] [--name <key name>]
        [--scopes <a,b>] [--expires <YYYY-MM-DD | ISO date-time>] [--allow-ip <ip-or-cidr>]... [--test] [--json]
        --expires YYYY-MM-DD: the key stops working at 00:00 (Europe/Bucharest) that day.
  npm run --silent server -- keys list [--json]
  npm run --silent server -- keys revoke <key id>
  npm run server -- export --out <file>   every firm, key hash, number, gap and document of the database, to a file
  npm run server -- import --from <file>  that file into this (new, empty) database: SQLite (DB_PATH) or PostgreSQL (DATABASE_URL)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** Unix seconds from `--expires`: a day (its Bucharest midnight) or a date-time with its offset. */
function parseExpiry(text: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const t = Date.parse(`${text}T00:00:00Z`);
    if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== text) fail(`--expires: not a calendar date: ${text}`);
    return bucharestMidnight(text);
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) fail(`--expires wants YYYY-MM-DD or an ISO date-time with offset: ${text}`);
  const t = Date.parse(text);
  if (Number.isNaN(t)) fail(`--expires: not a date-time: ${text}`);
  return Math.floor(t / 1000);
}

async function keysCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') fail(USAGE);
  // Arguments are checked before the database is opened: a typo never creates a file or a schema.
  let create: Parameters<typeof createApiKey>[1] | undefined;
  let json = false;
  let revokeId: string | undefined;
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
    if (!values.company?.trim() || !values.cui) fail('keys create needs --company and --cui\n' + USAGE);
    const cui = validateCui(values.cui);
    if (!cui.ok) fail(`not a valid CUI (${cui.reason}): ${values.cui}`);
    const scopes = values.scopes ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : ['*'];
    for (const s of scopes) if (!zScopeName.safeParse(s).success) fail(`unknown scope: ${s}`);
    const allowIps = (values['allow-ip'] ?? []).flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
    for (const ip of allowIps) if (!parseIpRule(ip)) fail(`not an IP or CIDR range: ${ip}`);
    const expiresAt = values.expires ? parseExpiry(values.expires) : null;
    if (expiresAt !== null && expiresAt <= now) fail(`--expires is in the past: ${values.expires}`);
    json = values.json === true;
    create = {
      companyName: values.company.trim(), cui: cui.value, scopes, expiresAt, allowIps, mode: values.test ? 'test' : 'live', now,
      ...(values['work-point'] ? { workPointName: values['work-point'].trim() } : {}),
      ...(values.name ? { keyName: values.name } : {}),
    };
  } else if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } }, strict: true });
    json = values.json === true;
  } else {
    revokeId = rest[0];
    if (!revokeId || rest.length > 1) fail('keys revoke needs one key id\n' + USAGE);
  }

  const storage = openStorage(storageConfigFromEnv());
  try {
    await migrate(storage);
    if (create) {
      const created = await createApiKey(storage.db, create);
      if (json) {
        process.stdout.write(`${JSON.stringify({ api_key: created.api_key, company_id: created.company_id, work_point_id: created.work_point_id })}\n`);
      } else {
        process.stdout.write(
          `API key (shown once, keep it safe): ${created.api_key}\nkey id: ${created.key_id}\ncompany: ${created.company_id}\nwork point: ${created.work_point_id}\n`,
        );
      }
    } else if (revokeId) {
      if (await revokeApiKey(storage.db, revokeId, now)) {
        process.stdout.write(`revoked ${revokeId}\n`);
      } else {
        process.stderr.write(`no active key ${revokeId}\n`);
        process.exitCode = 2;
      }
    } else {
      const keys = await listApiKeys(storage.db, now);
      if (json) process.stdout.write(`${JSON.stringify(keys)}\n`);
      else for (const k of keys) process.stdout.write(`${k.id}\t${k.key_hint}\t${k.company} (${k.cui}) / ${k.work_point}\t${k.scopes.join(',')}\t${k.status}\n`);
    }
  } finally {
    await storage.close();
  }
}

/** `export --out FILE` / `import --from FILE`: moving a firm's service (docs/moving-to-a-hosted-service.md). */
async function transferCommand(command: 'export' | 'import', args: string[]): Promise<void> {
  const option = command === 'export' ? 'out' : 'from';
  const { values } = parseArgs({ args, options: { [option]: { type: 'string' } }, strict: true });
  const file = values[option];
  if (typeof file !== 'string' || !file) fail(`${command} needs --${option} <file>\n${USAGE}`);
  const { exportDatabase, importDatabase, TransferError } = await import('./transfer/export-import');
  const storage = openStorage(storageConfigFromEnv());
  try {
    if (command === 'export') {
      const header = await exportDatabase(storage, file);
      const total = Object.values(header.tables).reduce((a, b) => a + b, 0);
      process.stdout.write(`exported ${total} rows of ${Object.keys(header.tables).length} tables to ${file}\n`);
    } else {
      const result = await importDatabase(storage, file);
      for (const [table, n] of Object.entries(result.counts)) if (n > 0) process.stdout.write(`${table}\t${n}\n`);
      process.stdout.write(`imported ${Object.values(result.counts).reduce((a, b) => a + b, 0)} rows from ${file}\n`);
    }
  } catch (error) {
    if (error instanceof TransferError) {
      process.stderr.write(`${command}: ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw error;
  } finally {
    await storage.close();
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'keys') return keysCommand(args);
  if (command === 'export' || command === 'import') return transferCommand(command, args);
  if (command === 'migrate') {
    const storage = openStorage(storageConfigFromEnv());
    try {
      const applied = await migrate(storage);
      process.stdout.write(`applied: ${applied.join(', ') || 'nothing'}\n`);
    } finally {
      await storage.close();
    }
    return;
  }
  if (command && command !== 'serve') fail(USAGE);
  // Loaded only to serve: the key commands stay quick without Fastify and every module's routes.
  const { startServer } = await import('./serve');
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
