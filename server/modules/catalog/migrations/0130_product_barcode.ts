import type { Kysely } from 'kysely';

// A product's barcode (EAN-8/13, UPC...) apart from its own code (SKU): a shop scans one and types the
// other. Unique per firm when set, as the code is; NULLs do not collide on either dialect.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('products').addColumn('barcode', 'text').execute();
  await db.schema.createIndex('products_company_barcode').unique().on('products').columns(['company_id', 'barcode']).execute();
}
