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
 * A line's price is net (the B2B default) or includes VAT (a shop's shelf price, `price_includes_vat`):
 * - Net: rounding is half away from zero at each of two steps on a line (gross, discount); the VAT
 *   of a rate is round(sum of its lines' nets x rate), shared out among its lines so each is within
 *   a ban of its own VAT, and the breakdown meets BR-CO-17 however many lines there are.
 * - VAT included: the line's total is fixed first (quantity x shelf price less the discount, each
 *   rounded to the ban), so the customer pays exactly what the shelf says; the VAT is then extracted
 *   once per rate from the sum of those totals, and the rate's net is shared out among its lines
 *   (each line within a ban of its exact share), so the line nets add up to the rate's net and the
 *   breakdown meets BR-CO-17 however many lines there are. docs/shelf-prices.md has worked examples.
 * Either way the breakdown is what the printed invoice and the UBL XML show, and both add up exactly.
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

/**
 * The decimals a unit price may have: 4 (0,0125 lei per SMS, fuel at 7,4590 lei). Kept in integers as
 * ten-thousandths of a leu (`price_e4`); every amount computed from it is rounded to the ban once per line.
 */
export const PRICE_DECIMALS = 4;

/** Wire price (at most 4 decimals: 0.0125, 7.459, 12) -> ten-thousandths of a leu. Throws RangeError. */
export function toPriceE4(price: number): number {
  return scaleExact(price, PRICE_DECIMALS, 'Price');
}

/** Ten-thousandths of a leu -> wire price (125 -> 0.0125, 120000 -> 12). */
export function fromPriceE4(priceE4: number): number {
  return unscale(priceE4, PRICE_DECIMALS, 'price_e4');
}

/**
 * A price in ten-thousandths as decimal text with at least 2 decimals and at most 4, the zeros past
 * the second dropped: 125 -> "0.0125", 74590 -> "7.459", 120000 -> "12.00". What PriceAmount says.
 */
export function priceE4Text(priceE4: number): string {
  const negative = priceE4 < 0;
  const digits = String(Math.abs(priceE4)).padStart(5, '0');
  const whole = digits.slice(0, -4);
  const fraction = digits.slice(-4).replace(/0{1,2}$/, '');
  return `${negative ? '-' : ''}${whole}.${fraction.padEnd(2, '0')}`;
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
  /** Unit price in bani (rounded to the ban when `unit_price_e4` gives more decimals; the latter then wins). */
  unit_price_bani: Bani;
  /**
   * Unit price in ten-thousandths of a leu (0,0125 lei = 125; 7,4590 lei = 74590), for prices with up
   * to 4 decimals. Absent: `unit_price_bani` x 100. See {@link linePriceE4}.
   */
  unit_price_e4?: number | undefined;
  /**
   * The quantity the price is for (UBL BaseQuantity, BT-149), in thousandths: 1000 (the default) for a
   * price per unit, 100000 for a price per 100 units. The line's amount is quantity x price / base.
   */
  base_quantity_milli?: number | undefined;
  vat_rate_bp: number;
  /** Percent discount on the line, in basis points, 0..10000. */
  discount_bp?: number;
  /** Why a 0% line carries no VAT (see {@link lineVatCategory}); ignored on a line with VAT. */
  vat_category?: LineVatCategory | null | undefined;
  /** `unit_price_bani` includes VAT (a shelf price): the line's total is fixed and its VAT extracted. */
  price_includes_vat?: boolean | undefined;
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
  /**
   * round(quantity * unit price), before the discount. On a VAT-included line, the net equivalent:
   * net + discount (the shelf amount itself is `total_bani` + the discount with VAT).
   */
  gross_before_discount_bani: Bani;
  /** The discount without VAT (on a VAT-included line, the VAT-included discount with its VAT taken out). */
  discount_bani: Bani;
  /** Taxable base: gross minus discount. */
  net_bani: Bani;
  vat_bani: Bani;
  total_bani: Bani;
}

/** A line's unit price in ten-thousandths of a leu: `unit_price_e4`, else `unit_price_bani` x 100. */
export function linePriceE4(line: Pick<LineInput, 'unit_price_bani' | 'unit_price_e4'>): number {
  if (line.unit_price_e4 !== undefined) return line.unit_price_e4;
  const e4 = line.unit_price_bani * 100;
  if (!Number.isSafeInteger(e4)) throw new RangeError('unit_price_bani is out of range');
  return e4;
}

