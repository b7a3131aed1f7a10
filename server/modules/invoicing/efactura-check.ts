import type { Db } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { buildEInvoiceDocument, mustPassEFactura, NUMBER_NOT_YET_ASSIGNED, pricedLineFacts, type InvoiceFacts } from '../../../shared/efactura/invoice-document';
import { sellerSnapshotOf, type SellerSnapshot } from '../../../shared/schemas/invoice';
import { loadCompanyProfile } from '../efactura-spv/company-profile';
import { ApiError } from '../../platform/errors';
import { adjustmentFacts, type Priced } from './pricing';
import type { PartySnapshot } from './catalog-bridge';
import './messages';

export interface PreIssue {
  documentType: string;
  efacturaEnabled: boolean;
  storno: boolean;
  issueDate: string;
  dueDate: string | null;
  deliveryDate: string | null;
  currency: string;
  exchangeRate: number | null;
  reverseCharge: boolean;
  paymentMethod: string | null;
  observations: string | null;
  buyer: PartySnapshot | null;
  priced: Priced;
  original: InvoiceFacts['original'];
  references?: InvoiceFacts['references'];
}

/**
 * Runs, inside the issuing transaction and before the number is claimed, the same e-Factura rules
 * the XML generator holds a numbered invoice to (shared/efactura, which the desktop runs offline):
 * a document ANAF would refuse is refused here, 422 `efactura_invalid_invoice` with a message at
 * each field, and no number is spent. Returns the seller as it stands now, which the invoice keeps.
 */
export async function checkBeforeNumbering(trx: Db, companyId: string, _locale: Locale, p: PreIssue): Promise<SellerSnapshot> {
  const profile = await loadCompanyProfile(trx, companyId);
  const seller = sellerSnapshotOf(profile);
  if (!mustPassEFactura(p.documentType, p.efacturaEnabled, profile.missing_for_efactura.length === 0)) return seller;
  const { problems } = buildEInvoiceDocument({
    number: NUMBER_NOT_YET_ASSIGNED, storno: p.storno, issue_date: p.issueDate, due_date: p.dueDate, delivery_date: p.deliveryDate,
    currency: p.currency, exchange_rate: p.exchangeRate, reverse_charge: p.reverseCharge, payment_method: p.paymentMethod,
    observations: p.observations, buyer: p.buyer, buyer_name: p.buyer?.name ?? null, seller,
    lines: pricedLineFacts(p.priced.lines, p.priced.totals.lines), adjustments: adjustmentFacts(p.priced), references: p.references, original: p.original,
  });
  if (Object.keys(problems).length) {
    throw new ApiError(422, 'validation_error', 'efactura_invalid_invoice', { fields: problems, param: Object.keys(problems)[0] });
  }
  return seller;
}
