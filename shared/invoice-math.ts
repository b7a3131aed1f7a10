import { z } from 'zod';
import { addBani, mulDivRound, scaleExact, unscale, type Bani } from './money';

/**
 * Invoice arithmetic: the single source of truth for line amounts and totals. The server and the
 * offline desktop both call these functions, so an invoice issued offline and re-checked by the
 * server agrees to the ban. Everything here is integers:
 *   - quantity in thousandths (`quantity_milli`; the wire quantity has at most 3 decimals),
 *   - prices and amounts in bani,
 *   - VAT rate and discount in basis points (2100 = 21%, 2050 = 20.5%, discount 10000 = 100%).
 *
 * Rounding is half away from zero at each of three steps on a line (gross, discount, VAT); VAT is
 * computed per line and then summed per rate, because the breakdown is what the printed invoice
 * and the UBL XML show and both must add up exactly.
 */

/**
 * Romanian VAT rates (basis points), highest first: 21% and 11% apply from 1 August 2025; 19%, 9%
 * and 5% stay for earlier tax points and transitional cases; 0 for exempt or zero-rated supplies.
 */
export const STANDARD_VAT_RATES_BP = [2100, 1900, 1100, 900, 500, 0] as const;

const MAX_RATE_BP = 10_000;

/** Wire quantity (at most 3 decimals: 1.5, 0.125, -2) -> thousandths. Throws RangeError. */
export function toMilli(quantity: number): number {
  return scaleExact(quantity, 3, 'Quantity');
}

/** Thousandths -> wire quantity (1500 -> 1.5). */
export function fromMilli(quantityMilli: number): number {
  return unscale(quantityMilli, 3, 'quantity_milli');
}

/** Wire percent (21, 20.5, 0) -> basis points (2100, 2050, 0). At most 2 decimals. */
export function percentToBp(percent: number): number {
  return scaleExact(percent, 2, 'Percent');
}

/** Basis points -> wire percent (2100 -> 21). */
export function bpToPercent(bp: number): number {
  return unscale(bp, 2, 'Basis points');
}

export interface LineInput {
  quantity_milli: number;
  unit_price_bani: Bani;
  vat_rate_bp: number;
  /** Percent discount on the line, in basis points, 0..10000. */
  discount_bp?: number;
  /** Why a 0% line carries no VAT (see {@link lineVatCategory}); ignored on a line with VAT. */
  vat_category?: LineVatCategory | null | undefined;
}

/**
 * Why a 0% line carries no VAT, as e-Factura says it (UNCL 5305): `E` exempt (art. 292 Cod fiscal),
 * `Z` zero-rated, `K` intra-community supply of goods (art. 294 alin. (2)), `G` export outside the EU
 * (art. 294 alin. (1)). Absent on a 0% line means `E`, what every 0% line was before the member existed.
 */
export const LINE_VAT_CATEGORIES = ['E', 'Z', 'K', 'G'] as const;
export type LineVatCategory = (typeof LINE_VAT_CATEGORIES)[number];

/** A line's category in effect: on a 0% line the one it states, `E` when it states none; none on a line with VAT. */
export function lineVatCategory(vatRateBp: number, stated: LineVatCategory | null | undefined): LineVatCategory | null {
  return vatRateBp === 0 ? (stated ?? 'E') : null;
}

export interface LineAmounts {
  /** round(quantity * unit price), before the discount. */
  gross_before_discount_bani: Bani;
  discount_bani: Bani;
  /** Taxable base: gross minus discount. */
  net_bani: Bani;
  vat_bani: Bani;
  total_bani: Bani;
}

function checkLine(line: LineInput): void {
  const { quantity_milli, unit_price_bani, vat_rate_bp, discount_bp = 0 } = line;
  if (!Number.isSafeInteger(quantity_milli)) throw new RangeError('quantity_milli must be an integer');
  if (!Number.isSafeInteger(unit_price_bani)) throw new RangeError('unit_price_bani must be an integer');
  if (!Number.isInteger(vat_rate_bp) || vat_rate_bp < 0 || vat_rate_bp > MAX_RATE_BP) {
    throw new RangeError('vat_rate_bp must be an integer from 0 to 10000');
  }
  if (!Number.isInteger(discount_bp) || discount_bp < 0 || discount_bp > 10_000) {
    throw new RangeError('discount_bp must be an integer from 0 to 10000');
  }
}

/**
 * Amounts of one line. A storno line (negative quantity) yields exactly the negation of the
 * positive line, because every rounding step is symmetric around zero.
 */
export function computeLine(line: LineInput): LineAmounts {
  checkLine(line);
  const discountBp = line.discount_bp ?? 0;
  const gross = mulDivRound(line.quantity_milli, line.unit_price_bani, 1000);
  const discount = mulDivRound(gross, discountBp, 10_000);
  const net = gross - discount;
  const vat = mulDivRound(net, line.vat_rate_bp, 10_000);
  return {
    gross_before_discount_bani: gross,
    discount_bani: discount,
    net_bani: net,
    vat_bani: vat,
    total_bani: addBani(net, vat),
  };
}

