import type { MigrationModule } from '../../db/migrations/index';
import * as m0810 from './migrations/0810_invoice_sent';

/** Migrations of the compat module, range 0810-0819. */
export const compatMigrations: Record<string, MigrationModule> = {
  '0810_invoice_sent': m0810,
};
