import type { Kysely } from 'kysely';
import type { MigrationModule } from '../../db/migrations/index';

// Migrations take Kysely<unknown>: they describe the schema at their point in history, not today's types.
const m0700: MigrationModule = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('cash_movements')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('work_point_id', 'text', (c) => c.notNull().references('work_points.id'))
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('amount_bani', 'bigint', (c) => c.notNull())
      .addColumn('document_number', 'text')
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('corrects_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('cash_movements_register').on('cash_movements').columns(['company_id', 'work_point_id', 'currency', 'date']).execute();

    await db.schema
      .createTable('cash_days')
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('work_point_id', 'text', (c) => c.notNull().references('work_points.id'))
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('opening_bani', 'bigint', (c) => c.notNull())
      .addColumn('closing_bani', 'bigint', (c) => c.notNull())
      .addColumn('closed_at', 'bigint', (c) => c.notNull())
      .addColumn('closed_by_key', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('cash_days_pk', ['company_id', 'work_point_id', 'currency', 'date'])
      .execute();

    await db.schema
      .createTable('cash_settings')
      .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
      .addColumn('b2b_daily_limit_bani', 'bigint', (c) => c.notNull())
      .addColumn('b2c_daily_limit_bani', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/**
 * The journals, exports and archive read a company's documents of a period across every work point, in
 * (date, id) order, a chunk at a time: without these, each chunk scans the company's documents (the
 * modules' own indexes lead with the work point).
 */
const m0701: MigrationModule = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.createIndex('accounting_invoices_period').on('invoices').columns(['company_id', 'issue_date', 'id']).execute();
    await db.schema.createIndex('accounting_expenses_period').on('expenses').columns(['company_id', 'date', 'id']).execute();
    await db.schema.createIndex('accounting_supplier_bills_period').on('supplier_bills').columns(['company_id', 'issue_date', 'id']).execute();
    await db.schema.createIndex('accounting_receipts_period').on('receipts').columns(['company_id', 'date', 'id']).execute();
    await db.schema.createIndex('accounting_payments_period').on('payments').columns(['company_id', 'date', 'id']).execute();
  },
};

/** Export jobs (export-jobs.ts): a firm's jobs, read by id within the firm and listed by age to drop the old ones. */
const m0750: MigrationModule = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('accounting_export_jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('start_date', 'text', (c) => c.notNull())
      .addColumn('end_date', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('done', 'bigint', (c) => c.notNull())
      .addColumn('total', 'bigint', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('bytes', 'bigint')
      .addColumn('sha256', 'text')
      .addColumn('error_code', 'text')
      .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema.createIndex('accounting_export_jobs_firm').on('accounting_export_jobs').columns(['company_id', 'created_at']).execute();
  },
};

/** Ranges 0700-0719 and (export jobs) 0750-0769. */
export const accountingMigrations: Record<string, MigrationModule> = {
  '0700_accounting_cash_register': m0700,
  '0701_accounting_period_indexes': m0701,
  '0750_accounting_export_jobs': m0750,
};
