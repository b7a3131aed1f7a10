import type { Kysely } from 'kysely';
import { createFoldFunction } from '../../platform/search';

// Searches ignore case and diacritics: PostgreSQL gets the fold function (SQLite registers it on each
// connection) and pg_trgm for the modules' search indexes (their own migrations, 0120, 0210, 0320).
export async function up(db: Kysely<unknown>): Promise<void> {
  await createFoldFunction(db);
}
