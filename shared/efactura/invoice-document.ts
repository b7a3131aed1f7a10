import { foreignVatId, isOtherEuMemberState } from '../eu';
import { lineNetUnitPrice, lineVatCategory, priceE4Text, type LineVatCategory } from '../invoice-math';
import { roundHalfAwayFromZero } from '../money';
import type { InvoiceReferenceKind, SellerSnapshot } from '../schemas/invoice';
import { CNP_NOT_GIVEN, bucharestSectorCode, eInvoiceDocumentSchema, type EInvoiceDocument, type EInvoiceLine, type VatCategory } from './document';
import { countyCode } from './ro-counties';
import { romanianIssue } from './messages';

/**
 * An invoice as e-Factura sees it, from the facts both the service and the desktop keep: the seller
 * and buyer as copied at issue, the lines as shared/invoice-math priced them. The service maps its
 * rows here, the desktop its local rows, so both refuse the same invoice before it takes a number,
 * with the same words, and the XML of a numbered invoice is the one this built.
 *
 * A storno is a 380 invoice with negative quantities and positive prices, referencing the original
 * (BT-25/BT-26): that is what ANAF's guidance asks for a "factură de stornare".
 */

/** The buyer as copied at issue (zPartySnapshot); `postal_code` is absent in older snapshots. */
export interface BuyerFacts {
  name: string;
  cui: string | null;
  vat_payer: boolean;
  reg_com: string | null;
  cnp: string | null;
  address: string | null;
  city: string | null;
  county: string | null;
  country: string;
  postal_code?: string | null | undefined;
}

export interface LineFacts {
  position: number;
  description: string;
  quantity_milli: number;
  unit_code: string | null;
  price_bani: number;
  /** The price with up to 4 decimals, in ten-thousandths of a leu (absent: `price_bani` x 100). */
  price_e4?: number | undefined;
  /** The quantity the price is for, in thousandths (absent: 1000, per unit). */
  base_quantity_milli?: number | undefined;
  discount_bp: number;
  discount_bani: number;
  net_bani: number;
  vat_bani: number;
  vat_rate_bp: number;
  vat_category: LineVatCategory | null;
  vat_exemption_reason: string | null;
  /** A shelf (VAT-included) price: BT-146 then states the line's own net unit price, with its decimals. */
  price_includes_vat?: boolean;
  /** The line sells a service, not goods (frozen at issue; absent: goods): it decides the legal ground of a K or G line. */
  is_service?: boolean | undefined;
}

/** A document-level allowance or charge: `amount_bani` with the invoice's sign, its VAT as priced. */
export interface AdjustmentFacts {
  charge: boolean;
  amount_bani: number;
  vat_bani: number;
  vat_rate_bp: number;
  vat_category: LineVatCategory | null;
  reason: string | null;
  reason_code: string | null;
}

export interface InvoiceFacts {
  /** The printed number; before numbering a placeholder that has a digit (BR-RO-010). */
  number: string;
  storno: boolean;
  issue_date: string;
  due_date: string | null;
  delivery_date: string | null;
  currency: string;
  exchange_rate: number | null;
  reverse_charge: boolean;
  payment_method: string | null;
  observations: string | null;
  buyer: BuyerFacts | null;
  buyer_name: string | null;
  seller: SellerSnapshot;
  lines: LineFacts[];
  /** Order (BT-13), contract (BT-12), buyer (BT-10), despatch (BT-16), receipt (BT-15), project (BT-11), tender (BT-17), invoiced object (BT-18) references (absent: none). */
  references?: Partial<Record<InvoiceReferenceKind, string | null | undefined>> | null | undefined;
  /** Document-level allowances and charges as shared/invoice-math priced them (absent: none). */
  adjustments?: AdjustmentFacts[] | undefined;
  /** The invoice a storno reverses. */
  original: { full_number: string | null; issue_date: string; delivery_date: string | null } | null;
}

