import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { isValidCnp } from '../../shared/ro/cnp';
import { CNP_NOT_GIVEN } from './document';

/**
 * Reads a UBL 2.1 Invoice or CreditNote received through the SPV inbox (a supplier's e-Factura)
 * into plain fields with integer bani. Lenient about what EN 16931 leaves optional or what
 * suppliers' software gets slightly wrong (missing percent, CUI in the VAT slot); strict about
 * what a bill cannot be stored without (number, dates, currency, parties, totals, lines).
 */

const NS_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const NS_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

export type UblParseErrorCode = 'not_xml' | 'not_ubl' | 'missing_field' | 'bad_value' | 'too_large';

export class UblParseError extends Error {
  constructor(
    readonly code: UblParseErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'UblParseError';
  }
}

const nullableText = z.string().nullable();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');
const int = z.int();

const partySchema = z.object({
  name: z.string(),
  vat_id: nullableText,
  cui: nullableText,
  /** Natural-person customer: CNP or 13 zeros. */
  cnp: nullableText,
  reg_com: nullableText,
  address: z.object({
    street: nullableText,
    city: nullableText,
    county_code: nullableText,
    postal_zone: nullableText,
    country_code: nullableText,
  }),
  email: nullableText,
  phone: nullableText,
});

/** A preceding invoice (BG-3): its number (BT-25) and, when given, its issue date (BT-26). */
const precedingInvoiceSchema = z.object({ number: z.string(), issue_date: isoDate.nullable() });

/**
 * The document references of EN 16931 (BT-10..18, BG-3), named as in our own document model so a
 * written and a read document compare member by member. An empty element is absent (null), never "".
 */
export const documentReferencesSchema = z.object({
  /** BT-10 */
  buyer_reference: nullableText,
  /** BT-13, the buyer's purchase order. */
  order_reference: nullableText,
  /** BT-14, the seller's sales order. */
  sales_order_reference: nullableText,
  /** BT-12 */
  contract_reference: nullableText,
  /** BT-11 */
  project_reference: nullableText,
  /** BT-17, tender or lot. */
  tender_reference: nullableText,
  /** BT-16, despatch advice (aviz de însoțire). */
  despatch_reference: nullableText,
  /** BT-15, receiving advice (NIR). */
  receipt_reference: nullableText,
  /** BT-18 and its scheme (BT-18-1, UNTDID 1153), e.g. a meter or a subscription. */
  invoiced_object: z.object({ id: z.string(), scheme_id: nullableText }).nullable(),
  /** BG-3, every preceding invoice in document order. */
  preceding_invoices: z.array(precedingInvoiceSchema),
});
export type DocumentReferences = z.infer<typeof documentReferencesSchema>;

export const NO_REFERENCES: DocumentReferences = {
  buyer_reference: null, order_reference: null, sales_order_reference: null, contract_reference: null, project_reference: null,
  tender_reference: null, despatch_reference: null, receipt_reference: null, invoiced_object: null, preceding_invoices: [],
};

export const parsedUblInvoiceSchema = z.object({
  kind: z.enum(['invoice', 'credit_note']),
  invoice_number: z.string().min(1),
  invoice_type_code: z.string().min(1),
  issue_date: isoDate,
  due_date: isoDate.nullable(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  tax_currency: z.string().regex(/^[A-Z]{3}$/).nullable(),
  supplier: partySchema,
  customer: partySchema,
  amounts: z.object({
    line_extension_bani: int,
    allowance_total_bani: int,
    charge_total_bani: int,
    tax_exclusive_bani: int,
    /** VAT total in the document currency (BT-110). */
    tax_bani: int,
    /** VAT total in RON (BT-111, or BT-110 when the invoice is in RON); null if not stated. */
    tax_ron_bani: int.nullable(),
    tax_inclusive_bani: int,
    prepaid_bani: int,
    rounding_bani: int,
    payable_bani: int,
  }),
  vat_breakdown: z.array(
    z.object({
      category: z.string(),
      vat_rate_bp: int,
      taxable_bani: int,
      vat_bani: int,
      exemption_reason: nullableText,
      exemption_reason_code: nullableText,
    }),
  ),
  lines: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: nullableText,
      quantity_milli: int,
      unit_code: nullableText,
      /** Net price per one unit, rounded to the ban (PriceAmount / BaseQuantity). */
      unit_price_bani: int,
      /** PriceAmount exactly as written: suppliers may use more than two decimals. */
      price_amount: z.string(),
      base_quantity: nullableText,
      line_net_bani: int,
      allowance_bani: int,
      charge_bani: int,
      vat_category: z.string(),
      vat_rate_bp: int,
    }),
  ),
  order_reference: nullableText,
  /** The first preceding invoice (what a credit note corrects); all of them are in `references`. */
  billing_reference: precedingInvoiceSchema.nullable(),
  references: documentReferencesSchema,
  note: nullableText,
  payment_iban: nullableText,
});
export type ParsedUblInvoice = z.infer<typeof parsedUblInvoiceSchema>;

