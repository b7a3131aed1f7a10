import type { MigrationModule } from '../../db/migrations/index';
import * as m0200 from './migrations/0200_numbering';
import * as m0201 from './migrations/0201_invoices';
import * as m0202 from './migrations/0202_payments_receipts';
import * as m0203 from './migrations/0203_changes';
import * as m0204 from './migrations/0204_series_unique_names';
import * as m0205 from './migrations/0205_line_vat_category';
import * as m0206 from './migrations/0206_receipt_reservations';
import * as m0207 from './migrations/0207_invoice_delivery_date';
import * as m0230 from './migrations/0230_line_price_includes_vat';
import * as m0250 from './migrations/0250_invoice_seller_snapshot';
import * as m0260 from './migrations/0260_invoice_allowances_charges';
import * as m0270 from './migrations/0270_line_price_decimals';
import * as m0280 from './migrations/0280_line_is_service';
import * as m0290 from './migrations/0290_usage_indexes';
import * as m0291 from './migrations/0291_history_indexes';
import * as m0210 from './migrations/0210_search';

/** Migrations of the invoicing module, named so that they sort after the platform's and in their own order. */
export const invoicingMigrations: Record<string, MigrationModule> = {
  '0200_invoicing_numbering': m0200,
  '0201_invoicing_invoices': m0201,
  '0202_invoicing_payments_receipts': m0202,
  '0203_invoicing_changes': m0203,
  '0204_invoicing_series_unique_names': m0204,
  '0205_invoicing_line_vat_category': m0205,
  '0206_invoicing_receipt_reservations': m0206,
  '0207_invoicing_invoice_delivery_date': m0207,
  '0230_invoicing_line_price_includes_vat': m0230,
  '0250_invoicing_invoice_seller_snapshot': m0250,
  '0260_invoicing_invoice_allowances_charges': m0260,
  '0270_invoicing_line_price_decimals': m0270,
  '0280_invoicing_line_is_service': m0280,
  '0290_invoicing_usage_indexes': m0290,
  '0291_invoicing_history_indexes': m0291,
  '0210_invoicing_search': m0210,
};
