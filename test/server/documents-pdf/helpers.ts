import type { TestServer } from '../../support/server';
import { newFirm, newSeries, validCui, type Firm } from '../invoicing/helpers';
import { SELLER_PROFILE } from '../efactura-spv/helpers';

/** Net 1.000,00 + 20,30 at 21 %: VAT 214,26, total 1.234,56 (grouped the Romanian way on paper). */
export const LINES = [
  { description: 'Cafea boabe Arabica 1kg', quantity: 4, price: 250, vat_rate: 21 },
  { description: 'Filtre hârtie nr. 4', quantity: 1, price: 20.3, vat_rate: 21 },
];

export interface IssuedInvoice {
  firm: Firm;
  invoice: { id: string; full_number: string };
}

/** A firm with its seller profile, a client (with `clientEmail` when given) and one issued invoice of LINES in series `series`. */
export async function firmWithInvoice(server: TestServer, options: { clientEmail?: string | null; series?: string } = {}): Promise<IssuedInvoice> {
  const firm = await newFirm(server);
  await firm.ok('PUT', '/company/profile', SELLER_PROFILE);
  const client = await firm.ok('POST', '/clients', {
    name: 'Cafeneaua Veche SRL', cui: `RO${validCui()}`, address: 'Str. Lungă 1', city: 'Brașov', county: 'Brașov',
    ...(options.clientEmail ? { email: options.clientEmail } : {}),
  });
  const series = await newSeries(firm, { name: options.series ?? 'PDF' });
  const invoice = await firm.ok('POST', '/invoices', { client_id: client.id, series_id: series.id, items: LINES });
  return { firm, invoice };
}

/** The reply's raw bytes (server.api reads replies as text, which would mangle a PDF). */
export async function pdfBytes(server: TestServer, firm: Firm, path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; bytes: Buffer; disposition: string | null }> {
  const res = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${firm.key}`, ...headers } });
  return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), bytes: Buffer.from(await res.arrayBuffer()) };
}
