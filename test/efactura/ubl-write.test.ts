import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EInvoiceDocumentError, parseEInvoiceDocument, vatInRon, type EInvoiceDocument } from '../../server/efactura/document';
import { formatAmount, formatPercent, formatQuantity, toUblXml } from '../../server/efactura/ubl-write';
import { formatFindings, ublValidatorAvailability, validateUblFiles, type UblValidationResult } from '../../server/efactura/validator';
import { allCases, b2cCnp, bucharest, escaping, foreignCurrency, multiRate, referencesCreditNote, referencesInvoice, stornoCreditNote, stornoNegativeInvoice } from './fixtures/documents';

const availability = ublValidatorAvailability();
const skipReason = availability.available ? '' : `UBL validators unavailable: ${availability.reason}`;
if (skipReason) console.warn(`[efactura] skipping validator tests: ${skipReason}`);

/** The element names of the direct children of the root, in order (enough to check the XSD sequence). */
function topLevelElements(xml: string): string[] {
  return [...xml.matchAll(/^ {2}<([a-zA-Z:]+)[ >/]/gm)].map((m) => m[1]!);
}

describe('UBL writer: formatting', () => {
  it('formats bani with exactly two decimals, including small negatives', () => {
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(-5)).toBe('-0.05');
    expect(formatAmount(123_456_789)).toBe('1234567.89');
    expect(formatAmount(-100)).toBe('-1.00');
    expect(() => formatAmount(1.5)).toThrow(RangeError);
  });

  it('formats quantities with up to three decimals and percents from basis points', () => {
    expect(formatQuantity(2000)).toBe('2');
    expect(formatQuantity(12_500)).toBe('12.5');
    expect(formatQuantity(1)).toBe('0.001');
    expect(formatQuantity(-3000)).toBe('-3');
    expect(formatPercent(2100)).toBe('21');
    expect(formatPercent(950)).toBe('9.5');
    expect(formatPercent(0)).toBe('0');
  });

  it('converts VAT to RON with the BNR rate, rounding half away from zero', () => {
    expect(vatInRon(10_000, '5.0789')).toBe(50_789);
    expect(vatInRon(1, '4.5')).toBe(5); // 4.5 bani -> 5
    expect(vatInRon(-1, '4.5')).toBe(-5);
    expect(vatInRon(9_007_199_254_740, '4.97631234')).toBe(44_822_636_800_201);
  });
});

