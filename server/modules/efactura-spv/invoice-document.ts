import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { CNP_NOT_GIVEN, bucharestSectorCode, eInvoiceDocumentSchema, type EInvoiceDocument, type EInvoiceLine, type VatCategory } from '../../efactura/index';
import type { Db } from '../../db/types';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { foreignVatId, isOtherEuMemberState } from '../../../shared/eu';
import { isWalkInBuyer, lineVatCategory, zPartySnapshot } from '../../../shared/schemas/invoice';
import { lineNetUnitPrice } from '../../../shared/invoice-math';
import { walkInParty } from './walk-in-buyer';
import type { CompanyProfile } from '../../../shared/schemas/efactura';
import type { InvoiceLinesTable, InvoicesTable } from '../invoicing/tables';
import { loadCompanyProfile } from './company-profile';
import { countyCode } from './ro-counties';
import './messages';

/**
 * An issued invoice of the invoicing module as an EInvoiceDocument (server/efactura): the company
 * profile is the seller, the buyer snapshot frozen at issue is the buyer, and every amount comes
 * from the stored lines, which shared/invoice-math computed. Nothing is recomputed here beyond
 * grouping: the XML must say what the printed invoice says, to the ban.
 *
 * A storno is a 380 invoice with negative quantities and positive prices, referencing the original
 * (BT-25/BT-26): that is what ANAF's guidance asks for a "factură de stornare"; a 381 credit note is
 * for later commercial corrections (discounts, returns) and is not what the invoicing module issues.
 */

export type InvoiceRow = Selectable<InvoicesTable>;
export type InvoiceLineRow = Selectable<InvoiceLinesTable>;

export interface UploadTarget {
  standard: 'UBL';
  /** Buyer is a natural person: ANAF's `uploadb2c`. */
  b2c: boolean;
  /** Buyer outside Romania (`extern=DA`). */
  extern: boolean;
}

export interface MappedInvoice {
  document: EInvoiceDocument;
  upload: UploadTarget;
}

type Problems = Record<string, string>;

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

const MEANS: Record<string, string> = { receipt: '10', fiscal_receipt: '10', card: '48', bank_order: '42', other: '1' };

type Snapshot = z.infer<typeof zPartySnapshot>;

function buyerParty(snapshot: Snapshot | null, name: string | null, problems: Problems): { party: EInvoiceDocument['buyer']; b2c: boolean; extern: boolean } {
  if (!snapshot) {
    problems.buyer = 'The invoice has no client; e-Factura needs the buyer.|Factura nu are client; e-Factura cere cumpărătorul.';
    return { party: { name: name ?? '-', address: { street: '-', city: '-', country_code: 'RO', county_code: 'RO-B' } }, b2c: false, extern: false };
  }
  const country = (snapshot.country || 'RO').toUpperCase();
  const isRo = country === 'RO';
  const id = snapshot.cui?.replace(/\s+/g, '').toUpperCase() ?? '';
  const party: EInvoiceDocument['buyer'] = { name: snapshot.name, address: { street: '', city: '', country_code: country } };
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
    // Abroad a VAT id carries its country prefix (added to a VAT-registered EU buyer's bare number);
    // a code that is no VAT id is the buyer's registration number.
    const vatId = foreignVatId(id, snapshot.vat_payer, country);
    if (vatId) party.vat_id = vatId;
    else party.reg_com = id;
  } else if (snapshot.reg_com) {
    party.reg_com = snapshot.reg_com;
  }

  const street = blankToUndefined(snapshot.address);
  let city = blankToUndefined(snapshot.city);
  const county = isRo ? (countyCode(snapshot.county) ?? countyCode(city)) : blankToUndefined(snapshot.county);
  if (isRo && snapshot.county && !countyCode(snapshot.county)) {
    problems['buyer.address.county_code'] = `The client's county "${snapshot.county}" is not a Romanian county.|Județul clientului "${snapshot.county}" nu este un județ din România.`;
  }
  // Bucharest addresses name the sector in the city (BR-RO-100); people often write it in the street line.
  if (county === 'RO-B' && !(city && bucharestSectorCode(city))) {
    const sector = (street && bucharestSectorCode(street)) ?? null;
    if (sector) city = `Sector ${sector.slice(-1)}`;
  }
  if (!street) problems['buyer.address.street'] = 'The client has no address.|Clientul nu are adresă.';
  if (!city) problems['buyer.address.city'] = 'The client has no city.|Clientul nu are localitate.';
  if (isRo && !county && !problems['buyer.address.county_code']) {
    problems['buyer.address.county_code'] = 'The client has no county.|Clientul nu are județ.';
  }
  party.address = { street: street ?? '-', city: city ?? '-', country_code: country, ...(county ? { county_code: county } : {}) };
  return { party, b2c, extern: !isRo };
}

