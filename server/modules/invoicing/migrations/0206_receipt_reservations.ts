import type { Kysely } from 'kysely';

// Receipt series reserve numbers for offline devices as invoice series do: a consumed reservation
// names the receipt that took its number.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('number_reservations').addColumn('receipt_id', 'text').execute();
}
