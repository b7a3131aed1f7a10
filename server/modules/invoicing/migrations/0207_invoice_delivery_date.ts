import type { Kysely } from 'kysely';

// The delivery (or service) date of an invoice when it is not the issue date (art. 319 (20) d Cod
// fiscal), printed and sent to e-Factura as the actual delivery date. Null on every existing invoice.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('delivery_date', 'text').execute();
}
