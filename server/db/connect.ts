import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { Database as Schema, Db, Dialect } from './types';
import { migrations } from './migrations/index';
import { OwnSchemaPostgresDialect } from './own-schema-introspector';
import { FOLD_FUNCTION } from '../platform/search';
import { foldForSearch } from '../../shared/text/search-fold';

export interface Storage {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL only: the schema every connection is confined to (DATABASE_SCHEMA). */
  schema?: string;
  close(): Promise<void>;
}

export type StorageConfig =
  /** nativeBinding: better-sqlite3 built for another ABI (Electron's, when the desktop embeds the service). */
  | { dialect: 'sqlite'; path: string; nativeBinding?: string }
  | { dialect: 'postgres'; url: string; schema?: string } & PostgresPoolSettings;

/**
 * The PostgreSQL pool's settings, each from an environment variable (docs/scaling.md says how to size them).
 * Defaults are what one service process on a small machine wants.
 */
export interface PostgresPoolSettings {
  /** DATABASE_POOL_SIZE: connections this process keeps at most (default 10). */
  poolSize?: number;
  /** DATABASE_POOL_IDLE_MS: an idle connection is closed after this long (default 10,000). */
  idleTimeoutMs?: number;
  /** DATABASE_CONNECT_TIMEOUT_MS: a new connection that takes longer fails the request (default 5,000). */
  connectTimeoutMs?: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: a statement running longer is cancelled by PostgreSQL (default 30,000). */
  statementTimeoutMs?: number;
  /** DATABASE_LOCK_TIMEOUT_MS: a wait for a row lock (a busy series) longer than this fails (default 10,000). */
  lockTimeoutMs?: number;
}

export const POOL_DEFAULTS: Required<PostgresPoolSettings> = {
  poolSize: 10,
  idleTimeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 10_000,
};

// int8 and numeric come back from pg as strings; every such column of ours holds Unix seconds or
// bani, which fit a double exactly, so read them as numbers once, here.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export function openStorage(config: StorageConfig): Storage {
  if (config.dialect === 'sqlite') {
    const sqlite = new Database(config.path, config.nativeBinding ? { nativeBinding: config.nativeBinding } : {});
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // The searches' fold (server/platform/search.ts), used by queries and by the search-index triggers.
    sqlite.function(FOLD_FUNCTION, { deterministic: true }, (text: unknown) => foldForSearch(typeof text === 'string' ? text : null));
    const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const schema = config.schema ? checkSchemaName(config.schema) : undefined;
  const settings = { ...POOL_DEFAULTS, ...definedOnly(config) };
  // Server-side limits travel as startup options, so they hold for every statement of every connection.
  const options = [
    `-c statement_timeout=${settings.statementTimeoutMs}`,
    `-c lock_timeout=${settings.lockTimeoutMs}`,
    // A test or tenant schema: every connection of the pool sees only that schema.
    ...(schema ? [`-c search_path=${schema}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString: config.url,
    max: settings.poolSize,
    idleTimeoutMillis: settings.idleTimeoutMs,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    options: options.join(' '),
  });
  const db = new Kysely<Schema>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  return { db, dialect: 'postgres', ...(schema ? { schema } : {}), close: () => db.destroy() };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs SQLite more than running the small queries of a
 * request. Statements are kept by their SQL text (values are parameters, so the texts repeat), the
 * least recently used dropped past a bound so that queries with variable IN lists cannot grow it
 * forever. Sharing a statement is safe: Kysely runs one query at a time on the single SQLite connection.
 */
function withStatementCache(sqlite: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (text: string) => {
      let stmt = cache.get(text);
      if (stmt) {
        cache.delete(text);
      } else {
        stmt = sqlite.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, stmt);
      return stmt;
    },
  };
}

/** Only plain lower-case identifiers: the name goes into a connection option, where it cannot be a parameter. */
function checkSchemaName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unsafe schema name: ${name}`);
  return name;
}

const provider: MigrationProvider = {
  getMigrations: async () => migrations,
};

export const MIGRATION_TABLE = 'kysely_migration';

/** The database was migrated by a newer build: running this one could corrupt what the newer one wrote. */
export class UnknownMigrationError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `the database has applied migration(s) this build does not know: ${unknown.join(', ')}. ` +
        'It was migrated by a newer version of the service; refusing to start.',
    );
    this.name = 'UnknownMigrationError';
  }
}

