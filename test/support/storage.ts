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

/** A fresh, migrated database of its own: a temp SQLite file, or a new PostgreSQL schema. */
export async function createTestStorage(dialect: Dialect): Promise<TestStorage> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tejghea-test-'));
    const path = join(dir, 'server.sqlite');
    const storage = openStorage({ dialect: 'sqlite', path });
    await migrate(storage);
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
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const storage = openStorage({ dialect: 'postgres', url: PG_URL, schema, poolSize: 10 });
  await migrate(storage);
  return {
    storage,
    env: { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema },
    drop: async () => {
      await storage.close().catch(() => undefined);
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}