describe('UBL writer: structure', () => {
  it('writes an Invoice in XSD order with the CIUS-RO customization id', () => {
    const xml = toUblXml(multiRate);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"')).toBe(true);
    expect(xml).toContain('<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.1</cbc:CustomizationID>');
    expect(topLevelElements(xml)).toEqual([
      'cbc:CustomizationID', 'cbc:ID', 'cbc:IssueDate', 'cbc:DueDate', 'cbc:InvoiceTypeCode', 'cbc:Note', 'cbc:DocumentCurrencyCode',
      'cac:AccountingSupplierParty', 'cac:AccountingCustomerParty', 'cac:PaymentMeans', 'cac:TaxTotal', 'cac:LegalMonetaryTotal',
      'cac:InvoiceLine', 'cac:InvoiceLine', 'cac:InvoiceLine', 'cac:InvoiceLine', 'cac:InvoiceLine',
    ]);
    // Every amount carries its currency and two decimals.
    for (const m of xml.matchAll(/<cbc:(\w*Amount)( [^>]*)?>([^<]*)</g)) {
      expect(m[2], m[0]).toMatch(/currencyID="RON"/);
      expect(m[3], m[0]).toMatch(/^-?\d+\.\d{2}$/);
    }
    expect(xml).toContain('<cbc:InvoicedQuantity unitCode="KGM">12.5</cbc:InvoicedQuantity>');
    expect(xml).toContain('<cbc:Percent>5</cbc:Percent>');
  });

  it('writes a CreditNote with its own element names, PaymentDueDate and BillingReference', () => {
    const xml = toUblXml(stornoCreditNote);
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).not.toContain('<cbc:DueDate>');
    expect(xml).toContain('<cbc:PaymentDueDate>2025-09-30</cbc:PaymentDueDate>');
    expect(xml).toMatch(/<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>TJG-2025-0001<\/cbc:ID>\s*<cbc:IssueDate>2025-09-15<\/cbc:IssueDate>/);
    expect(xml).toContain('<cbc:CreditedQuantity unitCode="H87">2</cbc:CreditedQuantity>');
    expect(xml).not.toMatch(/>-\d/); // positive amounts only
  });

  it('writes every reference in its UBL 2.1 place: an Invoice and a CreditNote order them differently', () => {
    const refs = (xml: string) => topLevelElements(xml).filter((e) => /Reference$/.test(e));
    expect(refs(toUblXml(referencesInvoice))).toEqual([
      'cbc:BuyerReference', 'cac:OrderReference', 'cac:DespatchDocumentReference', 'cac:ReceiptDocumentReference',
      'cac:OriginatorDocumentReference', 'cac:ContractDocumentReference', 'cac:AdditionalDocumentReference', 'cac:ProjectReference',
    ]);
    const credit = toUblXml(referencesCreditNote);
    expect(refs(credit)).toEqual([
      'cbc:BuyerReference', 'cac:OrderReference', 'cac:BillingReference', 'cac:DespatchDocumentReference', 'cac:ReceiptDocumentReference',
      'cac:ContractDocumentReference', 'cac:AdditionalDocumentReference', 'cac:AdditionalDocumentReference', 'cac:OriginatorDocumentReference',
    ]);
    // A CreditNote has no ProjectReference: EN 16931 carries BT-11 as a document of type 50.
    expect(credit).toMatch(/<cbc:ID>Proiect POR 2\.1<\/cbc:ID>\s*<cbc:DocumentTypeCode>50<\/cbc:DocumentTypeCode>/);
    expect(credit).toMatch(/<cbc:ID>Contor 0011223<\/cbc:ID>\s*<cbc:DocumentTypeCode>130<\/cbc:DocumentTypeCode>/);
  });

  it('writes a storno invoice with negative quantities and totals but positive prices', () => {
    const xml = toUblXml(stornoNegativeInvoice);
    expect(xml).toContain('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>');
    expect(xml).toContain('<cbc:InvoicedQuantity unitCode="H87">-2</cbc:InvoicedQuantity>');
    expect(xml).toContain('<cbc:PayableAmount currencyID="RON">-8622.83</cbc:PayableAmount>');
    expect(xml).toContain('<cbc:PriceAmount currencyID="RON">3499.99</cbc:PriceAmount>');
  });

  it('writes the VAT total twice for a foreign currency, the second in RON without subtotals', () => {
    const xml = toUblXml(foreignCurrency);
    expect(xml).toContain('<cbc:TaxCurrencyCode>RON</cbc:TaxCurrencyCode>');
    const totals = [...xml.matchAll(/<cac:TaxTotal>([\s\S]*?)<\/cac:TaxTotal>/g)].map((m) => m[1]!);
    expect(totals).toHaveLength(2);
    expect(totals[0]).toContain('<cbc:TaxAmount currencyID="EUR">346.50</cbc:TaxAmount>');
    // 346.50 EUR x 5.0789 = 1759.83885 RON
    expect(totals[1]!.trim()).toBe('<cbc:TaxAmount currencyID="RON">1759.84</cbc:TaxAmount>');
  });

  it('codes Bucharest cities as sectors and writes the CNP of a person as BT-47', () => {
    const xml = toUblXml(bucharest);
    expect(xml).toContain('<cbc:CityName>SECTOR3</cbc:CityName>');
    expect(xml).toContain('<cbc:CityName>SECTOR6</cbc:CityName>');
    const b2c = toUblXml(b2cCnp);
    expect(b2c).toMatch(/<cac:AccountingCustomerParty>[\s\S]*<cac:PartyLegalEntity>\s*<cbc:RegistrationName>Ion Popescu<\/cbc:RegistrationName>\s*<cbc:CompanyID>1850101400017<\/cbc:CompanyID>/);
    expect(b2c).not.toMatch(/<cac:AccountingCustomerParty>[\s\S]*PartyTaxScheme[\s\S]*<\/cac:AccountingCustomerParty>/);
  });

  it('escapes every text', () => {
    const xml = toUblXml(escaping);
    expect(xml).toContain('<cbc:RegistrationName>Ș&amp;T &lt;Țesături&gt; &quot;Bune&quot; SRL</cbc:RegistrationName>');
    expect(xml).toContain('<cbc:RegistrationName>O&apos;Brien &amp; Fiii SRL</cbc:RegistrationName>');
    expect(xml).toContain('<cbc:Note>Termen &amp; condiții: &lt;vezi contractul&gt; &quot;nr. 5&quot; / art. &apos;12&apos;</cbc:Note>');
    expect(xml).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;|#13;)/);
  });
});

