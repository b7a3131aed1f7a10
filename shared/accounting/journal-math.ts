import { addBani, mulDivRound, type Bani } from '../money';
import type { LineVatCategory } from '../invoice-math';

/**
 * The arithmetic of the VAT journals (jurnal de vânzări, jurnal de cumpărări; Codul fiscal art. 321,
 * HG 1/2016 pct. 79, forms 14-6-2/a and 14-6-2/b of OMFP 2634/2015). Every amount a journal shows,
 * prints or writes comes from here: a document's stored VAT breakdown, converted to RON at the
 * document's own rate, put in the column of its rate or regime. All in integer bani.
 */

/** The taxable rates that have their own pair of columns: 21/11 since 1 August 2025, 19/9/5 before. */
export const JOURNAL_RATES_BP = [2100, 1100, 1900, 900, 500] as const;

const RATE_COLUMNS = JOURNAL_RATES_BP.flatMap((bp) => [`base_${bp / 100}`, `vat_${bp / 100}`] as const);

export const SALES_COLUMNS = [
  'total',
  ...RATE_COLUMNS,
  'base_other',
  'vat_other',
  /** Taxare inversă (art. 331): the buyer owes the VAT; only the base is ours. */
  'reverse_charge_base',
  /**
   * Category K splits by what the line sells (`is_service`, frozen on the line): goods are an exempt
   * intra-community supply (art. 294 alin. (2)), services have their place of supply in the buyer's
   * member state (art. 278 alin. (2)), so they are not Romanian operations at all. The record-keeping
   * norms ask exempt intra-community supplies of goods, exports and operations not taking place in Romania
   * to be shown apart, and the recapitulative statement (D390) reports goods (L) and services (P) apart.
   * Sources and what is not certain: docs/api-decisions.md, "Journals: goods and services abroad".
   */
  'intra_eu_goods_base',
  'intra_eu_services_base',
  /** Category G the same way: goods are an export (art. 294 alin. (1)), services are supplied outside Romania (art. 278 alin. (2)). */
  'export_base',
  'services_outside_eu_base',
  /** Alte operațiuni cu cota 0 / scutite cu drept de deducere, category Z. */
  'exempt_deductible_base',
  /** Scutite fără drept de deducere (art. 292), category E. */
  'exempt_non_deductible_base',
  /** TVA la încasare (art. 282): taxable operations issued, whose VAT is not yet chargeable. */
  'collection_issued_base',
  'collection_issued_vat',
  /** TVA la încasare: what was cashed in the period on such invoices, base and the VAT that became chargeable. */
  'collection_cashed_base',
  'collection_cashed_vat',
] as const;

export const PURCHASE_COLUMNS = [
  'total',
  ...RATE_COLUMNS,
  'base_other',
  'vat_other',
  /** Taxare inversă (art. 331, 307 alin. (2)-(6)): base and the VAT we self-assess (collected and deducted). */
  'reverse_charge_base',
  'reverse_charge_vat',
  /** Achiziții intracomunitare (art. 268, category K on a received invoice): base and self-assessed VAT. */
  'intra_eu_base',
  'intra_eu_vat',
  /** Achiziții scutite sau neimpozabile (0%, E, Z, G, O): documents that charge no VAT. */
  'exempt_base',
] as const;

export type SalesColumn = (typeof SALES_COLUMNS)[number];
export type PurchaseColumn = (typeof PURCHASE_COLUMNS)[number];
export type Amounts<C extends string> = Partial<Record<C, Bani>>;

/** An exchange rate (lei per unit, as published) as integer millionths: 6 decimals keep every BNR rate exact. */
export function rateMicro(rate: number): number {
  return Math.round(rate * 1_000_000);
}

/** Bani of the document's currency -> bani of RON at its rate (null: already RON), half away from zero. */
export function ronAt(bani: Bani, rateMicroOrNull: number | null): Bani {
  return rateMicroOrNull === null ? bani : mulDivRound(bani, rateMicroOrNull, 1_000_000);
}

function add<C extends string>(into: Amounts<C>, column: C, bani: Bani): void {
  if (bani === 0 && into[column] === undefined) return;
  into[column] = addBani(into[column] ?? 0, bani);
}

function rateColumn(rateBp: number): { base: string; vat: string } {
  return (JOURNAL_RATES_BP as readonly number[]).includes(rateBp)
    ? { base: `base_${rateBp / 100}`, vat: `vat_${rateBp / 100}` }
    : { base: 'base_other', vat: 'vat_other' };
}

