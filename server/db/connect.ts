import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import pg from 'pg';
import type { Database as Schema, Db, Dialect } from './types';
import { migrations } from './migrations/index';

export interface Storage {
  db: Db;
  dialect: Dialect;
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
    const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolSize ?? 10,
    // A test or tenant schema: every connection of the pool sees only that schema.
    ...(config.schema ? { options: `-c search_path=${quoteIdent(config.schema)}` } : {}),
  });
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe schema name: ${name}`);
  return name;
}

const provider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/** Runs every pending migration; fails when the database knows a migration this build does not. */
export async function migrate(storage: Storage): Promise<string[]> {
  const migrator = new Migrator({ db: storage.db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Storage from the environment: DATABASE_URL selects PostgreSQL, else the SQLite file DB_PATH. */
export function storageConfigFromEnv(env: NodeJS.ProcessEnv = process.env): StorageConfig {
  if (env.DATABASE_URL) return { dialect: 'postgres', url: env.DATABASE_URL, ...(env.DATABASE_SCHEMA ? { schema: env.DATABASE_SCHEMA } : {}) };
  return { dialect: 'sqlite', path: env.DB_PATH ?? 'tejghea-server.sqlite' };
}
