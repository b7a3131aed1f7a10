import type { Kysely } from 'kysely';

// Unit prices with up to 4 decimals (0,0125 lei per SMS, fuel at 7,4590 lei) and a base quantity (a
// price per 1000 units, UBL BaseQuantity). `price_e4` is the price in ten-thousandths of a leu, an
// integer, so it survives SQLite and PostgreSQL exactly (no float column); `price_bani` keeps the
// price rounded to the ban for readers that know only bani. Both new columns are null on the lines
// stored before: their price is `price_bani` x 100 for 1 unit (pricing.ts storedPriceE4), so no
// rewrite of existing rows is needed, and a line written by older code reads the same way.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoice_lines').addColumn('price_e4', 'bigint').execute();
  await db.schema.alterTable('invoice_lines').addColumn('base_quantity_milli', 'bigint').execute();
}
