import type { Kysely } from 'kysely';
import { createSearchIndex, type SearchIndexSpec } from '../../../platform/search';

/** What `search` of GET /clients and GET /products matches, through these indexes. */
export const CLIENTS_SEARCH: SearchIndexSpec = { table: 'clients', columns: ['name', 'cui', 'cnp', 'reg_com', 'email', 'city'] };
/** As this migration made it; 0131 adds the barcode (the column is younger than this migration). */
const PRODUCTS_SEARCH_0120: SearchIndexSpec = { table: 'products', columns: ['name', 'code'] };

export async function up(db: Kysely<unknown>): Promise<void> {
  await createSearchIndex(db, CLIENTS_SEARCH);
  await createSearchIndex(db, PRODUCTS_SEARCH_0120);
}