/** A line's base quantity in thousandths (1000 when not given). */
export function lineBaseMilli(line: Pick<LineInput, 'base_quantity_milli'>): number {
  return line.base_quantity_milli ?? 1000;
}

/**
 * round(quantity x price / base quantity) in bani, half away from zero: the one rounding of a line's
 * amount. In integers: quantity_milli x price_e4 / (100 x base_milli), exact in BigInt past 2^53
 * (a 4-decimal price times a 3-decimal quantity quickly leaves the safe range).
 */
export function lineAmountBani(quantityMilli: number, priceE4: number, baseMilli = 1000): Bani {
  return mulDivRound(quantityMilli, priceE4, 100 * baseMilli);
}

function checkLine(line: LineInput): void {
  const { quantity_milli, vat_rate_bp, discount_bp = 0 } = line;
  if (!Number.isSafeInteger(quantity_milli)) throw new RangeError('quantity_milli must be an integer');
  if (line.unit_price_e4 === undefined && !Number.isSafeInteger(line.unit_price_bani)) throw new RangeError('unit_price_bani must be an integer');
  if (line.unit_price_e4 !== undefined && !Number.isSafeInteger(line.unit_price_e4)) throw new RangeError('unit_price_e4 must be an integer');
  const base = lineBaseMilli(line);
  // 10^9 thousandths (a price per million units) keeps 100 x base well inside the safe range.
  if (!Number.isSafeInteger(base) || base <= 0 || base > 1_000_000_000) throw new RangeError('base_quantity_milli must be an integer from 1 to 10^9');
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
  if (line.price_includes_vat) return shelfLines([line], line.vat_rate_bp, false)[0]!;
  const discountBp = line.discount_bp ?? 0;
  const gross = lineAmountBani(line.quantity_milli, linePriceE4(line), lineBaseMilli(line));
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

/**
 * A discount or charge on the whole invoice (EN 16931 BG-20 / BG-21), without VAT, at one VAT rate
 * (and, at 0%, one category) that some line of the invoice has: it lowers or raises that rate's
 * taxable amount, and so its VAT. `amount_bani` has the sign of the invoice (negative on a storno).
 */
export interface DocumentAdjustmentInput {
  charge: boolean;
  amount_bani: Bani;
  vat_rate_bp: number;
  vat_category?: LineVatCategory | null | undefined;
}

export interface AdjustmentAmounts {
  /** Signed as it moves the taxable amount: an allowance negative on an invoice, a charge positive. */
  net_bani: Bani;
  /** The VAT it moves: the rate's VAT on its taxable amount less the VAT without it, shared out in order. */
  vat_bani: Bani;
}

export interface InvoiceTotals {
  gross_before_discount_bani: Bani;
  discount_bani: Bani;
  /** BT-106: the sum of the line nets. Equals `net_bani` when the invoice has no document-level allowance or charge. */
  lines_net_bani: Bani;
  /** BT-107 and BT-108: document-level allowances and charges (each as a positive sum on an invoice, negative on a storno). */
  allowance_total_bani: Bani;
  charge_total_bani: Bani;
  /** The amounts of each document-level allowance or charge, in input order. */
  adjustments: AdjustmentAmounts[];
  /** BT-109, the taxable total: line nets - allowances + charges. */
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
  /** Document-level allowances and charges (BG-20, BG-21). */
  adjustments?: readonly DocumentAdjustmentInput[];
}

/**
 * Totals of an invoice: every line computed with {@link computeLine}, the VAT of each rate computed
 * on the rate's net and shared out among its lines (net lines and shelf lines each so). Breakdown sums always equal the totals. No lines give zero totals and an empty breakdown.
 */
export function computeTotals(lines: readonly LineInput[], options: TotalsOptions = {}): InvoiceTotals {
  const reverseCharge = options.reverse_charge === true;
  const groups = new Map<string, VatBreakdownEntry>();
  const amounts: LineAmounts[] = [];
  for (const line of lines) checkLine(line);
  const shelf = shelfAmounts(lines, reverseCharge);
  const netVat = reverseCharge ? new Map<number, number>() : netLinesVat(lines);
  let gross = 0;
  let discount = 0;
  let net = 0;
  let vat = 0;
  for (const [i, line] of lines.entries()) {
    const computed = shelf.get(i) ?? withVat(computeLine(reverseCharge ? { ...line, vat_rate_bp: 0 } : line), netVat.get(i));
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
  const linesNet = net;
  const adjusted = applyAdjustments(options.adjustments ?? [], groups, lines, amounts, reverseCharge);
  net = addBani(net, adjusted.net);
  vat = addBani(vat, adjusted.vat);
  const breakdown = [...groups.values()].sort(
    (a, b) => b.vat_rate_bp - a.vat_rate_bp || categoryOrder(a.vat_category) - categoryOrder(b.vat_category),
  );
  return {
    gross_before_discount_bani: gross,
    discount_bani: discount,
    lines_net_bani: linesNet,
    allowance_total_bani: adjusted.allowances,
    charge_total_bani: adjusted.charges,
    adjustments: adjusted.amounts,
    net_bani: net,
    vat_bani: vat,
    total_bani: addBani(net, vat),
    breakdown,
    lines: amounts,
    reverse_charge: reverseCharge,
  };
}

/**
 * Document-level allowances and charges into the breakdown groups. Each moves its rate's taxable
 * amount; the VAT it moves is what the rate's VAT on the new taxable amount differs by: for the
 * net-priced lines of the rate, round((their nets + adjustments so far) x rate) less the same without
 * this one, so the VAT of the net part of a rate is its taxable amount x rate rounded once, and the
 * breakdown meets BR-CO-17 (shelf lines keep the VAT extracted from what the customer paid; the
 * adjustment's own VAT is added to it). Under reverse charge everything is at 0 and carries no VAT.
 * Throws RangeError for an adjustment at a rate (or 0% category) no line has: the caller checks that
 * first, with a message at the member.
 */
function applyAdjustments(
  adjustments: readonly DocumentAdjustmentInput[],
  groups: Map<string, VatBreakdownEntry>,
  lines: readonly LineInput[],
  amounts: readonly LineAmounts[],
  reverseCharge: boolean,
): { net: number; vat: number; allowances: number; charges: number; amounts: AdjustmentAmounts[] } {
  const out = { net: 0, vat: 0, allowances: 0, charges: 0, amounts: [] as AdjustmentAmounts[] };
  // The running taxable amount of each rate's net-priced lines, from which each adjustment's VAT follows.
  const running = new Map<number, number>();
  lines.forEach((line, i) => {
    if (line.price_includes_vat || reverseCharge) return;
    running.set(line.vat_rate_bp, addBani(running.get(line.vat_rate_bp) ?? 0, amounts[i]!.net_bani));
  });
  for (const a of adjustments) {
    if (!Number.isSafeInteger(a.amount_bani)) throw new RangeError('amount_bani must be an integer');
    const rate = reverseCharge ? 0 : a.vat_rate_bp;
    const category = reverseCharge ? null : lineVatCategory(rate, a.vat_category);
    const entry = groups.get(`${rate}:${category ?? ''}`);
    if (!entry) throw new RangeError(`no line has the VAT rate ${a.vat_rate_bp} bp${category ? ` (${category})` : ''} of a document-level allowance or charge`);
    const moved = a.charge ? a.amount_bani : -a.amount_bani;
    let vat = 0;
    if (rate > 0) {
      const before = running.get(rate) ?? 0;
      const after = addBani(before, moved);
      vat = mulDivRound(after, rate, 10_000) - mulDivRound(before, rate, 10_000);
      running.set(rate, after);
    }
    entry.net_bani = addBani(entry.net_bani, moved);
    entry.vat_bani = addBani(entry.vat_bani, vat);
    entry.total_bani = addBani(entry.total_bani, moved + vat);
    out.net = addBani(out.net, moved);
    out.vat = addBani(out.vat, vat);
    if (a.charge) out.charges = addBani(out.charges, a.amount_bani);
    else out.allowances = addBani(out.allowances, a.amount_bani);
    out.amounts.push({ net_bani: moved, vat_bani: vat });
  }
  return out;
}

/** A net line's amounts with the VAT its rate shared out to it (the total follows). */
function withVat(amounts: LineAmounts, vat: number | undefined): LineAmounts {
  return vat === undefined || vat === amounts.vat_bani ? amounts : { ...amounts, vat_bani: vat, total_bani: addBani(amounts.net_bani, vat) };
}

/**
 * The VAT of the net-priced lines, by index: per rate, round(sum of the lines' nets x rate) shared
 * out among the lines. Each line first gets its own VAT rounded (what {@link computeLine} gives);
 * the difference between their sum and the rate's VAT (at most half a ban per line, in practice a few
 * bani) is absorbed one ban at a time by the lines whose VAT was rounded furthest the other way (ties:
 * the earlier line), as the shelf lines share out their net. So the breakdown meets BR-CO-17 for any
 * number of lines (500 lines of 0,02 lei at 21% carry 2,10 lei of VAT, not 0), every line stays within
 * a ban of its own exact VAT, and a storno gives exactly the negated amounts.
 */
function netLinesVat(lines: readonly LineInput[]): Map<number, number> {
  const byRate = new Map<number, number[]>();
  lines.forEach((line, i) => {
    if (line.price_includes_vat || line.vat_rate_bp === 0) return;
    const indexes = byRate.get(line.vat_rate_bp) ?? [];
    indexes.push(i);
    byRate.set(line.vat_rate_bp, indexes);
  });
  const out = new Map<number, number>();
  for (const [rate, indexes] of byRate) {
    const nets = indexes.map((i) => computeLine(lines[i]!).net_bani);
    const vats = nets.map((n) => mulDivRound(n, rate, 10_000));
    const residual = mulDivRound(nets.reduce((a, b) => addBani(a, b), 0), rate, 10_000) - vats.reduce((a, b) => a + b, 0);
    if (residual !== 0) {
      // How far each line's VAT was rounded below its exact value, in 1/10000 ban.
      const gaps = nets.map((n, k) => shortfallOfProduct(n, rate, vats[k]!));
      const order = nets.map((_, k) => k);
      const sign = residual > 0 ? 1 : -1;
      order.sort((a, b) => sign * (gaps[b]! - gaps[a]!) || a - b);
      for (let k = 0; k < Math.abs(residual); k++) vats[order[k]!]! += sign;
    }
    indexes.forEach((lineIndex, k) => out.set(lineIndex, vats[k]!));
  }
  return out;
}

/** net x rate - rounded x 10000, exact past 2^53 too (only the order of these matters). */
function shortfallOfProduct(net: number, rateBp: number, rounded: number): number {
  const exact = net * rateBp - rounded * 10_000;
  if (Number.isSafeInteger(net * rateBp) && Number.isSafeInteger(rounded * 10_000)) return exact;
  return Number(BigInt(net) * BigInt(rateBp) - BigInt(rounded) * 10_000n);
}

/**
 * The amounts of the VAT-included lines, by index: each rate's lines are extracted together (under
 * reverse charge at their own rate too, since the shelf price held that VAT, which then is zero).
 */
function shelfAmounts(lines: readonly LineInput[], reverseCharge: boolean): Map<number, LineAmounts> {
  const byRate = new Map<number, number[]>();
  lines.forEach((line, i) => {
    if (!line.price_includes_vat) return;
    const indexes = byRate.get(line.vat_rate_bp) ?? [];
    indexes.push(i);
    byRate.set(line.vat_rate_bp, indexes);
  });
  const out = new Map<number, LineAmounts>();
  for (const [rate, indexes] of byRate) {
    const computed = shelfLines(indexes.map((i) => lines[i]!), rate, reverseCharge);
    indexes.forEach((lineIndex, k) => out.set(lineIndex, computed[k]!));
  }
  return out;
}

/** numerator * 10000 - rounded * denominator: how far `rounded` is below numerator * 10000 / denominator, in 1/denominator. */
function shortfall(numerator: number, rounded: number, denominator: number): number {
  const exact = numerator * 10_000 - rounded * denominator;
  if (Number.isSafeInteger(numerator * 10_000) && Number.isSafeInteger(rounded * denominator)) return exact;
  // Past 2^53 only the order matters, and the BigInt difference is small enough to be exact as a number.
  return Number(BigInt(numerator) * 10_000n - BigInt(rounded) * BigInt(denominator));
}

/**
 * VAT-included lines of one rate. Each line's total is quantity x shelf price, less its discount,
 * each rounded to the ban; the rate's net is round(sum of totals / (1 + rate)) and is shared out so
 * every line gets its exact share rounded, and the lines whose shares were rounded furthest the other
 * way absorb the difference, a ban each (ties to the earlier line). The same lines negated (a storno)
 * give exactly the negated amounts. A line's VAT is its total less its net.
 */
function shelfLines(lines: readonly LineInput[], rateBp: number, reverseCharge: boolean): LineAmounts[] {
  const denominator = 10_000 + rateBp;
  const totals: number[] = [];
  const discounts: number[] = [];
  let sum = 0;
  for (const line of lines) {
    const shelfAmount = lineAmountBani(line.quantity_milli, linePriceE4(line), lineBaseMilli(line));
    const shelfDiscount = line.discount_bp ? mulDivRound(shelfAmount, line.discount_bp, 10_000) : 0;
    discounts.push(shelfDiscount);
    totals.push(shelfAmount - shelfDiscount);
    sum = addBani(sum, shelfAmount - shelfDiscount);
  }
  const nets = totals.map((t) => mulDivRound(t, 10_000, denominator));
  const residual = mulDivRound(sum, 10_000, denominator) - nets.reduce((a, b) => a + b, 0);
  if (residual !== 0) {
    const gaps = totals.map((t, i) => shortfall(t, nets[i]!, denominator));
    const order = totals.map((_, i) => i);
    // Residual > 0: lines rounded down the most take a ban more; < 0: lines rounded up the most, a ban less.
    const sign = residual > 0 ? 1 : -1;
    order.sort((a, b) => sign * (gaps[b]! - gaps[a]!) || a - b);
    for (let k = 0; k < Math.abs(residual); k++) nets[order[k]!]! += sign;
  }
  return lines.map((_, i) => {
    const net = nets[i]!;
    const discount = discounts[i] ? mulDivRound(discounts[i]!, 10_000, denominator) : 0;
    const vat = reverseCharge ? 0 : totals[i]! - net;
    return {
      gross_before_discount_bani: net + discount,
      discount_bani: discount,
      net_bani: net,
      vat_bani: vat,
      total_bani: net + vat,
    };
  });
}

/**
 * The net unit price of a line (BT-146) as the XML and the printed invoice write it: net before the
 * discount divided by the quantity, as a decimal of lei with the fewest decimals (2 to 12) at which
 * quantity x price rounds back to that net, to the ban. UBL's PriceAmount may carry more than two
 * decimals (BR-DEC limits amounts, not prices); a VAT-included line's net price rarely ends at the ban.
 */
export function lineNetUnitPrice(quantityMilli: number, netBeforeDiscountBani: Bani): string {
  const q = BigInt(Math.abs(quantityMilli));
  const target = BigInt(Math.abs(netBeforeDiscountBani));
  if (q === 0n) return formatDecimal(0n, 2);
  let units = 0n;
  let decimals = 2;
  for (; decimals <= 12; decimals++) {
    // Price in 10^-decimals lei: target bani * 10^(decimals-2) * 1000 / q, rounded half up.
    const scale = 10n ** BigInt(decimals - 2) * 1000n;
    units = (2n * target * scale + q) / (2n * q);
    // Back to bani: q/1000 x units x 10^(2-decimals), rounded half up.
    if ((2n * q * units + scale) / (2n * scale) === target) break;
  }
  return formatDecimal(units, Math.min(decimals, 12));
}

function formatDecimal(units: bigint, decimals: number): string {
  const text = units.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals);
  return `${whole}.${fraction}`;
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

/** The largest unit price: the largest with 4 decimals that a JSON double carries exactly (MAX_WIRE_SCALED). */
export const MAX_UNIT_PRICE = 99_999_999_999.9999;

/** Wire unit price: not negative, at most 4 decimals, at most {@link MAX_UNIT_PRICE} lei. */
export const zUnitPrice = z
  .number()
  .min(0, 'Must not be negative|Nu poate fi negativ')
  .max(MAX_UNIT_PRICE, `Must be at most ${MAX_UNIT_PRICE}|Trebuie să fie cel mult ${MAX_UNIT_PRICE}`)
  .refine(
    (n) => {
      try {
        toPriceE4(n);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'At most 4 decimals|Cel mult 4 zecimale' },
  );

/** Wire base quantity (the quantity the price is for, BT-149): above 0, at most 3 decimals, at most 1 000 000. */
export const zBaseQuantity = z.number().positive().max(1_000_000).refine(
  (n) => {
    try {
      toMilli(n);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'Must be above 0 with at most 3 decimals|Trebuie să fie peste 0 cu cel mult 3 zecimale' },
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
