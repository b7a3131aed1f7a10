import type { MigrationModule } from '../../db/migrations/index';
import * as m0100 from './migrations/0100_catalog';

/** Migrations of the catalog module (range 0100-0199), named so that they sort after the platform's. */
export const catalogMigrations: Record<string, MigrationModule> = {
  '0100_catalog': m0100,
};
