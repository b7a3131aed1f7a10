import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFindings, ublValidatorAvailability, validateUblFiles } from '../../../server/efactura/validator';
import { renderInvoiceHtml } from '../../../shared/print/invoice-template';
import type { Invoice } from '../../../shared/schemas/invoice';
import { SELLER } from '../../e2e/support/documents';
import { DIALECTS } from '../../support/storage';
import { fetchRaw, invoice, sellerForTests, storno, type Env, type Firm } from './helpers';

/**
 * Every reference firms and public buyers ask for (issue 14 item 4), through the service: order,
 * contract, buyer (BT-13/12/10), delivery note (BT-16), receiving advice (BT-15), project (BT-11),
 * tender or lot (BT-17) and invoiced object (BT-18). Returned in the JSON, kept by a draft's PUT, a
 * storno and a converted proforma, written in UBL 2.1's element order into an XML the official
 * validators accept, and printed.
 */
const availability = ublValidatorAvailability();

const ALL = {
  order: 'PO-2026-118', contract: 'Contract 14/2026', buyer: 'ANGAJAMENT 3321', despatch: 'AVZ 0457',
  receipt: 'NIR 88/2026', project: 'Proiect POR 2.1', tender: 'Lot 3', invoiced_object: 'Contor 0011223',
};

/** The reference elements in the order the XML has them. */
function referenceOrder(xml: string): string[] {
  const names = ['BuyerReference', 'OrderReference', 'BillingReference', 'DespatchDocumentReference', 'ReceiptDocumentReference',
    'OriginatorDocumentReference', 'ContractDocumentReference', 'AdditionalDocumentReference', 'ProjectReference', 'AccountingSupplierParty'];
  return [...xml.matchAll(/<c[ab]c:([A-Za-z]+)[ >]/g)].map((m) => m[1]!).filter((n) => names.includes(n));
}

describe.each(DIALECTS)('invoice references on %s', (dialect) => {
  let env: Env;
  let seller: Firm;
  let dir: string;
  sellerForTests(dialect, 'references-http-', (started) => ({ env, seller, dir } = started));

  it('stores, returns and writes all of them; storno and conversion keep them; the validators accept the XML', async () => {
    const made = await invoice(seller, { references: ALL });
    const got = (await seller.ok('GET', `/invoices/${made.id}`)).body.data as Invoice;
    expect(got.references).toEqual(ALL);
    const reversed = await storno(seller, made.id);
    expect(((await seller.ok('GET', `/invoices/${reversed.id}`)).body.data as Invoice).references).toEqual(ALL);

    const proforma = await invoice(seller, { document_type: 'proforma', references: { despatch: 'AVZ 12', project: 'P-7' } });
    const converted = (await seller.ok('POST', `/invoices/${proforma.id}/convert`, {}, 201)).body.data as Invoice & { id: string };
    expect(converted.references).toMatchObject({ despatch: 'AVZ 12', project: 'P-7', order: null, tender: null, invoiced_object: null });

    // A draft: PUT replaces them (null clears), the issue writes what the draft holds.
    const draft = await invoice(seller, { is_draft: true, references: { receipt: 'NIR 1' } });
    const put = await seller.ok('PUT', `/invoices/${draft.id}`, { references: { tender: 'Lot 9', receipt: 'NIR 2' } });
    expect((put.body.data as Invoice).references).toMatchObject({ tender: 'Lot 9', receipt: 'NIR 2', order: null });
    const issued = (await seller.ok('POST', `/invoices/${draft.id}/issue`, {})).body.data as Invoice & { id: string };
    expect(issued.references).toMatchObject({ tender: 'Lot 9', receipt: 'NIR 2' });
    const cleared = await invoice(seller, { is_draft: true, references: { project: 'X' } });
    expect(((await seller.ok('PUT', `/invoices/${cleared.id}`, { references: null })).body.data as Invoice).references).toMatchObject({ project: null });

    const files: string[] = [];
    for (const [name, id] of [['all', made.id], ['reversed', reversed.id], ['converted', converted.id], ['issued', issued.id]] as const) {
      const xml = await fetchRaw(env, seller.key, `/invoices/${id}/efactura-xml`);
      expect(xml.status, name).toBe(200);
      const text = Buffer.from(xml.bytes).toString('utf8');
      if (name === 'all' || name === 'reversed') {
        expect(referenceOrder(text), name).toEqual([
          'BuyerReference', 'OrderReference', ...(name === 'reversed' ? ['BillingReference'] : []), 'DespatchDocumentReference', 'ReceiptDocumentReference',
          'OriginatorDocumentReference', 'ContractDocumentReference', 'AdditionalDocumentReference', 'ProjectReference', 'AccountingSupplierParty',
        ]);
        expect(text).toContain('<cac:DespatchDocumentReference>\n    <cbc:ID>AVZ 0457</cbc:ID>');
        expect(text).toContain('<cac:ReceiptDocumentReference>\n    <cbc:ID>NIR 88/2026</cbc:ID>');
        expect(text).toContain('<cac:OriginatorDocumentReference>\n    <cbc:ID>Lot 3</cbc:ID>');
        expect(text).toMatch(/<cac:AdditionalDocumentReference>\s*<cbc:ID>Contor 0011223<\/cbc:ID>\s*<cbc:DocumentTypeCode>130<\/cbc:DocumentTypeCode>/);
        expect(text).toContain('<cac:ProjectReference>\n    <cbc:ID>Proiect POR 2.1</cbc:ID>');
      }
      const file = join(dir, `${name}.xml`);
      writeFileSync(file, xml.bytes);
      files.push(file);
    }
    if (availability.available) {
      const result = await validateUblFiles(files, 'strict');
      if (result.available) expect(formatFindings(result.findings.filter((f) => f.flag === 'fatal'))).toBe('');
    }

    // The A4 printout names each one.
    const text = renderInvoiceHtml({ ...got, lines: got.lines ?? [] }, SELLER).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    for (const [label, value] of [['Comanda nr.', 'PO-2026-118'], ['Aviz de însoțire nr.', 'AVZ 0457'], ['Notă de recepție nr.', 'NIR 88/2026'],
      ['Proiect', 'Proiect POR 2.1'], ['Licitație / lot', 'Lot 3'], ['Obiect facturat', 'Contor 0011223'], ['Contract nr.', 'Contract 14/2026']]) {
      expect(text).toContain(`${label} ${value}`);
    }
  }, 120_000);

  it('refuses a reference longer than CIUS-RO allows, at the member', async () => {
    const res = await seller.call('POST', '/invoices?locale=ro', {
      document_type: 'fiscal', client: { type: 'company', name: 'Client SRL', cui: 'RO14186770', address: 'Str. A 1', city: 'Iași', county: 'Iași' },
      items: [{ description: 'Marfă', quantity: 1, price: 100, vat_rate: 21 }], references: { despatch: 'x'.repeat(201) },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields as object)).toContain('references.despatch');
  });
});