describe('e-Factura document checks', () => {
  const issuesOf = (doc: unknown): string[] => {
    try {
      parseEInvoiceDocument(doc);
      return [];
    } catch (e) {
      if (!(e instanceof EInvoiceDocumentError)) throw e;
      return e.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    }
  };

  it('accepts every fixture', () => {
    for (const [name, doc] of Object.entries(allCases)) expect(issuesOf(doc), name).toEqual([]);
  });

  it('refuses a seller without VAT id on a VAT-charging invoice, naming the field', () => {
    const issues = issuesOf({ ...multiRate, seller: { ...multiRate.seller, vat_id: undefined } });
    expect(issues.some((i) => i.startsWith('seller.vat_id:'))).toBe(true);
    expect(() => toUblXml({ ...multiRate, seller: { ...multiRate.seller, vat_id: undefined } })).toThrow(/seller\.vat_id/);
  });

  it('refuses totals that do not add up and breakdowns that do not match the lines', () => {
    expect(issuesOf({ ...multiRate, totals: { ...multiRate.totals, net_bani: multiRate.totals.net_bani + 1 } }).join('\n')).toMatch(/BR-CO-10/);
    const bd = multiRate.vat_breakdown.map((b, i) => (i === 0 ? { ...b, vat_bani: b.vat_bani + 500 } : b));
    expect(issuesOf({ ...multiRate, vat_breakdown: bd }).join('\n')).toMatch(/BR-CO-17[\s\S]*BR-CO-14|BR-CO-14[\s\S]*BR-CO-17/);
    const line = { ...multiRate.lines[0]!, line_net_bani: multiRate.lines[0]!.line_net_bani + 3 };
    expect(issuesOf({ ...multiRate, lines: [line, ...multiRate.lines.slice(1)] }).join('\n')).toMatch(/lines\.0\.line_net_bani/);
  });

  it('enforces CIUS-RO specifics: Bucharest sector, county code, CNP, exemption reasons', () => {
    const addr = { ...bucharest.buyer.address, city: 'București' };
    expect(issuesOf({ ...bucharest, buyer: { ...bucharest.buyer, address: addr } }).join('\n')).toMatch(/buyer\.address\.city: .*BR-RO-100/);
    expect(issuesOf({ ...multiRate, buyer: { ...multiRate.buyer, address: { ...multiRate.buyer.address, county_code: 'CJ' } } }).join('\n')).toMatch(/BR-RO-110/);
    expect(issuesOf({ ...b2cCnp, buyer: { ...b2cCnp.buyer, cnp: '1850101400018' } }).join('\n')).toMatch(/buyer\.cnp/);
    const z = allCases.zeroRated!;
    const noReason = z.vat_breakdown.map((b) => (b.category === 'E' ? { ...b, exemption_reason: undefined, exemption_reason_code: undefined } : b));
    expect(issuesOf({ ...z, vat_breakdown: noReason }).join('\n')).toMatch(/BR-E-10/);
    const zWithReason = z.vat_breakdown.map((b) => (b.category === 'Z' ? { ...b, exemption_reason: 'Cota zero' } : b));
    expect(issuesOf({ ...z, vat_breakdown: zWithReason }).join('\n')).toMatch(/BR-Z-10/);
    expect(issuesOf({ ...foreignCurrency, exchange_rate_to_ron: undefined }).join('\n')).toMatch(/exchange_rate_to_ron/);
    expect(issuesOf({ ...multiRate, number: 'FACT-A' }).join('\n')).toMatch(/BR-RO-010/);
    expect(issuesOf({ ...multiRate, note: 'bell \u0007' }).join('\n')).toMatch(/control characters/);
    const ic = allCases.intraCommunity!;
    expect(issuesOf({ ...ic, delivery: { ...ic.delivery, address: { ...ic.delivery!.address!, county_code: undefined } } }).join('\n')).toMatch(/BR-RO-211/);
    expect(issuesOf({ ...ic, delivery: undefined }).join('\n')).toMatch(/BR-IC-11[\s\S]*BR-IC-12/);
    const o = allCases.notVatRegistered!;
    expect(issuesOf({ ...o, seller: { ...o.seller, vat_id: 'RO12345674' } }).join('\n')).toMatch(/seller\.vat_id: .*BR-O-02/);
    const ae = allCases.reverseCharge!;
    expect(issuesOf({ ...ae, buyer: { ...ae.buyer, vat_id: undefined } }).join('\n')).toMatch(/buyer\.vat_id: .*BR-AE-02/);
    const neg = stornoNegativeInvoice.lines[0]!;
    expect(issuesOf({ ...stornoNegativeInvoice, lines: [{ ...neg, quantity_milli: -neg.quantity_milli, unit_price_bani: -neg.unit_price_bani }, ...stornoNegativeInvoice.lines.slice(1)] }).join('\n')).toMatch(/BR-27/);
    expect(issuesOf({ ...multiRate, lines: [multiRate.lines[0]!, { ...multiRate.lines[1]!, id: multiRate.lines[0]!.id }, ...multiRate.lines.slice(2)] }).join('\n')).toMatch(/used twice/);
  });
});

