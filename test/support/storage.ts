import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate, openStorage, type Storage } from '../../server/db/connect';
import type { Dialect } from '../../server/db/types';
import { randomBase62 } from '../../server/platform/ids';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Both dialects, for `describe.each(DIALECTS)`: every storage test runs on SQLite and PostgreSQL. */
export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

export interface TestStorage {
  storage: Storage;
  /** For child processes: the env that reaches the same database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export interface TestStorageOptions {
  /** Run the migrations (default true); false gives an empty database, as a fresh deployment has. */
  migrate?: boolean;
}

/** A fresh database of its own, migrated unless asked not to: a temp SQLite file, or a new PostgreSQL schema. */
export async function createTestStorage(dialect: Dialect, options: TestStorageOptions = {}): Promise<TestStorage> {
  const migrated = options.migrate ?? true;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tejghea-test-'));
    const path = join(dir, 'server.sqlite');
    const storage = openStorage({ dialect: 'sqlite', path });
    if (migrated) await migrate(storage);
    return {
      storage,
      env: { DB_PATH: path },
      drop: async () => {
        await storage.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${randomBase62(12).toLowerCase()}`;
  await adminQuery(`CREATE SCHEMA ${schema}`);
  const storage = openStorage({ dialect: 'postgres', url: PG_URL, schema, poolSize: 10 });
  if (migrated) await migrate(storage);
  return {
    storage,
    env: { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema },
    drop: async () => {
      await storage.close().catch(() => undefined);
      await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

/** One statement on the test database outside any schema of a test (creating and dropping schemas). */
export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
