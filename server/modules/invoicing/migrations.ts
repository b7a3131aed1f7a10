import type { MigrationModule } from '../../db/migrations/index';

/** Migrations of the invoicing module, named so that they sort after the platform's and in their own order. */
export const invoicingMigrations: Record<string, MigrationModule> = {};