// ---- generic access to the parsed tree, by local name (prefixes vary between producers) ----

export type XmlObject = { [key: string]: unknown };

export function localName(name: string): string {
  const i = name.indexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}

export function isObject(v: unknown): v is XmlObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** All children with this local name, in document order per name. */
export function kids(node: unknown, name: string): unknown[] {
  if (!isObject(node)) return [];
  const out: unknown[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (k.startsWith('@_') || k === '#text' || localName(k) !== name) continue;
    if (Array.isArray(v)) out.push(...v);
    else out.push(v);
  }
  return out;
}

/** First node at the end of a path of local names. */
export function at(node: unknown, ...path: string[]): unknown {
  let cur: unknown[] = [node];
  for (const step of path) {
    cur = cur.flatMap((n) => kids(n, step));
    if (cur.length === 0) return undefined;
  }
  return cur[0];
}

export function textOf(node: unknown): string | null {
  if (node === undefined || node === null) return null;
  if (typeof node === 'string') return node.trim();
  if (typeof node === 'number' || typeof node === 'boolean') return String(node);
  if (isObject(node)) {
    const t = node['#text'];
    return t === undefined ? '' : String(t).trim();
  }
  return null;
}

export function textAt(node: unknown, ...path: string[]): string | null {
  const t = textOf(at(node, ...path));
  return t === null || t === '' ? null : t;
}

export function attrOf(node: unknown, name: string): string | null {
  if (!isObject(node)) return null;
  const v = node[`@_${name}`];
  return v === undefined ? null : String(v);
}

export function required(node: unknown, what: string, ...path: string[]): string {
  const t = textAt(node, ...path);
  if (t === null) throw new UblParseError('missing_field', `missing ${what} (${path.join('/')})`);
  return t;
}

// ---- decimals to scaled integers, exact (no floating point) ----

export function toScaledBig(text: string, decimals: number, what: string): bigint {
  const m = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new UblParseError('bad_value', `${what} is not a decimal number: "${text}"`);
  const frac = m[3] ?? '';
  const digits = BigInt((m[2] || '0') + frac.padEnd(decimals, '0').slice(0, decimals));
  // Round half away from zero on the first dropped digit.
  const roundUp = frac.length > decimals && Number(frac[decimals]) >= 5;
  const abs = roundUp ? digits + 1n : digits;
  return m[1] === '-' ? -abs : abs;
}

export function toSafe(v: bigint, what: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new UblParseError('bad_value', `${what} is out of range`);
  return n;
}

export function toScaled(text: string, decimals: number, what: string): number {
  return toSafe(toScaledBig(text, decimals, what), what);
}

export function bani(text: string | null, what: string): number {
  return text === null ? 0 : toScaled(text, 2, what);
}

export function divRound(a: bigint, b: bigint): bigint {
  const neg = a < 0n !== b < 0n;
  const aa = a < 0n ? -a : a;
  const bb = b < 0n ? -b : b;
  const q = (aa * 2n + bb) / (bb * 2n);
  return neg ? -q : q;
}

// ---- parties ----

export function digitsOfCui(s: string): string | null {
  const m = /^(?:RO)?\s*(\d{2,10})$/i.exec(s.replace(/\s+/g, ''));
  return m ? m[1]! : null;
}

/**
 * A party's VAT id, CUI and CNP from the identifiers an e-Factura gives it (UBL and CII alike): the id
 * in the VAT slot, another tax id, the legal registration id, and the address's country.
 */
