import { issue, newClient, newSeries, type Firm } from '../invoicing/helpers';

/**
 * The month every accounting-program export is tested on (Saga, WinMENTOR): Romanian letters, two VAT
 * rates, a foreign-currency invoice and its storno in the same month, reverse charge, an expense in RON
 * and one in EUR, a supplier bill entered by hand.
 */
export async function seedOctober(firm: Firm): Promise<void> {
  await firm.ok('POST', '/currencies', { code: 'EUR' });
  const client = await newClient(firm, 'Brutăria Știrbei SRL');
  const series = await newSeries(firm);
  const base = { client_id: client.id, series_id: series.id };
  await issue(firm, { ...base, issue_date: '2026-10-02', items: [
    { description: 'Pâine țărănească', quantity: 3, price: 10.99, vat_rate: 11 },
    { description: 'Cafea', quantity: 1.5, price: 33.33, vat_rate: 21 },
  ] });
  const eur = await issue(firm, { ...base, issue_date: '2026-10-05', currency: 'EUR', exchange_rate: 5.0871, items: [
    { description: 'Consultanță', quantity: 3, price: 77.77, vat_rate: 21 },
    { description: 'Deplasare', quantity: 1, price: 12.34, vat_rate: 21 },
  ] });
  await issue(firm, { ...base, issue_date: '2026-10-06', reverse_charge: true, items: [{ description: 'Deșeuri', quantity: 10, price: 12.5, vat_rate: 21 }] });
  await firm.ok('POST', `/invoices/${eur.id}/storno`, { issue_date: '2026-10-20' });
  const supplier = (await firm.ok('POST', '/suppliers', { name: 'Papetăria Ștefan SRL', cui: 'RO18547290' })).id;
  await firm.ok('POST', '/expenses', { supplier_id: supplier, reference: 'F-77', date: '2026-10-03', amount: 121.37, vat: 21, with_vat: true });
  await firm.ok('POST', '/expenses', { supplier_id: supplier, reference: 'F-78', date: '2026-10-04', amount: 99.99, vat: 11, with_vat: false, currency: 'EUR', exchange_rate: 5.0871 });
  await firm.ok('POST', '/supplier-bills', { supplier: { name: 'Exemplu Furnizor SRL', cui: '1590082' }, invoice_number: 'B-9', issue_date: '2026-10-09', tax_exclusive: 870, tax: 182.7 });
}