describe.skipIf(Boolean(skipReason))(`UBL writer against the EN 16931 + CIUS-RO validators (strict profile)${skipReason ? ` [skipped: ${skipReason}]` : ''}`, () => {
  let dir: string;
  let files: Record<string, string>;
  let result: UblValidationResult;
  const brokenName = 'broken-no-seller-vat';
  const misorderedName = 'broken-element-order';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'efactura-'));
    files = {};
    for (const [name, doc] of Object.entries(allCases)) {
      files[name] = join(dir, `${name}.xml`);
      writeFileSync(files[name], toUblXml(doc as EInvoiceDocument));
    }
    // The schema refuses this document, so break valid XML instead: drop the seller's VAT id.
    const good = toUblXml(multiRate);
    const broken = good.replace(/(<cac:AccountingSupplierParty>[\s\S]*?)<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>\s*/, '$1');
    expect(broken).not.toBe(good);
    files[brokenName] = join(dir, `${brokenName}.xml`);
    writeFileSync(files[brokenName], broken);
    // And one with two elements out of XSD sequence: DueDate after InvoiceTypeCode.
    const misordered = good.replace(/(\s*<cbc:DueDate>[^<]*<\/cbc:DueDate>)(\s*<cbc:InvoiceTypeCode>[^<]*<\/cbc:InvoiceTypeCode>)/, '$2$1');
    expect(misordered).not.toBe(good);
    files[misorderedName] = join(dir, `${misorderedName}.xml`);
    writeFileSync(files[misorderedName], misordered);
    // One batch for everything: the JVM start and rule compilation dominate the cost.
    result = await validateUblFiles(Object.values(files), 'strict');
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ran the validator', () => {
    expect(result.available).toBe(true);
  });

  for (const name of Object.keys(allCases)) {
    it(`${name}: zero fatal findings`, () => {
      if (!result.available) throw new Error(result.reason);
      const report = result.files.find((f) => f.file === files[name]);
      expect(report, `no report for ${name}`).toBeDefined();
      expect(report!.fatal, `${name}:\n${formatFindings(report!.fatal)}\n${toUblXml(allCases[name]!)}`).toEqual([]);
    });
  }

  it('reports fatal rows for a document without the seller VAT id (the test can fail)', () => {
    if (!result.available) throw new Error(result.reason);
    const report = result.files.find((f) => f.file === files[brokenName])!;
    const ids = report.fatal.map((f) => f.id);
    expect(ids).toContain('BR-S-02');
    expect(ids).toContain('BR-RO-065');
  });

  it('reports an XSD error for elements out of sequence', () => {
    if (!result.available) throw new Error(result.reason);
    const report = result.files.find((f) => f.file === files[misorderedName])!;
    expect(report.fatal.map((f) => `${f.id} [${f.layers.join(',')}]`)).toContain('XSD [xsd]');
  });
});
