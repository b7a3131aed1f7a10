import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text')
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('encoding', 'text')
    .addColumn('delimiter', 'text')
    .addColumn('sheet', 'text')
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('file_sha256', 'text', (c) => c.notNull())
    .addColumn('header_row', 'integer', (c) => c.notNull())
    .addColumn('columns_json', 'text', (c) => c.notNull())
    .addColumn('grid_json', 'text')
    .addColumn('mapping_json', 'text', (c) => c.notNull())
    .addColumn('defaults_json', 'text', (c) => c.notNull())
    .addColumn('result_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('committed_at', 'bigint')
    .execute();
  // "Was this file imported before?" and the purge of stale uploads.
  await db.schema.createIndex('imports_company_hash').on('imports').columns(['company_id', 'kind', 'file_sha256']).execute();
  await db.schema.createIndex('imports_company_created').on('imports').columns(['company_id', 'status', 'created_at']).execute();
}
