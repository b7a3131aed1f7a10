import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFindings, ublValidatorAvailability, validateUblFiles } from '../../../server/efactura/validator';
import { DIALECTS } from '../../support/storage';
import { expectError, fetchRaw, invoice, sellerForTests, storno, type Env, type Firm } from './helpers';

/**
 * Discounts and charges on the whole invoice through the service (issue 14 item 4): stored with the
 * invoice, returned in its JSON with totals that add up (in RON too), written into the e-Factura XML
 * that the official validators accept, negated by a storno, refused at the member when no line has
 * their rate.
 */
const availability = ublValidatorAvailability();

type Money = Record<string, number>;
interface Reply { references: Record<string, string | null>; totals: Money; totals_ron: Money | null; vat_breakdown: Money[]; allowances_charges: Record<string, unknown>[]; full_number: string | null; status: string }

describe.each(DIALECTS)('discounts and charges on the whole invoice on %s', (dialect) => {
  let env: Env;
  let seller: Firm;
  let dir: string;
  sellerForTests(dialect, 'allowances-http-', (started) => ({ env, seller, dir } = started));

  const items = [
    { description: 'Laptop', quantity: 3, price: 1000, vat_rate: 21 },
    { description: 'Carte', quantity: 7, price: 45.9, vat_rate: 11 },
  ];
  const allowancesCharges = [
    { amount: 150, vat_rate: 21, reason: 'Discount volum', reason_code: '95' },
    { amount: 12.5, vat_rate: 11, reason: 'Reducere fidelitate' },
    { charge: true, amount: 35, vat_rate: 21, reason: 'Transport', reason_code: 'FC' },
  ];

  it('stores them, returns them, and writes them into an XML the validators accept; a storno negates them', async () => {
    const references = { order: 'PO-2026-118', contract: 'Contract 14/2026', buyer: 'ANGAJAMENT 3321' };
    const made = await invoice(seller, { items, allowances_charges: allowancesCharges, references });
    const got = (await seller.call('GET', `/invoices/${made.id}`)).body.data as Reply;
    expect(got.references).toEqual({ ...references, despatch: null, receipt: null, project: null, tender: null, invoiced_object: null });
    // 21%: 3 000 - 150 + 35 = 2 885,00, VAT 605,85; 11%: 321,30 - 12,50 = 308,80, VAT 33,97 (33,968).
    // The 11% discount moves that rate's VAT from 35,34 (11% of 321,30) to 33,97: -1,37, not -1,38 on its own.
    expect(got.vat_breakdown).toMatchObject([{ vat_rate: 21, net: 2885, vat: 605.85, total: 3490.85 }, { vat_rate: 11, net: 308.8, vat: 33.97, total: 342.77 }]);
    expect(got.totals).toEqual({ net: 3193.8, vat: 639.82, total: 3833.62, discount: 0, lines_net: 3321.3, allowances: 162.5, charges: 35 });
    expect(got.allowances_charges).toEqual([
      { charge: false, amount: 150, vat_rate: 21, vat_category: null, reason: 'Discount volum', reason_code: '95', vat: -31.5 },
      { charge: false, amount: 12.5, vat_rate: 11, vat_category: null, reason: 'Reducere fidelitate', reason_code: null, vat: -1.37 },
      { charge: true, amount: 35, vat_rate: 21, vat_category: null, reason: 'Transport', reason_code: 'FC', vat: 7.35 },
    ]);
    const reversed = await storno(seller, made.id);
    const back = (await seller.call('GET', `/invoices/${reversed.id}`)).body.data as Reply;
    expect(back.totals).toEqual({ net: -3193.8, vat: -639.82, total: -3833.62, discount: 0, lines_net: -3321.3, allowances: -162.5, charges: -35 });
    expect(back.allowances_charges.map((a) => a.vat)).toEqual([31.5, 1.37, -7.35]);
    expect(back.references).toMatchObject(references);

    // In euro: the RON totals add up (net + VAT = total), the VAT as the XML's BT-111.
    const euro = await invoice(seller, { currency: 'EUR', exchange_rate: 5.0789, items: [{ description: 'Consultanță', quantity: 1, price: 1200.33, vat_rate: 21 }], allowances_charges: [{ charge: true, amount: 80.55, vat_rate: 21, reason: 'Ambalare', reason_code: 'ABL' }] });
    const euroGot = (await seller.call('GET', `/invoices/${euro.id}`)).body.data as Reply;
    expect(euroGot.references).toEqual({ order: null, contract: null, buyer: null, despatch: null, receipt: null, project: null, tender: null, invoiced_object: null });
    const ron = euroGot.totals_ron!;
    expect(Math.round(ron.net! * 100) + Math.round(ron.vat! * 100)).toBe(Math.round(ron.total! * 100));

    const files: string[] = [];
    for (const [name, id] of Object.entries({ made: made.id, reversed: reversed.id, euro: euro.id })) {
      const xml = await fetchRaw(env, seller.key, `/invoices/${id}/efactura-xml`);
      expect(xml.status, name).toBe(200);
      const text = Buffer.from(xml.bytes).toString('utf8');
      expect(text, name).toContain('<cbc:AllowanceChargeReason>Discount volum</cbc:AllowanceChargeReason>'.replace('Discount volum', name === 'euro' ? 'Ambalare' : 'Discount volum'));
      if (name !== 'euro') {
        // BT-10, BT-13, BT-12 where UBL puts them; the storno also names the invoice it reverses (BG-3).
        expect(text).toContain('<cbc:BuyerReference>ANGAJAMENT 3321</cbc:BuyerReference>');
        expect(text).toContain('<cac:OrderReference>\n    <cbc:ID>PO-2026-118</cbc:ID>');
        expect(text).toContain('<cac:ContractDocumentReference>\n    <cbc:ID>Contract 14/2026</cbc:ID>');
        if (name === 'reversed') expect(text).toMatch(/<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>[^<]+<\/cbc:ID>/);
      }
      if (name === 'euro') {
        const vatRon = /<cbc:TaxAmount currencyID="RON">([\d.-]+)<\/cbc:TaxAmount>/.exec(text)![1];
        expect(Number(vatRon)).toBe(ron.vat);
      }
      const file = join(dir, `${name}.xml`);
      writeFileSync(file, xml.bytes);
      files.push(file);
    }
    if (availability.available) {
      const result = await validateUblFiles(files, 'strict');
      if (result.available) expect(formatFindings(result.findings.filter((f) => f.flag === 'fatal'))).toBe('');
    }
  }, 120_000);

  it('keeps them on a draft until replaced, and prices the issue with them', async () => {
    const draft = await invoice(seller, { is_draft: true, items, allowances_charges: [allowancesCharges[0]!] });
    const put = await seller.call('PUT', `/invoices/${draft.id}`, { observations: 'Comanda 42' });
    expect(put.status).toBe(200);
    expect((put.body.data as Reply).totals).toMatchObject({ net: 3171.3, allowances: 150, charges: 0 });
    const replaced = await seller.call('PUT', `/invoices/${draft.id}`, { allowances_charges: [allowancesCharges[2]!] });
    expect((replaced.body.data as Reply).totals).toMatchObject({ net: 3356.3, allowances: 0, charges: 35 });
    const issued = await seller.call('POST', `/invoices/${draft.id}/issue`, {});
    expect(issued.status).toBe(200);
    expect((issued.body.data as Reply).allowances_charges).toHaveLength(1);
  });

  it('refuses one at a rate no line has, at the member, in Romanian, before numbering', async () => {
    const before = await invoice(seller);
    const post = (allowances_charges: unknown[]) => seller.call('POST', '/invoices?locale=ro', {
      document_type: 'fiscal', client: { type: 'company', name: 'Client SRL', cui: 'RO14186770', address: 'Str. A 1', city: 'Iași', county: 'Iași' },
      items: [{ description: 'Marfă', quantity: 1, price: 100, vat_rate: 21 }], allowances_charges,
    });
    const noLine = expectError(await post([{ amount: 5, vat_rate: 11, reason: 'Reducere' }]), 422, 'validation_error');
    expect(Object.keys(noLine.fields as object)).toEqual(['allowances_charges.0.vat_rate']);
    expect((noLine.fields as Record<string, string>)['allowances_charges.0.vat_rate']).toMatch(/^Nicio linie a facturii nu are această cotă/);
    const badReason = expectError(await post([{ amount: 5, vat_rate: 21, reason_code: '999' }, { charge: true, amount: 5, vat_rate: 21 }]), 422, 'validation_error');
    const fields = badReason.fields as Record<string, string>;
    expect(fields['allowances_charges.0.reason_code']).toMatch(/^Nu este un cod de motiv/);
    expect(fields['allowances_charges.1.reason']).toMatch(/^Dați un motiv/);
    // No number was spent.
    const after = await invoice(seller);
    expect(Number(String(after.full_number).replace(/\D/g, ''))).toBe(Number(String(before.full_number).replace(/\D/g, '')) + 1);
  });
});
