import type { z } from 'zod';
import { bpToPercent, computeTotals, lineAmountBani, percentToBp, toMilli, toPriceE4, STANDARD_VAT_RATES_BP, type InvoiceTotals } from '../../../shared/invoice-math';
import { fromBani, roundHalfAwayFromZero, toBani } from '../../../shared/money';
import { noReferences, normalizeReferences, type InvoiceReferences, type InvoiceReferencesView, type LineVatCategory, type zAllowanceChargeInput, type zInvoiceLineInput } from '../../../shared/schemas/invoice';
import type { AdjustmentFacts } from '../../../shared/efactura/invoice-document';
import { MAX_AMOUNT, MAX_AMOUNT_BANI } from '../../../shared/schemas/common';
import { validationFailed } from '../../platform/errors';
import type { InvoiceLinesTable } from './tables';

export type LineInput = z.output<typeof zInvoiceLineInput>;
export type AdjustmentInput = z.output<typeof zAllowanceChargeInput>;

/** A line in integers, as stored and as shared/invoice-math takes it. */
export interface LineIntegers {
  product_id: string | null;
  description: string;
  quantity_milli: number;
  unit: string;
  unit_code: string;
  /** The price rounded to the ban, for readers that know only bani; `price_e4` is the price. */
  price_bani: number;
  /** The unit price in ten-thousandths of a leu, exactly as given (migration 0270). */
  price_e4: number;
  /** The quantity the price is for, in thousandths (1000: per unit). Migration 0270. */
  base_quantity_milli: number;
  vat_rate_bp: number;
  discount_bp: number;
  vat_exemption_reason: string | null;
  vat_category: LineVatCategory | null;
  /** `price_e4` includes VAT (a shelf price). */
  price_includes_vat: boolean;
  /** The line sells a service (migration 0280); null until taken from the product (resolveServiceLines). */
  is_service: boolean | null;
}

/** The price in bani that a 4-decimal price rounds to (half away from zero), kept in `price_bani`. */
export function priceBaniOf(priceE4: number): number {
  return roundHalfAwayFromZero(priceE4, 100);
}

/** A stored line's exact price: `price_e4`, or for a line stored before migration 0270 `price_bani` x 100. */
export function storedPriceE4(row: { price_bani: number; price_e4?: number | null }): number {
  return row.price_e4 === null || row.price_e4 === undefined ? Number(row.price_bani) * 100 : Number(row.price_e4);
}

/** A stored line's base quantity in thousandths (1000 before migration 0270). */
export function storedBaseMilli(row: { base_quantity_milli?: number | null }): number {
  return row.base_quantity_milli === null || row.base_quantity_milli === undefined ? 1000 : Number(row.base_quantity_milli);
}

/** A discount or charge on the whole invoice in integers; `amount_bani` has the invoice's sign. */
export interface AdjustmentIntegers {
  charge: boolean;
  amount_bani: number;
  vat_rate_bp: number;
  vat_category: LineVatCategory | null;
  reason: string | null;
  reason_code: string | null;
}

export interface Priced {
  lines: LineIntegers[];
  adjustments: AdjustmentIntegers[];
  totals: InvoiceTotals;
}

/** Wire discounts and charges -> integers, with a problem at `allowances_charges.i.vat_rate` for a rate no line has. */
export function adjustmentsToIntegers(items: readonly AdjustmentInput[], lines: readonly LineIntegers[]): { adjustments: AdjustmentIntegers[]; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const rates = new Set(lines.map((l) => `${l.vat_rate_bp}:${l.vat_rate_bp === 0 ? (l.vat_category ?? 'E') : ''}`));
  const adjustments = items.map((a, i): AdjustmentIntegers => {
    const rate = percentToBp(a.vat_rate);
    const category = a.vat_category ?? null;
    if (!rates.has(`${rate}:${rate === 0 ? (category ?? 'E') : ''}`)) {
      problems[`allowances_charges.${i}.vat_rate`] = NO_LINE_AT_RATE;
    }
    return { charge: a.charge, amount_bani: toBani(a.amount), vat_rate_bp: rate, vat_category: category, reason: a.reason ?? null, reason_code: a.reason_code ?? null };
  });
  return { adjustments, problems };
}