export interface VatBreakdownEntry {
  vat_rate_bp: number;
  /** On a 0% entry, which kind of 0% (each exemption is its own base on the invoice); null on a rate above 0 and under reverse charge. */
  vat_category: LineVatCategory | null;
  net_bani: Bani;
  vat_bani: Bani;
  total_bani: Bani;
}

export interface InvoiceTotals {
  gross_before_discount_bani: Bani;
  discount_bani: Bani;
  net_bani: Bani;
  vat_bani: Bani;
  total_bani: Bani;
  /**
   * One entry per VAT rate present on the lines, highest rate first; 0% lines one entry per category
   * (E, Z, K, G in that order): art. 319 (20) l Cod fiscal asks for the base of each rate and each
   * exemption. Under reverse charge a single 0% entry without category.
   */
  breakdown: VatBreakdownEntry[];
  /** The amounts of each input line, in input order (VAT already zeroed under reverse charge). */
  lines: LineAmounts[];
  reverse_charge: boolean;
}

export interface TotalsOptions {
  /**
   * Reverse charge (taxare inversă, art. 331 Cod fiscal; UBL category AE): the buyer accounts
   * for the VAT. Every line then carries 0 VAT whatever its rate, and the breakdown has a single
   * entry under rate 0 with the whole net, which is how the printed invoice and the XML show it.
   */
  reverse_charge?: boolean;
}

/**
 * Totals of an invoice: every line computed with {@link computeLine}, VAT per line, then summed per
 * rate. Breakdown sums always equal the totals. No lines give zero totals and an empty breakdown.
 */
export function computeTotals(lines: readonly LineInput[], options: TotalsOptions = {}): InvoiceTotals {
  const reverseCharge = options.reverse_charge === true;
  const groups = new Map<string, VatBreakdownEntry>();
  const amounts: LineAmounts[] = [];
  let gross = 0;
  let discount = 0;
  let net = 0;
  let vat = 0;
  for (const line of lines) {
    checkLine(line);
    const computed = computeLine(reverseCharge ? { ...line, vat_rate_bp: 0 } : line);
    amounts.push(computed);
    gross = addBani(gross, computed.gross_before_discount_bani);
    discount = addBani(discount, computed.discount_bani);
    net = addBani(net, computed.net_bani);
    vat = addBani(vat, computed.vat_bani);
    const rate = reverseCharge ? 0 : line.vat_rate_bp;
    const category = reverseCharge ? null : lineVatCategory(rate, line.vat_category);
    const key = `${rate}:${category ?? ''}`;
    const entry = groups.get(key) ?? { vat_rate_bp: rate, vat_category: category, net_bani: 0, vat_bani: 0, total_bani: 0 };
    entry.net_bani = addBani(entry.net_bani, computed.net_bani);
    entry.vat_bani = addBani(entry.vat_bani, computed.vat_bani);
    entry.total_bani = addBani(entry.total_bani, computed.total_bani);
    groups.set(key, entry);
  }
  const breakdown = [...groups.values()].sort(
    (a, b) => b.vat_rate_bp - a.vat_rate_bp || categoryOrder(a.vat_category) - categoryOrder(b.vat_category),
  );
  return {
    gross_before_discount_bani: gross,
    discount_bani: discount,
    net_bani: net,
    vat_bani: vat,
    total_bani: addBani(net, vat),
    breakdown,
    lines: amounts,
    reverse_charge: reverseCharge,
  };
}

/**
 * The category of a breakdown entry as stored: entries stored before the breakdown was split by
 * category carry none, and then every 0% line was E (or AE under reverse charge, which has none).
 */
export function storedBreakdownCategory(
  entry: { vat_rate_bp: number; vat_category?: LineVatCategory | null | undefined },
  reverseCharge: boolean,
): LineVatCategory | null {
  if (entry.vat_category !== undefined) return entry.vat_category;
  return reverseCharge ? null : lineVatCategory(entry.vat_rate_bp, null);
}

function categoryOrder(category: LineVatCategory | null): number {
  return category === null ? -1 : LINE_VAT_CATEGORIES.indexOf(category);
}

/** Wire quantity: a number with at most 3 decimals. */
export const zQuantity = z.number().refine(
  (n) => {
    try {
      toMilli(n);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'Quantity must be a number with at most 3 decimals' },
);

/** Wire VAT rate in percent (21, 19, 11, 9, 5, 0, or a firm's custom rate such as 20.5). */
export const zVatRatePercent = z
  .number()
  .min(0)
  .max(100)
  .refine(
    (n) => {
      try {
        percentToBp(n);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'VAT rate must be a percent with at most 2 decimals' },
  );

export const zQuantityMilli = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
export const zVatRateBp = z.number().int().min(0).max(MAX_RATE_BP);
export const zDiscountBp = z.number().int().min(0).max(10_000);
