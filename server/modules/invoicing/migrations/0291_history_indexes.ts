import type { Kysely } from 'kysely';

// The first page of GET /payments and GET /invoices is ordered by (date, id) within the work point:
// with `id` in the index the page is its first 50 entries, whatever the history; without it, the
// rows of a day (100,000 copies dated the same in bench/catalog-usage.ts) were sorted by id, or the
// planner walked the firm-wide accounting index filtering on the work point. They replace the
// (company_id, work_point_id, date) indexes, their prefixes.
//
// GET /payments/stats groups the work point's payments by (currency, type) and sums amount_bani: in
// this order the index answers it alone, in group order (no table row read, no sort), the period's
// bounds checked on its entries.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('payments_list_page').on('payments').columns(['company_id', 'work_point_id', 'date', 'id']).execute();
  await db.schema.dropIndex('payments_list').execute();
  await db.schema.createIndex('invoices_list_page').on('invoices').columns(['company_id', 'work_point_id', 'issue_date', 'id']).execute();
  await db.schema.dropIndex('invoices_list').execute();
  await db.schema
    .createIndex('payments_stats')
    .on('payments')
    .columns(['company_id', 'work_point_id', 'currency', 'type', 'date', 'amount_bani'])
    .execute();
}
