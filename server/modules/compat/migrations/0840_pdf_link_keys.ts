import type { Kysely } from 'kysely';

// Issue 18: the key that signs a company's short-lived PDF links (GET /invoices/{id}/pdf?mode=url).
// One random key per company, made on first use and kept in the database, so that every instance of
// the service behind one database signs and checks alike, with nothing to configure.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pdf_link_keys')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