export function partyIdentifiers(ids: {
  role: 'supplier' | 'customer';
  vatRaw: string | null;
  otherTax: string | null;
  legalId: string | null;
  country: string | null;
}): { vatId: string | null; cui: string | null; cnp: string | null } {
  const { role, vatRaw, otherTax, legalId, country } = ids;
  // A VAT id carries a country prefix; some producers put a bare CUI in the VAT slot instead.
  const vatCompact = vatRaw?.replace(/\s+/g, '').toUpperCase() ?? null;
  const vatId = vatCompact && /^[A-Z]{2}/.test(vatCompact) ? vatCompact : null;
  // Only a buyer can be a natural person (B2C); a 13-digit seller id is something else.
  let cnp: string | null = null;
  if (role === 'customer' && legalId && /^\d{13}$/.test(legalId) && (legalId === CNP_NOT_GIVEN || isValidCnp(legalId))) cnp = legalId;
  let cui: string | null = null;
  if (vatId?.startsWith('RO')) cui = digitsOfCui(vatId);
  // A bare number elsewhere is a CUI only for a Romanian party; abroad it is some other register.
  else if (country === 'RO' || country === null) {
    if (vatCompact && !vatId) cui = digitsOfCui(vatCompact);
    if (!cui && otherTax) cui = digitsOfCui(otherTax);
    if (!cui && legalId && !cnp) cui = digitsOfCui(legalId);
  }
  return { vatId, cui, cnp };
}

function readParty(p: unknown, role: 'supplier' | 'customer'): z.infer<typeof partySchema> {
  const schemes = kids(p, 'PartyTaxScheme');
  // An empty or missing TaxScheme/ID says nothing about VAT: the id itself decides (a country prefix
  // is a VAT id). Only a scheme that names something else (TAX, FC) marks a non-VAT tax id.
  const isVatScheme = (s: unknown) => {
    const scheme = (textAt(s, 'TaxScheme', 'ID') ?? '').toUpperCase();
    if (scheme === 'VAT') return true;
    if (scheme !== '') return false;
    return /^[A-Z]{2}/i.test((textAt(s, 'CompanyID') ?? '').replace(/\s+/g, ''));
  };
  const vatRaw = schemes.filter(isVatScheme).map((s) => textAt(s, 'CompanyID')).find((x) => x !== null) ?? null;
  const otherTax = schemes.filter((s) => !isVatScheme(s)).map((s) => textAt(s, 'CompanyID')).find((x) => x !== null) ?? null;
  const legalId = textAt(p, 'PartyLegalEntity', 'CompanyID');
  const legalForm = textAt(p, 'PartyLegalEntity', 'CompanyLegalForm');

  const addr = at(p, 'PostalAddress');
  const country = textAt(addr, 'Country', 'IdentificationCode')?.toUpperCase() ?? null;
  const { vatId, cui, cnp } = partyIdentifiers({ role, vatRaw, otherTax, legalId, country });

  // Trade register numbers look like J40/1234/2020 (or the newer J2020001234408); F for PFA, C for cooperatives.
  const isRegCom = (s: string | null) => s !== null && /^[JFC]\s*\d/i.test(s);
  const regCom = isRegCom(legalId) ? legalId : isRegCom(legalForm) ? legalForm : null;

  const street = [textAt(addr, 'StreetName'), textAt(addr, 'AdditionalStreetName'), ...kids(addr, 'AddressLine').map((l) => textAt(l, 'Line'))]
    .filter((s): s is string => Boolean(s))
    .join(', ');

  return {
    name: textAt(p, 'PartyLegalEntity', 'RegistrationName') ?? textAt(p, 'PartyName', 'Name') ?? '',
    vat_id: vatId,
    cui,
    cnp,
    reg_com: regCom,
    address: {
      street: street || null,
      city: textAt(addr, 'CityName'),
      county_code: textAt(addr, 'CountrySubentity'),
      postal_zone: textAt(addr, 'PostalZone'),
      country_code: country,
    },
    email: textAt(p, 'Contact', 'ElectronicMail'),
    phone: textAt(p, 'Contact', 'Telephone'),
  };
}

export function percentToBp(t: string | null): number {
  return t === null ? 0 : toScaled(t, 2, 'VAT percent');
}

// ---- document references ----

/** A date of a reference as ISO, or null when absent or not a date: an optional reference never refuses a bill. */
export function referenceDate(t: string | null): string | null {
  return t !== null && /^\d{4}-\d{2}-\d{2}$/.test(t) ? t : null;
}

