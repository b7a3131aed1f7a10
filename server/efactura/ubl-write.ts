import {
  CIUS_RO_CUSTOMIZATION_ID,
  CREDIT_NOTE_TYPE_CODE,
  bucharestSectorCode,
  parseEInvoiceDocument,
  vatInRon,
  type EInvoiceAddress,
  type EInvoiceDocument,
  type ParsedEInvoiceDocument,
} from './document';

/**
 * Writes an EInvoiceDocument as a UBL 2.1 Invoice or CreditNote for RO e-Factura (CIUS-RO).
 *
 * The UBL XSD is a strict xsd:sequence, so every element is emitted in schema order; the order
 * differs between Invoice and CreditNote in places (DueDate exists only on Invoice; AllowanceCharge
 * and TaxTotal swap places inside a line). A small hand-rolled serializer keeps that order explicit
 * and escapes every text and attribute.
 */

const NS_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const NS_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
const NS_CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const NS_CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

/** BT-32 scheme for a seller that has a CUI but no VAT registration (TaxScheme/ID must not be VAT). */
const NON_VAT_TAX_SCHEME = 'TAX';

type Node = { name: string; attrs?: Record<string, string>; text?: string; children?: Node[] };
type Child = Node | null | undefined | false;

function el(name: string, content: string | Child[], attrs?: Record<string, string>): Node {
  return typeof content === 'string'
    ? { name, text: content, attrs }
    : { name, children: content.filter((c): c is Node => Boolean(c)), attrs };
}

/** Optional simple element: nothing when the value is absent. */
function opt(name: string, value: string | undefined | null, attrs?: Record<string, string>): Node | null {
  return value === undefined || value === null || value === '' ? null : el(name, value, attrs);
}

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    // A literal CR would be normalised away by any parser; keep it as a character reference.
    .replace(/\r/g, '&#13;');
}

function serialize(node: Node, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  const attrs = Object.entries(node.attrs ?? {}).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('');
  if (node.children) {
    if (node.children.length === 0) {
      out.push(`${pad}<${node.name}${attrs}/>`);
      return;
    }
    out.push(`${pad}<${node.name}${attrs}>`);
    for (const c of node.children) serialize(c, depth + 1, out);
    out.push(`${pad}</${node.name}>`);
  } else {
    out.push(`${pad}<${node.name}${attrs}>${escapeXml(node.text ?? '')}</${node.name}>`);
  }
}

