import {
  UblParseError, at, attrOf, bani, divRound, firstText, kids, partyIdentifiers, referenceDate, parseXmlRootSafely, parsedUblInvoiceSchema, percentToBp, readUbl, required,
  textAt, textOf, toSafe, toScaled, toScaledBig, type DocumentReferences, type ParsedUblInvoice, type XmlRoot,
} from './ubl-read';

/**
 * Reads an EN 16931 invoice in the UN/CEFACT Cross Industry Invoice syntax (D16B), which ANAF accepts
 * besides UBL, into the same fields as a UBL one: a supplier bill is a supplier bill whatever its syntax.
 */

const NS_CII = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
const NS_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const NS_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

/** UNTDID 1001 codes of credit notes (EN 16931 uses 381; 261, 262, 296, 308, 396, 420, 458, 532 are credit notes too). */
const CREDIT_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

/** CII dates: format 102 is YYYYMMDD (the only one EN 16931 allows); tolerate an ISO date written instead. */
function ciiDate(node: unknown, what: string): string | null {
  const t = textAt(node, 'DateTimeString') ?? textOf(node);
  if (!t) return null;
  const compact = t.replace(/-/g, '');
  if (!/^\d{8}$/.test(compact)) throw new UblParseError('bad_value', `${what} is not a date: "${t}"`);
  return `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`;
}

function readParty(p: unknown, role: 'supplier' | 'customer'): ParsedUblInvoice['supplier'] {
  const registrations = kids(p, 'SpecifiedTaxRegistration').map((r) => ({ id: textAt(r, 'ID'), scheme: (attrOf(at(r, 'ID'), 'schemeID') ?? '').toUpperCase() }));
  const vatRaw = registrations.find((r) => r.scheme === 'VA')?.id ?? registrations.find((r) => r.scheme === '' && r.id && /^[A-Z]{2}/i.test(r.id))?.id ?? null;
  const otherTax = registrations.find((r) => r.scheme === 'FC')?.id ?? null;
  const legalId = textAt(p, 'SpecifiedLegalOrganization', 'ID');
  const addr = at(p, 'PostalTradeAddress');
  const country = textAt(addr, 'CountryID')?.toUpperCase() ?? null;
  const { vatId, cui, cnp } = partyIdentifiers({ role, vatRaw, otherTax, legalId, country });
  const regCom = legalId && /^[JFC]\s*\d/i.test(legalId) ? legalId : null;
  const street = [textAt(addr, 'LineOne'), textAt(addr, 'LineTwo'), textAt(addr, 'LineThree')].filter((s): s is string => Boolean(s)).join(', ');
  return {
    name: textAt(p, 'Name') ?? textAt(p, 'SpecifiedLegalOrganization', 'TradingBusinessName') ?? '',
    vat_id: vatId,
    cui,
    cnp,
    reg_com: regCom,
    address: {
      street: street || null,
      city: textAt(addr, 'CityName'),
      county_code: textAt(addr, 'CountrySubDivisionName'),
      postal_zone: textAt(addr, 'PostcodeCode'),
      country_code: country,
    },
    email: textAt(p, 'URIUniversalCommunication', 'URIID') ?? textAt(p, 'DefinedTradeContact', 'EmailURIUniversalCommunication', 'URIID'),
    phone: textAt(p, 'DefinedTradeContact', 'TelephoneUniversalCommunication', 'CompleteNumber'),
  };
}

/**
 * BT-10..18 and BG-3 in CII (EN 16931-3-3): the agreement holds the buyer reference, the orders, the
 * contract, the project and the additional documents, where type 50 is the tender or lot (BT-17) and
 * type 130 the invoiced object (BT-18, its scheme in ReferenceTypeCode); the delivery holds the despatch
 * and receiving advices; the settlement the preceding invoices.
 */
function readCiiReferences(agreement: unknown, delivery: unknown, settlement: unknown): DocumentReferences {
  const additional = kids(agreement, 'AdditionalReferencedDocument').filter((r) => textAt(r, 'IssuerAssignedID') !== null);
  const ofType = (code: string) => additional.find((r) => textAt(r, 'TypeCode') === code);
  const tender = ofType('50');
  const object = ofType('130');
  return {
    buyer_reference: textAt(agreement, 'BuyerReference'),
    order_reference: firstText(kids(agreement, 'BuyerOrderReferencedDocument'), 'IssuerAssignedID'),
    sales_order_reference: firstText(kids(agreement, 'SellerOrderReferencedDocument'), 'IssuerAssignedID'),
    contract_reference: firstText(kids(agreement, 'ContractReferencedDocument'), 'IssuerAssignedID'),
    project_reference: firstText(kids(agreement, 'SpecifiedProcuringProject'), 'ID'),
    tender_reference: tender ? textAt(tender, 'IssuerAssignedID') : null,
    despatch_reference: firstText(kids(delivery, 'DespatchAdviceReferencedDocument'), 'IssuerAssignedID'),
    receipt_reference: firstText(kids(delivery, 'ReceivingAdviceReferencedDocument'), 'IssuerAssignedID'),
    invoiced_object: object ? { id: textAt(object, 'IssuerAssignedID')!, scheme_id: textAt(object, 'ReferenceTypeCode') } : null,
    preceding_invoices: kids(settlement, 'InvoiceReferencedDocument')
      .filter((r) => textAt(r, 'IssuerAssignedID') !== null)
      .map((r) => ({ number: textAt(r, 'IssuerAssignedID')!, issue_date: lenientCiiDate(at(r, 'FormattedIssueDateTime')) })),
  };
}

