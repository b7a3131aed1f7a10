import type { MigrationModule } from '../../db/migrations/index';
import * as m0600 from './migrations/0600_stock';

/** Migrations of the stock module, range 0600-0619. */
export const stockMigrations: Record<string, MigrationModule> = {
  '0600_stock': m0600,
};
