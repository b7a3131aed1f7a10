import type { Kysely } from 'kysely';

// Issued means frozen: the seller (company profile) as it stood at issue, JSON of zSellerSnapshot.
// Null on drafts and on invoices issued before it was kept; those still read the current profile.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('seller_json', 'text').execute();
}
