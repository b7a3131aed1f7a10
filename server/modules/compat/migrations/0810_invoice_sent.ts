import type { Kysely } from 'kysely';

// Issue 18: "mark as sent" of Contazen's API. When the firm says an invoice reached its client (by
// hand, by post), outside the service. No foreign key to invoices: a voided invoice may later be
// deleted (contract rule 4) and its mark, a fact about the past, does not stand in the way.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invoice_sent_marks')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .execute();
}
