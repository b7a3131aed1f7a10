import { MIGRATIONS, type Migration } from './migrations/index';
import { sql } from './sql';
import type { Store } from './store';

export class MigrationMismatchError extends Error {
  readonly code = 'migration_mismatch';
  constructor(message: string) {
    super(message);
    this.name = 'MigrationMismatchError';
  }
}

interface AppliedRow {
  id: number;
  name: string;
}

function ensureTable(store: Store): void {
  store.raw.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT',
  );
}

export function appliedMigrations(store: Store): AppliedRow[] {
  ensureTable(store);
  return store.reader.all<AppliedRow>(sql`SELECT id, name FROM schema_migrations ORDER BY id`);
}

/**
 * Applies the migrations not yet applied, each in its own transaction. Refuses to touch a database
 * whose applied migrations are not a prefix of `known`: it was written by a newer build (or a
 * different branch), and running this one against it could corrupt what that build wrote.
 */
export function migrate(store: Store, known: readonly Migration[] = MIGRATIONS, now = Math.floor(Date.now() / 1000)): number[] {
  known.forEach((m, i) => {
    if (m.id !== i + 1) throw new Error(`migration ${m.name} has id ${m.id}, expected ${i + 1}`);
  });
  const applied = appliedMigrations(store);
  if (applied.length > known.length) {
    throw new MigrationMismatchError(
      `database has ${applied.length} migrations applied but this build knows ${known.length}: it was opened by a newer version`,
    );
  }
  applied.forEach((row, i) => {
    const expected = known[i]!;
    if (row.id !== expected.id || row.name !== expected.name) {
      throw new MigrationMismatchError(
        `applied migration ${row.id} (${row.name}) is not this build's ${expected.id} (${expected.name})`,
      );
    }
  });
  const ran: number[] = [];
  for (const migration of known.slice(applied.length)) {
    store.write((db) => {
      migration.up((script) => store.exec(db, script));
      db.run(sql`INSERT INTO schema_migrations (id, name, applied_at) VALUES (${migration.id}, ${migration.name}, ${now})`);
    });
    ran.push(migration.id);
  }
  return ran;
}
