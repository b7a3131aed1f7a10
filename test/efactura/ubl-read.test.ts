import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bucharestSectorCode, parseEInvoiceDocument, vatInRon, type EInvoiceDocument } from '../../server/efactura/document';
import { UblParseError, parseUblInvoice, type UblParseErrorCode } from '../../server/efactura/ubl-read';
import { toUblXml } from '../../server/efactura/ubl-write';
import { ublValidatorsDir } from '../../server/efactura/validator';
import { allCases } from './fixtures/documents';

const fixtures = join(import.meta.dirname, 'fixtures');
const examplesDir = join(ublValidatorsDir(), 'artifacts', 'cius-ro-1.0.9', 'examples');
const examples = existsSync(examplesDir) ? readdirSync(examplesDir).filter((f) => f.endsWith('.xml')).sort() : [];
const noExamples = examples.length === 0 ? `ANAF examples not found in ${examplesDir} (shared validators folder absent)` : '';
if (noExamples) console.warn(`[efactura] skipping: ${noExamples}`);

function parseError(xml: string): UblParseError {
  try {
    parseUblInvoice(xml);
  } catch (e) {
    if (e instanceof UblParseError) return e;
    throw e;
  }
  throw new Error('expected a UblParseError');
}

function expectError(xml: string, code: UblParseErrorCode, message: RegExp): void {
  const e = parseError(xml);
  expect(e.code, e.message).toBe(code);
  expect(e.message).toMatch(message);
}

/** The first text of an element, straight from the XML, as an independent oracle. */
function firstText(xml: string, element: string): string | undefined {
  return new RegExp(`<(?:\\w+:)?${element}(?:\\s[^>]*)?>([^<]*)</(?:\\w+:)?${element}>`).exec(xml)?.[1]?.trim();
}

describe.skipIf(Boolean(noExamples))(`reading ANAF example invoices${noExamples ? ` [skipped: ${noExamples}]` : ''}`, () => {
  it('finds the examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(13);
  });

  for (const name of examples) {
    it(`${name}: parses with consistent totals`, () => {
      const xml = readFileSync(join(examplesDir, name), 'utf8');
      const r = parseUblInvoice(xml);
      expect(r.kind).toBe(xml.includes('<CreditNote') ? 'credit_note' : 'invoice');
      expect(r.invoice_number).toBe(firstText(xml, 'ID'));
      expect(r.currency).toBe(firstText(xml, 'DocumentCurrencyCode'));
      expect(r.issue_date).toBe(firstText(xml, 'IssueDate'));
      expect(r.lines.length).toBe((xml.match(/<cac:(InvoiceLine|CreditNoteLine)>/g) ?? []).length);
      expect(r.supplier.name).not.toBe('');
      // EN 16931 arithmetic holds in every published example (BR-CO-10, -13, -15, -16).
      const a = r.amounts;
      expect(r.lines.reduce((s, l) => s + l.line_net_bani, 0)).toBe(a.line_extension_bani);
      expect(a.tax_exclusive_bani).toBe(a.line_extension_bani - a.allowance_total_bani + a.charge_total_bani);
      expect(a.tax_inclusive_bani).toBe(a.tax_exclusive_bani + a.tax_bani);
      expect(a.payable_bani).toBe(a.tax_inclusive_bani - a.prepaid_bani + a.rounding_bani);
      expect(r.vat_breakdown.reduce((s, b) => s + b.vat_bani, 0)).toBe(a.tax_bani);
    });
  }

  it('reads a foreign-currency example with its RON VAT total (ubl_b2g_example10)', () => {
    const r = parseUblInvoice(readFileSync(join(examplesDir, 'ubl_b2g_example10.xml'), 'utf8'));
    expect(r).toMatchObject({ invoice_number: 'TOSL108', currency: 'DKK', tax_currency: 'RON', due_date: '2013-05-10', payment_iban: 'DK1212341234123412' });
    expect(r.amounts).toMatchObject({ tax_bani: 30_500, tax_ron_bani: 62_862, charge_total_bani: 10_000, payable_bani: 200_500 });
    expect(r.customer).toMatchObject({ vat_id: 'RO9435289', cui: '9435289' });
    expect(r.vat_breakdown.map((b) => b.vat_rate_bp)).toEqual([2500, 1000]);
  });

  it('reads ANAF\'s 2022 Romanian sample with four-decimal prices (eInvoice_ex)', () => {
    const r = parseUblInvoice(readFileSync(join(examplesDir, 'eInvoice_ex.xml'), 'utf8'));
    expect(r.supplier).toMatchObject({ name: 'Seller SRL', vat_id: 'RO1234567890', cui: '1234567890', reg_com: 'J40/12345/1998' });
    expect(r.supplier.address).toMatchObject({ city: 'SECTOR1', county_code: 'RO-B', country_code: 'RO' });
    expect(r.lines[0]).toMatchObject({ price_amount: '7.6453', unit_price_bani: 765, unit_code: 'C62', vat_category: 'S', vat_rate_bp: 1900 });
    expect(r.payment_iban).toBe('RO80RNCB0067054355123456');
  });

  it('reads a credit note (creditNote_ex)', () => {
    const r = parseUblInvoice(readFileSync(join(examplesDir, 'creditNote_ex.xml'), 'utf8'));
    expect(r).toMatchObject({ kind: 'credit_note', invoice_type_code: '381', currency: 'SEK', tax_currency: 'RON' });
    expect(r.amounts).toMatchObject({ tax_bani: 10_000, tax_ron_bani: 24_900, payable_bani: 50_000 });
    expect(r.lines[0]).toMatchObject({ quantity_milli: 1000, unit_code: 'MON', line_net_bani: 40_000 });
  });
});

