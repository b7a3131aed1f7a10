import type { Db } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { notFound } from '../../platform/errors';
import { findInvoice, invoiceViews } from '../invoicing/invoice-store';
import { receiptViews } from '../invoicing/receipt-routes';
import { buyerSnapshot, findClient } from '../invoicing/catalog-bridge';
import { loadCompanyProfile } from '../efactura-spv/company-profile';
import { renderInvoiceHtml, type InvoicePrintOptions } from '../../../shared/print/invoice-template';
import { renderReceiptHtml, type ReceiptPayer } from '../../../shared/print/receipt-template';
import { sellerFor } from '../../../shared/print/seller-from-profile';
import type { Seller } from '../../../shared/print/seller';
import type { Invoice } from '../../../shared/schemas/invoice';

/**
 * The printable HTML of a document, from the desktop's own templates (shared/print): the service
 * and the app print the same invoice, word for word. The server has no device logo (it is a setting
 * of each desktop), so the service's PDF carries none.
 */

/** The company profile as printed (the service always has one: without a row, name and CUI). */
async function currentSeller(db: Db, companyId: string): Promise<Seller> {
  return sellerFor(await loadCompanyProfile(db, companyId), undefined);
}

export interface PrintableInvoice {
  invoice: Invoice;
  html: string;
}

export async function invoicePrintable(db: Db, companyId: string, id: string, locale: Locale): Promise<PrintableInvoice> {
  const row = await findInvoice(db, companyId, id);
  if (!row) throw notFound('id');
  const [invoice] = await invoiceViews(db, companyId, [row], new Set(['lines']), locale);
  // Issued means frozen: the seller as it stood at issue; a draft (no snapshot) takes today's profile.
  const seller = invoice!.seller ? sellerFor(invoice!.seller, undefined) : await currentSeller(db, companyId);
  const ref = async (otherId: string | null) => {
    if (!otherId) return undefined;
    const other = await findInvoice(db, companyId, otherId);
    return other ? { full_number: other.full_number, issue_date: other.issue_date } : undefined;
  };
  const related: NonNullable<InvoicePrintOptions['related']> = {};
  const stornoOf = await ref(invoice!.storno_of);
  const stornoBy = await ref(invoice!.storno_id);
  const convertedFrom = await ref(invoice!.converted_from);
  if (stornoOf) related.storno_of = stornoOf;
  if (stornoBy) related.storno_by = stornoBy;
  if (convertedFrom) related.converted_from = convertedFrom;
  return { invoice: invoice!, html: renderInvoiceHtml(invoice!, seller, { related }) };
}

export async function receiptPrintable(db: Db, companyId: string, id: string, locale: Locale): Promise<{ number: string; html: string }> {
  const row = await db.selectFrom('receipts').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw notFound('id');
  const [receipt] = await receiptViews(db, [row], locale);
  // The payer's identification: the client's record, else the paid invoice's buyer (as the desktop prints it).
  let payer: ReceiptPayer | undefined;
  const client = row.client_id ? await findClient(db, companyId, row.client_id) : undefined;
  if (client) payer = buyerSnapshot(client);
  else if (row.invoice_id) {
    const invoice = await findInvoice(db, companyId, row.invoice_id);
    const [view] = invoice ? await invoiceViews(db, companyId, [invoice], new Set(), locale) : [];
    if (view?.buyer) payer = { ...view.buyer };
  }
  const html = renderReceiptHtml(receipt!, await currentSeller(db, companyId), payer ? { payer } : {});
  return { number: receipt!.receipt_number, html };
}
