import type { Kysely } from 'kysely';

// Migrations take Kysely<unknown>: they describe the schema at their point in history, not today's types.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cui', 'text')
    .addColumn('vat_payer', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reg_com', 'text')
    .addColumn('cnp', 'text')
    .addColumn('address', 'text')
    .addColumn('city', 'text')
    .addColumn('county', 'text')
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('iban', 'text')
    .addColumn('bank', 'text')
    .addColumn('notes', 'text')
    .addColumn('client_local_uuid', 'text')
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint')
    // NULLs never collide, so only clients made offline take part.
    .addUniqueConstraint('clients_company_local_uuid', ['company_id', 'client_local_uuid'])
    .execute();
  await db.schema.createIndex('clients_company_name').on('clients').columns(['company_id', 'name']).execute();
  await db.schema.createIndex('clients_company_created_on').on('clients').columns(['company_id', 'created_on']).execute();
  await db.schema.createIndex('clients_company_cui').on('clients').columns(['company_id', 'cui']).execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code', 'text')
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('unit_code', 'text', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull())
    .addColumn('price_includes_vat', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('vat_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('is_service', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint')
    .addUniqueConstraint('products_company_code', ['company_id', 'code'])
    .execute();
  await db.schema.createIndex('products_company_name').on('products').columns(['company_id', 'name']).execute();
  await db.schema.createIndex('products_company_created_on').on('products').columns(['company_id', 'created_on']).execute();

  await db.schema
    .createTable('bank_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('iban', 'text', (c) => c.notNull())
    .addColumn('bank', 'text')
    .addColumn('name', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint')
    .addUniqueConstraint('bank_accounts_company_iban', ['company_id', 'iban'])
    .execute();

  await db.schema
    .createTable('vat_rates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('rate_bp', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint')
    .addUniqueConstraint('vat_rates_company_rate', ['company_id', 'rate_bp'])
    .execute();

  await db.schema
    .createTable('currencies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('currencies_company_code', ['company_id', 'code'])
    .execute();

  await db.schema
    .createTable('languages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('languages_company_code', ['company_id', 'code'])
    .execute();
}