export interface UploadTarget {
  standard: 'UBL';
  /** Buyer is a natural person: ANAF's `uploadb2c`. */
  b2c: boolean;
  /** Buyer outside Romania (`extern=DA`). */
  extern: boolean;
}

/** Field path -> "English|Română", the form both the service's 422 `fields` and the desktop's errors take. */
export type Problems = Record<string, string>;

export interface MappedDocument {
  document: EInvoiceDocument;
  upload: UploadTarget;
  /** Empty when the document passes every rule: then, and only then, may it take a number. */
  problems: Problems;
}

/** The placeholder number a document is checked with before it has one: any digit satisfies BR-RO-010. */
export const NUMBER_NOT_YET_ASSIGNED = 'NEEMIS-0000000001';

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
const blankToUndefined = (s: string | null | undefined) => (s && s.trim() ? s.trim() : undefined);

/** "VATEX-EU-132-1C Scutit cf. art. 292" -> code and text; a plain text stays text. */
function splitExemption(reason: string): { exemption_reason?: string; exemption_reason_code?: string } {
  const m = /^\s*(VATEX-[A-Z0-9-]+)\s*[:\-–]?\s*(.*)$/i.exec(reason);
  if (!m) return { exemption_reason: clip(reason.trim(), 100) };
  const text = m[2]!.trim();
  return { exemption_reason_code: m[1]!.toUpperCase(), ...(text ? { exemption_reason: clip(text, 100) } : {}) };
}

/** The rate as the decimal text BR-RO-030 wants: 4.9763 -> "4.9763". */
function rateText(rate: number): string {
  return rate.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * BT-120/BT-121 of the categories whose reason is the law itself, not the line's text (the CEF VATEX
 * code is what BR-IC-10 / BR-G-10 / BR-AE-10 / BR-O-10 look for). Z has none (BR-Z-10); E and S are absent.
 */
const FIXED_EXEMPTIONS: Partial<Record<VatCategory, { exemption_reason: string; exemption_reason_code: string }>> = {
  AE: { exemption_reason: 'Taxare inversă cf. art. 331 Cod fiscal', exemption_reason_code: 'VATEX-EU-AE' },
  O: { exemption_reason: 'Neplătitor de TVA', exemption_reason_code: 'VATEX-EU-O' },
  K: { exemption_reason: 'Livrare intracomunitară scutită cf. art. 294 alin. (2) Cod fiscal', exemption_reason_code: 'VATEX-EU-IC' },
  G: { exemption_reason: 'Export scutit cf. art. 294 alin. (1) Cod fiscal', exemption_reason_code: 'VATEX-EU-G' },
};

/**
 * A service is not a supply of goods: its place of supply to a taxable person is where the customer is
 * established (art. 278 alin. (2) Cod fiscal), so it is outside Romanian VAT rather than exempt under art. 294.
 * To another EU state the customer pays the VAT by reverse charge and the invoice says "taxare inversă"
 * (art. 319 alin. (20) lit. m); outside the EU it is simply not taxable here. The category stays K or G
 * (UNCL 5305 K covers "goods and services"), so the VATEX code is the category's; only BT-120 changes, and one
 * breakdown holding both goods and services names both grounds (one breakdown per category: BR-IC-08, BR-G-08).
 * See docs/api-decisions.md, "Intra-community services and services abroad".
 */
const SERVICE_EXEMPTIONS: Partial<Record<VatCategory, { services: string; both: string }>> = {
  K: {
    services: 'Taxare inversă: servicii cu locul prestării în alt stat membru, art. 278 alin. (2) Cod fiscal',
    both: 'Scutit cf. art. 294 alin. (2) (bunuri); taxare inversă cf. art. 278 alin. (2) (servicii) Cod fiscal',
  },
  G: {
    services: 'Servicii cu locul prestării în afara României, neimpozabile cf. art. 278 alin. (2) Cod fiscal',
    both: 'Scutit cf. art. 294 alin. (1) (bunuri); neimpozabil cf. art. 278 alin. (2) (servicii) Cod fiscal',
  },
};

