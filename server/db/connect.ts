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
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; url: string; schema?: string; poolSize?: number };

// int8 and numeric come back from pg as strings; every such column of ours holds Unix seconds or
// bani, which fit a double exactly, so read them as numbers once, here.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export function openStorage(config: StorageConfig): Storage {
  if (config.dialect === 'sqlite') {
    const sqlite = new Database(config.path);
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
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolSize ?? 10,
    // A test or tenant schema: every connection of the pool sees only that schema.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
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

/** Storage from the environment: DATABASE_URL selects PostgreSQL, else the SQLite file DB_PATH. */
export function storageConfigFromEnv(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  if (env.DATABASE_URL) return { dialect: 'postgres', url: env.DATABASE_URL, ...(env.DATABASE_SCHEMA ? { schema: env.DATABASE_SCHEMA } : {}) };
  return { dialect: 'sqlite', path: env.DB_PATH ?? 'tejghea-server.sqlite' };
}