/** Names of the migrations already applied to the database; empty when it was never migrated. */
export async function appliedMigrations(storage: Storage): Promise<string[]> {
  const schema = await migrationSchema(storage);
  const tables = await storage.db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === MIGRATION_TABLE && (schema === undefined || t.schema === schema))) return [];
  const rows = await sql<{ name: string }>`select name from ${sql.table(schema ? `${schema}.${MIGRATION_TABLE}` : MIGRATION_TABLE)} order by name`.execute(storage.db);
  return rows.rows.map((r) => r.name);
}

/**
 * PostgreSQL: the schema the migration tables live in. Kysely looks for its table in every schema
 * unless told which, so a second schema of the same database (another tenant, another test) would
 * make it think ours exists.
 */
async function migrationSchema(storage: Storage): Promise<string | undefined> {
  if (storage.dialect !== 'postgres') return undefined;
  if (storage.schema) return storage.schema;
  const row = await sql<{ schema: string }>`select current_schema() as schema`.execute(storage.db);
  return row.rows[0]?.schema ?? 'public';
}

/**
 * Runs every pending migration, in name order. Refuses (UnknownMigrationError) when the database has
 * applied a migration this build does not know. Modules own separate number ranges and add migrations
 * independently, so a new migration may sort before one already applied from another module's range:
 * that is allowed.
 */
export async function migrate(storage: Storage): Promise<string[]> {
  const known = new Set(Object.keys(migrations));
  const schema = await migrationSchema(storage);
  const migrator = new Migrator({
    db: storage.db,
    provider,
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  for (let attempt = 1; ; attempt += 1) {
    const before = await appliedMigrations(storage);
    const unknown = before.filter((name) => !known.has(name));
    if (unknown.length) throw new UnknownMigrationError(unknown);
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    // Two processes starting on one fresh SQLite file both try to migrate (Kysely's lock is per
    // connection there); the loser sees a busy database or a table the winner just made. When the
    // set of applied migrations moved under us, another migrator is at work: wait and look again.
    const after = await appliedMigrations(storage).catch(() => before);
    if (attempt < 5 && after.length > before.length) {
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `migration ${failed} failed: ${detail}` : detail, { cause: error });
  }
}

function definedOnly(config: PostgresPoolSettings): PostgresPoolSettings {
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) as PostgresPoolSettings;
}

const POOL_ENV: Record<keyof PostgresPoolSettings, { name: string; min: number; max: number }> = {
  poolSize: { name: 'DATABASE_POOL_SIZE', min: 1, max: 1000 },
  idleTimeoutMs: { name: 'DATABASE_POOL_IDLE_MS', min: 0, max: 86_400_000 },
  connectTimeoutMs: { name: 'DATABASE_CONNECT_TIMEOUT_MS', min: 0, max: 600_000 },
  statementTimeoutMs: { name: 'DATABASE_STATEMENT_TIMEOUT_MS', min: 0, max: 86_400_000 },
  lockTimeoutMs: { name: 'DATABASE_LOCK_TIMEOUT_MS', min: 0, max: 86_400_000 },
};

/** The pool settings given in the environment; a value that is not a whole number in range stops the start with its name. */
export function poolSettingsFromEnv(env: NodeJS.ProcessEnv): PostgresPoolSettings {
  const out: PostgresPoolSettings = {};
  for (const [key, spec] of Object.entries(POOL_ENV) as [keyof PostgresPoolSettings, (typeof POOL_ENV)[keyof PostgresPoolSettings]][]) {
    const text = env[spec.name];
    if (text === undefined || text === '') continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value < spec.min || value > spec.max) {
      throw new Error(`${spec.name} must be a whole number from ${spec.min} to ${spec.max}, not ${JSON.stringify(text)}`);
    }
    out[key] = value;
  }
  return out;
}

/** Storage from the environment: DATABASE_URL selects PostgreSQL (pool settings in DATABASE_POOL_*, …), else the SQLite file DB_PATH. */
export function storageConfigFromEnv(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  if (env.DATABASE_URL) {
    return { dialect: 'postgres', url: env.DATABASE_URL, ...(env.DATABASE_SCHEMA ? { schema: env.DATABASE_SCHEMA } : {}), ...poolSettingsFromEnv(env) };
  }
  return { dialect: 'sqlite', path: env.DB_PATH ?? 'tejghea-server.sqlite' };
}
