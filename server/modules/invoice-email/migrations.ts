import type { MigrationModule } from '../../db/migrations/index';
import * as m0830 from './migrations/0830_invoice_email';

/** Migrations of the invoice e-mail module, range 0830-0839. */
export const invoiceEmailMigrations: Record<string, MigrationModule> = {
  '0830_invoice_email': m0830,
};