/** BT-120/BT-121 of a K, G, AE or O breakdown, from what its lines sell. */
function fixedExemption(category: VatCategory, goods: boolean, services: boolean): { exemption_reason?: string; exemption_reason_code?: string } {
  const fixed = FIXED_EXEMPTIONS[category];
  const service = SERVICE_EXEMPTIONS[category];
  if (!fixed) return {};
  if (!service || !services) return fixed;
  return { ...fixed, exemption_reason: goods ? service.both : service.services };
}

const MEANS: Record<string, string> = { receipt: '10', fiscal_receipt: '10', card: '48', bank_order: '42', other: '1' };

/** BT-48 as EN 16931 accepts it (BR-CO-09 and the CIUS-RO length): a country prefix and 2 to 13 characters. */
const VAT_ID_FORMAT = /^[A-Z]{2}[0-9A-Z+*.]{2,13}$/;

/** The mention art. 319 (20) o) asks of a seller on "TVA la încasare", printed and written in the XML note. */
export const VAT_ON_COLLECTION_MENTION = 'TVA la încasare';

/** A 6-digit Romanian postal code named in free text ("Str. X nr. 1, cod 400114"), when the client record has none. */
function postalCodeIn(...texts: (string | null | undefined)[]): string | undefined {
  for (const t of texts) {
    const m = t ? /(?:^|\D)(\d{6})(?!\d)/.exec(t) : null;
    if (m) return m[1];
  }
  return undefined;
}

/** The sector of a Bucharest address, wherever the user wrote it: city, county ("Sector 4") or street line. */
function bucharestSector(...texts: (string | undefined | null)[]): string | null {
  for (const t of texts) {
    const s = t ? bucharestSectorCode(t) : null;
    if (s) return s;
  }
  return null;
}

