import type { MigrationModule } from '../../db/migrations/index';
import * as m0400 from './migrations/0400_efactura_spv';
import * as m0401 from './migrations/0401_company_profile_extras';
import * as m0410 from './migrations/0410_supplier_bills_changes';
import * as m0411 from './migrations/0411_token_refresh_lease';
import * as m0420 from './migrations/0420_supplier_bill_references';

/** Migrations of the efactura-spv module, named so that they sort after the platform's and in their own order. */
export const efacturaSpvMigrations: Record<string, MigrationModule> = {
  '0400_efactura_spv': m0400,
  '0401_company_profile_extras': m0401,
  '0410_supplier_bills_changes': m0410,
  '0411_token_refresh_lease': m0411,
  '0420_supplier_bill_references': m0420,
};
