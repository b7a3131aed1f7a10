import { sql, type Kysely } from 'kysely';
import type { MigrationModule } from '../../db/migrations/index';
import * as m0320 from './migrations/0320_search';

/**
 * PostgreSQL numbers placeholders `$1`, SQLite writes `?`: compiling a one-parameter query tells
 * the dialects apart through public API only, without running anything inside the migration's
 * transaction (a failed probe would abort it on PostgreSQL).
 */
function isPostgres(db: Kysely<unknown>): boolean {
  return sql`select ${1}`.compile(db).sql.includes('$1');
}

// Migrations take Kysely<unknown>: they describe the schema at their point in history, not today's types.
const m0300: MigrationModule = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('suppliers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('cui', 'text')
      .addColumn('vat_payer', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reg_com', 'text')
      .addColumn('address', 'text')
      .addColumn('email', 'text')
      .addColumn('phone', 'text')
      .addColumn('iban', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint')
      // NULLs never collide on either dialect: many suppliers may have no CUI.
      .addUniqueConstraint('suppliers_company_cui', ['company_id', 'cui'])
      .execute();
    await db.schema.createIndex('suppliers_company_name').on('suppliers').columns(['company_id', 'name']).execute();

    // The contract types category_id as an integer, so this is the one table with a generated key.
    await db.schema
      .createTable('expense_categories')
      .addColumn('id', 'integer', (c) =>
        isPostgres(db) ? c.generatedByDefaultAsIdentity().primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint')
      .addUniqueConstraint('expense_categories_company_name', ['company_id', 'name_key'])
      .execute();

    await db.schema
      .createTable('expenses')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('work_point_id', 'text', (c) => c.notNull().references('work_points.id'))
      .addColumn('supplier_id', 'text', (c) => c.notNull().references('suppliers.id'))
      .addColumn('category_id', 'integer', (c) => c.references('expense_categories.id'))
      .addColumn('user_id', 'integer')
      .addColumn('reference', 'text')
      .addColumn('reference_key', 'text')
      .addColumn('description', 'text')
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('due_date', 'text')
      .addColumn('paid_date', 'text')
      .addColumn('is_paid', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('payment_type', 'integer')
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('exchange_rate_micro', 'bigint')
      .addColumn('vat_percent', 'integer')
      .addColumn('with_vat', 'integer', (c) => c.notNull())
      .addColumn('itemized', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('entered_amount_bani', 'bigint')
      .addColumn('vat_manual_bani', 'bigint')
      .addColumn('net_bani', 'bigint', (c) => c.notNull())
      .addColumn('vat_bani', 'bigint', (c) => c.notNull())
      .addColumn('total_bani', 'bigint', (c) => c.notNull())
      .addColumn('account_net_bani', 'bigint', (c) => c.notNull())
      .addColumn('account_vat_bani', 'bigint', (c) => c.notNull())
      .addColumn('account_total_bani', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('expenses_list').on('expenses').columns(['company_id', 'work_point_id', 'date']).execute();
    await db.schema.createIndex('expenses_reference').on('expenses').columns(['company_id', 'reference_key']).execute();
    await db.schema.createIndex('expenses_supplier_date').on('expenses').columns(['company_id', 'supplier_id', 'date']).execute();
    await db.schema.createIndex('expenses_category').on('expenses').columns(['category_id']).execute();

    await db.schema
      .createTable('expense_lines')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('expense_id', 'text', (c) => c.notNull().references('expenses.id'))
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('quantity_milli', 'bigint', (c) => c.notNull())
      .addColumn('unit_price_bani', 'bigint', (c) => c.notNull())
      .addColumn('vat_percent', 'integer', (c) => c.notNull())
      .addColumn('net_bani', 'bigint', (c) => c.notNull())
      .addColumn('vat_bani', 'bigint', (c) => c.notNull())
      .addColumn('total_bani', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('expense_lines_position', ['expense_id', 'position'])
      .execute();

    await db.schema
      .createTable('expense_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('expense_id', 'text', (c) => c.notNull().references('expenses.id'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('work_point_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      // Two writers of one expense cannot both append event n: the second transaction fails instead.
      .addUniqueConstraint('expense_events_seq', ['expense_id', 'seq'])
      .execute();

    await db.schema
      .createTable('accounting_periods')
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('closed_at', 'bigint', (c) => c.notNull())
      .addColumn('closed_by_key', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('accounting_periods_pk', ['company_id', 'month'])
      .execute();
  },
};

// Incremental pulls (`updated_since`, `sort=updated_at`): suppliers compare COALESCE(updated_at,
// created_at) (null until the first change), expenses their updated_at (set at creation). Each list
// is indexed on the very expression it compares.
const m0301: MigrationModule = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('suppliers_company_changed')
      .on('suppliers')
      .column('company_id')
      .expression(sql`(coalesce(updated_at, created_at))`)
      .column('id')
      .execute();
    await db.schema.createIndex('expenses_changed').on('expenses').columns(['company_id', 'work_point_id', 'updated_at', 'id']).execute();
  },
};

/** Migrations of the expenses module, named so that they sort after the platform's and in their own order. */
export const expensesMigrations: Record<string, MigrationModule> = {
  '0300_expenses': m0300,
  '0301_expenses_changes': m0301,
  '0320_expenses_search': m0320,
};
