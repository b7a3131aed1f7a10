import { isWellFormedXml, parseXmlRoot } from '../../../server/anaf/xml';

/**
 * The few checks the simulator makes on an uploaded document, worded as ANAF words them.
 * Two stages, like ANAF: `structural` fails the upload itself (ExecutionStatus=1, the SAX/XSD
 * message), `businessRules` fail later in processing (stare=nok, errors in the ZIP). Rule texts
 * are copied from the CEN EN 16931 and CIUS-RO 1.0.9 schematron in shared/validators/ubl.
 */
export const NS_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const NS_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

export interface UblSummary {
  root: 'Invoice' | 'CreditNote';
  id: string;
  issueDate: string;
  sellerName: string;
  buyerName: string;
  sellerCif: string | undefined;
  buyerCif: string | undefined;
  payable: string;
  currency: string;
  customizationId: string;
  sellerTaxIds: string[];
}

type Obj = Record<string, unknown>;

function child(o: unknown, ...path: string[]): unknown {
  let cur: unknown = o;
  for (const key of path) {
    if (Array.isArray(cur)) cur = cur[0];
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[key];
  }
  return Array.isArray(cur) ? cur[0] : cur;
}

function text(o: unknown, ...path: string[]): string {
  const v = child(o, ...path);
  if (typeof v === 'string' || typeof v === 'number') return String(v).trim();
  if (v && typeof v === 'object' && '#text' in (v as Obj)) return String((v as Obj)['#text']).trim();
  return '';
}

function all(o: unknown, ...path: string[]): unknown[] {
  const parentPath = path.slice(0, -1);
  const last = path.at(-1)!;
  const parent = parentPath.length ? child(o, ...parentPath) : o;
  if (!parent || typeof parent !== 'object') return [];
  const v = (parent as Obj)[last];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

const digits = (vat: string) => /^(RO)?\s*(\d{2,10})$/i.exec(vat.trim())?.[2];

export type StructuralResult = { ok: true; summary: UblSummary } | { ok: false; message: string };

/** What ANAF's upload answers synchronously: not XML, or not the schema the `standard` names. */
export function structuralCheck(xml: string, expected: 'Invoice' | 'CreditNote'): StructuralResult {
  const wf = isWellFormedXml(xml);
  if (wf !== true) {
    return {
      ok: false,
      message: `Fisierul transmis nu este valid. org.xml.sax.SAXParseException; lineNumber: ${wf.line}; columnNumber: ${wf.column}; ${wf.message} `,
    };
  }
  const root = parseXmlRoot(xml);
  const ns = expected === 'Invoice' ? NS_INVOICE : NS_CREDIT_NOTE;
  if (!root || root.name !== expected || root.namespace !== ns) {
    const name = root ? root.name : '';
    return {
      ok: false,
      message: `Fisierul transmis nu este valid. org.xml.sax.SAXParseException; lineNumber: 1; columnNumber: 1; cvc-elt.1.a: Cannot find the declaration of element '${name}'. `,
    };
  }
  const el = root.element;
  const supplier = child(el, 'AccountingSupplierParty', 'Party');
  const customer = child(el, 'AccountingCustomerParty', 'Party');
  const taxIds = (party: unknown) => all(party, 'PartyTaxScheme').map((p) => text(p, 'CompanyID')).filter(Boolean);
  const legalId = (party: unknown) => text(party, 'PartyLegalEntity', 'CompanyID');
  const sellerTaxIds = taxIds(supplier);
  const cifOf = (party: unknown) => [...taxIds(party), legalId(party)].map(digits).find((d) => d !== undefined);
  const payable = child(el, 'LegalMonetaryTotal', 'PayableAmount');
  return {
    ok: true,
    summary: {
      root: expected,
      id: text(el, 'ID'),
      issueDate: text(el, 'IssueDate'),
      customizationId: text(el, 'CustomizationID'),
      sellerName: text(supplier, 'PartyLegalEntity', 'RegistrationName') || text(supplier, 'PartyName', 'Name'),
      buyerName: text(customer, 'PartyLegalEntity', 'RegistrationName') || text(customer, 'PartyName', 'Name'),
      sellerCif: cifOf(supplier),
      buyerCif: cifOf(customer),
      payable: text(el, 'LegalMonetaryTotal', 'PayableAmount'),
      currency: payable && typeof payable === 'object' ? String((payable as Obj)['@_currencyID'] ?? '') : text(el, 'DocumentCurrencyCode'),
      sellerTaxIds,
    },
  };
}

/** The business rules ANAF reports after processing (a tiny subset of EN 16931 + CIUS-RO). */
export function businessRules(s: UblSummary): string[] {
  const errors: string[] = [];
  if (!s.customizationId) errors.push('[BR-01]-An Invoice shall have a Specification identifier (BT-24).   ');
  if (!s.id) errors.push('[BR-02]-An Invoice shall have an Invoice number (BT-1).');
  if (!s.issueDate) errors.push('[BR-03]-An Invoice shall have an Invoice issue date (BT-2).');
  if (!s.sellerName) errors.push('[BR-06]-An Invoice shall contain the Seller name (BT-27).');
  if (s.id && !/[0-9]/.test(s.id)) {
    errors.push(
      '[BR-RO-010]-Numarul facturii (BT-1) trebuie sa includa cel putin un caracter numeric (0—9).\n\t\t\t\t\t\t\t#Invoice number (BT-1) must include at least one numeric character (0-9).',
    );
  }
  if (s.sellerTaxIds.length === 0) {
    errors.push(
      '[BR-RO-065]-Identificatorul de înregistrare fiscala a Vanzatorului (BT-32) si/sau Identificatorul de TVA al Vanzatorului (BT-31) si/sau Identificatorul de TVA al reprezentantului fiscal al Vanzatorului (BT-63) trebuie sa fie înscris.\n\t\t\t\t\t\t\t#The Seller tax registration identifier (BT-32) and/or the Seller VAT identifier (BT-31) and/or the Seller tax representative VAT identifier (BT-63) shall be present.',
    );
  }
  return errors;
}