describe('reading a prefixed supplier invoice (fixtures/supplier-prefixed.xml)', () => {
  const r = parseUblInvoice(readFileSync(join(fixtures, 'supplier-prefixed.xml'), 'utf8'));

  it('matches elements by local name whatever the prefixes', () => {
    expect(r).toMatchObject({ kind: 'invoice', invoice_number: 'FZ 000123', issue_date: '2025-10-01', due_date: '2025-10-31', order_reference: 'CMD-55' });
    expect(r.supplier).toMatchObject({ name: 'Furnizor Vest SA', vat_id: 'RO18798658', cui: '18798658', reg_com: 'J35/555/2005', phone: '0256 000 111', email: 'vanzari@furnizor-vest.ro' });
    expect(r.customer).toMatchObject({ vat_id: 'RO12345674', cui: '12345674', cnp: null });
    expect(r.payment_iban).toBe('RO49AAAA1B31007593840000');
  });

  it('decodes entities and divides the price by its base quantity', () => {
    expect(r.note).toBe('Prima notă & a doua\nLinia\rdoi');
    expect(r.lines).toEqual([
      {
        id: '10', name: 'Ciment <Portland>', description: 'Ambalat în saci de 25 kg', quantity_milli: 100_000, unit_code: 'KGM',
        unit_price_bani: 125, price_amount: '12.5000', base_quantity: '10', line_net_bani: 12_500, allowance_bani: 0, charge_bani: 0,
        vat_category: 'S', vat_rate_bp: 2100,
      },
    ]);
    expect(r.amounts).toMatchObject({ tax_bani: 2625, tax_ron_bani: 2625, tax_inclusive_bani: 15_125, payable_bani: 15_125 });
  });
});

