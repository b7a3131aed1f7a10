import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFindings, ublValidatorAvailability, validateUblFiles, type UblValidationResult } from '../../server/efactura/validator';
import { toUblXml } from '../../server/efactura/ubl-write';
import { ChromiumPdfRenderer } from '../../server/modules/documents-pdf/chromium-renderer';
import { buildEInvoiceDocument, pricedLineFacts, type InvoiceFacts } from '../../shared/efactura/invoice-document';
import { computeTotals } from '../../shared/invoice-math';
import { zInvoice } from '../../shared/schemas/invoice';
import { renderThermalInvoiceHtml } from '../../shared/print/thermal-invoice-template';
import { DIALECTS } from '../support/storage';
import { SELLER } from '../e2e/support/documents';
import { pdfText, squeezed } from '../server/documents-pdf/pdf-text';
import { COMPANY_BUYER, SELLER_FACTS } from './fixtures/validator-agreement';
import { fetchRaw, firm, invoice, startEnv, storno, type Env, type Firm } from '../server/efactura-spv/helpers';

/**
 * Issue 14 item 3, "intra-community goods and services": a service sold to a taxable person in another
 * member state is supplied where the customer is (art. 278 alin. (2) Cod fiscal), so its invoice names that
 * article and "taxare inversă" (art. 319 alin. (20) lit. m), not the goods' exemption of art. 294 alin. (2);
 * a service to a customer outside the EU is not taxable in Romania (art. 278 alin. (2)), not an export of
 * art. 294 alin. (1). Issued on the service, reversed by storno, written also as a CreditNote, all through
 * the official validators (UBL 2.1 XSD, EN 16931, CIUS-RO) with 0 fatal, each asserting the ground it writes.
 */
const availability = ublValidatorAvailability();
if (!availability.available) console.warn(`[efactura] intra-community services without validators: ${availability.reason}`);

const DE_COMPANY = { type: 'company', name: 'Muster Software GmbH', cui: 'DE129273398', address: 'Leopoldstraße 10', city: 'München', county: 'Bayern', country: 'DE' };
const NO_COMPANY = { type: 'company', name: 'Nordisk Handel AS', cui: 'NO999999999MVA', address: 'Karl Johans gate 1', city: 'Oslo', country: 'NO' };

const GOODS_K = 'Livrare intracomunitară scutită cf. art. 294 alin. (2) Cod fiscal';
const SERVICES_K = 'Taxare inversă: servicii cu locul prestării în alt stat membru, art. 278 alin. (2) Cod fiscal';
const BOTH_K = 'Scutit cf. art. 294 alin. (2) (bunuri); taxare inversă cf. art. 278 alin. (2) (servicii) Cod fiscal';
const SERVICES_G = 'Servicii cu locul prestării în afara României, neimpozabile cf. art. 278 alin. (2) Cod fiscal';

/** The VAT breakdowns (BG-23) of a UBL document: category, exemption code and text. */
function subtotals(xml: string): { category: string; code: string | null; reason: string | null }[] {
  return [...xml.matchAll(/<cac:TaxSubtotal>([\s\S]*?)<\/cac:TaxSubtotal>/g)].map((m) => ({
    category: /<cbc:ID>([^<]+)<\/cbc:ID>/.exec(m[1]!)![1]!,
    code: /<cbc:TaxExemptionReasonCode>([^<]+)</.exec(m[1]!)?.[1] ?? null,
    reason: /<cbc:TaxExemptionReason>([^<]+)</.exec(m[1]!)?.[1] ?? null,
  }));
}

/** The line categories (BT-151) in order. */
const lineCategories = (xml: string) => [...xml.matchAll(/<cac:ClassifiedTaxCategory>\s*<cbc:ID>([^<]+)<\/cbc:ID>/g)].map((m) => m[1]);

/** A storno written as a CreditNote (381) from the same facts: positive amounts, the original referenced. */
function creditNoteOf(f: Omit<InvoiceFacts, 'lines'>, lines: { description: string; quantity: number; price: number; category: 'K' | 'G'; service: boolean }[]): string {
  const input = lines.map((l) => ({
    description: l.description, quantity_milli: l.quantity * 1000, unit_code: 'C62', price_bani: Math.round(l.price * 100), discount_bp: 0, vat_rate_bp: 0,
    vat_category: l.category, vat_exemption_reason: null, is_service: l.service,
  }));
  const totals = computeTotals(input.map((l) => ({ quantity_milli: l.quantity_milli, unit_price_bani: l.price_bani, vat_rate_bp: 0, discount_bp: 0, vat_category: l.vat_category })), { reverse_charge: false });
  const { document, problems } = buildEInvoiceDocument({ ...f, lines: pricedLineFacts(input, totals.lines) });
  expect(problems).toEqual({});
  return toUblXml({ ...document, kind: 'credit_note', type_code: 381, note: 'Stornare factura EX-0001', billing_reference: { number: 'EX-0001', issue_date: '2026-11-20' } });
}

