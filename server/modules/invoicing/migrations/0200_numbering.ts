import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Migrations take Kysely<unknown>: they describe the schema at their point in history, not today's types.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('number_series')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text', (c) => c.notNull().references('work_points.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('start_number', 'bigint', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lock_device_id', 'text')
    .addColumn('lock_session_id', 'bigint')
    .addColumn('lock_user_id', 'bigint')
    .addColumn('lock_device_name', 'text')
    .addColumn('lock_device_platform', 'text')
    .addColumn('locked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint')
    .execute();
  await db.schema.createIndex('number_series_company').on('number_series').columns(['company_id', 'work_point_id', 'kind']).execute();
  // The last guard behind "setting one primary unsets the other": at most one per work point and type.
  await db.schema
    .createIndex('number_series_one_primary')
    .on('number_series')
    .columns(['work_point_id', 'kind', 'document_type'])
    .unique()
    .where(sql.ref('is_primary'), '=', 1)
    .execute();

  await db.schema
    .createTable('series_counters')
    .addColumn('series_id', 'text', (c) => c.notNull().references('number_series.id'))
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('next_number', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('series_counters_pk', ['series_id', 'year'])
    .execute();

  await db.schema
    .createTable('number_reservations')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('series_id', 'text', (c) => c.notNull().references('number_series.id'))
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reserved_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('released_at', 'bigint')
    .addColumn('client_local_uuid', 'text')
    .addColumn('invoice_id', 'text')
    .addUniqueConstraint('number_reservations_number', ['series_id', 'year', 'number'])
    .execute();
  await db.schema.createIndex('number_reservations_device').on('number_reservations').columns(['series_id', 'device_id', 'status']).execute();

  await db.schema
    .createTable('number_gaps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('series_id', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text')
    .addColumn('reservation_token', 'text')
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('number_gaps_number', ['series_id', 'year', 'number'])
    .execute();
}