function buyerParty(
  snapshot: BuyerFacts | null,
  name: string | null,
  seller: SellerSnapshot,
  problems: Problems,
): { party: EInvoiceDocument['buyer']; b2c: boolean; extern: boolean } {
  if (!snapshot) {
    problems.buyer = 'The invoice has no client; e-Factura needs the buyer.|Factura nu are client; e-Factura cere cumpărătorul.';
    return { party: { name: name ?? '-', cnp: CNP_NOT_GIVEN, address: { street: '-', city: 'SECTOR1', country_code: 'RO', county_code: 'RO-B' } }, b2c: false, extern: false };
  }
  const country = (snapshot.country || 'RO').trim().toUpperCase();
  const isRo = country === 'RO';
  const id = snapshot.cui?.replace(/\s+/g, '').toUpperCase() ?? '';
  const party: EInvoiceDocument['buyer'] = { name: snapshot.name.trim() || (name ?? '-'), address: { street: '', city: '', country_code: country } };
  let b2c = false;
  if (isRo) {
    const digits = id.replace(/^RO/, '');
    if (digits) {
      party.cui = digits;
      if (snapshot.vat_payer) party.vat_id = `RO${digits}`;
    } else {
      // A natural person: CNP, or ANAF's thirteen zeros when they did not give one (OUG 138/2024).
      party.cnp = blankToUndefined(snapshot.cnp) ?? CNP_NOT_GIVEN;
      b2c = true;
    }
    if (snapshot.reg_com) party.reg_com = snapshot.reg_com;
  } else if (id) {
    // Abroad a VAT id carries its country prefix (added to a VAT-registered EU buyer's bare number).
    // One EN 16931 cannot carry as a VAT id (a Swiss "CHE-123.456.789 MWST", a long US or UK number)
    // still identifies the buyer, as its legal registration identifier (BT-47), which has no format.
    const vatId = foreignVatId(id, snapshot.vat_payer, country);
    const compact = vatId?.replace(/[^0-9A-Z+*.]/g, '');
    if (vatId && compact && VAT_ID_FORMAT.test(compact) && (isOtherEuMemberState(country) || compact === vatId)) party.vat_id = compact;
    else party.reg_com = clip(snapshot.cui!.trim(), 100);
    if (!party.reg_com && snapshot.reg_com) party.reg_com = snapshot.reg_com;
  } else if (snapshot.reg_com) {
    party.reg_com = snapshot.reg_com;
  } else if (!snapshot.cnp) {
    // A person abroad with no code at all: the same "not given" identifier as at home (BR-RO-120 wants one).
    party.cnp = CNP_NOT_GIVEN;
    b2c = true;
  }
  if (!isRo && snapshot.cnp && !party.vat_id && !party.reg_com) party.reg_com = snapshot.cnp.trim();

  let street = blankToUndefined(snapshot.address);
  let city = blankToUndefined(snapshot.city);
  const countyText = blankToUndefined(snapshot.county);
  let county = isRo ? (countyCode(countyText) ?? countyCode(city)) : countyText;
  if (isRo && countyText && !countyCode(countyText)) {
    problems['buyer.address.county_code'] = `The client's county "${countyText}" is not a Romanian county.|Județul clientului "${countyText}" nu este un județ din România.`;
  }
  // A private person who gave no address (a counter sale): e-Factura still wants a place (BR-RO-140..160),
  // so the place of sale stands in, which is where the supply happened (our design, see docs/api-decisions.md).
  if (b2c && isRo && !street && !city && !countyText) {
    street = blankToUndefined(seller.street) ?? '-';
    city = blankToUndefined(seller.city);
    county = seller.country_code === 'RO' ? (seller.county_code ?? undefined) : undefined;
  }
  // Bucharest addresses name the sector in the city (BR-RO-100/101); people write it in the county or the street line.
  if (county === 'RO-B') {
    const sector = bucharestSector(city, countyText, street);
    if (sector) city = `Sector ${sector.slice(-1)}`;
    else problems['buyer.address.city'] = 'In Bucharest e-Factura needs the sector: write it in the city, e.g. "Sector 4" (BR-RO-100).|În București e-Factura cere sectorul: scrieți-l la localitate, de ex. „Sector 4” (BR-RO-100).';
  }
  if (!street) problems['buyer.address.street'] = 'The client has no address (e-Factura needs the street, BR-RO-140).|Clientul nu are adresă (e-Factura cere strada, BR-RO-140).';
  if (!city) problems['buyer.address.city'] = 'The client has no city (BR-RO-150).|Clientul nu are localitate (BR-RO-150).';
  if (isRo && !county && !problems['buyer.address.county_code']) {
    problems['buyer.address.county_code'] = 'The client has no county (BR-RO-111).|Clientul nu are județ (BR-RO-111).';
  }
  const postal = blankToUndefined(snapshot.postal_code) ?? (isRo ? postalCodeIn(snapshot.address, snapshot.city) : undefined);
  party.address = {
    street: clip(street ?? '-', 150), city: clip(city ?? '-', 50), country_code: country,
    ...(county ? { county_code: clip(county, 50) } : {}),
    ...(postal ? { postal_zone: clip(postal, 20) } : {}),
  };
  return { party, b2c, extern: !isRo };
}

function sellerParty(s: SellerSnapshot, problems: Problems): EInvoiceDocument['seller'] {
  const missing = (what: string, ce: string) =>
    `The company profile has no ${what}: complete it with PUT /company/profile.|Profilul firmei nu are ${ce}: completați-l cu PUT /company/profile.`;
  if (!blankToUndefined(s.street)) problems['seller.address.street'] = missing('street', 'stradă');
  if (!blankToUndefined(s.city)) problems['seller.address.city'] = missing('city', 'localitate');
  if (s.country_code === 'RO' && !s.county_code) problems['seller.address.county_code'] = missing('county', 'județ');
  let city = s.city ?? '-';
  if (s.county_code === 'RO-B') {
    const sector = bucharestSector(s.city, s.street);
    if (sector) city = `Sector ${sector.slice(-1)}`;
    else problems['seller.address.city'] = 'The company is in Bucharest: write its sector in the city, e.g. "Sector 4" (BR-RO-100).|Firma este în București: scrieți sectorul la localitate, de ex. „Sector 4” (BR-RO-100).';
  }
  return {
    name: s.name,
    cui: s.cui,
    ...(s.vat_payer && s.vat_id ? { vat_id: s.vat_id } : {}),
    ...(s.reg_com ? { reg_com: s.reg_com } : {}),
    address: {
      street: s.street ?? '-',
      city,
      country_code: s.country_code,
      ...(s.county_code ? { county_code: s.county_code } : {}),
      ...(s.postal_code ? { postal_zone: s.postal_code } : {}),
    },
    ...(s.email ? { email: s.email } : {}),
    ...(s.phone ? { phone: s.phone } : {}),
  };
}

