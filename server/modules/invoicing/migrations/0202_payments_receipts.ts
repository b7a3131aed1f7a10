import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('amount_bani', 'bigint', (c) => c.notNull())
    .addColumn('amount_without_vat_bani', 'bigint', (c) => c.notNull())
    .addColumn('amount_vat_bani', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('date', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'double precision')
    .addColumn('exchange_currency', 'text')
    .addColumn('client_id', 'text')
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('receipt_id', 'text')
    .addColumn('client_local_uuid', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('payments_client_local_uuid', ['company_id', 'client_local_uuid'])
    .execute();
  await db.schema.createIndex('payments_invoice').on('payments').columns(['invoice_id']).execute();
  await db.schema.createIndex('payments_list').on('payments').columns(['company_id', 'work_point_id', 'date']).execute();

  await db.schema
    .createTable('receipts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text', (c) => c.notNull())
    .addColumn('series_id', 'text', (c) => c.notNull().references('number_series.id'))
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('receipt_number', 'text', (c) => c.notNull())
    .addColumn('amount_bani', 'bigint', (c) => c.notNull())
    .addColumn('amount_without_vat_bani', 'bigint', (c) => c.notNull())
    .addColumn('amount_vat_bani', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('date', 'text')
    .addColumn('observations', 'text')
    .addColumn('language', 'text')
    .addColumn('is_draft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exchange_rate', 'double precision')
    .addColumn('exchange_currency', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text')
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('client_local_uuid', 'text')
    .addColumn('device_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    // A soft-deleted receipt keeps its number: a number printed on paper is never handed out twice.
    .addUniqueConstraint('receipts_series_number', ['series_id', 'number'])
    .addUniqueConstraint('receipts_client_local_uuid', ['company_id', 'client_local_uuid'])
    .execute();
  await db.schema.createIndex('receipts_list').on('receipts').columns(['company_id', 'work_point_id', 'date']).execute();
}