/**
 * BT-10..18 and BG-3 in UBL (EN 16931-3-2). The two document types differ: an Invoice has
 * ProjectReference for BT-11, a CreditNote has none and carries BT-11 as an AdditionalDocumentReference
 * of type 50 (the EN 16931 schematron allows type 50 only in a CreditNote). BT-17 is the
 * OriginatorDocumentReference in both; BT-18 is the AdditionalDocumentReference of type 130. Any
 * other AdditionalDocumentReference is a supporting document (BG-24), not a reference.
 */
function readUblReferences(root: unknown, isCredit: boolean): DocumentReferences {
  const additional = kids(root, 'AdditionalDocumentReference').filter((r) => textAt(r, 'ID') !== null);
  const ofType = (code: string) => additional.find((r) => textAt(r, 'DocumentTypeCode') === code);
  const object = ofType('130');
  const projectOfCreditNote = isCredit ? ofType('50') : undefined;
  return {
    buyer_reference: textAt(root, 'BuyerReference'),
    order_reference: textAt(root, 'OrderReference', 'ID'),
    sales_order_reference: textAt(root, 'OrderReference', 'SalesOrderID'),
    contract_reference: firstText(kids(root, 'ContractDocumentReference'), 'ID'),
    project_reference: (isCredit ? null : firstText(kids(root, 'ProjectReference'), 'ID')) ?? (projectOfCreditNote ? textAt(projectOfCreditNote, 'ID') : null),
    tender_reference: firstText(kids(root, 'OriginatorDocumentReference'), 'ID'),
    despatch_reference: firstText(kids(root, 'DespatchDocumentReference'), 'ID'),
    receipt_reference: firstText(kids(root, 'ReceiptDocumentReference'), 'ID'),
    invoiced_object: object ? { id: textAt(object, 'ID')!, scheme_id: attrOf(at(object, 'ID'), 'schemeID') } : null,
    preceding_invoices: kids(root, 'BillingReference')
      .flatMap((b) => kids(b, 'InvoiceDocumentReference'))
      .filter((r) => textAt(r, 'ID') !== null)
      .map((r) => ({ number: textAt(r, 'ID')!, issue_date: referenceDate(textAt(r, 'IssueDate')) })),
  };
}

/** The first non-empty text among repeated elements (UBL allows several despatch or receipt references; EN 16931 takes one). */
export function firstText(nodes: unknown[], ...path: string[]): string | null {
  for (const n of nodes) {
    const t = textAt(n, ...path);
    if (t !== null) return t;
  }
  return null;
}

// ---- the document ----

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  removeNSPrefix: false,
  // fast-xml-parser decodes numeric character references (&#13;, &#x219;) only in this mode; the
  // extra HTML names it also knows are harmless, and DOCTYPE entities are refused before parsing.
  htmlEntities: true,
});

/**
 * Parses a supplier e-Factura. Throws UblParseError: not_xml (not well-formed), not_ubl (some
 * other document), missing_field or bad_value (a UBL document we cannot take amounts from).
 */
/** The largest e-Factura we read: well above ANAF's upload limit, and bounded so one file cannot exhaust memory. */
export const MAX_EINVOICE_CHARS = 50 * 1024 * 1024;

export interface XmlRoot {
  root: unknown;
  local: string;
  ns: string | null;
}

/** Parses safely (no DTD, no entities, bounded size) and names the root element with its namespace. */
export function parseXmlRootSafely(xml: string): XmlRoot {
  if (typeof xml !== 'string' || xml.trim() === '') throw new UblParseError('not_xml', 'empty input: expected an e-Factura XML (UBL Invoice, CreditNote or CII)');
  if (xml.length > MAX_EINVOICE_CHARS) throw new UblParseError('too_large', `the XML has ${xml.length} characters; at most ${MAX_EINVOICE_CHARS} are read`);
  const body = xml.replace(/^\uFEFF/, '');
  // e-Factura never needs a DTD; refusing one rules out entity-expansion and external-entity tricks entirely.
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) throw new UblParseError('not_xml', 'XML with a DOCTYPE or an entity declaration is not accepted as e-Factura');
  const wellFormed = XMLValidator.validate(body);
  if (wellFormed !== true) {
    const e = wellFormed.err;
    throw new UblParseError('not_xml', `not well-formed XML: ${e.msg} (line ${e.line}, column ${e.col})`);
  }
  const tree: unknown = parser.parse(body);
  const rootName = isObject(tree) ? Object.keys(tree).find((k) => !k.startsWith('?') && !k.startsWith('#')) : undefined;
  if (!rootName || !isObject(tree)) throw new UblParseError('not_ubl', 'no root element');
  const root = tree[rootName];
  const prefix = rootName.includes(':') ? rootName.slice(0, rootName.indexOf(':')) : null;
  return { root, local: localName(rootName), ns: attrOf(root, prefix ? `xmlns:${prefix}` : 'xmlns') };
}

