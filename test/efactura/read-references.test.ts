import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEInvoice } from '../../server/efactura/cii-read';
import { parseEInvoiceDocument, type EInvoiceDocument } from '../../server/efactura/document';
import { NO_REFERENCES, type DocumentReferences } from '../../server/efactura/ubl-read';
import { toUblXml } from '../../server/efactura/ubl-write';
import { decodeXmlBytes } from '../../server/efactura/xml-bytes';
import { allCases, referencesCreditNote, referencesInvoice } from './fixtures/documents';

/**
 * The SPV reader takes the document references (BT-10..18, BG-3) from both syntaxes: what our own writer
 * writes comes back equal, the public corpus's references come out where EN 16931 puts them, and an empty
 * element is absent (null), never an empty string.
 */

const CORPUS = join(import.meta.dirname, 'corpus');
const read = (file: string) => parseEInvoice(decodeXmlBytes(readFileSync(join(CORPUS, file))));

/** What the reader must give back for a document our writer wrote. */
function expectedReferences(input: EInvoiceDocument): DocumentReferences {
  const d = parseEInvoiceDocument(input);
  return {
    buyer_reference: d.buyer_reference ?? null,
    order_reference: d.order_reference ?? null,
    // Our documents carry no sales order (BT-14): the seller is us.
    sales_order_reference: null,
    contract_reference: d.contract_reference ?? null,
    project_reference: d.project_reference ?? null,
    tender_reference: d.tender_reference ?? null,
    despatch_reference: d.despatch_reference ?? null,
    receipt_reference: d.receipt_reference ?? null,
    // We write BT-18 without a scheme.
    invoiced_object: d.invoiced_object ? { id: d.invoiced_object, scheme_id: null } : null,
    preceding_invoices: d.billing_reference ? [{ number: d.billing_reference.number, issue_date: d.billing_reference.issue_date ?? null }] : [],
  };
}

describe('round trip: every reference our writer writes is read back equal', () => {
  it.each(Object.keys(allCases))('%s', (name) => {
    const input = allCases[name]!;
    const r = parseEInvoice(toUblXml(input));
    expect(r.references).toEqual(expectedReferences(input));
  });

  it('the two fixtures with every reference carry each one, so the round trip compares real values', () => {
    for (const input of [referencesInvoice, referencesCreditNote]) {
      const refs = parseEInvoice(toUblXml(input)).references;
      for (const k of ['buyer_reference', 'order_reference', 'contract_reference', 'project_reference', 'tender_reference', 'despatch_reference', 'receipt_reference'] as const) {
        expect(refs[k], k).toMatch(/\S/);
      }
      expect(refs.invoiced_object?.id).toBe('Contor 0011223');
    }
    // The CreditNote carries the project as an AdditionalDocumentReference of type 50 and it is read as the project.
    const creditXml = toUblXml(referencesCreditNote);
    expect(creditXml).toMatch(/<cbc:ID>Proiect POR 2\.1<\/cbc:ID>\s*<cbc:DocumentTypeCode>50<\/cbc:DocumentTypeCode>/);
    expect(creditXml).not.toContain('ProjectReference');
    const credit = parseEInvoice(creditXml);
    expect(credit.references.project_reference).toBe('Proiect POR 2.1');
    expect(credit.references.preceding_invoices).toEqual([{ number: 'TJG-2025-0001', issue_date: '2025-09-15' }]);
    expect(credit.billing_reference).toEqual({ number: 'TJG-2025-0001', issue_date: '2025-09-15' });
  });
});