function sellerParty(profile: CompanyProfile, problems: Problems): EInvoiceDocument['seller'] {
  const missing = (what: string, ce: string) =>
    `The company profile has no ${what}: complete it with PUT /company/profile.|Profilul firmei nu are ${ce}: completați-l cu PUT /company/profile.`;
  if (!profile.street) problems['seller.address.street'] = missing('street', 'stradă');
  if (!profile.city) problems['seller.address.city'] = missing('city', 'localitate');
  if (profile.country_code === 'RO' && !profile.county_code) problems['seller.address.county_code'] = missing('county', 'județ');
  return {
    name: profile.name,
    cui: profile.cui,
    ...(profile.vat_id ? { vat_id: profile.vat_id } : {}),
    ...(profile.reg_com ? { reg_com: profile.reg_com } : {}),
    address: {
      street: profile.street ?? '-',
      city: profile.city ?? '-',
      country_code: profile.country_code,
      ...(profile.county_code ? { county_code: profile.county_code } : {}),
      ...(profile.postal_code ? { postal_zone: profile.postal_code } : {}),
    },
    ...(profile.email ? { email: profile.email } : {}),
    ...(profile.phone ? { phone: profile.phone } : {}),
  };
}

/**
 * What an intra-community supply (K) must state beyond its lines, checked here so the caller gets
 * words it can act on: the buyer's VAT id (BR-IC-02), a buyer in another member state (art. 294
 * alin. (2) Cod fiscal), the actual delivery date (BR-IC-11) and the deliver-to address (BR-IC-12),
 * which CIUS-RO wants with street, city and region (BR-RO-180/201/211). The goods go to the buyer's
 * address; the supply is dated by the invoice's delivery date, else its issue date (see {@link supplyDate}).
 */
function intraCommunityDelivery(src: InvoiceSource, buyer: EInvoiceDocument['buyer'], problems: Problems): EInvoiceDocument['delivery'] {
  const k = (en: string, ro: string) => `An intra-community supply (VAT category K) ${en}|O livrare intracomunitară (categoria de TVA K) ${ro}`;
  if (!buyer.vat_id) {
    problems['buyer.vat_id'] = k(
      "needs the client's VAT id with its country prefix, e.g. DE123456789 (BR-IC-02).",
      'cere codul de TVA al clientului, cu prefixul țării, de ex. DE123456789 (BR-IC-02).',
    );
  }
  if (!isOtherEuMemberState(buyer.address.country_code)) {
    problems['buyer.address.country_code'] = k(
      'goes to a client in another EU member state (art. 294 alin. (2) Cod fiscal).',
      'se face către un client din alt stat membru UE (art. 294 alin. (2) Cod fiscal).',
    );
  } else if (!buyer.address.county_code) {
    problems['buyer.address.county_code'] = k(
      'states the delivery address, which e-Factura wants with its region (BR-RO-211): fill in the client\'s county, e.g. "Bayern".',
      'declară adresa de livrare, pe care e-Factura o cere cu regiunea ei (BR-RO-211): completați județul clientului, de ex. "Bayern".',
    );
  }
  return { date: supplyDate(src), address: buyer.address };
}

/** The delivery date the invoice states (a storno: the one of the invoice it reverses), if any. */
function statedDeliveryDate(src: InvoiceSource): string | null {
  return src.invoice.status === 'storno' ? (src.original?.delivery_date ?? null) : src.invoice.delivery_date;
}

/** When the supply happened: the stated delivery date, else the issue date (a storno: of the invoice it reverses). */
function supplyDate(src: InvoiceSource): string {
  const dated = src.invoice.status === 'storno' && src.original ? src.original : src.invoice;
  return statedDeliveryDate(src) ?? dated.issue_date;
}

export interface InvoiceSource {
  invoice: InvoiceRow;
  lines: InvoiceLineRow[];
  /** The invoice a storno reverses. */
  original: { full_number: string | null; issue_date: string; delivery_date: string | null } | null;
  profile: CompanyProfile;
}