const CN_FACTS: Omit<InvoiceFacts, 'lines'> = {
  number: 'CN-0001', storno: false, issue_date: '2026-11-25', due_date: null, delivery_date: '2026-11-20', currency: 'EUR', exchange_rate: 5.0789,
  reverse_charge: false, payment_method: null, observations: null, buyer: { ...COMPANY_BUYER, name: 'Muster Software GmbH', cui: 'DE129273398', vat_payer: true, address: 'Leopoldstraße 10', city: 'München', county: 'Bayern', country: 'DE', postal_code: '80802' },
  buyer_name: null, seller: SELLER_FACTS, original: null,
};

describe('refused before numbering, in the words of a service', () => {
  it('a K service to a buyer outside the EU names art. 278 (2), a K good art. 294 (2)', () => {
    const ro = { ...CN_FACTS, buyer: COMPANY_BUYER };
    const refusal = (service: boolean) => {
      const input = [{ description: 'Consultanță', quantity_milli: 1000, unit_code: 'C62', price_bani: 10_000, discount_bp: 0, vat_rate_bp: 0, vat_category: 'K' as const, vat_exemption_reason: null, is_service: service }];
      const totals = computeTotals(input.map((l) => ({ quantity_milli: l.quantity_milli, unit_price_bani: l.price_bani, vat_rate_bp: 0, discount_bp: 0, vat_category: l.vat_category })), { reverse_charge: false });
      return buildEInvoiceDocument({ ...ro, lines: pricedLineFacts(input, totals.lines) }).problems['buyer.address.country_code'];
    };
    expect(refusal(true)).toBe('An intra-community service (VAT category K) goes to a client in another EU member state (art. 278 alin. (2) Cod fiscal).|O prestare intracomunitară de servicii (categoria de TVA K) se face către un client din alt stat membru UE (art. 278 alin. (2) Cod fiscal).');
    expect(refusal(false)).toContain('O livrare intracomunitară (categoria de TVA K) se face către un client din alt stat membru UE (art. 294 alin. (2) Cod fiscal).');
  });
});