describe('references of the public corpus, where EN 16931 puts them', () => {
  it('UBL Invoice with every reference (CEN ubl-tc434-example5)', () => {
    const r = read('cen-ubl/ubl-tc434-example5.xml');
    expect(r.references).toEqual({
      buyer_reference: 'qwerty', order_reference: 'PO4711', sales_order_reference: '123', contract_reference: '2013-05',
      project_reference: 'Project345', tender_reference: 'Lot567', despatch_reference: '5433', receipt_reference: '3544',
      // OBJ999 has no DocumentTypeCode 130: a supporting document (BG-24), not the invoiced object.
      invoiced_object: null,
      preceding_invoices: [{ number: 'TOSL109', issue_date: '2013-03-10' }],
    });
    expect(r.order_reference).toBe('PO4711');
  });

  it('CII with every reference (CEN CII_example5)', () => {
    const r = read('cen-cii/CII_example5.xml');
    expect(r.references).toEqual({
      buyer_reference: 'qwerty', order_reference: 'PO4711', sales_order_reference: '123', contract_reference: '2013-05',
      project_reference: 'Project345',
      // Lot567 and OBJ999 are written here without TypeCode 50 / 130, so by the CII binding they are
      // supporting documents; the line-level type-130 objects are BT-128, not BT-18.
      tender_reference: null, invoiced_object: null,
      despatch_reference: '5433', receipt_reference: '3544',
      preceding_invoices: [{ number: 'TOSL109', issue_date: '2013-03-10' }],
    });
  });

  it('the same invoice in both syntaxes gives the same references, except where the CII example leaves out the type codes', () => {
    const ubl = read('cen-ubl/ubl-tc434-example5.xml').references;
    const cii = read('cen-cii/CII_example5.xml').references;
    expect({ ...cii, tender_reference: ubl.tender_reference }).toEqual(ubl);
  });

  it('ANAF CIUS-RO B2G example with the invoiced object and its scheme (ubl_b2g_example6)', () => {
    const r = read('anaf/ubl_b2g_example6.xml');
    expect(r.references).toEqual({
      buyer_reference: null, order_reference: 'Order-0001', sales_order_reference: 'sales-order-0001', contract_reference: 'Contract321',
      project_reference: 'Project-0001', tender_reference: 'OriginatorDocument-01-0001', despatch_reference: 'DespatchDocument-01-0001',
      receipt_reference: 'ReceiptDocument-01-0001', invoiced_object: { id: 'repository-0001', scheme_id: 'AGU' },
      preceding_invoices: [{ number: 'ABC120-220-1', issue_date: '2021-11-12' }],
    });
  });

  it('ANAF example without the object of type 130 (ubl_b2g_example0): Doc2 is a supporting document', () => {
    const r = read('anaf/ubl_b2g_example0.xml');
    expect(r.references.invoiced_object).toBeNull();
    expect(r.references.contract_reference).toBe('Contract321');
    expect(r.references.project_reference).toBe('Project-0001');
  });

  it('ANAF CreditNote with a buyer reference (creditNote_ex)', () => {
    const r = read('anaf/creditNote_ex.xml');
    expect(r.kind).toBe('credit_note');
    expect(r.references).toEqual({ ...NO_REFERENCES, buyer_reference: 'ACE22' });
  });

  it('CII with an empty order id: the order is absent, not ""; the preceding invoice is kept (CII-BR-CO-10-RoundingIssue)', () => {
    const r = read('cen-cii/CII-BR-CO-10-RoundingIssue.xml');
    expect(r.references).toEqual({ ...NO_REFERENCES, buyer_reference: 'XXX-XXXXX-XX', preceding_invoices: [{ number: '0', issue_date: null }] });
    expect(r.order_reference).toBeNull();
  });

  it('CII buyer reference and contract (XRechnung-O), line-level documents not taken for the header', () => {
    const r = read('cen-cii/XRechnung-O.xml');
    expect(r.references).toEqual({ ...NO_REFERENCES, buyer_reference: 'XX', contract_reference: '50028642477' });
  });

  it('a file without references gives none (CEN guide-example1)', () => {
    expect(read('cen-ubl/ubl-tc434-example1.xml').references).toEqual(NO_REFERENCES);
    expect(read('cen-cii/CII_example1.xml').references).toEqual(NO_REFERENCES);
  });
});

