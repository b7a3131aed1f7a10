import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUblXml } from '../../../server/efactura/index';
import { decodeXmlBytes } from '../../../server/efactura/xml-bytes';
import { finish, seller as exampleSupplier } from '../../efactura/fixtures/documents';
import { DIALECTS } from '../../support/storage';
import { firm, receiveFromSupplier, startEnv, type Env, type Firm } from './helpers';

/**
 * The document references of a supplier's e-Factura (BT-10..18, BG-3) reach the supplier bill: stored at
 * import (migration 0420), returned as `references` in the bill JSON, and described in the OpenAPI document.
 */

const CII_EXAMPLE = join(import.meta.dirname, '..', '..', 'efactura', 'corpus', 'cen-cii', 'CII_example5.xml');

function creditNoteWithEveryReference(buyerCui: string): string {
  return toUblXml(finish(
    {
      kind: 'credit_note', number: 'CR-77', issue_date: '2026-11-03', due_date: '2026-11-30', currency: 'RON', seller: exampleSupplier,
      buyer: { name: 'Tejghea Test SRL', vat_id: `RO${buyerCui}`, cui: buyerCui, address: { street: 'Str. Memorandumului nr. 28', city: 'Cluj-Napoca', county_code: 'RO-CJ', country_code: 'RO' } },
      billing_reference: { number: 'EF-0999', issue_date: '2026-10-01' },
      buyer_reference: 'ANGAJAMENT 3321', order_reference: 'PO-2026-118', contract_reference: 'Contract 14/2026', despatch_reference: 'AVZ 0457',
      receipt_reference: 'NIR 88/2026', project_reference: 'Proiect POR 2.1', tender_reference: 'Lot 3', invoiced_object: 'Contor 0011223',
    },
    [{ name: 'Retur toner', quantity_milli: 1000, unit_price_bani: 31_000, vat_category: 'S', vat_rate_bp: 2100, unit_code: 'H87' }],
  ));
}

describe.each(DIALECTS)('supplier bill references on %s', (dialect) => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  const receive = (f: Firm, xml: string) => receiveFromSupplier(env, f, xml);
  const billOf = async (f: Firm, number: string) => {
    const list = await f.ok('GET', `/supplier-bills?search=${encodeURIComponent(number)}`);
    expect(list.body.data.total).toBe(1);
    return (await f.ok('GET', `/supplier-bills/${list.body.data.data[0].id}`)).body.data.supplier_bill;
  };

  it('a UBL CreditNote and a CII invoice from the inbox keep every reference; a bill entered by hand has only its order', async () => {
    const f = await firm(env);
    receive(f, creditNoteWithEveryReference(f.cui));
    receive(f, decodeXmlBytes(readFileSync(CII_EXAMPLE)));
    expect((await f.ok('POST', '/supplier-bills/sync', {})).body.data).toMatchObject({ imported: 2, failed: 0 });

    const credit = await billOf(f, 'CR-77');
    expect(credit.references).toEqual({
      order: 'PO-2026-118', contract: 'Contract 14/2026', buyer: 'ANGAJAMENT 3321', despatch: 'AVZ 0457', receipt: 'NIR 88/2026',
      project: 'Proiect POR 2.1', tender: 'Lot 3', invoiced_object: 'Contor 0011223', invoiced_object_scheme: null, sales_order: null,
      preceding_invoices: [{ number: 'EF-0999', issue_date: '2026-10-01' }],
    });
    expect(credit.order_reference).toBe('PO-2026-118');
    // The list shows the same as the single bill.
    expect((await f.ok('GET', '/supplier-bills?search=CR-77')).body.data.data[0].references).toEqual(credit.references);
    // Stored as the reader's JSON on the row itself, so a later change of the reader does not rewrite history.
    const row = await env.server.storage.db.selectFrom('supplier_bills').select('references_json').where('id', '=', credit.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.references_json!)).toMatchObject({ project_reference: 'Proiect POR 2.1', invoiced_object: { id: 'Contor 0011223', scheme_id: null } });

    const cii = await billOf(f, 'TOSL110');
    expect(cii.references).toEqual({
      order: 'PO4711', contract: '2013-05', buyer: 'qwerty', despatch: '5433', receipt: '3544', project: 'Project345', tender: null,
      invoiced_object: null, invoiced_object_scheme: null, sales_order: '123', preceding_invoices: [{ number: 'TOSL109', issue_date: '2013-03-10' }],
    });

    const manual = await f.ok('POST', '/supplier-bills', {
      supplier: { name: 'Furnizor Manual SRL', cui: '18547290' }, invoice_number: 'M-1', issue_date: '2026-11-04', tax_exclusive: 100, tax: 21, order_reference: 'PO-9',
    }, 201);
    expect(manual.body.data.supplier_bill.references).toEqual({
      order: 'PO-9', contract: null, buyer: null, despatch: null, receipt: null, project: null, tender: null,
      invoiced_object: null, invoiced_object_scheme: null, sales_order: null, preceding_invoices: [],
    });
  });

  it('an e-Factura with empty reference elements stores no reference, never ""', async () => {
    const f = await firm(env);
    const xml = creditNoteWithEveryReference(f.cui)
      .replace('CR-77', 'CR-78')
      .replace(/<cbc:BuyerReference>[^<]*</, '<cbc:BuyerReference><')
      .replace(/(<cac:(?:OrderReference|DespatchDocumentReference|ReceiptDocumentReference|ContractDocumentReference|AdditionalDocumentReference|OriginatorDocumentReference|InvoiceDocumentReference)>\s*<cbc:ID>)[^<]*/g, '$1');
    receive(f, xml);
    expect((await f.ok('POST', '/supplier-bills/sync', {})).body.data).toMatchObject({ imported: 1, failed: 0 });
    const bill = await billOf(f, 'CR-78');
    expect(bill.references).toEqual({
      order: null, contract: null, buyer: null, despatch: null, receipt: null, project: null, tender: null,
      invoiced_object: null, invoiced_object_scheme: null, sales_order: null, preceding_invoices: [],
    });
    expect(bill.order_reference).toBeNull();
  });

  it('the OpenAPI document describes `references` on the supplier bill', async () => {
    const res = await env.server.api(null, 'GET', '/openapi.json');
    const schema = res.body.paths['/supplier-bills/{id}'].get.responses['200'].content['application/json'].schema;
    const text = JSON.stringify(schema);
    for (const member of ['invoiced_object_scheme', 'preceding_invoices', 'sales_order', 'despatch', 'receipt', 'tender']) expect(text).toContain(`"${member}"`);
  });
});
