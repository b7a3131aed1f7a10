import type { MigrationModule } from '../../db/migrations/index';
import * as m0500 from './migrations/0500_imports';

/** Migrations of the imports module (range 0500-0519). */
export const importsMigrations: Record<string, MigrationModule> = {
  '0500_imports': m0500,
};
