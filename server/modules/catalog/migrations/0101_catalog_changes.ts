import { sql, type Kysely } from 'kysely';

// `updated_since` and `sort=updated_at` compare COALESCE(updated_at, created_at) (updated_at stays null
// until the first change): an index on that very expression serves the filter and the order.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['clients', 'products']) {
    await db.schema
      .createIndex(`${table}_company_changed`)
      .on(table)
      .column('company_id')
      .expression(sql`(coalesce(updated_at, created_at))`)
      .column('id')
      .execute();
  }
}
