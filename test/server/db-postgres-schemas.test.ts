import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/connect';
import { randomBase62 } from '../../server/platform/ids';
import { adminQuery, createTestStorage, PG_URL, type TestStorage } from '../support/storage';

// One PostgreSQL database may hold many schemas (a firm's own service per schema, every test's own):
// what one schema's service reads of the catalog must not depend on what happens in the others.

const storages: TestStorage[] = [];
afterAll(async () => {
  for (const s of storages) await s.drop();
});

async function storage(migrated: boolean): Promise<TestStorage> {
  const s = await createTestStorage('postgres', { migrate: migrated });
  storages.push(s);
  return s;
}

describe('a service on one PostgreSQL schema among many', () => {
  it('introspects its own schema only', async () => {
    const ours = await storage(true);
    const other = await storage(false);
    await sql`create table receipts (id serial primary key, note text)`.execute(other.storage.db);

    const tables = await ours.storage.db.introspection.getTables();
    expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([ours.storage.schema]));
    expect(tables.map((t) => t.name)).toContain('invoices');
    expect(tables.map((t) => t.name)).not.toContain('kysely_migration');
    const invoices = tables.find((t) => t.name === 'invoices');
    expect(invoices?.columns.find((c) => c.name === 'id')).toMatchObject({ isNullable: false, dataType: 'text', isAutoIncrementing: false });

    const withKysely = await ours.storage.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(withKysely.map((t) => t.name)).toContain('kysely_migration');

    const theirs = await other.storage.db.introspection.getTables();
    expect(theirs.map((t) => ({ schema: t.schema, name: t.name }))).toEqual([{ schema: other.storage.schema, name: 'receipts' }]);
    expect(theirs[0]?.columns.map((c) => [c.name, c.isAutoIncrementing, c.isNullable])).toEqual([['id', true, false], ['note', false, true]]);
  });

  it('migrates a fresh schema while other schemas are created and dropped beside it', async () => {
    // Kysely's own introspector resolved every table of every schema by name while reading: a schema
    // dropped meanwhile failed the migration with `relation "t_….receipts" does not exist`
    // (3–9 runs in 80 failed that way on the 2-core machine).
    const churn = new pg.Client({ connectionString: PG_URL });
    await churn.connect();
    let stop = false;
    let churned = 0;
    const churning = (async () => {
      while (!stop) {
        const name = `t_churn_${randomBase62(10).toLowerCase()}`;
        const tables = Array.from({ length: 20 }, (_, i) => `create table ${name}.r${i} (id serial primary key, v text unique)`);
        await churn.query(`create schema ${name}; ${tables.join('; ')}`);
        await churn.query(`drop schema ${name} cascade`);
        churned += 1;
      }
    })();
    const failures: string[] = [];
    try {
      for (let i = 0; i < 25; i += 1) {
        const fresh = await createTestStorage('postgres', { migrate: false });
        try {
          const applied = await migrate(fresh.storage);
          expect(applied.length).toBeGreaterThan(10);
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        } finally {
          await fresh.drop();
        }
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
    expect(churned).toBeGreaterThan(5);
    expect(failures).toEqual([]);
    // 25 whole migrations of every module (more modules, more migrations) on a shared 2-core machine.
  }, 240_000);
});

afterAll(async () => {
  // A churn schema left by an interrupted run.
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like 't\\_churn\\_%'`);
    for (const row of rows) await adminQuery(`drop schema if exists ${row.nspname} cascade`);
  } finally {
    await client.end();
  }
});
