import type { MigrationModule } from '../../db/migrations/index';

/** Migrations of the catalog module, named so that they sort after the platform's and in their own order. */
export const catalogMigrations: Record<string, MigrationModule> = {};
