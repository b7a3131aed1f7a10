import type { Selectable } from 'kysely';
import type { Db } from '../../db/types';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { buildEInvoiceDocument, type MappedDocument } from '../../../shared/efactura/invoice-document';
import { sellerSnapshotOf, zPartySnapshot, zSellerSnapshot, type LineVatCategory } from '../../../shared/schemas/invoice';
import type { CompanyProfile } from '../../../shared/schemas/efactura';
import type { InvoiceLinesTable, InvoicesTable } from '../invoicing/tables';
import { loadCompanyProfile } from './company-profile';
import { storedAdjustments, storedBaseMilli, storedPriceE4, storedReferences } from '../invoicing/pricing';
import './messages';

/**
 * An issued invoice of the invoicing module as an EInvoiceDocument: the seller and the buyer as
 * copied at issue (an invoice issued before the seller was kept reads the current profile), every
 * amount from the stored lines, which shared/invoice-math computed. The mapping and its rules are
 * shared/efactura's, the same the issue ran before numbering and the desktop runs offline.
 */

export type InvoiceRow = Selectable<InvoicesTable>;
export type InvoiceLineRow = Selectable<InvoiceLinesTable>;
export type { UploadTarget } from '../../../shared/efactura/invoice-document';
export type MappedInvoice = Omit<MappedDocument, 'problems'>;

export interface InvoiceSource {
  invoice: InvoiceRow;
  lines: InvoiceLineRow[];
  /** The invoice a storno reverses. */
  original: { full_number: string | null; issue_date: string; delivery_date: string | null } | null;
  profile: CompanyProfile;
}

/** Maps and checks; throws 422 `efactura_invalid_invoice` with one `fields` entry per problem. */
export function invoiceToDocument(src: InvoiceSource): MappedInvoice {
  const { invoice } = src;
  const snapshot = invoice.buyer_json === null ? null : zPartySnapshot.safeParse(JSON.parse(invoice.buyer_json));
  const frozen = invoice.seller_json ? zSellerSnapshot.safeParse(JSON.parse(invoice.seller_json)) : null;
  const seller = frozen?.success ? frozen.data : sellerSnapshotOf(src.profile);
  const { document, upload, problems } = buildEInvoiceDocument({
    number: invoice.full_number ?? '',
    storno: invoice.status === 'storno',
    issue_date: invoice.issue_date,
    due_date: invoice.due_date,
    delivery_date: invoice.delivery_date,
    currency: invoice.currency,
    exchange_rate: invoice.exchange_rate === null ? null : Number(invoice.exchange_rate),
    reverse_charge: Boolean(Number(invoice.reverse_charge)),
    payment_method: invoice.payment_method,
    observations: invoice.observations,
    buyer: snapshot?.success ? snapshot.data : null,
    buyer_name: invoice.buyer_name,
    seller,
    original: src.original,
    adjustments: storedAdjustments(invoice.allowances_charges_json),
    references: storedReferences(invoice.references_json),
    lines: src.lines.map((l) => ({
      position: Number(l.position), description: l.description, quantity_milli: Number(l.quantity_milli), unit_code: l.unit_code,
      price_bani: Number(l.price_bani), price_e4: storedPriceE4(l), base_quantity_milli: storedBaseMilli(l), discount_bp: Number(l.discount_bp), discount_bani: Number(l.discount_bani), net_bani: Number(l.net_bani),
      vat_bani: Number(l.vat_bani), vat_rate_bp: Number(l.vat_rate_bp), vat_category: l.vat_category as LineVatCategory | null,
      vat_exemption_reason: l.vat_exemption_reason, price_includes_vat: Number(l.price_includes_vat) === 1,
      is_service: Number(l.is_service) === 1,
    })),
  });
  if (Object.keys(problems).length) {
    throw new ApiError(422, 'validation_error', 'efactura_invalid_invoice', { fields: problems, param: Object.keys(problems)[0] });
  }
  return { document, upload };
}

/**
 * The invoice of the company as e-Factura sees it: 404 when missing (or another company's), 409
 * `invoice_is_draft` for a draft (drafts are never sent: contract rule 5), 409 `invoice_is_proforma`
 * for a proforma (not a fiscal document).
 */
export async function loadInvoiceSource(db: Db, companyId: string, invoiceId: string): Promise<InvoiceSource> {
  const invoice = await db.selectFrom('invoices').selectAll().where('id', '=', invoiceId).where('company_id', '=', companyId).executeTakeFirst();
  if (!invoice) throw notFound('id');
  if (invoice.status === 'draft') throw conflict('invoice_is_draft', 'id');
  if (invoice.document_type !== 'fiscal') throw conflict('invoice_is_proforma', 'id');
  const lines = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', invoice.id).orderBy('position').execute();
  let original: InvoiceSource['original'] = null;
  if (invoice.status === 'storno' && invoice.storno_of) {
    const o = await db
      .selectFrom('invoices')
      .select(['full_number', 'issue_date', 'delivery_date'])
      .where('id', '=', invoice.storno_of)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    original = o ?? null;
  }
  const profile = await loadCompanyProfile(db, companyId);
  return { invoice, lines, original, profile };
}