/** When the supply happened: the stated delivery date, else the issue date (a storno: of the invoice it reverses). */
function supplyDate(f: InvoiceFacts): string {
  const stated = f.storno ? (f.original?.delivery_date ?? null) : f.delivery_date;
  return stated ?? (f.storno && f.original ? f.original.issue_date : f.issue_date);
}

function intraCommunityDelivery(f: InvoiceFacts, buyer: EInvoiceDocument['buyer'], problems: Problems, servicesOnly: boolean): EInvoiceDocument['delivery'] {
  const k = (en: string, ro: string) => servicesOnly
    ? `An intra-community service (VAT category K) ${en}|O prestare intracomunitară de servicii (categoria de TVA K) ${ro}`
    : `An intra-community supply (VAT category K) ${en}|O livrare intracomunitară (categoria de TVA K) ${ro}`;
  const article = servicesOnly ? 'art. 278 alin. (2)' : 'art. 294 alin. (2)';
  if (!buyer.vat_id) {
    problems['buyer.vat_id'] = k(
      "needs the client's VAT id with its country prefix, e.g. DE123456789 (BR-IC-02).",
      'cere codul de TVA al clientului, cu prefixul țării, de ex. DE123456789 (BR-IC-02).',
    );
  }
  if (!isOtherEuMemberState(buyer.address.country_code)) {
    problems['buyer.address.country_code'] = k(
      `goes to a client in another EU member state (${article} Cod fiscal).`,
      `se face către un client din alt stat membru UE (${article} Cod fiscal).`,
    );
  } else if (!buyer.address.county_code) {
    problems['buyer.address.county_code'] = k(
      'states the delivery address, which e-Factura wants with its region (BR-RO-211): fill in the client\'s county, e.g. "Bayern".',
      'declară adresa de livrare, pe care e-Factura o cere cu regiunea ei (BR-RO-211): completați județul clientului, de ex. „Bayern”.',
    );
  }
  return { date: supplyDate(f), address: buyer.address };
}

/**
 * BT-146, the net unit price. A shelf (VAT-included) price is not it: the line's own net per unit is,
 * with the decimals that make quantity x price give back the line net (shared/invoice-math lineNetUnitPrice).
 */
function unitPrice(l: LineFacts): Pick<EInvoiceLine, 'unit_price_bani' | 'unit_price_decimal' | 'base_quantity_milli'> {
  if (!l.price_includes_vat) {
    // A net price is written as given, with its decimals (up to 4) and the quantity it is for.
    const e4 = l.price_e4 ?? l.price_bani * 100;
    const base = l.base_quantity_milli ?? 1000;
    return {
      unit_price_bani: roundHalfAwayFromZero(e4, 100),
      ...(e4 % 100 !== 0 ? { unit_price_decimal: priceE4Text(e4) } : {}),
      ...(base !== 1000 ? { base_quantity_milli: base } : {}),
    };
  }
  const decimal = lineNetUnitPrice(l.quantity_milli, l.net_bani + l.discount_bani);
  return { unit_price_bani: Math.round(Number(decimal) * 100), unit_price_decimal: decimal };
}

/**
 * Builds the document and checks it against every rule the XML generator (and so ANAF's validators)
 * holds it to. Never throws: the caller refuses the issue when `problems` is not empty.
 */