/** A reference's date: null when absent or unreadable, since an optional reference never refuses a bill. */
function lenientCiiDate(node: unknown): string | null {
  try {
    return referenceDate(ciiDate(node, 'reference date'));
  } catch {
    return null;
  }
}

export function readCii({ root }: XmlRoot): ParsedUblInvoice {
  const doc = at(root, 'ExchangedDocument');
  const tx = at(root, 'SupplyChainTradeTransaction');
  if (doc === undefined || tx === undefined) throw new UblParseError('missing_field', 'missing ExchangedDocument or SupplyChainTradeTransaction');
  const agreement = at(tx, 'ApplicableHeaderTradeAgreement');
  const settlement = at(tx, 'ApplicableHeaderTradeSettlement');
  if (settlement === undefined) throw new UblParseError('missing_field', 'missing ApplicableHeaderTradeSettlement');
  const typeCode = required(doc, 'type code', 'TypeCode');
  const currency = required(settlement, 'document currency', 'InvoiceCurrencyCode').toUpperCase();
  const taxCurrency = textAt(settlement, 'TaxCurrencyCode')?.toUpperCase() ?? null;
  const seller = at(agreement, 'SellerTradeParty');
  const buyer = at(agreement, 'BuyerTradeParty');
  if (seller === undefined) throw new UblParseError('missing_field', 'missing the supplier (SellerTradeParty)');
  if (buyer === undefined) throw new UblParseError('missing_field', 'missing the customer (BuyerTradeParty)');

  const sums = at(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  if (sums === undefined) throw new UblParseError('missing_field', 'missing SpecifiedTradeSettlementHeaderMonetarySummation');
  const taxTotals = kids(sums, 'TaxTotalAmount').map((n) => ({ currency: attrOf(n, 'currencyID')?.toUpperCase() ?? null, text: textOf(n) || null }));
  const docTax = taxTotals.find((t) => t.currency === currency) ?? taxTotals.find((t) => t.currency === null) ?? taxTotals[0];
  const ronTax = currency === 'RON' ? docTax : taxTotals.find((t) => t !== docTax && t.currency === 'RON');

  const vatBreakdown = kids(settlement, 'ApplicableTradeTax').map((t) => ({
    category: textAt(t, 'CategoryCode') ?? '',
    vat_rate_bp: percentToBp(textAt(t, 'RateApplicablePercent')),
    taxable_bani: bani(textAt(t, 'BasisAmount'), 'BasisAmount'),
    vat_bani: bani(textAt(t, 'CalculatedAmount'), 'CalculatedAmount'),
    exemption_reason: textAt(t, 'ExemptionReason'),
    exemption_reason_code: textAt(t, 'ExemptionReasonCode'),
  }));

  const lineNodes = kids(tx, 'IncludedSupplyChainTradeLineItem');
  if (lineNodes.length === 0) throw new UblParseError('missing_field', 'no IncludedSupplyChainTradeLineItem');
  const lines = lineNodes.map((l, i) => {
    const where = `line ${i + 1}`;
    const qtyNode = at(l, 'SpecifiedLineTradeDelivery', 'BilledQuantity');
    const qtyText = textOf(qtyNode);
    if (!qtyText) throw new UblParseError('missing_field', `${where}: missing quantity`);
    const price = at(l, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice');
    const priceText = required(price, `${where} price`, 'ChargeAmount');
    const baseText = textAt(price, 'BasisQuantity');
    const priceMicro = toScaledBig(priceText, 6, `${where} price`);
    const baseMilli = baseText ? toScaledBig(baseText, 3, `${where} base quantity`) : 1000n;
    if (baseMilli === 0n) throw new UblParseError('bad_value', `${where}: base quantity is zero`);
    const lineSettlement = at(l, 'SpecifiedLineTradeSettlement');
    const tax = at(lineSettlement, 'ApplicableTradeTax');
    const charges = kids(lineSettlement, 'SpecifiedTradeAllowanceCharge');
    const sumCharges = (charge: boolean) =>
      charges
        .filter((c) => (textAt(c, 'ChargeIndicator', 'Indicator') ?? '').toLowerCase() === String(charge))
        .reduce((s: number, c) => s + bani(textAt(c, 'ActualAmount'), `${where} allowance/charge`), 0);
    return {
      id: required(l, `${where} id`, 'AssociatedDocumentLineDocument', 'LineID'),
      name: textAt(l, 'SpecifiedTradeProduct', 'Name') ?? '',
      description: textAt(l, 'SpecifiedTradeProduct', 'Description'),
      quantity_milli: toScaled(qtyText, 3, `${where} quantity`),
      unit_code: attrOf(qtyNode, 'unitCode'),
      unit_price_bani: toSafe(divRound(priceMicro * 1000n, baseMilli * 10_000n), `${where} price`),
      price_amount: priceText,
      base_quantity: baseText,
      line_net_bani: bani(required(lineSettlement, `${where} net amount`, 'SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount'), `${where} net amount`),
      allowance_bani: sumCharges(false),
      charge_bani: sumCharges(true),
      vat_category: textAt(tax, 'CategoryCode') ?? '',
      vat_rate_bp: percentToBp(textAt(tax, 'RateApplicablePercent')),
    };
  });

  const references = readCiiReferences(agreement, at(tx, 'ApplicableHeaderTradeDelivery'), settlement);
  const notes = kids(doc, 'IncludedNote').map((n) => textAt(n, 'Content')).filter((s): s is string => Boolean(s));
  const iban = kids(settlement, 'SpecifiedTradeSettlementPaymentMeans').map((m) => textAt(m, 'PayeePartyCreditorFinancialAccount', 'IBANID')).find((x) => x !== null) ?? null;
  const taxBasis = required(sums, 'total without VAT', 'TaxBasisTotalAmount');
  const grand = required(sums, 'total with VAT', 'GrandTotalAmount');
  const result = {
    kind: CREDIT_CODES.has(typeCode) ? ('credit_note' as const) : ('invoice' as const),
    invoice_number: required(doc, 'invoice number', 'ID'),
    invoice_type_code: typeCode,
    issue_date: ciiDate(at(doc, 'IssueDateTime'), 'issue date') ?? '',
    due_date: ciiDate(at(settlement, 'SpecifiedTradePaymentTerms', 'DueDateDateTime'), 'due date'),
    currency,
    tax_currency: taxCurrency,
    supplier: readParty(seller, 'supplier'),
    customer: readParty(buyer, 'customer'),
    amounts: {
      line_extension_bani: bani(required(sums, 'sum of line net amounts', 'LineTotalAmount'), 'LineTotalAmount'),
      allowance_total_bani: bani(textAt(sums, 'AllowanceTotalAmount'), 'AllowanceTotalAmount'),
      charge_total_bani: bani(textAt(sums, 'ChargeTotalAmount'), 'ChargeTotalAmount'),
      tax_exclusive_bani: bani(taxBasis, 'TaxBasisTotalAmount'),
      tax_bani: bani(docTax?.text ?? null, 'TaxTotalAmount'),
      tax_ron_bani: ronTax?.text ? bani(ronTax.text, 'TaxTotalAmount (RON)') : null,
      tax_inclusive_bani: bani(grand, 'GrandTotalAmount'),
      prepaid_bani: bani(textAt(sums, 'TotalPrepaidAmount'), 'TotalPrepaidAmount'),
      rounding_bani: bani(textAt(sums, 'RoundingAmount'), 'RoundingAmount'),
      payable_bani: bani(required(sums, 'amount due', 'DuePayableAmount'), 'DuePayableAmount'),
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

/**
 * Reads a received e-Factura in any syntax ANAF accepts: UBL 2.1 Invoice or CreditNote, or CII.
 * Throws UblParseError (not_xml, too_large, not_ubl, missing_field, bad_value) saying why not.
 */
export function parseEInvoice(xml: string): ParsedUblInvoice {
  const parsed = parseXmlRootSafely(xml);
  if ((parsed.local === 'Invoice' && parsed.ns === NS_INVOICE) || (parsed.local === 'CreditNote' && parsed.ns === NS_CREDIT_NOTE)) return readUbl(parsed);
  if (parsed.local === 'CrossIndustryInvoice' && parsed.ns === NS_CII) return readCii(parsed);
  throw new UblParseError('not_ubl', `root element is ${parsed.local}${parsed.ns ? ` in namespace ${parsed.ns}` : ' without a namespace'}; expected a UBL 2.1 Invoice or CreditNote, or a CII CrossIndustryInvoice`);
}
