import type { MigrationModule } from '../../db/migrations/index';
import * as m0600 from './migrations/0600_stock';
import * as m0650 from './migrations/0650_stock_fifo';

/** Migrations of the stock module, ranges 0600-0619 and 0650-0669 (FIFO). */
export const stockMigrations: Record<string, MigrationModule> = {
  '0600_stock': m0600,
  '0650_stock_fifo': m0650,
};