export interface BreakdownPart {
  vat_rate_bp: number;
  /** 0% kind on a sale; null above 0% and under reverse charge. */
  vat_category: LineVatCategory | null;
  net_bani: Bani;
  vat_bani: Bani;
  /**
   * Of `net_bani`, what sells services (document currency): only read on a K or G part, where goods
   * and services go in different columns. Absent: all goods (what every line was before migration 0280).
   */
  services_net_bani?: Bani | undefined;
}

/**
 * The services' share of a breakdown part whose lines add up to `linesNet` (document currency), of which
 * `servicesLinesNet` sells services. The part's net also holds the document-level allowances and charges
 * at its category, which name no line: a part of services only (or goods only) keeps them whole, a mixed
 * part shares them pro rata to the lines' nets, half away from zero. Goods are the rest of the part, so
 * goods + services is the part's net to the ban.
 */
export function servicesShare(partNet: Bani, servicesLinesNet: Bani, linesNet: Bani): Bani {
  if (servicesLinesNet === 0) return 0;
  if (servicesLinesNet === linesNet) return partNet;
  // Lines that cancel out (+x and -x) leave nothing to share in proportion: the services keep their own nets.
  if (linesNet === 0) return servicesLinesNet;
  return linesNet < 0 ? mulDivRound(partNet, -servicesLinesNet, -linesNet) : mulDivRound(partNet, servicesLinesNet, linesNet);
}

/**
 * One issued invoice (or storno, negative) as a row of the sales journal. `vatOnCollection`: the firm
 * applies TVA la încasare, so its taxable amounts are also shown as not yet chargeable.
 */
export function salesAmounts(
  breakdown: readonly BreakdownPart[],
  doc: { reverse_charge: boolean; rate_micro: number | null; vat_on_collection: boolean },
): Amounts<SalesColumn> {
  const out: Amounts<SalesColumn> = {};
  for (const part of breakdown) {
    const net = ronAt(part.net_bani, doc.rate_micro);
    const vat = ronAt(part.vat_bani, doc.rate_micro);
    add(out, 'total', addBani(net, vat));
    if (doc.reverse_charge) {
      add(out, 'reverse_charge_base', net);
    } else if (part.vat_rate_bp > 0) {
      const c = rateColumn(part.vat_rate_bp);
      add(out, c.base as SalesColumn, net);
      add(out, c.vat as SalesColumn, vat);
      if (doc.vat_on_collection) {
        add(out, 'collection_issued_base', net);
        add(out, 'collection_issued_vat', vat);
      }
    } else if (part.vat_category === 'K' || part.vat_category === 'G') {
      // Converted once as a whole and once for the services: the goods are the difference, so the two
      // columns add up to the part's own RON amount.
      const services = part.services_net_bani ? ronAt(part.services_net_bani, doc.rate_micro) : 0;
      const k = part.vat_category === 'K';
      add(out, k ? 'intra_eu_goods_base' : 'export_base', net - services);
      add(out, k ? 'intra_eu_services_base' : 'services_outside_eu_base', services);
    } else {
      add(out, part.vat_category === 'Z' ? 'exempt_deductible_base' : 'exempt_non_deductible_base', net);
    }
  }
  return out;
}

/** A payment cashed on an invoice under TVA la încasare: the base and VAT it made chargeable, in RON. */
export function collectionCashedAmounts(payment: { without_vat_bani: Bani; vat_bani: Bani }, rateMicroOrNull: number | null): Amounts<SalesColumn> {
  const out: Amounts<SalesColumn> = {};
  add(out, 'collection_cashed_base', ronAt(payment.without_vat_bani, rateMicroOrNull));
  add(out, 'collection_cashed_vat', ronAt(payment.vat_bani, rateMicroOrNull));
  return out;
}

/** A group of a received document: one rate and regime, in the document's currency. */
export interface PurchasePart {
  vat_rate_bp: number;
  /** UBL category of a received invoice (S, AE, K, E, Z, G, O); `S` for an expense line above 0%. */
  category: string;
  net_bani: Bani;
  /** The VAT charged by the supplier (0 under AE/K: we self-assess it below). */
  vat_bani: Bani;
}

/**
 * One received document as a row of the purchase journal. The RON amounts of its parts are made to add
 * up to the document's own RON totals (`ron_net`, `ron_vat`), the rounding difference going to the
 * largest part, so that the journal and the document agree to the ban.
 */