export function buildEInvoiceDocument(f: InvoiceFacts): MappedDocument {
  const problems: Problems = {};
  const seller = sellerParty(f.seller, problems);
  const buyer = buyerParty(f.buyer, f.buyer_name, f.seller, problems);
  // A seller outside VAT (category O) must not state the buyer's VAT id either (BR-O-02): its CUI identifies it.
  if (!f.seller.vat_payer && buyer.party.vat_id) {
    if (!buyer.party.cui && !buyer.party.reg_com) buyer.party.reg_com = buyer.party.vat_id;
    delete buyer.party.vat_id;
  }

  // Company and invoice facts win over the line's own 0% category: a seller outside VAT states none
  // (O), and reverse charge (AE) moves the VAT to the buyer whatever the line says.
  const categoryOf = (line: Pick<LineFacts, 'vat_rate_bp' | 'vat_category'>): VatCategory => {
    if (!f.seller.vat_payer) return 'O';
    if (f.reverse_charge) return 'AE';
    return lineVatCategory(line.vat_rate_bp, line.vat_category) ?? 'S';
  };

  const lines: EInvoiceLine[] = [];
  const groups = new Map<string, { category: VatCategory; rate: number; taxable: number; vat: number; reasons: Set<string>; goods: boolean; services: boolean }>();
  [...f.lines].sort((a, b) => a.position - b.position).forEach((l, i) => {
    const category = categoryOf(l);
    const rate = category === 'S' ? l.vat_rate_bp : 0;
    const text = l.description.trim();
    if (!text) problems[`items.${i}.description`] = 'A line needs a description (BR-25).|Linia are nevoie de o denumire (BR-25).';
    lines.push({
      id: String(l.position),
      name: clip(text || '-', 100),
      ...(text.length > 100 ? { description: clip(text, 200) } : {}),
      quantity_milli: l.quantity_milli,
      unit_code: (l.unit_code || 'H87').toUpperCase(),
      ...unitPrice(l),
      line_net_bani: l.net_bani,
      ...(l.discount_bani !== 0 ? { allowance_bani: l.discount_bani, allowance_reason: `Reducere ${l.discount_bp / 100}%` } : {}),
      vat_category: category,
      vat_rate_bp: rate,
    });
    const key = `${category}@${rate}`;
    const g = groups.get(key) ?? { category, rate, taxable: 0, vat: 0, reasons: new Set<string>(), goods: false, services: false };
    if (l.is_service) g.services = true;
    else g.goods = true;
    g.taxable += l.net_bani;
    g.vat += category === 'S' ? l.vat_bani : 0;
    if (category === 'E') {
      const reason = blankToUndefined(l.vat_exemption_reason);
      if (reason) g.reasons.add(reason);
      else problems[`items.${i}.vat_exemption_reason`] = 'A 0% exempt line needs the reason of its VAT exemption (BR-E-10), e.g. "art. 292 alin. (2) Cod fiscal"; a 0% line that is not an exemption needs its VAT category (Z, K or G).|O linie scutită cu 0% cere motivul scutirii de TVA (BR-E-10), de ex. „art. 292 alin. (2) Cod fiscal”; o linie cu 0% care nu este scutire cere categoria de TVA (Z, K sau G).';
    }
    groups.set(key, g);
  });

  // Document-level allowances and charges: each moves its rate's taxable amount and VAT (BR-S-08, BR-CO-17).
  const allowances: NonNullable<EInvoiceDocument['allowances']> = [];
  (f.adjustments ?? []).forEach((a, i) => {
    const category = categoryOf({ vat_rate_bp: a.vat_rate_bp, vat_category: a.vat_category });
    const rate = category === 'S' ? a.vat_rate_bp : 0;
    const g = groups.get(`${category}@${rate}`);
    if (!g) {
      problems[`allowances_charges.${i}.vat_rate`] = 'No line of the invoice has this VAT rate: a discount or charge on the whole invoice goes to the rate of some of its lines.|Nicio linie a facturii nu are această cotă de TVA: o reducere sau o majorare pe toată factura se aplică la cota unor linii ale ei.';
      return;
    }
    g.taxable += a.charge ? a.amount_bani : -a.amount_bani;
    g.vat += category === 'S' ? a.vat_bani : 0;
    const reason = blankToUndefined(a.reason);
    allowances.push({
      ...(a.charge ? { charge: true } : {}), amount_bani: a.amount_bani, vat_category: category, vat_rate_bp: rate,
      ...(reason ? { reason: clip(reason, 100) } : {}), ...(a.reason_code ? { reason_code: a.reason_code } : {}),
    });
  });
  const allowanceTotal = allowances.reduce((t, a) => t + (a.charge ? 0 : a.amount_bani), 0);
  const chargeTotal = allowances.reduce((t, a) => t + (a.charge ? a.amount_bani : 0), 0);

  const stated = f.storno ? (f.original?.delivery_date ?? null) : f.delivery_date;
  const delivery = lines.some((l) => l.vat_category === 'K') && f.buyer
    ? intraCommunityDelivery(f, buyer.party, problems, groups.get('K@0')?.goods === false)
    : stated ? { date: stated } : undefined;

  // Highest rate first, as the printed invoice lists them (shared/invoice-math orders its breakdown so).
  const ordered = [...groups.values()].sort((a, b) => b.rate - a.rate || a.category.localeCompare(b.category));
  const vat_breakdown = ordered.map((g) => {
    const exemption = g.category === 'E' ? (g.reasons.size ? splitExemption([...g.reasons].join('; ')) : {}) : fixedExemption(g.category, g.goods, g.services);
    return { category: g.category, vat_rate_bp: g.rate, taxable_bani: g.taxable, vat_bani: g.vat, ...exemption };
  });

  const net = lines.reduce((s, l) => s + l.line_net_bani, 0);
  const vat = vat_breakdown.reduce((s, b) => s + b.vat_bani, 0);
  const total = net - allowanceTotal + chargeTotal + vat;

  const means = f.payment_method ? MEANS[f.payment_method] : f.seller.iban ? '30' : '1';
  const payment = { means_code: means ?? '1', ...(f.seller.iban && (means === '30' || means === '42') ? { iban: f.seller.iban, account_name: f.seller.name } : {}) };
  if (payment.means_code === '30' && !f.seller.iban) payment.means_code = '1';

  const foreign = f.currency !== 'RON';
  if (foreign && (f.exchange_rate === null || !(f.exchange_rate > 0))) {
    problems.exchange_rate = 'A foreign-currency invoice needs its exchange rate to RON (BR-RO-030).|O factură în valută cere cursul de schimb în lei (BR-RO-030).';
  }

  // "TVA la încasare": the tax point is the payment (BT-8 = 432) and the invoice says so (art. 319 (20) o).
  const onCollection = f.seller.vat_on_collection && f.seller.vat_payer && vat_breakdown.some((b) => b.category === 'S');
  const notes = [
    onCollection ? VAT_ON_COLLECTION_MENTION : null,
    f.storno && f.original?.full_number ? `Stornare factura ${f.original.full_number}` : null,
    blankToUndefined(f.observations),
  ].filter(Boolean);
  const document: EInvoiceDocument = {
    kind: 'invoice',
    number: f.number,
    issue_date: f.issue_date,
    // BR-CO-25: an amount due needs a due date; without one the invoice is due when issued.
    ...(f.due_date ? { due_date: f.due_date } : total > 0 ? { due_date: f.issue_date } : {}),
    type_code: 380,
    ...(onCollection ? { tax_point_code: '432' as const } : {}),
    currency: f.currency,
    ...(foreign && f.exchange_rate !== null && f.exchange_rate > 0 ? { exchange_rate_to_ron: rateText(f.exchange_rate) } : {}),
    ...(notes.length ? { note: clip(notes.join('\n'), 300) } : {}),
    seller,
    buyer: buyer.party,
    payment,
    ...(blankToUndefined(f.references?.order) ? { order_reference: clip(f.references!.order!.trim(), 200) } : {}),
    ...(blankToUndefined(f.references?.contract) ? { contract_reference: clip(f.references!.contract!.trim(), 200) } : {}),
    ...(blankToUndefined(f.references?.buyer) ? { buyer_reference: clip(f.references!.buyer!.trim(), 200) } : {}),
    ...(blankToUndefined(f.references?.despatch) ? { despatch_reference: clip(f.references!.despatch!.trim(), 200) } : {}),
    ...(blankToUndefined(f.references?.receipt) ? { receipt_reference: clip(f.references!.receipt!.trim(), 200) } : {}),
    ...(blankToUndefined(f.references?.project) ? { project_reference: clip(f.references!.project!.trim(), 200) } : {}),
    ...(blankToUndefined(f.references?.tender) ? { tender_reference: clip(f.references!.tender!.trim(), 200) } : {}),
    ...(blankToUndefined(f.references?.invoiced_object) ? { invoiced_object: clip(f.references!.invoiced_object!.trim(), 200) } : {}),
    ...(f.storno && f.original?.full_number ? { billing_reference: { number: f.original.full_number, issue_date: f.original.issue_date } } : {}),
    ...(delivery ? { delivery } : {}),
    ...(allowances.length ? { allowances } : {}),
    lines,
    totals: {
      net_bani: net, vat_bani: vat, total_bani: total, payable_bani: total,
      ...(allowanceTotal ? { allowance_total_bani: allowanceTotal } : {}),
      ...(chargeTotal ? { charge_total_bani: chargeTotal } : {}),
    },
    vat_breakdown,
  };

  // The schema holds the EN 16931 / CIUS-RO rules the XML generator enforces; whatever the mapping
  // above did not already name in the user's terms is reported at the document path, in Romanian.
  if (Object.keys(problems).length === 0) {
    const checked = eInvoiceDocumentSchema.safeParse(document);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const path = issue.path.map(String).join('.') || 'invoice';
        problems[path] ??= romanianIssue(path, issue.message);
      }
    }
  }
  return { document, upload: { standard: 'UBL', b2c: buyer.b2c, extern: buyer.extern }, problems };
}

