import type { Kysely } from 'kysely';

// Two mentions printed on the company's documents, kept with the rest of its seller data so every
// device prints the same: the share capital (Legea 31/1990 art. 74, SRL and SA) and "TVA la încasare"
// (Codul fiscal art. 282; art. 319 (20) o) asks for the mention on every invoice while it applies).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('company_profiles').addColumn('capital_social_bani', 'bigint').execute();
  await db.schema.alterTable('company_profiles').addColumn('vat_on_collection', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
