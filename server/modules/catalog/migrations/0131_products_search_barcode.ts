import type { Kysely } from 'kysely';
import { createSearchIndex, dropSearchIndex, type SearchIndexSpec } from '../../../platform/search';

/** What `search` of GET /products matches: the name, the code and the barcode (a part of a barcode finds it too). */
export const PRODUCTS_SEARCH: SearchIndexSpec = { table: 'products', columns: ['name', 'code', 'barcode'] };

export async function up(db: Kysely<unknown>): Promise<void> {
  await dropSearchIndex(db, 'products');
  await createSearchIndex(db, PRODUCTS_SEARCH);
}
