import type { Kysely } from 'kysely';

// Incremental pulls of supplier bills (`updated_since`, `sort=updated_at`) within a work point.
// Numbered 0410 to leave 0402-0409 to the company-profile work going on beside it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('supplier_bills_changed').on('supplier_bills').columns(['company_id', 'work_point_id', 'updated_at', 'id']).execute();
}
