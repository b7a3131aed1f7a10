import type { InvoiceView, ReceiptView, Settings } from '../../shared/ipc';
import { callIpc } from '../data/hooks';
import { sellerFor } from './seller-from-profile';
import type { Seller } from './seller';
import { invoiceForPrint, receiptForPrint } from './adapters';
import { renderInvoiceHtml, type InvoicePrintOptions } from './invoice-template';
import { renderReceiptHtml, type ReceiptPayer } from './receipt-template';

/** The seller as printed: the company profile kept by the host (prints offline too). */
export async function currentSeller(settings: Settings | undefined): Promise<Seller> {
  const profile = await callIpc('company.profile', undefined).catch(() => null);
  return sellerFor(profile, settings);
}

/**
 * The printable HTML of an invoice as the app has it, with the numbers and dates of the documents
 * it refers to (a storno names the invoice it reverses), looked up locally.
 */
export async function invoiceHtml(invoice: InvoiceView, settings: Settings | undefined): Promise<string> {
  const related: NonNullable<InvoicePrintOptions['related']> = {};
  const ref = async (id: string | null) => {
    if (!id) return undefined;
    try {
      const other = await callIpc('invoices.get', { id });
      return { full_number: other.full_number, issue_date: other.issue_date };
    } catch {
      return undefined;
    }
  };
  related.storno_of = await ref(invoice.storno_of);
  related.storno_by = await ref(invoice.storno_id);
  // Issued means frozen: the seller as it stood at issue, not as the profile reads today.
  const seller = invoice.seller ? sellerFor(invoice.seller, settings) : await currentSeller(settings);
  return renderInvoiceHtml(invoiceForPrint(invoice), seller, { related });
}

/** The chitanță with its payer's identification, from the client record or the paid invoice's buyer. */
export async function receiptHtml(receipt: ReceiptView, settings: Settings | undefined): Promise<string> {
  let payer: ReceiptPayer | undefined;
  try {
    if (receipt.client_id) {
      const c = await callIpc('clients.get', { id: receipt.client_id });
      payer = { cui: c.cui, vat_payer: c.vat_payer, cnp: c.cnp, reg_com: c.reg_com, address: c.address, city: c.city, county: c.county, country: c.country };
    } else if (receipt.invoice_id) {
      const inv = await callIpc('invoices.get', { id: receipt.invoice_id });
      if (inv.buyer) payer = { ...inv.buyer };
    }
  } catch {
    payer = undefined;
  }
  return renderReceiptHtml(receiptForPrint(receipt), await currentSeller(settings), { payer });
}
