import type { Kysely } from 'kysely';

// ANAF's refresh tokens are single use, and two service processes may share this database: a
// process claims the refresh of a company's tokens (a lease, so a holder that died is taken over)
// and the others wait for the version it saves. The sealed tokens cannot be compared (random IV),
// hence a version counter moved on every save.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('anaf_oauth_tokens').addColumn('refresh_lease_until', 'bigint').execute();
  await db.schema.alterTable('anaf_oauth_tokens').addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
