import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text', (c) => c.notNull().references('work_points.id'))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // No foreign key to number_series: an issued invoice outlives nothing, but keeps its printed name.
    .addColumn('series_id', 'text')
    .addColumn('series_name', 'text')
    .addColumn('year', 'integer')
    .addColumn('number', 'bigint')
    .addColumn('full_number', 'text')
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text')
    // The clients table belongs to the catalog module; referenced by id only.
    .addColumn('client_id', 'text')
    .addColumn('buyer_json', 'text')
    .addColumn('buyer_name', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'double precision')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('reverse_charge', 'integer', (c) => c.notNull())
    .addColumn('net_bani', 'bigint', (c) => c.notNull())
    .addColumn('vat_bani', 'bigint', (c) => c.notNull())
    .addColumn('total_bani', 'bigint', (c) => c.notNull())
    .addColumn('discount_bani', 'bigint', (c) => c.notNull())
    .addColumn('vat_breakdown_json', 'text', (c) => c.notNull())
    .addColumn('amount_paid_bani', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_state', 'text', (c) => c.notNull().defaultTo('unpaid'))
    .addColumn('payment_method', 'text')
    .addColumn('observations', 'text')
    .addColumn('storno_of', 'text')
    .addColumn('storno_id', 'text')
    .addColumn('converted_from', 'text')
    .addColumn('converted_to', 'text')
    .addColumn('efactura_enabled', 'integer', (c) => c.notNull())
    .addColumn('spv_environment', 'text', (c) => c.notNull())
    .addColumn('efactura_status', 'text', (c) => c.notNull())
    .addColumn('client_local_uuid', 'text')
    .addColumn('device_id', 'text')
    .addColumn('reservation_token', 'text')
    .addColumn('issued_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint')
    // The last guard of the numbering: one invoice per number of a series and year (NULLs of drafts never clash).
    .addUniqueConstraint('invoices_series_number', ['series_id', 'year', 'number'])
    // A retry of an offline-made invoice finds the first one instead of making a second.
    .addUniqueConstraint('invoices_client_local_uuid', ['company_id', 'client_local_uuid'])
    .execute();
  await db.schema.createIndex('invoices_list').on('invoices').columns(['company_id', 'work_point_id', 'issue_date']).execute();
  await db.schema.createIndex('invoices_client').on('invoices').columns(['company_id', 'client_id']).execute();

  await db.schema
    .createTable('invoice_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
    // Lets the catalog see which custom VAT rates a company's lines use (it refuses to delete those).
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('quantity_milli', 'bigint', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('unit_code', 'text', (c) => c.notNull())
    .addColumn('price_bani', 'bigint', (c) => c.notNull())
    .addColumn('vat_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('discount_bp', 'integer', (c) => c.notNull())
    .addColumn('vat_exemption_reason', 'text')
    .addColumn('discount_bani', 'bigint', (c) => c.notNull())
    .addColumn('net_bani', 'bigint', (c) => c.notNull())
    .addColumn('vat_bani', 'bigint', (c) => c.notNull())
    .addColumn('total_bani', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_lines_invoice').on('invoice_lines').columns(['invoice_id', 'position']).execute();
}
