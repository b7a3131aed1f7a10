import type { MigrationModule } from '../../db/migrations/index';

/** Migrations of the efactura-spv module, named so that they sort after the platform's and in their own order. */
export const efacturaSpvMigrations: Record<string, MigrationModule> = {};
