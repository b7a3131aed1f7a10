import type { Kysely } from 'kysely';

// Why a 0% line carries no VAT (E exempt, Z zero-rated, K intra-community supply, G export), which
// e-Factura states per line. Nullable: every existing line, and every new one that says nothing, is E.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoice_lines').addColumn('vat_category', 'text').execute();
}
