import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUblInvoice } from '../../../server/efactura/index';
import { formatFindings, ublValidatorAvailability, validateUblFiles, type UblValidationResult } from '../../../server/efactura/validator';
import { DIALECTS } from '../../support/storage';
import { RO_BUYER, expectError, fetchRaw, firm, invoice, storno, startEnv, type Env, type Firm } from './helpers';

/** A German VAT-registered company (the VAT id passes the German check digit). */
const DE_BUYER = {
  type: 'company', name: 'Muster Maschinenbau GmbH', cui: 'DE129273398', address: 'Leopoldstraße 10', city: 'München', county: 'Bayern', country: 'DE',
};

const availability = ublValidatorAvailability();
const skipReason = availability.available ? '' : `UBL validators unavailable: ${availability.reason}`;
if (skipReason) console.warn(`[efactura-spv] skipping the validator run: ${skipReason}`);

describe.each(DIALECTS)('GET /invoices/{id}/efactura-xml on %s', (dialect) => {
  let env: Env;
  let seller: Firm;
  let dir: string;
  /** name -> XML as downloaded over HTTP. */
  const xml: Record<string, string> = {};
  const files: Record<string, string> = {};
  let result: UblValidationResult | null = null;
  const issued: Record<string, { issue_date: string }> = {};

  beforeAll(async () => {
    env = await startEnv(dialect);
    seller = await firm(env, { link: false });
    dir = mkdtempSync(join(tmpdir(), 'efactura-spv-'));
    const made: Record<string, { id: string }> = {};
    made.multiRate = await invoice(seller, {
      items: [
        { description: 'Laptop', quantity: 2, price: 3499.99, vat_rate: 21 },
        { description: 'Manuale școlare', quantity: 3, price: 45.9, vat_rate: 11 },
        { description: 'Pâine (contract vechi)', quantity: 12.5, unit: 'kg', unit_code: 'KGM', price: 7.33, vat_rate: 9 },
        { description: 'Bilet spectacol', quantity: 1, price: 100, vat_rate: 5 },
        { description: 'Consultanță', quantity: 1.25, unit: 'ore', unit_code: 'HUR', price: 250, vat_rate: 19 },
      ],
      payment_method: 'bank_order',
      due_date: '2026-12-31',
      observations: 'Factură cu mai multe cote de TVA & caractere <speciale>',
    });
    made.zeroExempt = await invoice(seller, {
      items: [
        { description: 'Consultație medicală', quantity: 1, price: 300, vat_rate: 0, vat_exemption_reason: 'VATEX-EU-132-1C Scutit cf. art. 292 alin. (2) lit. a) Cod fiscal' },
        { description: 'Materiale', quantity: 4, price: 25, vat_rate: 21 },
      ],
    });
    made.reverseCharge = await invoice(seller, {
      reverse_charge: true,
      items: [{ description: 'Grâu panificație', quantity: 25000, unit: 'kg', unit_code: 'KGM', price: 1.1, vat_rate: 21 }],
    });
    made.foreignCurrency = await invoice(seller, {
      currency: 'EUR',
      exchange_rate: 5.0789,
      items: [
        { description: 'Licență software anuală', quantity: 1, price: 1200, vat_rate: 21 },
        { description: 'Suport tehnic', quantity: 10, unit_code: 'HUR', price: 45, vat_rate: 21 },
      ],
    });
    made.b2cCnp = await invoice(seller, {
      client: { type: 'person', name: 'Ion Popescu', cnp: '1850101400017', address: 'Str. Florilor nr. 3', city: 'Brașov', county: 'Brașov', country: 'RO' },
      payment_method: 'card',
      items: [{ description: 'Frigider', quantity: 1, price: 2499, vat_rate: 21 }],
    });
    made.b2cAnonymous = await invoice(seller, {
      client: { type: 'person', name: 'Client persoană fizică', address: 'Bd. Iuliu Maniu nr. 7, Sector 6', city: 'București', county: 'București', country: 'RO' },
      payment_method: 'receipt',
      items: [{ description: 'Reparație telefon', quantity: 1, price: 150, vat_rate: 21 }],
    });
    made.discounts = await invoice(seller, {
      items: [
        { description: 'Scaun ergonomic', quantity: 4, price: 899, vat_rate: 21, discount_percent: 10 },
        { description: 'Birou', quantity: 1, price: 1200, vat_rate: 21, discount_percent: 4.17 },
        { description: 'Carte', quantity: 2, price: 60, vat_rate: 11, discount_percent: 10 },
      ],
    });
    made.storno = await storno(seller, made.multiRate.id);
    made.intraCommunity = await invoice(seller, {
      client: DE_BUYER,
      items: [
        { description: 'Piese de schimb utilaje', quantity: 40, price: 87.5, vat_rate: 0, vat_category: 'K' },
        { description: 'Rulmenți', quantity: 100, price: 12.3, vat_rate: 0, vat_category: 'K', discount_percent: 5 },
      ],
      currency: 'EUR',
      exchange_rate: 5.0789,
      due_date: '2026-12-31',
    });
    made.intraCommunityStorno = await storno(seller, made.intraCommunity.id);
    // Goods delivered before the invoice was issued (art. 319 (20) d): the delivery date is stated.
    made.intraCommunityDelivered = await invoice(seller, {
      client: DE_BUYER,
      delivery_date: '2026-10-28',
      items: [{ description: 'Motor electric', quantity: 2, price: 1500, vat_rate: 0, vat_category: 'K' }],
    });
    made.intraCommunityDeliveredStorno = await storno(seller, made.intraCommunityDelivered.id);
    made.deliveredDomestic = await invoice(seller, {
      delivery_date: '2026-10-30',
      items: [{ description: 'Montaj', quantity: 1, price: 500, vat_rate: 21 }],
    });
    made.exportOutsideEu = await invoice(seller, {
      client: { type: 'company', name: 'Nordisk Handel AS', cui: 'NO999999999MVA', address: 'Karl Johans gate 1', city: 'Oslo', country: 'NO' },
      items: [{ description: 'Mobilier lemn masiv', quantity: 3, price: 2100, vat_rate: 0, vat_category: 'G' }],
    });
    made.zeroRated = await invoice(seller, {
      items: [
        { description: 'Serviciu cu cotă zero', quantity: 1, price: 640, vat_rate: 0, vat_category: 'Z' },
        { description: 'Consultație medicală', quantity: 1, price: 300, vat_rate: 0, vat_exemption_reason: 'art. 292 alin. (2) lit. a) Cod fiscal' },
        { description: 'Ambalaj', quantity: 2, price: 10, vat_rate: 21 },
      ],
    });
    const micro = await firm(env, { link: false, vatPayer: false });
    made.notVatRegistered = await invoice(micro, { items: [{ description: 'Ramă tablou', quantity: 2, price: 75, vat_rate: 0 }] });

    for (const [name, inv] of Object.entries(made)) {
      const who = name === 'notVatRegistered' ? micro : seller;
      const res = await fetchRaw(env, who.key, `/invoices/${inv.id}/efactura-xml`);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.bytes.toString('utf8')}`);
      expect(res.type).toBe('application/xml; charset=utf-8');
      xml[name] = res.bytes.toString('utf8');
      files[name] = join(dir, `${name}.xml`);
      writeFileSync(files[name], xml[name]);
    }
    if (!skipReason) result = await validateUblFiles(Object.values(files), 'strict');
    issued.intraCommunity = made.intraCommunity as unknown as { issue_date: string };
  }, 180_000);

  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await env?.close();
  });

  it('writes what the invoice says, to the ban', () => {
    const multi = parseUblInvoice(xml.multiRate!);
    expect(multi.invoice_number).toMatch(/^TJT-\d{4}-0001$/);
    expect(multi.supplier).toMatchObject({ name: 'Tejghea Test SRL', vat_id: `RO${seller.cui}`, reg_com: 'J12/1234/2020' });
    expect(multi.customer).toMatchObject({ vat_id: 'RO76543210', cui: '76543210' });
    // 2 x 3499.99 = 6999.98 (21%: 1470.00), 3 x 45.90 = 137.70 (11%: 15.15), 12.5 x 7.33 = 91.63 (9%: 8.25), 100 (5%: 5), 312.50 (19%: 59.38)
    expect(multi.amounts).toMatchObject({ line_extension_bani: 764_181, tax_bani: 155_778, tax_inclusive_bani: 919_959, payable_bani: 919_959 });
    expect(multi.vat_breakdown.map((b) => [b.vat_rate_bp, b.taxable_bani, b.vat_bani])).toEqual([
      [2100, 699_998, 147_000], [1900, 31_250, 5_938], [1100, 13_770, 1_515], [900, 9_163, 825], [500, 10_000, 500],
    ]);
    expect(xml.multiRate).toContain('&amp; caractere &lt;speciale&gt;');
    expect(xml.multiRate).toContain('<cbc:PaymentMeansCode>42</cbc:PaymentMeansCode>');

    const st = parseUblInvoice(xml.storno!);
    expect(st.invoice_type_code).toBe('380');
    expect(st.billing_reference).toEqual({ number: multi.invoice_number, issue_date: multi.issue_date });
    expect(st.amounts.payable_bani).toBe(-919_959);
    expect(st.lines.every((l) => l.quantity_milli < 0 && l.unit_price_bani > 0)).toBe(true);

    const eur = parseUblInvoice(xml.foreignCurrency!);
    expect(eur).toMatchObject({ currency: 'EUR', tax_currency: 'RON' });
    // VAT 346.50 EUR x 5.0789 = 1759.84 RON
    expect(eur.amounts).toMatchObject({ tax_bani: 34_650, tax_ron_bani: 175_984 });

    expect(parseUblInvoice(xml.reverseCharge!).vat_breakdown).toEqual([
      expect.objectContaining({ category: 'AE', vat_rate_bp: 0, vat_bani: 0, exemption_reason_code: 'VATEX-EU-AE' }),
    ]);
    const zero = parseUblInvoice(xml.zeroExempt!).vat_breakdown.find((b) => b.category === 'E')!;
    expect(zero).toMatchObject({ exemption_reason_code: 'VATEX-EU-132-1C', exemption_reason: 'Scutit cf. art. 292 alin. (2) lit. a) Cod fiscal' });
    expect(parseUblInvoice(xml.b2cCnp!).customer.cnp).toBe('1850101400017');
    const anon = parseUblInvoice(xml.b2cAnonymous!);
    expect(anon.customer).toMatchObject({ cnp: '0000000000000', address: { city: 'SECTOR6', county_code: 'RO-B' } });
    const disc = parseUblInvoice(xml.discounts!);
    expect(disc.lines[0]).toMatchObject({ allowance_bani: 35_960, line_net_bani: 323_640 });
    expect(parseUblInvoice(xml.notVatRegistered!).vat_breakdown[0]).toMatchObject({ category: 'O', exemption_reason_code: 'VATEX-EU-O' });
  });

  it('states the delivery date an invoice gives (BT-72): its own, a storno\'s original\'s, none when it gives none', () => {
    const deliveryOf = (name: string) => /<cac:Delivery>([\s\S]*?)<\/cac:Delivery>/.exec(xml[name]!)?.[1] ?? null;
    // An intra-community supply dated by its delivery, not by its issue date; its storno by the same delivery.
    expect(deliveryOf('intraCommunityDelivered')).toContain('<cbc:ActualDeliveryDate>2026-10-28</cbc:ActualDeliveryDate>');
    expect(deliveryOf('intraCommunityDelivered')).toContain('<cbc:CountrySubentity>Bayern</cbc:CountrySubentity>');
    expect(deliveryOf('intraCommunityDeliveredStorno')).toContain('<cbc:ActualDeliveryDate>2026-10-28</cbc:ActualDeliveryDate>');
    // A domestic invoice states the date alone (no deliver-to address); one that gives no date has no Delivery.
    expect(deliveryOf('deliveredDomestic')).toContain('<cbc:ActualDeliveryDate>2026-10-30</cbc:ActualDeliveryDate>');
    expect(deliveryOf('deliveredDomestic')).not.toContain('DeliveryLocation');
    expect(deliveryOf('multiRate')).toBeNull();
  });

  it('states intra-community supplies (K), exports (G) and zero-rated lines (Z) with their own category and reason', () => {
    const ic = parseUblInvoice(xml.intraCommunity!);
    expect(ic.customer).toMatchObject({ vat_id: 'DE129273398', address: { country_code: 'DE', county_code: 'Bayern' } });
    expect(ic.lines.map((l) => [l.vat_category, l.vat_rate_bp])).toEqual([['K', 0], ['K', 0]]);
    // 40 x 87.50 = 3500.00; 100 x 12.30 - 5% = 1168.50
    expect(ic.vat_breakdown).toEqual([
      expect.objectContaining({ category: 'K', vat_rate_bp: 0, taxable_bani: 466_850, vat_bani: 0, exemption_reason_code: 'VATEX-EU-IC' }),
    ]);
    // BR-IC-11/12: the supply is dated by the invoice and delivered to the buyer's address.
    const delivery = /<cac:Delivery>([\s\S]*?)<\/cac:Delivery>/.exec(xml.intraCommunity!)?.[1] ?? '';
    expect(delivery).toContain(`<cbc:ActualDeliveryDate>${issued.intraCommunity!.issue_date}</cbc:ActualDeliveryDate>`);
    expect(delivery).toContain('<cbc:StreetName>Leopoldstraße 10</cbc:StreetName>');
    expect(delivery).toContain('<cbc:CountrySubentity>Bayern</cbc:CountrySubentity>');
    expect(delivery).toContain('<cbc:IdentificationCode>DE</cbc:IdentificationCode>');

    const icStorno = parseUblInvoice(xml.intraCommunityStorno!);
    expect(icStorno.billing_reference).toEqual({ number: ic.invoice_number, issue_date: ic.issue_date });
    expect(icStorno.vat_breakdown).toEqual([expect.objectContaining({ category: 'K', taxable_bani: -466_850, exemption_reason_code: 'VATEX-EU-IC' })]);
    expect(xml.intraCommunityStorno).toContain(`<cbc:ActualDeliveryDate>${ic.issue_date}</cbc:ActualDeliveryDate>`);

    const exp = parseUblInvoice(xml.exportOutsideEu!);
    expect(exp.customer).toMatchObject({ vat_id: 'NO999999999MVA', address: { country_code: 'NO' } });
    expect(exp.lines.map((l) => l.vat_category)).toEqual(['G']);
    expect(exp.vat_breakdown).toEqual([
      expect.objectContaining({ category: 'G', vat_rate_bp: 0, taxable_bani: 630_000, vat_bani: 0, exemption_reason_code: 'VATEX-EU-G' }),
    ]);
    expect(xml.exportOutsideEu).not.toContain('<cac:Delivery>');

    const zero = parseUblInvoice(xml.zeroRated!);
    expect(zero.lines.map((l) => l.vat_category)).toEqual(['Z', 'E', 'S']);
    const byCategory = Object.fromEntries(zero.vat_breakdown.map((b) => [b.category, b]));
    expect(byCategory.Z).toMatchObject({ vat_rate_bp: 0, taxable_bani: 64_000, vat_bani: 0 });
    // BR-Z-10: no exemption reason on a zero-rated breakdown; the exempt line keeps its own.
    expect(byCategory.Z!.exemption_reason ?? null).toBeNull();
    expect(byCategory.Z!.exemption_reason_code ?? null).toBeNull();
    expect(byCategory.E).toMatchObject({ taxable_bani: 30_000, exemption_reason: 'art. 292 alin. (2) lit. a) Cod fiscal' });
    expect(byCategory.S).toMatchObject({ vat_rate_bp: 2100, taxable_bani: 2_000, vat_bani: 420 });
  });

  it.skipIf(Boolean(skipReason))(`passes EN 16931 + CIUS-RO (strict profile), every case in one batch${skipReason ? ` [skipped: ${skipReason}]` : ''}`, () => {
    if (!result) throw new Error('validator did not run');
    if (!result.available) throw new Error(result.reason);
    expect(result.files).toHaveLength(Object.keys(files).length);
    const problems = result.files.filter((f) => f.fatal.length).map((f) => `${f.file}\n${formatFindings(f.fatal)}`);
    expect(problems, problems.join('\n\n')).toEqual([]);
    expect(result.fatalCount).toBe(0);
  });

  it('refuses drafts and proformas, and unknown or foreign invoices', async () => {
    const draft = await invoice(seller, { is_draft: true });
    expect(expectError(await seller.call('GET', `/invoices/${draft.id}/efactura-xml`), 409, 'invoice_is_draft').param).toBe('id');
    const proforma = await invoice(seller, { document_type: 'proforma' });
    expectError(await seller.call('GET', `/invoices/${proforma.id}/efactura-xml`), 409, 'invoice_is_proforma');
    expectError(await seller.call('GET', '/invoices/inv_nope/efactura-xml'), 404, 'resource_missing');
    const other = await firm(env, { link: false });
    const mine = await invoice(seller);
    expectError(await other.call('GET', `/invoices/${mine.id}/efactura-xml`), 404, 'resource_missing');
  });

  it('refuses, before numbering, an intra-community supply that misses something, in both languages', async () => {
    const k = [{ description: 'Piese de schimb', quantity: 1, price: 100, vat_rate: 0, vat_category: 'K' }];
    const before = await invoice(seller);
    const body = (client: Record<string, unknown>) => ({ document_type: 'fiscal', client, currency: 'RON', items: k });
    const error = expectError(await seller.call('POST', '/invoices', body({ ...DE_BUYER, cui: null })), 422, 'efactura_invalid_invoice');
    expect(error.fields).toEqual({
      'buyer.vat_id': "An intra-community supply (VAT category K) needs the client's VAT id with its country prefix, e.g. DE123456789 (BR-IC-02).",
    });
    expect(error.param).toBe('buyer.vat_id');
    const ro = expectError(await seller.call('POST', '/invoices?locale=ro', body({ ...DE_BUYER, cui: null })), 422, 'efactura_invalid_invoice');
    expect(ro.fields).toEqual({
      'buyer.vat_id': 'O livrare intracomunitară (categoria de TVA K) cere codul de TVA al clientului, cu prefixul țării, de ex. DE123456789 (BR-IC-02).',
    });
    const region = expectError(await seller.call('POST', '/invoices', body({ ...DE_BUYER, county: null })), 422, 'efactura_invalid_invoice');
    expect(Object.keys(region.fields as object)).toEqual(['buyer.address.county_code']);
    const home = expectError(await seller.call('POST', '/invoices', body(RO_BUYER)), 422, 'efactura_invalid_invoice');
    expect(Object.keys(home.fields as object)).toEqual(['buyer.address.country_code']);
    // No refusal spent a number: the next invoice takes the one after the last issued.
    const after = await invoice(seller);
    expect(Number(after.number)).toBe(Number(before.number) + 1);
  });

  it('says what is missing when the invoice cannot make a valid e-Factura', async () => {
    const bare = await firm(env, { link: false, profile: false });
    const inv = await invoice(bare, { items: [{ description: 'Serviciu scutit', quantity: 1, price: 10, vat_rate: 0 }] });
    const error = expectError(await bare.call('GET', `/invoices/${inv.id}/efactura-xml`), 422, 'efactura_invalid_invoice');
    expect(error.type).toBe('validation_error');
    expect(Object.keys(error.fields as object).sort()).toEqual([
      'items.0.vat_exemption_reason', 'seller.address.city', 'seller.address.county_code', 'seller.address.street',
    ]);
    const ro = expectError(await bare.call('GET', `/invoices/${inv.id}/efactura-xml?locale=ro`), 422, 'efactura_invalid_invoice');
    expect((ro.fields as Record<string, string>)['seller.address.street']).toBe('Profilul firmei nu are stradă: completați-l cu PUT /company/profile.');
  });
});