describe('round trip: write then read gives back the numbers', () => {
  for (const [name, input] of Object.entries(allCases)) {
    it(name, () => {
      const doc = parseEInvoiceDocument(input as EInvoiceDocument);
      const r = parseUblInvoice(toUblXml(input as EInvoiceDocument));
      expect(r.kind).toBe(doc.kind);
      expect(r.invoice_number).toBe(doc.number);
      expect(r.invoice_type_code).toBe(String(doc.type_code ?? (doc.kind === 'credit_note' ? 381 : 380)));
      expect(r.issue_date).toBe(doc.issue_date);
      expect(r.due_date).toBe(doc.due_date ?? null);
      expect(r.currency).toBe(doc.currency);
      expect(r.tax_currency).toBe(doc.currency === 'RON' ? null : 'RON');
      expect(r.note).toBe(doc.note ?? null);
      expect(r.order_reference).toBe(doc.order_reference ?? null);
      expect(r.billing_reference).toEqual(doc.billing_reference ? { number: doc.billing_reference.number, issue_date: doc.billing_reference.issue_date ?? null } : null);
      expect(r.payment_iban).toBe(doc.payment?.iban ?? null);

      const allowances = doc.totals.allowance_total_bani ?? 0;
      expect(r.amounts).toEqual({
        line_extension_bani: doc.totals.net_bani,
        allowance_total_bani: allowances,
        charge_total_bani: 0,
        tax_exclusive_bani: doc.totals.net_bani - allowances,
        tax_bani: doc.totals.vat_bani,
        tax_ron_bani: doc.currency === 'RON' ? doc.totals.vat_bani : (doc.totals.vat_ron_bani ?? vatInRon(doc.totals.vat_bani, doc.exchange_rate_to_ron!)),
        tax_inclusive_bani: doc.totals.total_bani,
        prepaid_bani: doc.totals.prepaid_bani ?? 0,
        rounding_bani: 0,
        payable_bani: doc.totals.payable_bani,
      });
      expect(r.vat_breakdown).toEqual(
        doc.vat_breakdown.map((b) => ({
          category: b.category,
          vat_rate_bp: b.vat_rate_bp,
          taxable_bani: b.taxable_bani,
          vat_bani: b.vat_bani,
          exemption_reason: b.exemption_reason ?? null,
          exemption_reason_code: b.exemption_reason_code ?? null,
        })),
      );
      expect(r.lines).toEqual(
        doc.lines.map((l) => ({
          id: l.id,
          name: l.name,
          description: l.description ?? null,
          quantity_milli: l.quantity_milli,
          unit_code: l.unit_code,
          unit_price_bani: l.unit_price_bani,
          price_amount: (l.unit_price_bani / 100).toFixed(2),
          base_quantity: null,
          line_net_bani: l.line_net_bani,
          allowance_bani: l.allowance_bani ?? 0,
          charge_bani: 0,
          vat_category: l.vat_category,
          vat_rate_bp: l.vat_rate_bp,
        })),
      );

      for (const [who, party] of [['supplier', doc.seller], ['buyer', doc.buyer]] as const) {
        const got = who === 'supplier' ? r.supplier : r.customer;
        const a = party.address;
        expect(got).toEqual({
          name: party.name,
          vat_id: party.vat_id ?? null,
          cui: party.cui ?? (party.vat_id?.startsWith('RO') ? party.vat_id.slice(2) : null),
          cnp: party.cnp ?? null,
          // The buyer's trade register number is not part of EN 16931 (UBL-CR-244): not written.
          reg_com: who === 'supplier' ? (party.reg_com ?? null) : null,
          address: {
            street: a.street,
            city: a.county_code === 'RO-B' ? bucharestSectorCode(a.city) : a.city,
            county_code: a.county_code ?? null,
            postal_zone: a.postal_zone ?? null,
            country_code: a.country_code,
          },
          email: party.email ?? null,
          phone: party.phone ?? null,
        });
      }
    });
  }
});

describe('round trip of text', () => {
  it('keeps markup characters, entity look-alikes, diacritics and line breaks exactly', () => {
    const tricky = 'A &amp; B <x> "q" \'a\' &#13; &nbsp; ș ț ă î â\r\nend';
    const doc = { ...allCases.multiRate!, note: tricky, seller: { ...allCases.multiRate!.seller, name: tricky } };
    const r = parseUblInvoice(toUblXml(doc));
    expect(r.note).toBe(tricky);
    expect(r.supplier.name).toBe(tricky);
  });
});

describe('clear errors for what is not a UBL invoice', () => {
  it('refuses empty input and malformed XML', () => {
    expectError('', 'not_xml', /empty input/);
    expectError('factura', 'not_xml', /not well-formed/);
    expectError('<Invoice><cbc:ID>1</Invoice>', 'not_xml', /not well-formed/);
  });

  it('refuses a DOCTYPE (no entity expansion tricks)', () => {
    expectError('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&a;</Invoice>', 'not_xml', /DOCTYPE/);
  });

  it('refuses other XML documents, naming what it found', () => {
    expectError(readFileSync(join(fixtures, 'spv-error-message.xml'), 'utf8'), 'not_ubl', /root element is header in namespace mfp:anaf:dgti:efactura:mesajEroriFactuta:v1/);
    expectError('<html><body>ANAF</body></html>', 'not_ubl', /root element is html without a namespace/);
    expectError('<Invoice xmlns="urn:example:not-ubl"><ID>1</ID></Invoice>', 'not_ubl', /namespace urn:example:not-ubl/);
  });

  it('names the missing field or bad value of a broken UBL invoice', () => {
    const good = toUblXml(allCases.multiRate!);
    expect(() => parseUblInvoice(good)).not.toThrow();
    expectError(good.replace(/<cac:LegalMonetaryTotal>[\s\S]*?<\/cac:LegalMonetaryTotal>/, ''), 'missing_field', /LegalMonetaryTotal/);
    expectError(good.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, ''), 'missing_field', /issue date/);
    expectError(good.replace(/<cac:InvoiceLine>[\s\S]*<\/cac:InvoiceLine>/, ''), 'missing_field', /no InvoiceLine/);
    expectError(good.replace('<cbc:PayableAmount currencyID="RON">', '<cbc:PayableAmount currencyID="RON">1,'), 'bad_value', /PayableAmount is not a decimal number/);
    expectError(good.replace('<cbc:IssueDate>2025-09-15</cbc:IssueDate>', '<cbc:IssueDate>15.09.2025</cbc:IssueDate>'), 'bad_value', /issue_date/);
  });
});
