import type { Kysely } from 'kysely';

// Discounts and charges on the whole invoice (EN 16931 BG-20/BG-21), JSON of StoredAdjustment[]
// (server/modules/invoicing/pricing.ts): few per invoice, always read with it. Null when none.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('allowances_charges_json', 'text').execute();
  // Order (BT-13), contract (BT-12) and buyer (BT-10) references, JSON of InvoiceReferences; null when none.
  await db.schema.alterTable('invoices').addColumn('references_json', 'text').execute();
}
