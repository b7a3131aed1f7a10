import type { MigrationModule } from '../../db/migrations/index';
import * as m0810 from './migrations/0810_invoice_sent';
import * as m0840 from './migrations/0840_pdf_link_keys';

/** Migrations of the compat module, ranges 0810-0819 and 0840-0849. */
export const compatMigrations: Record<string, MigrationModule> = {
  '0810_invoice_sent': m0810,
  '0840_pdf_link_keys': m0840,
};