/** Lines as shared/invoice-math priced them (`amounts[i]` belongs to `lines[i]`), numbered from 1. */
export function pricedLineFacts(
  lines: readonly { description: string; quantity_milli: number; unit_code: string | null; price_bani: number; price_e4?: number | undefined; base_quantity_milli?: number | undefined; discount_bp: number; vat_rate_bp: number; vat_category: LineVatCategory | null; vat_exemption_reason: string | null; price_includes_vat?: boolean | undefined; is_service?: boolean | null | undefined }[],
  amounts: readonly { discount_bani: number; net_bani: number; vat_bani: number }[],
): LineFacts[] {
  return lines.map((l, i) => {
    const a = amounts[i]!;
    return {
      position: i + 1, description: l.description, quantity_milli: l.quantity_milli, unit_code: l.unit_code, price_bani: l.price_bani,
      price_e4: l.price_e4, base_quantity_milli: l.base_quantity_milli,
      discount_bp: l.discount_bp, discount_bani: a.discount_bani, net_bani: a.net_bani, vat_bani: a.vat_bani, vat_rate_bp: l.vat_rate_bp,
      vat_category: l.vat_category, vat_exemption_reason: l.vat_exemption_reason, price_includes_vat: l.price_includes_vat === true,
      is_service: l.is_service === true,
    };
  });
}

/**
 * Whether an invoice must pass the e-Factura rules before it takes a number: every fiscal invoice
 * of a firm that is set up for e-Factura (its profile is complete), and any invoice sent to ANAF
 * (`efactura_enabled`), whose incomplete seller data is then a reason to refuse it too.
 */
export function mustPassEFactura(documentType: string, efacturaEnabled: boolean, profileComplete: boolean): boolean {
  return documentType === 'fiscal' && (efacturaEnabled || profileComplete);
}