describe.each(DIALECTS)('intra-community services and services abroad through the official validators, on %s', (dialect) => {
  let env: Env;
  let seller: Firm;
  let dir: string;
  const xml: Record<string, string> = {};
  const ids: Record<string, string> = {};
  let result: UblValidationResult | null = null;
  let serviceProductId = '';

  beforeAll(async () => {
    env = await startEnv(dialect);
    dir = mkdtempSync(join(tmpdir(), 'ic-services-'));
    seller = await firm(env, { link: false });
    // The catalogue knows it is a service: a line naming the product takes that, without saying it.
    const product = await seller.ok('POST', '/products', { name: 'Mentenanță software (lunar)', unit: 'lună', unit_code: 'MON', price: 1200, vat_rate: 21, is_service: true }, 201);
    serviceProductId = product.body.data.id;
    const cases: Record<string, Parameters<typeof invoice>[1]> = {
      servicesOnly: { client: DE_COMPANY, currency: 'EUR', exchange_rate: 5.0789, items: [{ description: 'Dezvoltare software', quantity: 12, unit: 'ore', unit_code: 'HUR', price: 250, vat_rate: 0, vat_category: 'K', is_service: true }] },
      goodsAndServices: {
        client: DE_COMPANY, delivery_date: '2026-10-28',
        items: [
          { description: 'Server rack', quantity: 1, price: 8000, vat_rate: 0, vat_category: 'K' },
          { product_id: serviceProductId, description: 'Mentenanță software (lunar)', quantity: 3, unit: 'lună', unit_code: 'MON', price: 1200, vat_rate: 0, vat_category: 'K' },
        ],
      },
      goodsOnly: { client: DE_COMPANY, delivery_date: '2026-10-28', items: [{ description: 'Piese de schimb', quantity: 40, price: 87.5, vat_rate: 0, vat_category: 'K', is_service: false }] },
      servicesOutsideEu: { client: NO_COMPANY, items: [{ description: 'Audit IT la distanță', quantity: 1, unit_code: 'C62', price: 4200, vat_rate: 0, vat_category: 'G', is_service: true }] },
    };
    const files: string[] = [];
    const keep = (key: string, text: string) => {
      xml[key] = text;
      const file = join(dir, `${key}.xml`);
      writeFileSync(file, text);
      files.push(file);
    };
    for (const [name, options] of Object.entries(cases)) {
      const made = await invoice(seller, options);
      const reversed = await storno(seller, made.id);
      ids[name] = made.id;
      ids[`${name}Storno`] = reversed.id;
      for (const key of [name, `${name}Storno`]) {
        const res = await fetchRaw(env, seller.key, `/invoices/${ids[key]}/efactura-xml`);
        if (res.status !== 200) throw new Error(`${key}: ${res.status} ${res.bytes.toString('utf8')}`);
        keep(key, res.bytes.toString('utf8'));
      }
    }
    keep('servicesOnlyCreditNote', creditNoteOf(CN_FACTS, [{ description: 'Dezvoltare software', quantity: 12, price: 250, category: 'K', service: true }]));
    keep('goodsAndServicesCreditNote', creditNoteOf(CN_FACTS, [
      { description: 'Server rack', quantity: 1, price: 8000, category: 'K', service: false },
      { description: 'Mentenanță software', quantity: 3, price: 1200, category: 'K', service: true },
    ]));
    if (availability.available) result = await validateUblFiles(files, 'strict');
  }, 300_000);

  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await env?.close();
  });

  const zeroFatal = (key: string) => {
    if (!result?.available) return;
    const fatal = result.findings.filter((f) => f.flag === 'fatal' && f.file.endsWith(`/${key}.xml`));
    expect(formatFindings(fatal), key).toBe('');
  };

  it('ran the validators on every document', () => {
    if (!availability.available) return;
    if (!result?.available) throw new Error(`the validators did not run: ${result?.available === false ? result.reason : 'no result'}`);
    expect(Object.keys(xml)).toHaveLength(10);
  });

  it('an intra-community service: K with VATEX-EU-IC and the art. 278 (2) reverse-charge ground, never art. 294; its storno and CreditNote too', () => {
    for (const key of ['servicesOnly', 'servicesOnlyStorno', 'servicesOnlyCreditNote']) {
      expect(subtotals(xml[key]!), key).toEqual([{ category: 'K', code: 'VATEX-EU-IC', reason: SERVICES_K }]);
      expect(lineCategories(xml[key]!), key).toEqual(['K']);
      expect(xml[key], key).not.toContain('art. 294');
      zeroFatal(key);
    }
    expect(xml.servicesOnlyCreditNote).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
  });

  it('goods and a service on one invoice: one K breakdown naming both grounds; its storno and CreditNote too', () => {
    for (const key of ['goodsAndServices', 'goodsAndServicesStorno', 'goodsAndServicesCreditNote']) {
      expect(subtotals(xml[key]!), key).toEqual([{ category: 'K', code: 'VATEX-EU-IC', reason: BOTH_K }]);
      expect(lineCategories(xml[key]!), key).toEqual(['K', 'K']);
      // The goods still state where and when they were delivered (BR-IC-11, BR-IC-12).
      expect(xml[key], key).toMatch(/<cac:Delivery>\s*<cbc:ActualDeliveryDate>2026-1[01]-\d\d<\/cbc:ActualDeliveryDate>[\s\S]*<cbc:IdentificationCode>DE<\/cbc:IdentificationCode>/);
      zeroFatal(key);
    }
  });

  it('goods alone are unchanged: the art. 294 (2) exemption', () => {
    for (const key of ['goodsOnly', 'goodsOnlyStorno']) {
      expect(subtotals(xml[key]!), key).toEqual([{ category: 'K', code: 'VATEX-EU-IC', reason: GOODS_K }]);
      zeroFatal(key);
    }
  });

  it('a service to a customer outside the EU: G, not taxable in Romania under art. 278 (2), not the goods export of art. 294 (1)', () => {
    for (const key of ['servicesOutsideEu', 'servicesOutsideEuStorno']) {
      expect(subtotals(xml[key]!), key).toEqual([{ category: 'G', code: 'VATEX-EU-G', reason: SERVICES_G }]);
      expect(xml[key], key).not.toContain('art. 294');
      zeroFatal(key);
    }
  });

  it('the JSON reply and the stored line keep is_service: from the product, as given, copied by the storno, and frozen when the product changes', async () => {
    const read = async (id: string) => (await seller.ok('GET', `/invoices/${id}?expand[]=lines`)).body.data as { lines: { is_service: boolean; product_id: string | null }[] };
    expect((await read(ids.goodsAndServices!)).lines.map((l) => l.is_service)).toEqual([false, true]);
    expect((await read(ids.goodsAndServicesStorno!)).lines.map((l) => l.is_service)).toEqual([false, true]);
    expect((await read(ids.servicesOnly!)).lines.map((l) => l.is_service)).toEqual([true]);
    expect((await read(ids.goodsOnly!)).lines.map((l) => l.is_service)).toEqual([false]);
    const rows = await env.server.storage.db.selectFrom('invoice_lines').select(['position', 'is_service']).where('invoice_id', '=', ids.goodsAndServices!).orderBy('position').execute();
    expect(rows.map((r) => Number(r.is_service))).toEqual([0, 1]);
    // The product becomes goods: the issued invoice says what it said at issue, in JSON and XML.
    await seller.ok('PUT', `/products/${serviceProductId}`, { is_service: false });
    expect((await read(ids.goodsAndServices!)).lines.map((l) => l.is_service)).toEqual([false, true]);
    const again = await fetchRaw(env, seller.key, `/invoices/${ids.goodsAndServices}/efactura-xml`);
    expect(subtotals(again.bytes.toString('utf8'))).toEqual([{ category: 'K', code: 'VATEX-EU-IC', reason: BOTH_K }]);
    // A new line naming the product now takes goods; an explicit is_service wins over the product.
    const later = await invoice(seller, { client: DE_COMPANY, delivery_date: '2026-11-02', items: [
      { product_id: serviceProductId, description: 'Mentenanță software (lunar)', quantity: 1, price: 1200, vat_rate: 0, vat_category: 'K' },
      { product_id: serviceProductId, description: 'Mentenanță software (lunar)', quantity: 1, price: 1200, vat_rate: 0, vat_category: 'K', is_service: true },
    ] });
    expect((await read(later.id)).lines.map((l) => l.is_service)).toEqual([false, true]);
    // The API says so in its OpenAPI, served from the schemas.
    const openapi = JSON.parse((await env.server.api(seller.key, 'GET', '/openapi.json')).text) as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: { items: { items: { properties: Record<string, { type?: unknown }> } } } } }> } }>>;
    };
    const item = openapi.paths['/invoices']!.post!.requestBody.content['application/json']!.schema.properties.items.items.properties;
    expect(item.is_service).toBeDefined();
  });

  it('the printed invoice (A4 from the service, 80 mm roll) names art. 278 (2) for the service and art. 294 (2) for the goods', async () => {
    const res = await fetchRaw(env, seller.key, `/invoices/${ids.goodsAndServices}/pdf`);
    expect(res.status, res.bytes.toString('utf8', 0, 300)).toBe(200);
    const a4 = squeezed(pdfText(res.bytes)).replace(/\s+/g, ' ');
    expect(a4).toContain('Taxare inversă: prestare de servicii cu locul în statul membru al beneficiarului, conform art. 278 alin. (2) din Codul fiscal');
    expect(a4).toContain('Scutit cu drept de deducere conform art. 294 alin. (2) lit. a) din Codul fiscal');
    // The breakdown row names both (the column wraps the label: "0% (livrări și servicii … intracomunitare)").
    expect(a4).toMatch(/0% \(livrări și servicii[\s\S]{0,80}intracomunitare\)/);
    const only = squeezed(pdfText((await fetchRaw(env, seller.key, `/invoices/${ids.servicesOnly}/pdf`)).bytes)).replace(/\s+/g, ' ');
    expect(only).toContain('art. 278 alin. (2)');
    expect(only).not.toContain('art. 294');
    expect(only).toMatch(/0% \(servicii[\s\S]{0,80}intracomunitare\)/);

    const json = zInvoice.parse((await seller.ok('GET', `/invoices/${ids.servicesOutsideEu}?expand[]=lines`)).body.data);
    const renderer = new ChromiumPdfRenderer();
    try {
      const roll = squeezed(pdfText(await renderer.render(renderThermalInvoiceHtml(json, SELLER)))).replace(/\s+/g, ' ');
      expect(roll).toContain('Neimpozabil în România: prestare de servicii cu locul în afara României, conform art. 278 alin. (2) din Codul fiscal');
      expect(roll).not.toContain('art. 294');
      expect(roll).toMatch(/0% \(servicii[\s\S]{0,80}în afara României\)/);
    } finally {
      await renderer.close();
    }
  });
});
