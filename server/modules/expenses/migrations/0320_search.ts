import type { Kysely } from 'kysely';
import { createSearchIndex, type SearchIndexSpec } from '../../../platform/search';

/** What `search` of GET /suppliers and GET /expenses matches, through these indexes. */
export const SUPPLIERS_SEARCH: SearchIndexSpec = { table: 'suppliers', columns: ['name', 'cui', 'reg_com', 'email'] };
export const EXPENSES_SEARCH: SearchIndexSpec = { table: 'expenses', columns: ['reference', 'description'] };

export async function up(db: Kysely<unknown>): Promise<void> {
  await createSearchIndex(db, SUPPLIERS_SEARCH);
  await createSearchIndex(db, EXPENSES_SEARCH);
}