/** Maps and checks; throws 422 `efactura_invalid_invoice` with one `fields` entry per problem. */
export function invoiceToDocument(src: InvoiceSource): MappedInvoice {
  const { invoice, profile } = src;
  const problems: Problems = {};
  const seller = sellerParty(profile, problems);
  const snapshot = invoice.buyer_json === null ? null : zPartySnapshot.safeParse(JSON.parse(invoice.buyer_json));
  const buyer = snapshot?.success && isWalkInBuyer(snapshot.data)
    ? { party: walkInParty(snapshot.data, seller), b2c: true, extern: false }
    : buyerParty(snapshot?.success ? snapshot.data : null, invoice.buyer_name, problems);
  // A seller outside VAT (category O) must not state the buyer's VAT id either (BR-O-02): its CUI identifies it.
  if (!profile.vat_payer && buyer.party.vat_id && buyer.party.cui) delete buyer.party.vat_id;

  // Company and invoice facts win over the line's own 0% category: a seller outside VAT states none
  // (O), and reverse charge (AE) moves the VAT to the buyer whatever the line says.
  const categoryOf = (line: InvoiceLineRow): VatCategory => {
    if (!profile.vat_payer) return 'O';
    if (Number(invoice.reverse_charge)) return 'AE';
    return lineVatCategory(Number(line.vat_rate_bp), line.vat_category) ?? 'S';
  };

  const lines: EInvoiceLine[] = [];
  const groups = new Map<string, { category: VatCategory; rate: number; taxable: number; vat: number; reasons: Set<string> }>();
  [...src.lines].sort((a, b) => a.position - b.position).forEach((l, i) => {
    const category = categoryOf(l);
    const rate = category === 'S' ? Number(l.vat_rate_bp) : 0;
    const text = l.description.trim();
    const discount = Number(l.discount_bani);
    // A shelf (VAT-included) price is not the net price BT-146 wants: the line's net per unit is, with its decimals.
    const netPrice = Number(l.price_includes_vat) === 1 ? lineNetUnitPrice(Number(l.quantity_milli), Number(l.net_bani) + discount) : null;
    lines.push({
      id: String(l.position),
      name: clip(text, 100),
      ...(text.length > 100 ? { description: clip(text, 200) } : {}),
      quantity_milli: Number(l.quantity_milli),
      unit_code: (l.unit_code || 'H87').toUpperCase(),
      unit_price_bani: netPrice === null ? Number(l.price_bani) : Math.round(Number(netPrice) * 100),
      ...(netPrice === null ? {} : { unit_price_decimal: netPrice }),
      line_net_bani: Number(l.net_bani),
      ...(discount !== 0 ? { allowance_bani: discount, allowance_reason: `Reducere ${Number(l.discount_bp) / 100}%` } : {}),
      vat_category: category,
      vat_rate_bp: rate,
    });
    const key = `${category}@${rate}`;
    const g = groups.get(key) ?? { category, rate, taxable: 0, vat: 0, reasons: new Set<string>() };
    g.taxable += Number(l.net_bani);
    g.vat += category === 'S' ? Number(l.vat_bani) : 0;
    if (category === 'E') {
      const reason = blankToUndefined(l.vat_exemption_reason);
      if (reason) g.reasons.add(reason);
      else problems[`items.${i}.vat_exemption_reason`] = 'A 0% exempt line needs the reason of its VAT exemption (BR-E-10), e.g. "art. 292 alin. (2) Cod fiscal"; a 0% line that is not an exemption needs its vat_category (Z, K or G).|O linie scutită cu 0% cere motivul scutirii de TVA (BR-E-10), de ex. "art. 292 alin. (2) Cod fiscal"; o linie cu 0% care nu este scutire cere vat_category (Z, K sau G).';
    }
    groups.set(key, g);
  });

  // BT-72, the actual delivery date: always on an intra-community supply, else when the invoice states one.
  const stated = statedDeliveryDate(src);
  const delivery = lines.some((l) => l.vat_category === 'K') && snapshot?.success
    ? intraCommunityDelivery(src, buyer.party, problems)
    : stated ? { date: stated } : undefined;

  // Highest rate first, as the printed invoice lists them (shared/invoice-math orders its breakdown so).
  const ordered = [...groups.values()].sort((a, b) => b.rate - a.rate || a.category.localeCompare(b.category));
  const vat_breakdown = ordered.map((g) => {
    const exemption = g.category === 'E' ? (g.reasons.size ? splitExemption([...g.reasons].join('; ')) : {}) : (FIXED_EXEMPTIONS[g.category] ?? {});
    return { category: g.category, vat_rate_bp: g.rate, taxable_bani: g.taxable, vat_bani: g.vat, ...exemption };
  });

  const net = lines.reduce((s, l) => s + l.line_net_bani, 0);
  const vat = vat_breakdown.reduce((s, b) => s + b.vat_bani, 0);
  const total = net + vat;
  const isStorno = invoice.status === 'storno';

  const means = invoice.payment_method ? MEANS[invoice.payment_method] : profile.iban ? '30' : '1';
  const payment = { means_code: means ?? '1', ...(profile.iban && (means === '30' || means === '42') ? { iban: profile.iban, account_name: profile.name } : {}) };
  if (payment.means_code === '30' && !profile.iban) payment.means_code = '1';

  const foreign = invoice.currency !== 'RON';
  if (foreign && (invoice.exchange_rate === null || !(Number(invoice.exchange_rate) > 0))) {
    problems.exchange_rate = 'A foreign-currency invoice needs its exchange rate to RON (BR-RO-030).|O factură în valută cere cursul de schimb în lei (BR-RO-030).';
  }

  const notes = [isStorno && src.original?.full_number ? `Stornare factura ${src.original.full_number}` : null, blankToUndefined(invoice.observations)].filter(Boolean);
  const document: EInvoiceDocument = {
    kind: 'invoice',
    number: invoice.full_number ?? '',
    issue_date: invoice.issue_date,
    // BR-CO-25: an amount due needs a due date; without one the invoice is due when issued.
    ...(invoice.due_date ? { due_date: invoice.due_date } : total > 0 ? { due_date: invoice.issue_date } : {}),
    type_code: 380,
    currency: invoice.currency,
    ...(foreign && invoice.exchange_rate !== null ? { exchange_rate_to_ron: rateText(Number(invoice.exchange_rate)) } : {}),
    ...(notes.length ? { note: clip(notes.join('\n'), 300) } : {}),
    seller,
    buyer: buyer.party,
    payment,
    ...(isStorno && src.original?.full_number
      ? { billing_reference: { number: src.original.full_number, issue_date: src.original.issue_date } }
      : {}),
    ...(delivery ? { delivery } : {}),
    lines,
    totals: { net_bani: net, vat_bani: vat, total_bani: total, payable_bani: total },
    vat_breakdown,
  };

  if (Object.keys(problems).length === 0) {
    const checked = eInvoiceDocumentSchema.safeParse(document);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const path = issue.path.map(String).join('.') || 'invoice';
        problems[path] ??= issue.message;
      }
    }
  }
  if (Object.keys(problems).length) {
    throw new ApiError(422, 'validation_error', 'efactura_invalid_invoice', { fields: problems, param: Object.keys(problems)[0] });
  }
  return { document, upload: { standard: 'UBL', b2c: buyer.b2c, extern: buyer.extern } };
}

/**
 * The invoice of the company as e-Factura sees it: 404 when missing (or another company's), 409
 * `invoice_is_draft` for a draft (drafts are never sent: contract rule 5), 409 `invoice_is_proforma`
 * for a proforma (not a fiscal document).
 */
export async function loadInvoiceSource(db: Db, companyId: string, invoiceId: string): Promise<InvoiceSource> {
  const invoice = await db.selectFrom('invoices').selectAll().where('id', '=', invoiceId).where('company_id', '=', companyId).executeTakeFirst();
  if (!invoice) throw notFound('id');
  if (invoice.status === 'draft') throw conflict('invoice_is_draft', 'id');
  if (invoice.document_type !== 'fiscal') throw conflict('invoice_is_proforma', 'id');
  const lines = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', invoice.id).orderBy('position').execute();
  let original: InvoiceSource['original'] = null;
  if (invoice.status === 'storno' && invoice.storno_of) {
    const o = await db
      .selectFrom('invoices')
      .select(['full_number', 'issue_date', 'delivery_date'])
      .where('id', '=', invoice.storno_of)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    original = o ?? null;
  }
  const profile = await loadCompanyProfile(db, companyId);
  return { invoice, lines, original, profile };
}