/** Integer bani to a decimal with exactly two places: -5 -> "-0.05". */
export function formatAmount(bani: number): string {
  if (!Number.isSafeInteger(bani)) throw new RangeError(`amount is not an integer number of bani: ${bani}`);
  const sign = bani < 0 ? '-' : '';
  const abs = Math.abs(bani);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Thousandths to the shortest decimal with up to three places: 2500 -> "2.5", -1000 -> "-1". */
export function formatQuantity(milli: number): string {
  if (!Number.isSafeInteger(milli)) throw new RangeError(`quantity is not an integer number of thousandths: ${milli}`);
  const sign = milli < 0 ? '-' : '';
  const abs = Math.abs(milli);
  const frac = String(abs % 1000).padStart(3, '0').replace(/0+$/, '');
  return `${sign}${Math.trunc(abs / 1000)}${frac ? `.${frac}` : ''}`;
}

/** Basis points to a percentage: 2100 -> "21", 950 -> "9.5". */
export function formatPercent(bp: number): string {
  const frac = String(bp % 100).padStart(2, '0').replace(/0+$/, '');
  return `${Math.trunc(bp / 100)}${frac ? `.${frac}` : ''}`;
}

function cityName(a: EInvoiceAddress): string {
  if (a.country_code === 'RO' && a.county_code === 'RO-B') {
    // The schema has already refused a Bucharest address that names no sector.
    return bucharestSectorCode(a.city) ?? a.city;
  }
  return a.city;
}

function address(name: string, a: EInvoiceAddress): Node {
  return el(name, [
    el('cbc:StreetName', a.street),
    el('cbc:CityName', cityName(a)),
    opt('cbc:PostalZone', a.postal_zone),
    opt('cbc:CountrySubentity', a.county_code),
    el('cac:Country', [el('cbc:IdentificationCode', a.country_code)]),
  ]);
}

function taxScheme(): Node {
  return el('cac:TaxScheme', [el('cbc:ID', 'VAT')]);
}

type Party = ParsedEInvoiceDocument['seller'];

/**
 * Where each identifier goes (BT numbers from EN 16931):
 * - VAT id -> PartyTaxScheme/CompanyID with scheme VAT (BT-31 seller, BT-48 buyer).
 * - seller without VAT id -> its CUI as tax registration id, scheme TAX (BT-32), which BR-RO-065 needs.
 * - PartyLegalEntity/CompanyID (BT-30 / BT-47): the seller's trade register number (or CUI when it
 *   has none); for the buyer the CNP of a person, else the CUI, else the trade register number,
 *   because BT-47 is what identifies a buyer without a VAT id (BR-RO-120). UBL-CR-244 forbids more.
 */
function party(p: Party, role: 'seller' | 'buyer'): Node {
  const taxSchemes: Node[] = [];
  if (p.vat_id) {
    taxSchemes.push(el('cac:PartyTaxScheme', [el('cbc:CompanyID', p.vat_id), taxScheme()]));
  } else if (role === 'seller' && p.cui) {
    taxSchemes.push(el('cac:PartyTaxScheme', [el('cbc:CompanyID', p.cui), el('cac:TaxScheme', [el('cbc:ID', NON_VAT_TAX_SCHEME)])]));
  }
  const legalId = role === 'seller' ? (p.reg_com ?? p.cui) : (p.cnp ?? p.cui ?? p.reg_com);
  const contact = p.phone || p.email ? el('cac:Contact', [opt('cbc:Telephone', p.phone), opt('cbc:ElectronicMail', p.email)]) : null;
  return el('cac:Party', [
    address('cac:PostalAddress', p.address),
    ...taxSchemes,
    el('cac:PartyLegalEntity', [el('cbc:RegistrationName', p.name), opt('cbc:CompanyID', legalId)]),
    contact,
  ]);
}

function taxCategory(name: string, category: string, rateBp: number, reasonCode?: string, reason?: string): Node {
  return el(name, [
    el('cbc:ID', category),
    // BR-O-05: "not subject to VAT" carries no rate at all.
    category === 'O' ? null : el('cbc:Percent', formatPercent(rateBp)),
    opt('cbc:TaxExemptionReasonCode', reasonCode),
    opt('cbc:TaxExemptionReason', reason),
    taxScheme(),
  ]);
}

/** Generates the UBL XML. Throws EInvoiceDocumentError (with every issue) for an invalid document. */
export function toUblXml(input: EInvoiceDocument): string {
  return writeUbl(parseEInvoiceDocument(input));
}

/**
 * Writes a document WITHOUT the rule check: only for tests that show the official validators refuse
 * what our rules refuse (a refused document must never reach ANAF, so production code never calls it).
 */
export function toUblXmlUnchecked(d: EInvoiceDocument): string {
  return writeUbl(d as ParsedEInvoiceDocument);
}

function writeUbl(d: ParsedEInvoiceDocument): string {
  const isCredit = d.kind === 'credit_note';
  const cur = { currencyID: d.currency };
  const amount = (name: string, v: number, attrs = cur) => el(name, formatAmount(v), attrs);
  const typeCode = String(d.type_code ?? (isCredit ? CREDIT_NOTE_TYPE_CODE : 380));
  const foreign = d.currency !== 'RON';

  const paymentMeans = d.payment
    ? el('cac:PaymentMeans', [
        el('cbc:PaymentMeansCode', d.payment.means_code),
        // A CreditNote has no DueDate of its own: EN 16931 maps BT-9 here.
        isCredit ? opt('cbc:PaymentDueDate', d.due_date) : null,
        d.payment.iban
          ? el('cac:PayeeFinancialAccount', [el('cbc:ID', d.payment.iban), opt('cbc:Name', d.payment.account_name)])
          : null,
      ])
    : null;

  const allowances = (d.allowances ?? []).map((a) =>
    el('cac:AllowanceCharge', [
      el('cbc:ChargeIndicator', a.charge ? 'true' : 'false'),
      opt('cbc:AllowanceChargeReasonCode', a.reason_code),
      opt('cbc:AllowanceChargeReason', a.reason),
      amount('cbc:Amount', a.amount_bani),
      taxCategory('cac:TaxCategory', a.vat_category, a.vat_rate_bp),
    ]),
  );

  const taxTotals = [
    el('cac:TaxTotal', [
      amount('cbc:TaxAmount', d.totals.vat_bani),
      ...d.vat_breakdown.map((b) =>
        el('cac:TaxSubtotal', [
          amount('cbc:TaxableAmount', b.taxable_bani),
          amount('cbc:TaxAmount', b.vat_bani),
          taxCategory('cac:TaxCategory', b.category, b.vat_rate_bp, b.exemption_reason_code, b.exemption_reason),
        ]),
      ),
    ]),
    // BT-111: the VAT once more in RON, as a TaxTotal without subtotals (CIUS-RO BR-RO-030, BR-53).
    foreign
      ? el('cac:TaxTotal', [amount('cbc:TaxAmount', d.totals.vat_ron_bani ?? vatInRon(d.totals.vat_bani, d.exchange_rate_to_ron!), { currencyID: 'RON' })])
      : null,
  ];

  const allowanceTotal = d.totals.allowance_total_bani ?? 0;
  const chargeTotal = d.totals.charge_total_bani ?? 0;
  const monetaryTotal = el('cac:LegalMonetaryTotal', [
    amount('cbc:LineExtensionAmount', d.totals.net_bani),
    amount('cbc:TaxExclusiveAmount', d.totals.net_bani - allowanceTotal + chargeTotal),
    amount('cbc:TaxInclusiveAmount', d.totals.total_bani),
    d.allowances?.some((a) => !a.charge) ? amount('cbc:AllowanceTotalAmount', allowanceTotal) : null,
    d.allowances?.some((a) => a.charge) ? amount('cbc:ChargeTotalAmount', chargeTotal) : null,
    d.totals.prepaid_bani ? amount('cbc:PrepaidAmount', d.totals.prepaid_bani) : null,
    amount('cbc:PayableAmount', d.totals.payable_bani),
  ]);

  const lines = d.lines.map((l) => {
    const lineAllowance = l.allowance_bani
      ? el('cac:AllowanceCharge', [
          el('cbc:ChargeIndicator', 'false'),
          // BR-42: a line allowance needs a reason (text or code).
          el('cbc:AllowanceChargeReason', l.allowance_reason ?? 'Reducere'),
          amount('cbc:Amount', l.allowance_bani),
        ])
      : null;
    return el(isCredit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', [
      el('cbc:ID', l.id),
      el(isCredit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', formatQuantity(l.quantity_milli), { unitCode: l.unit_code }),
      amount('cbc:LineExtensionAmount', l.line_net_bani),
      lineAllowance,
      el('cac:Item', [
        opt('cbc:Description', l.description),
        el('cbc:Name', l.name),
        taxCategory('cac:ClassifiedTaxCategory', l.vat_category, l.vat_rate_bp),
      ]),
      // A VAT-included line's net price carries the decimals that make quantity x price its net (BR-DEC: amounts only).
      // A price with more decimals than the ban carries them (BR-DEC limits amounts, not BT-146); a price
      // for more than one unit says for how many (BT-149/BT-150, the line's own unit).
      el('cac:Price', [
        l.unit_price_decimal ? el('cbc:PriceAmount', l.unit_price_decimal, cur) : amount('cbc:PriceAmount', l.unit_price_bani),
        l.base_quantity_milli !== undefined && l.base_quantity_milli !== 1000
          ? el('cbc:BaseQuantity', formatQuantity(l.base_quantity_milli), { unitCode: l.unit_code })
          : null,
      ]),
    ]);
  });

  const deliveryNode = d.delivery && (d.delivery.date || d.delivery.address)
    ? el('cac:Delivery', [
        opt('cbc:ActualDeliveryDate', d.delivery.date),
        d.delivery.address ? el('cac:DeliveryLocation', [address('cac:Address', d.delivery.address)]) : null,
      ])
    : null;

  const root = el(isCredit ? 'CreditNote' : 'Invoice', [
    el('cbc:CustomizationID', CIUS_RO_CUSTOMIZATION_ID),
    el('cbc:ID', d.number),
    el('cbc:IssueDate', d.issue_date),
    isCredit ? null : opt('cbc:DueDate', d.due_date),
    el(isCredit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', typeCode),
    opt('cbc:Note', d.note),
    el('cbc:DocumentCurrencyCode', d.currency),
    foreign ? el('cbc:TaxCurrencyCode', 'RON') : null,
    opt('cbc:BuyerReference', d.buyer_reference),
    d.tax_point_code ? el('cac:InvoicePeriod', [el('cbc:DescriptionCode', d.tax_point_code)]) : null,
    d.order_reference ? el('cac:OrderReference', [el('cbc:ID', d.order_reference)]) : null,
    d.billing_reference
      ? el('cac:BillingReference', [
          el('cac:InvoiceDocumentReference', [el('cbc:ID', d.billing_reference.number), opt('cbc:IssueDate', d.billing_reference.issue_date)]),
        ])
      : null,
    // UBL 2.1 sequences differ: Invoice has Originator before Contract and a ProjectReference after the
    // additional documents; CreditNote has Contract, Additional, then Originator, and no ProjectReference
    // (EN 16931 puts BT-11 there as an AdditionalDocumentReference of type 50).
    d.despatch_reference ? el('cac:DespatchDocumentReference', [el('cbc:ID', d.despatch_reference)]) : null,
    d.receipt_reference ? el('cac:ReceiptDocumentReference', [el('cbc:ID', d.receipt_reference)]) : null,
    !isCredit && d.tender_reference ? el('cac:OriginatorDocumentReference', [el('cbc:ID', d.tender_reference)]) : null,
    d.contract_reference ? el('cac:ContractDocumentReference', [el('cbc:ID', d.contract_reference)]) : null,
    d.invoiced_object ? el('cac:AdditionalDocumentReference', [el('cbc:ID', d.invoiced_object), el('cbc:DocumentTypeCode', '130')]) : null,
    isCredit && d.project_reference ? el('cac:AdditionalDocumentReference', [el('cbc:ID', d.project_reference), el('cbc:DocumentTypeCode', '50')]) : null,
    isCredit && d.tender_reference ? el('cac:OriginatorDocumentReference', [el('cbc:ID', d.tender_reference)]) : null,
    !isCredit && d.project_reference ? el('cac:ProjectReference', [el('cbc:ID', d.project_reference)]) : null,
    el('cac:AccountingSupplierParty', [party(d.seller, 'seller')]),
    el('cac:AccountingCustomerParty', [party(d.buyer, 'buyer')]),
    deliveryNode,
    paymentMeans,
    d.payment_terms ? el('cac:PaymentTerms', [el('cbc:Note', d.payment_terms)]) : null,
    // Same place in both sequences for what we emit: AllowanceCharge, then TaxTotal.
    ...allowances,
    ...taxTotals,
    monetaryTotal,
    ...lines,
  ], {
    xmlns: isCredit ? NS_CREDIT_NOTE : NS_INVOICE,
    'xmlns:cac': NS_CAC,
    'xmlns:cbc': NS_CBC,
  });

  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  serialize(root, 0, out);
  return `${out.join('\n')}\n`;
}