export function purchaseAmounts(
  parts: readonly PurchasePart[],
  doc: { rate_micro: number | null; ron_net: Bani; ron_vat: Bani },
): Amounts<PurchaseColumn> {
  const converted = parts.map((p) => ({ ...p, net: ronAt(p.net_bani, doc.rate_micro), vat: ronAt(p.vat_bani, doc.rate_micro) }));
  if (converted.length) {
    const largestOf = (list: typeof converted) => list.reduce((a, b) => (Math.abs(b.net) > Math.abs(a.net) ? b : a));
    largestOf(converted).net += doc.ron_net - converted.reduce((s, p) => s + p.net, 0);
    // The supplier's VAT belongs with the parts it was charged on.
    const charged = converted.filter((p) => p.vat !== 0);
    largestOf(charged.length ? charged : converted).vat += doc.ron_vat - converted.reduce((s, p) => s + p.vat, 0);
  }
  const out: Amounts<PurchaseColumn> = {};
  for (const p of converted) {
    add(out, 'total', addBani(p.net, p.vat));
    if (p.category === 'AE' || p.category === 'K') {
      const selfAssessed = mulDivRound(p.net, p.vat_rate_bp, 10_000);
      add(out, p.category === 'AE' ? 'reverse_charge_base' : 'intra_eu_base', p.net);
      add(out, p.category === 'AE' ? 'reverse_charge_vat' : 'intra_eu_vat', selfAssessed);
    } else if (p.vat_rate_bp > 0 && p.vat !== 0) {
      // The document's own VAT decides, not the supplier record (often entered without its CUI).
      const c = rateColumn(p.vat_rate_bp);
      add(out, c.base as PurchaseColumn, p.net);
      add(out, c.vat as PurchaseColumn, p.vat);
    } else {
      add(out, 'exempt_base', p.net);
    }
  }
  return out;
}

/** Adds a row's amounts into running totals. */
export function accumulate<C extends string>(totals: Amounts<C>, row: Amounts<C>): void {
  for (const [column, bani] of Object.entries(row) as [C, Bani][]) add(totals, column, bani);
}

/** A journal column's Romanian heading, for the printed form and the spreadsheet. */
export const COLUMN_TITLES_RO: Record<SalesColumn | PurchaseColumn, string> = {
  total: 'Total document (inclusiv TVA)',
  base_21: 'Bază 21%', vat_21: 'TVA 21%',
  base_11: 'Bază 11%', vat_11: 'TVA 11%',
  base_19: 'Bază 19%', vat_19: 'TVA 19%',
  base_9: 'Bază 9%', vat_9: 'TVA 9%',
  base_5: 'Bază 5%', vat_5: 'TVA 5%',
  base_other: 'Bază alte cote', vat_other: 'TVA alte cote',
  reverse_charge_base: 'Taxare inversă – bază',
  reverse_charge_vat: 'Taxare inversă – TVA',
  intra_eu_base: 'Intracomunitar – bază',
  intra_eu_vat: 'Intracomunitar – TVA',
  intra_eu_goods_base: 'Livrări intracomunitare de bunuri scutite (art. 294 alin. (2))',
  intra_eu_services_base: 'Prestări de servicii intracomunitare, taxare inversă la beneficiar (art. 278 alin. (2))',
  export_base: 'Export de bunuri, scutit cu drept de deducere (art. 294 alin. (1))',
  services_outside_eu_base: 'Servicii cu locul prestării în afara UE, neimpozabile în România (art. 278 alin. (2))',
  exempt_deductible_base: 'Alte scutite cu drept de deducere',
  exempt_non_deductible_base: 'Scutite fără drept de deducere',
  exempt_base: 'Scutite / neimpozabile',
  collection_issued_base: 'TVA la încasare emise – bază',
  collection_issued_vat: 'TVA la încasare emise – TVA neexigibil',
  collection_cashed_base: 'TVA la încasare încasate – bază',
  collection_cashed_vat: 'TVA la încasare încasate – TVA exigibil',
};

/**
 * The RON amounts of a document's lines, each at the document's rate, with the rounding difference
 * against the document's own RON total put on its largest line: the lines of an export then add up
 * to the journal's amounts to the ban.
 */
export function ronLines(amounts: readonly Bani[], rateMicroOrNull: number | null, targetRon: Bani): Bani[] {
  const out = amounts.map((a) => ronAt(a, rateMicroOrNull));
  if (!out.length) return out;
  let largest = 0;
  for (let i = 1; i < out.length; i += 1) if (Math.abs(out[i]!) > Math.abs(out[largest]!)) largest = i;
  out[largest] = out[largest]! + targetRon - out.reduce((s, a) => s + a, 0);
  return out;
}
