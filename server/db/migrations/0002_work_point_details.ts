import type { Kysely } from 'kysely';

// Work points become a resource of their own (GET/POST /work-points): an address to print on the
// documents issued there, and when they last changed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('work_points').addColumn('address', 'text').execute();
  await db.schema.alterTable('work_points').addColumn('updated_at', 'bigint').execute();
  await db.schema.createIndex('api_keys_company').on('api_keys').column('company_id').execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
}
