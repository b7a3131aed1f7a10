import { toUblXml } from '../../../server/efactura/index';
import { finish, seller } from '../../efactura/fixtures/documents';

/** A supplier's e-Factura addressed to the company with CUI `buyerCui`, as ANAF's SPV inbox holds it. */
export function receivedInvoiceXml(buyerCui: string, number: string): string {
  const doc = finish(
    {
      kind: 'invoice',
      number,
      issue_date: '2026-11-02',
      due_date: '2026-12-02',
      currency: 'RON',
      seller,
      buyer: {
        name: 'Tejghea Demo SRL',
        vat_id: `RO${buyerCui}`,
        cui: buyerCui,
        address: { street: 'Str. Lipscani nr. 12', city: 'Sector 3', county_code: 'RO-B', country_code: 'RO' },
      },
      payment: { means_code: '30', iban: 'RO49AAAA1B31007593840000' },
    },
    [
      { name: 'Hârtie A4', quantity_milli: 10_000, unit_price_bani: 2_500, vat_category: 'S', vat_rate_bp: 2100, unit_code: 'H87' },
      { name: 'Toner', quantity_milli: 2_000, unit_price_bani: 31_000, vat_category: 'S', vat_rate_bp: 2100, unit_code: 'H87' },
    ],
  );
  return toUblXml(doc);
}
