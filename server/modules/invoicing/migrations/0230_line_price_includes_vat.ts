import type { Kysely } from 'kysely';

// Whether a line's price includes VAT (a shop's shelf price): the arithmetic differs (the line's total
// is fixed and the VAT extracted per rate), so re-pricing a stored line needs to know. Every existing
// line was priced net: 0.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoice_lines').addColumn('price_includes_vat', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