export function parseUblInvoice(xml: string): ParsedUblInvoice {
  return readUbl(parseXmlRootSafely(xml));
}

export function readUbl({ root, local, ns }: XmlRoot): ParsedUblInvoice {
  const kind = local === 'Invoice' && ns === NS_INVOICE ? 'invoice' : local === 'CreditNote' && ns === NS_CREDIT_NOTE ? 'credit_note' : null;
  if (!kind) {
    throw new UblParseError('not_ubl', `root element is ${local}${ns ? ` in namespace ${ns}` : ' without a namespace'}; expected a UBL 2.1 Invoice or CreditNote`);
  }
  const isCredit = kind === 'credit_note';

  const currency = required(root, 'document currency', 'DocumentCurrencyCode').toUpperCase();
  const taxCurrency = textAt(root, 'TaxCurrencyCode')?.toUpperCase() ?? null;

  const supplier = at(root, 'AccountingSupplierParty', 'Party');
  const customer = at(root, 'AccountingCustomerParty', 'Party');
  if (supplier === undefined) throw new UblParseError('missing_field', 'missing the supplier (AccountingSupplierParty/Party)');
  if (customer === undefined) throw new UblParseError('missing_field', 'missing the customer (AccountingCustomerParty/Party)');

  // TaxTotal appears once in the document currency and, for foreign currency, once in RON.
  const taxTotals = kids(root, 'TaxTotal').map((t) => {
    const amount = at(t, 'TaxAmount');
    return { node: t, currency: attrOf(amount, 'currencyID')?.toUpperCase() ?? null, text: textOf(amount) || null };
  });
  const docTax = taxTotals.find((t) => t.currency === currency) ?? taxTotals.find((t) => t.currency === null) ?? taxTotals[0];
  const ronTax = currency === 'RON' ? docTax : taxTotals.find((t) => t !== docTax && t.currency === 'RON');

  const totals = at(root, 'LegalMonetaryTotal');
  if (totals === undefined) throw new UblParseError('missing_field', 'missing LegalMonetaryTotal');

  const vatBreakdown = taxTotals.flatMap((t) => kids(t.node, 'TaxSubtotal')).map((s) => {
    const cat = at(s, 'TaxCategory');
    return {
      category: textAt(cat, 'ID') ?? '',
      vat_rate_bp: percentToBp(textAt(cat, 'Percent') ?? textAt(s, 'Percent')),
      taxable_bani: bani(textAt(s, 'TaxableAmount'), 'TaxableAmount'),
      vat_bani: bani(textAt(s, 'TaxAmount'), 'TaxSubtotal/TaxAmount'),
      exemption_reason: textAt(cat, 'TaxExemptionReason'),
      exemption_reason_code: textAt(cat, 'TaxExemptionReasonCode'),
    };
  });

  const lineNodes = kids(root, isCredit ? 'CreditNoteLine' : 'InvoiceLine');
  if (lineNodes.length === 0) throw new UblParseError('missing_field', `no ${isCredit ? 'CreditNoteLine' : 'InvoiceLine'}`);
  const lines = lineNodes.map((l, i) => {
    const where = `line ${i + 1}`;
    const qtyNode = at(l, isCredit ? 'CreditedQuantity' : 'InvoicedQuantity');
    const qtyText = textOf(qtyNode);
    if (!qtyText) throw new UblParseError('missing_field', `${where}: missing quantity`);
    const priceText = required(l, `${where} price`, 'Price', 'PriceAmount');
    const baseText = textAt(l, 'Price', 'BaseQuantity');
    const priceMicro = toScaledBig(priceText, 6, `${where} price`);
    const baseMilli = baseText ? toScaledBig(baseText, 3, `${where} base quantity`) : 1000n;
    if (baseMilli === 0n) throw new UblParseError('bad_value', `${where}: base quantity is zero`);
    const taxCat = at(l, 'Item', 'ClassifiedTaxCategory');
    const lineCharges = kids(l, 'AllowanceCharge');
    const sumCharges = (charge: boolean) =>
      lineCharges
        .filter((c) => (textAt(c, 'ChargeIndicator') ?? '').toLowerCase() === String(charge))
        .reduce((s: number, c) => s + bani(textAt(c, 'Amount'), `${where} allowance/charge`), 0);
    return {
      id: required(l, `${where} id`, 'ID'),
      name: textAt(l, 'Item', 'Name') ?? '',
      description: textAt(l, 'Item', 'Description'),
      quantity_milli: toScaled(qtyText, 3, `${where} quantity`),
      unit_code: attrOf(qtyNode, 'unitCode'),
      // price per unit in bani = PriceAmount(micro) * 1000 / BaseQuantity(milli) / 10^4
      unit_price_bani: toSafe(divRound(priceMicro * 1000n, baseMilli * 10_000n), `${where} price`),
      price_amount: priceText,
      base_quantity: baseText,
      line_net_bani: bani(required(l, `${where} net amount`, 'LineExtensionAmount'), `${where} net amount`),
      allowance_bani: sumCharges(false),
      charge_bani: sumCharges(true),
      vat_category: textAt(taxCat, 'ID') ?? '',
      vat_rate_bp: percentToBp(textAt(taxCat, 'Percent')),
    };
  });

  const references = readUblReferences(root, isCredit);
  const notes = kids(root, 'Note').map(textOf).filter((s): s is string => Boolean(s));
  const iban = kids(root, 'PaymentMeans').map((m) => textAt(m, 'PayeeFinancialAccount', 'ID')).find((x) => x !== null) ?? null;

  const result = {
    kind,
    invoice_number: required(root, 'invoice number', 'ID'),
    invoice_type_code: required(root, 'type code', isCredit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'),
    issue_date: required(root, 'issue date', 'IssueDate'),
    due_date: textAt(root, 'DueDate') ?? kids(root, 'PaymentMeans').map((m) => textAt(m, 'PaymentDueDate')).find((x) => x !== null) ?? null,
    currency,
    tax_currency: taxCurrency,
    supplier: readParty(supplier, 'supplier'),
    customer: readParty(customer, 'customer'),
    amounts: {
      line_extension_bani: bani(required(totals, 'sum of line net amounts', 'LineExtensionAmount'), 'LineExtensionAmount'),
      allowance_total_bani: bani(textAt(totals, 'AllowanceTotalAmount'), 'AllowanceTotalAmount'),
      charge_total_bani: bani(textAt(totals, 'ChargeTotalAmount'), 'ChargeTotalAmount'),
      tax_exclusive_bani: bani(required(totals, 'total without VAT', 'TaxExclusiveAmount'), 'TaxExclusiveAmount'),
      tax_bani: bani(docTax?.text ?? null, 'TaxTotal/TaxAmount'),
      tax_ron_bani: ronTax?.text ? bani(ronTax.text, 'TaxTotal/TaxAmount (RON)') : null,
      tax_inclusive_bani: bani(required(totals, 'total with VAT', 'TaxInclusiveAmount'), 'TaxInclusiveAmount'),
      prepaid_bani: bani(textAt(totals, 'PrepaidAmount'), 'PrepaidAmount'),
      rounding_bani: bani(textAt(totals, 'PayableRoundingAmount'), 'PayableRoundingAmount'),
      payable_bani: bani(required(totals, 'amount due', 'PayableAmount'), 'PayableAmount'),
    },
    vat_breakdown: vatBreakdown,
    lines,
    order_reference: references.order_reference,
    billing_reference: references.preceding_invoices[0] ?? null,
    references,
    note: notes.length ? notes.join('\n') : null,
    payment_iban: iban ? iban.replace(/\s+/g, '').toUpperCase() : null,
  };

  const checked = parsedUblInvoiceSchema.safeParse(result);
  if (!checked.success) {
    throw new UblParseError('bad_value', `unexpected values: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return checked.data;
}
