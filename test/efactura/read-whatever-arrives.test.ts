import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { readAnswerZip } from '../../server/anaf/efactura-client';
import { parseEInvoice } from '../../server/efactura/cii-read';
import { UblParseError } from '../../server/efactura/ubl-read';
import { toUblXml } from '../../server/efactura/ubl-write';
import { decodeXmlBytes } from '../../server/efactura/xml-bytes';
import { allCases } from './fixtures/documents';

/**
 * The SPV reader on what suppliers really send, and on what an attacker might: empty optional
 * elements read for what they say and no more, CII credit notes, other encodings, DTDs and entities,
 * very large files, forged archives. Clear errors or correct results; nothing crashes.
 */
const ubl = toUblXml({ ...allCases.multiRate!, note: "Notă" });

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof UblParseError) return e.code;
    throw e;
  }
  return 'read';
}

describe('reading whatever arrives', () => {
  it('does not take an empty TaxScheme for "the supplier pays no VAT"', () => {
    const vatId = /<cac:AccountingSupplierParty>[\s\S]*?<cac:PartyTaxScheme>\s*<cbc:CompanyID>([^<]+)<\/cbc:CompanyID>/.exec(ubl)?.[1];
    expect(vatId).toMatch(/^RO\d+$/);
    const emptied = ubl.replace(/(<cac:AccountingSupplierParty>[\s\S]*?<cac:PartyTaxScheme>\s*<cbc:CompanyID>[^<]+<\/cbc:CompanyID>\s*)<cac:TaxScheme>\s*<cbc:ID>VAT<\/cbc:ID>\s*<\/cac:TaxScheme>/, '$1<cac:TaxScheme/>');
    expect(emptied).not.toBe(ubl);
    expect(parseEInvoice(emptied).supplier.vat_id).toBe(vatId);
    const noScheme = ubl.replace(/(<cac:AccountingSupplierParty>[\s\S]*?<cac:PartyTaxScheme>\s*<cbc:CompanyID>[^<]+<\/cbc:CompanyID>\s*)<cac:TaxScheme>\s*<cbc:ID>VAT<\/cbc:ID>\s*<\/cac:TaxScheme>/, '$1<cac:TaxScheme><cbc:ID/></cac:TaxScheme>');
    expect(parseEInvoice(noScheme).supplier.vat_id).toBe(vatId);
  });

  it('reads a CII credit note, its prices as written', () => {
    const cii = readFileSync(join(__dirname, 'corpus', 'cen-cii', 'CII_example1.xml'), 'utf8').replace('<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>381</ram:TypeCode>')
      .replace('<ram:ChargeAmount>9.95</ram:ChargeAmount>', '<ram:ChargeAmount>9.9512</ram:ChargeAmount>');
    const parsed = parseEInvoice(cii);
    expect(parsed.kind).toBe('credit_note');
    expect(parsed.lines[0]).toMatchObject({ price_amount: '9.9512', unit_price_bani: 995 });
  });

  it('refuses a DOCTYPE and external entities before parsing anything', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]>${ubl.replace(/^<\?xml[^>]*>/, '').replace('<cbc:Note>', '<cbc:Note>&x;')}`;
    expect(codeOf(() => parseEInvoice(xxe))).toBe('not_xml');
    const bomb = `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Invoice>&lol2;</Invoice>`;
    expect(codeOf(() => parseEInvoice(bomb))).toBe('not_xml');
  });

  it('reads a 30 MB file, and refuses a larger than bounded one with a clear reason', () => {
    // Padding in an XML comment: 30 MB of text the parser has to walk over.
    const padded = ubl.replace('<cbc:CustomizationID>', `<!--${'x'.repeat(30 * 1024 * 1024)}--><cbc:CustomizationID>`);
    expect(padded.length).toBeGreaterThan(30 * 1024 * 1024);
    expect(parseEInvoice(padded).lines.length).toBeGreaterThan(0);
    const huge = ubl.replace('<cbc:CustomizationID>', `<!--${'x'.repeat(51 * 1024 * 1024)}--><cbc:CustomizationID>`);
    expect(codeOf(() => parseEInvoice(huge))).toBe('too_large');
  }, 60_000);

  it('reads windows-1250 as windows-1250', () => {
    const text = ubl.replace('encoding="UTF-8"', 'encoding="windows-1250"').replace('<cbc:Name>Laptop</cbc:Name>', '<cbc:Name>Şuruburi ţâţână ăîş</cbc:Name>');
    const bytes = iconv.encode(text, 'windows-1250');
    // Comma-below Ș/ș do not exist in windows-1250: a producer writes the cedilla forms, which it has.
    expect(bytes.includes(0xaa)).toBe(true);
    const decoded = decodeXmlBytes(bytes);
    expect(parseEInvoice(decoded).lines[0]!.name).toBe('Şuruburi ţâţână ăîş');
    // Read as UTF-8 the same bytes would be mojibake: the declaration is what makes it right.
    expect(new TextDecoder().decode(bytes)).not.toContain('Şuruburi');
    expect(() => decodeXmlBytes(Buffer.from('<?xml version="1.0" encoding="x-klingon"?><a/>'))).toThrow(/x-klingon/);
  });

  it('refuses an archive whose entry climbs out of its folder, and reads a plain one', () => {
    expect(readAnswerZip(zipSync({ '5001.xml': strToU8(ubl) })).kind).toBe('invoice');
    expect(() => readAnswerZip(zipSync({ '../../etc/5001.xml': strToU8(ubl) }))).toThrow(/outside the archive's folder/);
    expect(() => readAnswerZip(zipSync({ 'a/../../5001.xml': strToU8(ubl) }))).toThrow(/outside/);
  });
});