const NO_LINE_AT_RATE =
  'No line of the invoice has this VAT rate (and, at 0%, category): a discount or charge on the whole invoice goes with the lines of its rate.|' +
  'Nicio linie a facturii nu are această cotă de TVA (și, la 0%, categorie): o reducere sau o majorare pe toată factura se aplică liniilor cotei ei.';

/** As `invoices.allowances_charges_json` keeps them: the integers and the VAT each moved. Null when none. */
export function adjustmentsJson(priced: Priced): string | null {
  if (!priced.adjustments.length) return null;
  return JSON.stringify(priced.adjustments.map((a, i) => ({ ...a, vat_bani: priced.totals.adjustments[i]!.vat_bani })));
}

export type StoredAdjustment = AdjustmentIntegers & { vat_bani: number };

/** The stored discounts and charges, negated for a storno. */
export function storedAdjustments(json: string | null, negate = false): StoredAdjustment[] {
  if (!json) return [];
  return (JSON.parse(json) as StoredAdjustment[]).map((a) => (negate ? { ...a, amount_bani: -a.amount_bani, vat_bani: -a.vat_bani } : a));
}

/** A stored discount or charge as the wire states it (a draft's, kept when PUT does not replace them). */
export function adjustmentInput(a: AdjustmentIntegers): AdjustmentInput {
  return { charge: a.charge, amount: fromBani(a.amount_bani), vat_rate: bpToPercent(a.vat_rate_bp), vat_category: a.vat_category, reason: a.reason, reason_code: a.reason_code };
}

/** The references as stored: null when none is given. */
export function referencesJson(r: InvoiceReferences | null | undefined): string | null {
  const all = normalizeReferences(r);
  return all ? JSON.stringify(all) : null;
}

/** Every kind, null when not given (rows stored before despatch..invoiced_object existed lack those keys). */
export function storedReferences(json: string | null): InvoiceReferencesView {
  return (json ? normalizeReferences(JSON.parse(json) as InvoiceReferences) : null) ?? noReferences();
}

/** What shared/efactura needs of them: the integers with the VAT each moves as priced. */
export function adjustmentFacts(priced: Priced): AdjustmentFacts[] {
  return priced.adjustments.map((a, i) => ({ ...a, vat_bani: priced.totals.adjustments[i]!.vat_bani }));
}

/**
 * Wire lines -> integers, with one `en|ro` problem per offending member (`items.2.price`). The wire
 * schema already bounds the decimals; this also catches what only the integer conversion can see.
 */
export function linesToIntegers(items: readonly LineInput[], allowedRatesBp: ReadonlySet<number>): { lines: LineIntegers[]; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const lines: LineIntegers[] = [];
  items.forEach((item, i) => {
    const at = (field: string, convert: () => number): number => {
      try {
        return convert();
      } catch {
        problems[`items.${i}.${field}`] = 'Out of range or too many decimals.|În afara domeniului sau prea multe zecimale.';
        return 0;
      }
    };
    const quantity = at('quantity', () => toMilli(item.quantity));
    if (quantity < 0) problems[`items.${i}.quantity`] = 'Must be positive; a negative invoice is made by storno.|Trebuie să fie pozitivă; o factură negativă se face prin stornare.';
    const rate = at('vat_rate', () => percentToBp(item.vat_rate));
    if (!problems[`items.${i}.vat_rate`] && !allowedRatesBp.has(rate)) {
      problems[`items.${i}.vat_rate`] = 'Not a VAT rate of the company (21, 19, 11, 9, 5, 0 or a custom rate).|Nu este o cotă TVA a firmei (21, 19, 11, 9, 5, 0 sau o cotă proprie).';
    }
    const priceE4 = at('price', () => toPriceE4(item.price));
    const baseMilli = at('base_quantity', () => toMilli(item.base_quantity));
    if (!problems[`items.${i}.base_quantity`] && baseMilli <= 0) problems[`items.${i}.base_quantity`] = 'Must be above 0.|Trebuie să fie peste 0.';
    // A line's amount is a money amount too: it obeys the same limit as any member.
    if (!problems[`items.${i}.price`] && !problems[`items.${i}.base_quantity`] && !lineWithinLimit(quantity, priceE4, baseMilli)) {
      problems[`items.${i}.price`] =
        `quantity × price must be at most ${MAX_AMOUNT} lei.|cantitate × preț trebuie să fie cel mult ${MAX_AMOUNT} lei.`;
    }
    lines.push({
      product_id: item.product_id ?? null,
      description: item.description,
      quantity_milli: quantity,
      unit: item.unit,
      unit_code: item.unit_code,
      price_bani: priceBaniOf(priceE4),
      price_e4: priceE4,
      base_quantity_milli: baseMilli > 0 ? baseMilli : 1000,
      vat_rate_bp: rate,
      discount_bp: at('discount_percent', () => percentToBp(item.discount_percent)),
      vat_exemption_reason: item.vat_exemption_reason ?? null,
      vat_category: item.vat_category ?? null,
      price_includes_vat: item.price_includes_vat,
      is_service: item.is_service ?? null,
    });
  });
  return { lines, problems };
}

