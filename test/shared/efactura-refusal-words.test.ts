import { describe, expect, it } from 'vitest';
import { describeIpcError } from '../../renderer/lib/errors';
import { translator } from '../../renderer/i18n';
import { buildEInvoiceDocument, NUMBER_NOT_YET_ASSIGNED, type InvoiceFacts } from '../../shared/efactura/invoice-document';

/** What the cashier reads when an invoice is refused before numbering: the field messages, in the UI's language. */
describe('an e-Factura refusal in words', () => {
  const facts: InvoiceFacts = {
    number: NUMBER_NOT_YET_ASSIGNED, storno: false, issue_date: '2026-11-25', due_date: null, delivery_date: null, currency: 'RON',
    exchange_rate: null, reverse_charge: false, payment_method: null, observations: null, buyer_name: null, original: null,
    buyer: { name: 'Client SRL', cui: 'RO14186770', vat_payer: true, reg_com: null, cnp: null, address: 'Str. Lipscani 1', city: 'București', county: 'București', country: 'RO' },
    seller: {
      name: 'Firma SRL', cui: '18547290', vat_payer: true, vat_id: 'RO18547290', reg_com: null, street: 'Str. A 1', city: 'Cluj-Napoca', county_code: 'RO-CJ',
      postal_code: null, country_code: 'RO', iban: null, bank: null, email: null, phone: null, capital_social_bani: null, vat_on_collection: false,
    },
    lines: [{ position: 1, description: 'Marfă', quantity_milli: 1000, unit_code: 'H87', price_bani: 1000, discount_bp: 0, discount_bani: 0, net_bani: 1000, vat_bani: 210, vat_rate_bp: 2100, vat_category: null, vat_exemption_reason: null }],
  };

  it('names the field problem in Romanian, and in English for an English UI', () => {
    const { problems } = buildEInvoiceDocument(facts);
    const error = { code: 'invalid_payload', type: 'invalid_request_error', message: 'Invalid input', fields: problems } as Parameters<typeof describeIpcError>[0];
    expect(describeIpcError(error, translator('ro'))).toBe(
      'ANAF ar respinge această factură, așa că nu a primit număr: În București e-Factura cere sectorul: scrieți-l la localitate, de ex. „Sector 4” (BR-RO-100).',
    );
    expect(describeIpcError(error, translator('en'))).toMatch(/^ANAF would refuse this invoice, so it took no number: In Bucharest e-Factura needs the sector/);
  });
});
