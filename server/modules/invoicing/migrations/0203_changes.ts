import { sql, type Kysely } from 'kysely';

// Incremental pulls (`updated_since`, `sort=updated_at`) of invoices, receipts and payments. A payment
// can change (a receipt's payment follows its receipt), so it records when. The lists compare
// COALESCE(updated_at, created_at) within a work point: indexed on that very expression.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('updated_at', 'bigint').execute();
  for (const table of ['invoices', 'receipts', 'payments']) {
    await db.schema
      .createIndex(`${table}_changed`)
      .on(table)
      .columns(['company_id', 'work_point_id'])
      .expression(sql`(coalesce(updated_at, created_at))`)
      .column('id')
      .execute();
  }
}