/** quantity x price / base within MAX_AMOUNT (computed exactly: the product may pass 2^53). */
function lineWithinLimit(quantityMilli: number, priceE4: number, baseMilli: number): boolean {
  try {
    return Math.abs(lineAmountBani(quantityMilli, priceE4, baseMilli > 0 ? baseMilli : 1000)) <= MAX_AMOUNT_BANI;
  } catch {
    return false;
  }
}

/** Totals with the same function the desktop app runs offline: the two agree to the ban. */
export function price(lines: LineIntegers[], reverseCharge: boolean, adjustments: readonly AdjustmentIntegers[] = []): Priced {
  const totals = computeTotals(
    lines.map((l) => ({
      quantity_milli: l.quantity_milli, unit_price_bani: l.price_bani, unit_price_e4: l.price_e4, base_quantity_milli: l.base_quantity_milli, vat_rate_bp: l.vat_rate_bp,
      discount_bp: l.discount_bp, vat_category: l.vat_category, price_includes_vat: l.price_includes_vat,
    })),
    { reverse_charge: reverseCharge, adjustments },
  );
  // The document's total obeys the limit of any amount; refused before anything is written.
  if (Math.abs(totals.total_bani) > MAX_AMOUNT_BANI) {
    throw validationFailed({ items: `The invoice total must be at most ${MAX_AMOUNT} lei.|Totalul facturii trebuie să fie cel mult ${MAX_AMOUNT} lei.` });
  }
  return { lines, adjustments: adjustments.map((a) => ({ charge: a.charge, amount_bani: a.amount_bani, vat_rate_bp: a.vat_rate_bp, vat_category: a.vat_category, reason: a.reason, reason_code: a.reason_code })), totals };
}

export function lineRows(invoiceId: string, companyId: string, priced: Priced, newId: () => string): InvoiceLinesTable[] {
  return priced.lines.map((line, i) => {
    const amounts = priced.totals.lines[i]!;
    return {
      id: newId(),
      invoice_id: invoiceId,
      company_id: companyId,
      position: i + 1,
      ...line,
      price_includes_vat: line.price_includes_vat ? 1 : 0,
      is_service: line.is_service ? 1 : 0,
      discount_bani: amounts.discount_bani,
      net_bani: amounts.net_bani,
      vat_bani: amounts.vat_bani,
      total_bani: amounts.total_bani,
    };
  });
}

/** Stored lines re-priced with the same shared arithmetic that priced them when they were written. */
export function storedPriced(rows: readonly InvoiceLinesTable[], reverseCharge: boolean, adjustments: readonly AdjustmentIntegers[] = []): Priced {
  return price(rows.map((r) => ({
    product_id: r.product_id, description: r.description, quantity_milli: Number(r.quantity_milli), unit: r.unit, unit_code: r.unit_code,
    price_bani: Number(r.price_bani), price_e4: storedPriceE4(r), base_quantity_milli: storedBaseMilli(r), vat_rate_bp: Number(r.vat_rate_bp), discount_bp: Number(r.discount_bp),
    vat_exemption_reason: r.vat_exemption_reason, vat_category: r.vat_category, price_includes_vat: Number(r.price_includes_vat) === 1,
    is_service: Number(r.is_service) === 1,
  })), reverseCharge, adjustments);
}

export const STANDARD_RATES: ReadonlySet<number> = new Set(STANDARD_VAT_RATES_BP);

export function breakdownJson(totals: InvoiceTotals): string {
  return JSON.stringify(totals.breakdown);
}
