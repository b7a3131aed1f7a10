import type { Kysely } from 'kysely';

// The document references a supplier's e-Factura carries (BT-10..18, BG-3), kept as the JSON the reader
// returns: ten optional members read and shown together, never filtered on, so one column rather than ten.
// Null for a bill entered by hand and for bills imported before this migration.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('supplier_bills').addColumn('references_json', 'text').execute();
}
