import type { Kysely } from 'kysely';

// Tombstones of records deleted for good, so that a client syncing by `updated_since` learns of them
// (GET /deleted-records). One per record: an id is never given out twice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deleted_records')
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text')
    .addColumn('deleted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('deleted_records_pk', ['resource', 'record_id'])
    .execute();
  await db.schema
    .createIndex('deleted_records_since')
    .on('deleted_records')
    .columns(['company_id', 'resource', 'deleted_at'])
    .execute();
}
