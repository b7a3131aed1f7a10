import type { InvoiceView, ReceiptView, Settings } from '../../shared/ipc';
import { callIpc } from '../data/hooks';
import { sellerFor } from '../../shared/print/seller-from-profile';
import type { Seller } from '../../shared/print/seller';
import { invoiceForPrint, receiptForPrint } from './adapters';
import { renderInvoiceHtml, type InvoicePrintOptions } from '../../shared/print/invoice-template';
import { renderReceiptHtml, type ReceiptPayer } from '../../shared/print/receipt-template';
import { renderThermalInvoiceHtml } from '../../shared/print/thermal-invoice-template';
import { renderThermalReceiptHtml } from '../../shared/print/thermal-receipt-template';
import type { PrintLayout } from '../../shared/ipc/contract-series-admin';

/** This device's print choices (issue 12): the layout (A4 or the 80 mm roll) and the logo. */
async function printSetup(): Promise<{ layout: PrintLayout; logo: string | null }> {
  const setup = await callIpc('setup.get', undefined).catch(() => null);
  return { layout: setup?.print_layout ?? 'a4', logo: setup?.logo ?? null };
}

/** The seller as printed: the company profile kept by the host (prints offline too), with this device's logo. */
export async function currentSeller(settings: Settings | undefined, logo: string | null = null): Promise<Seller> {
  const profile = await callIpc('company.profile', undefined).catch(() => null);
  return { ...sellerFor(profile, settings), logo };
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
  const { layout, logo } = await printSetup();
  const render = layout === '80mm' ? renderThermalInvoiceHtml : renderInvoiceHtml;
  // Issued means frozen: the seller as it stood at issue, not as the profile reads today (the logo is this device's).
  const seller = invoice.seller ? { ...sellerFor(invoice.seller, settings), logo } : await currentSeller(settings, logo);
  return render(invoiceForPrint(invoice), seller, { related });
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
  const { layout, logo } = await printSetup();
  const render = layout === '80mm' ? renderThermalReceiptHtml : renderReceiptHtml;
  return render(receiptForPrint(receipt), await currentSeller(settings, logo), { payer });
}
