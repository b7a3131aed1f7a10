import type { Kysely } from 'kysely';
import { createSearchIndex, type SearchIndexSpec } from '../../../platform/search';

/** What `search` of GET /invoices and GET /receipts matches, through these indexes. */
export const INVOICES_SEARCH: SearchIndexSpec = { table: 'invoices', columns: ['full_number', 'buyer_name'] };
export const RECEIPTS_SEARCH: SearchIndexSpec = { table: 'receipts', columns: ['receipt_number', 'client_name'] };

export async function up(db: Kysely<unknown>): Promise<void> {
  await createSearchIndex(db, INVOICES_SEARCH);
  await createSearchIndex(db, RECEIPTS_SEARCH);
}
