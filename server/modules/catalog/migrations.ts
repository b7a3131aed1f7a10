import type { MigrationModule } from '../../db/migrations/index';
import * as m0100 from './migrations/0100_catalog';
import * as m0101 from './migrations/0101_catalog_changes';
import * as m0120 from './migrations/0120_catalog_search';
import * as m0130 from './migrations/0130_product_barcode';
import * as m0131 from './migrations/0131_products_search_barcode';
import * as m0140 from './migrations/0140_usage_indexes';

/** Migrations of the catalog module (range 0100-0199), named so that they sort after the platform's. */
export const catalogMigrations: Record<string, MigrationModule> = {
  '0100_catalog': m0100,
  '0101_catalog_changes': m0101,
  '0120_catalog_search': m0120,
  '0130_product_barcode': m0130,
  '0131_products_search_barcode': m0131,
  '0140_catalog_usage_indexes': m0140,
};