describe('empty or unusual reference elements', () => {
  it('UBL: every reference element present but empty reads as absent, and the bill is still read', () => {
    let xml = toUblXml(referencesInvoice);
    // Empty every ID and the buyer reference, keeping the elements.
    xml = xml.replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, '<cbc:BuyerReference/>');
    for (const el of ['OrderReference', 'DespatchDocumentReference', 'ReceiptDocumentReference', 'OriginatorDocumentReference', 'ContractDocumentReference', 'AdditionalDocumentReference', 'ProjectReference']) {
      xml = xml.replace(new RegExp(`(<cac:${el}>\\s*)<cbc:ID>[^<]*</cbc:ID>`), '$1<cbc:ID></cbc:ID>');
    }
    xml = xml.replace('<cbc:DocumentCurrencyCode>', '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID> </cbc:ID></cac:InvoiceDocumentReference></cac:BillingReference><cbc:DocumentCurrencyCode>');
    const r = parseEInvoice(xml);
    expect(r.references).toEqual(NO_REFERENCES);
    expect(r.order_reference).toBeNull();
    expect(r.billing_reference).toBeNull();
    expect(r.invoice_number).toBe('TJG-2025-0012');
  });

  it('UBL: a preceding invoice with an unreadable date keeps its number; several preceding invoices are all kept', () => {
    const xml = toUblXml(referencesCreditNote).replace(
      /<cac:BillingReference>[\s\S]*?<\/cac:BillingReference>/,
      '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F-1</cbc:ID><cbc:IssueDate>15.09.2025</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>'
        + '<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>F-2</cbc:ID><cbc:IssueDate>2025-09-16</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>',
    );
    expect(parseEInvoice(xml).references.preceding_invoices).toEqual([{ number: 'F-1', issue_date: null }, { number: 'F-2', issue_date: '2025-09-16' }]);
  });

  it('UBL Invoice: an AdditionalDocumentReference of type 50 is not the project (EN 16931 allows that only in a CreditNote)', () => {
    const xml = toUblXml(referencesInvoice).replace(/<cac:ProjectReference>[\s\S]*?<\/cac:ProjectReference>/, '');
    const withType50 = xml.replace('<cac:AccountingSupplierParty>', '<cac:AdditionalDocumentReference><cbc:ID>P-9</cbc:ID><cbc:DocumentTypeCode>50</cbc:DocumentTypeCode></cac:AdditionalDocumentReference><cac:AccountingSupplierParty>');
    expect(parseEInvoice(withType50).references.project_reference).toBeNull();
  });

  it('CII: empty reference elements read as absent; type 50 is the tender, type 130 the object with its scheme', () => {
    const base = decodeXmlBytes(readFileSync(join(CORPUS, 'cen-cii/CII_example5.xml')));
    const emptied = base
      .replace('<ram:BuyerReference>qwerty</ram:BuyerReference>', '<ram:BuyerReference></ram:BuyerReference>')
      .replace(/<ram:IssuerAssignedID>(123|PO4711|2013-05|5433|3544|TOSL109)<\/ram:IssuerAssignedID>/g, '<ram:IssuerAssignedID/>')
      .replace('<ram:ID>Project345</ram:ID>', '<ram:ID> </ram:ID>');
    expect(parseEInvoice(emptied).references).toEqual(NO_REFERENCES);

    const typed = base
      .replace('<ram:IssuerAssignedID>Lot567</ram:IssuerAssignedID>', '<ram:IssuerAssignedID>Lot567</ram:IssuerAssignedID><ram:TypeCode>50</ram:TypeCode>')
      .replace('<ram:IssuerAssignedID>OBJ999</ram:IssuerAssignedID>', '<ram:IssuerAssignedID>OBJ999</ram:IssuerAssignedID><ram:TypeCode>130</ram:TypeCode><ram:ReferenceTypeCode>ABZ</ram:ReferenceTypeCode>');
    const r = parseEInvoice(typed).references;
    expect(r.tender_reference).toBe('Lot567');
    expect(r.invoiced_object).toEqual({ id: 'OBJ999', scheme_id: 'ABZ' });
    expect(r.project_reference).toBe('Project345');
  });
});
