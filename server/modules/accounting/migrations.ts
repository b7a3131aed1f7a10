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

/** Range 0700-0719. */
export const accountingMigrations: Record<string, MigrationModule> = {
  '0700_accounting_cash_register': m0700,
};
