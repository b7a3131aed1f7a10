import type { MigrationModule } from '../../db/migrations/index';

/** Migrations of the expenses module, named so that they sort after the platform's and in their own order. */
export const expensesMigrations: Record<string, MigrationModule> = {};
