import type { Kysely } from 'kysely';
import * as m0001 from './0001_platform';
import * as m0002 from './0002_work_point_details';
import * as m0003 from './0003_deleted_records';
import * as m0020 from './0020_search_fold';
import { catalogMigrations } from '../../modules/catalog/migrations';
import { invoicingMigrations } from '../../modules/invoicing/migrations';
import { expensesMigrations } from '../../modules/expenses/migrations';
import { efacturaSpvMigrations } from '../../modules/efactura-spv/migrations';
import { importsMigrations } from '../../modules/imports/migrations';
import { accountingMigrations } from '../../modules/accounting/migrations';
import { stockMigrations } from '../../modules/stock/migrations';
import { invoiceEmailMigrations } from '../../modules/invoice-email/migrations';
import { compatMigrations } from '../../modules/compat/migrations';
import { webhooksMigrations } from '../../modules/webhooks/migrations';
import { attachmentsMigrations } from '../../modules/attachments/migrations';
import { documentTemplatesMigrations } from '../../modules/document-templates/migrations';

export interface MigrationModule {
  up(db: Kysely<unknown>): Promise<void>;
}

/**
 * The known migrations. Kysely runs them in name order, so each module names its own with its range:
 * platform 0001-0099, catalog 0100-0199, invoicing 0200-0299, expenses 0300-0399, e-Factura/SPV 0400-0499, imports 0500-0519,
 * stock 0600-0619 and 0650-0669, accounting 0700-0799, webhooks 0800-0809, compat 0810-0819 and 0840-0849, invoice e-mail 0830-0839,
 * attachments and document templates 0850-0859.
 * The service refuses to start when the database has applied a migration not in this list.
 */
export const migrations: Record<string, MigrationModule> = {
  '0001_platform': m0001,
  '0002_work_point_details': m0002,
  '0003_deleted_records': m0003,
  '0020_search_fold': m0020,
  ...catalogMigrations,
  ...invoicingMigrations,
  ...expensesMigrations,
  ...efacturaSpvMigrations,
  ...importsMigrations,
  ...accountingMigrations,
  ...stockMigrations,
  ...invoiceEmailMigrations,
  ...compatMigrations,
  ...webhooksMigrations,
  ...attachmentsMigrations,
  ...documentTemplatesMigrations,
};
