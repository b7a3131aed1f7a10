import type { Kysely } from 'kysely';

// Whether a line sells a service, kept on the line as it was when written (from the product, or as the
// API said): a K or G line's legal ground depends on it (art. 294 for goods, art. 278 alin. (2) for
// services), and an issued invoice must not change when the product is edited later. Every line
// stored before reads as goods, which is what every one of them printed and wrote.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoice_lines').addColumn('is_service', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
