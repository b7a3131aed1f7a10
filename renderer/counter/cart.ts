import { foreignVatId, isOtherEuMemberState } from '../../shared/eu';
import { mulDivRound, roundHalfAwayFromZero, type Bani } from '../../shared/money';
import { bpToPercent, computeTotals, fromMilli, linePriceE4, percentToBp, type InvoiceTotals } from '../../shared/invoice-math';
import type { AdjustmentInput, LineInput } from '../../shared/ipc';
import type { PaymentMethodType } from '../../shared/schemas/common';
import { lineVatCategory, type InvoiceReferenceKind, type LineVatCategory } from '../../shared/schemas/invoice';

/**
 * The counter's invoice being built: plain data and pure functions (a reducer), so the arithmetic
 * and the keyboard rules are tested without a browser. Amounts are integers throughout: quantities
 * in thousandths, prices in bani, rates and discounts in basis points, exactly what
 * shared/invoice-math takes, so the totals on screen are the totals the server will compute.
 */
export interface CartLine {
  /** Stable key for React and for editing; not sent. */
  key: string;
  product_id: string | null;
  code: string | null;
  description: string;
  unit: string;
  unit_code: string;
  quantity_milli: number;
  /** Unit price as the product states it: without VAT, or with VAT (the shelf price) when `price_includes_vat`. */
  unit_price_bani: Bani;
  /**
   * The same price with up to 4 decimals (ten-thousandths of a leu), on a line loaded from a draft that
   * has one (an invoice made on the service or elsewhere); absent: `unit_price_bani` is the price.
   */
  unit_price_e4?: number | undefined;
  /** The quantity the price is for, in thousandths (absent: 1000), kept from such a draft too. */
  base_quantity_milli?: number | undefined;
  /** The price is a shelf price: the line costs exactly quantity x price (shared/invoice-math extracts the VAT). */
  price_includes_vat: boolean;
  vat_rate_bp: number;
  discount_bp: number;
  vat_exemption_reason: string | null;
  /** Why a 0% line carries no VAT; null reads as E (exempt). Always null on a line with VAT. */
  vat_category: LineVatCategory | null;
  /** A return line: the id of the invoice the goods came from (its storno takes the line back). */
  return_of: string | null;
}

/**
 * A discount (or, with `charge`, a charge such as transport) on the whole invoice (BG-20/BG-21), at the
 * VAT rate of the lines it goes with. Typed as a percent of those lines (`percent_bp`) or as an amount.
 */
export interface CartAdjustment {
  key: string;
  charge: boolean;
  /** Basis points of the rate's lines net; null when an amount was typed. */
  percent_bp: number | null;
  /** Without VAT; used when `percent_bp` is null. */
  amount_bani: Bani;
  vat_rate_bp: number;
  /** At 0% only: which 0% lines (null = E). */
  vat_category: LineVatCategory | null;
  /** UNTDID 5189 (discount) or 7161 (charge) code, from the short list; '' for none. */
  reason_code: string;
  /** Free text; '' means the code's own label is sent. */
  reason: string;
}

/** The reason codes a shop uses, in the order the form offers them (UNTDID 5189 discounts, 7161 charges). */
export const ALLOWANCE_REASON_CHOICES = ['95', '100', '104', '105', '68', '65'] as const;
export const CHARGE_REASON_CHOICES = ['FC', 'ABL', 'PC', 'SH', 'LA', 'ABK'] as const;

export type CartReferences = Partial<Record<InvoiceReferenceKind, string>>;

export interface CartClient {
  id: string | null;
  name: string;
  cui: string | null;
  vat_payer: boolean;
  /** ISO country: a foreign buyer's tax code is written as given, without RO. */
  country: string;
  /** County, or abroad the region: e-Factura wants it on an intra-community supply's delivery address. */
  county: string | null;
}

export interface Cart {
  /**
   * The cart's identity: the invoice's local id and its idempotency key on the wire. A cart gives at
   * most one document; a new id comes only with a new cart.
   */
  id: string;
  lines: CartLine[];
  client: CartClient | null;
  payment_method: PaymentMethodType;
  /** With cash (`receipt`): the part paid by card, a split payment; 0 for all cash. */
  card_bani: Bani;
  /** Cash handed over by the customer, for the change to give back; 0 when not typed. */
  tendered_bani: Bani;
  reverse_charge: boolean;
  observations: string;
  /** `YYYY-MM-DD`, or '' for none: when payment is due. */
  due_date: string;
  /** `YYYY-MM-DD`, or '' for none: when the goods were delivered, if not the issue date (art. 319 (20) d). */
  delivery_date: string;
  /** Discounts and charges on the whole invoice. */
  adjustments: CartAdjustment[];
  /** Order, contract, delivery note... as typed ('' or absent: none). */
  references: CartReferences;
  /** Index into `lines` of the line the keyboard edits (the last added by default). */
  selected: number;
  nextKey: number;
  /** When it was parked (unix seconds); null for the cart on the counter. */
  parked_at: number | null;
}

/** What the counter needs of a product (the host's ProductView has these members). */
export interface CartProduct {
  id: string;
  name: string;
  code: string | null;
  unit: string;
  unit_code: string;
  price_bani: Bani;
  price_includes_vat: boolean;
  /** Percent, as the contract carries it (21, 20.5). */
  vat_rate: number;
}

export const emptyCart = (payment: PaymentMethodType = 'receipt', id: string = newCartId()): Cart => ({
  id,
  lines: [],
  client: null,
  payment_method: payment,
  card_bani: 0,
  tendered_bani: 0,
  reverse_charge: false,
  observations: '',
  due_date: '',
  delivery_date: '',
  adjustments: [],
  references: {},
  selected: -1,
  nextKey: 1,
  parked_at: null,
});

/** A fresh cart id (a UUID, as the wire's `client_local_uuid` wants). */
export function newCartId(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * A shelf price divided back to a net price rounded to the ban. No longer how a line is priced (a
 * VAT-included line keeps its shelf price and shared/invoice-math extracts the VAT per rate, so the
 * customer pays the shelf price exactly: docs/shelf-prices.md); kept for what shows a net figure.
 */
export function netUnitPrice(product: Pick<CartProduct, 'price_bani' | 'price_includes_vat' | 'vat_rate'>): Bani {
  const price = product.price_bani;
  if (!product.price_includes_vat) return price;
  const rate = percentToBp(product.vat_rate);
  return mulDivRound(price, 10_000, 10_000 + rate);
}

export type CartAction =
  | { type: 'addProduct'; product: CartProduct; quantity_milli?: number }
  | { type: 'addFree'; description: string; unit_price_bani: Bani; vat_rate_bp: number; quantity_milli?: number }
  | { type: 'setQuantity'; index: number; quantity_milli: number }
  | { type: 'setDiscount'; index: number; discount_bp: number }
  | { type: 'setPrice'; index: number; unit_price_bani: Bani }
  | { type: 'setUnitPrice'; index: number; unit_price_e4: number }
  | { type: 'setExemption'; index: number; reason: string | null }
  | { type: 'setVatCategory'; index: number; category: LineVatCategory | null }
  | { type: 'remove'; index: number }
  | { type: 'select'; index: number }
  | { type: 'nudgeQuantity'; delta_milli: number }
  | { type: 'setClient'; client: CartClient | null }
  | { type: 'setPayment'; payment_method: PaymentMethodType }
  | { type: 'setSplit'; card_bani: Bani }
  | { type: 'setTendered'; tendered_bani: Bani }
  | { type: 'restore'; cart: Cart }
  | { type: 'setReverseCharge'; value: boolean }
  | { type: 'setObservations'; value: string }
  | { type: 'setDates'; due_date?: string; delivery_date?: string }
  | { type: 'addAdjustment'; charge: boolean }
  | { type: 'updateAdjustment'; index: number; patch: Partial<Omit<CartAdjustment, 'key'>> }
  | { type: 'removeAdjustment'; index: number }
  | { type: 'setReference'; kind: InvoiceReferenceKind; value: string }
  | {
      type: 'load';
      lines: Omit<CartLine, 'key'>[];
      client: CartClient | null;
      payment_method: PaymentMethodType | null;
      reverse_charge: boolean;
      observations: string;
      due_date: string;
      delivery_date: string;
      adjustments?: Omit<CartAdjustment, 'key'>[];
      references?: CartReferences;
    }
  | { type: 'clear'; id: string; payment_method: PaymentMethodType };

/** The line is sold at the product's own price per unit, not at one typed at the counter. */
function atProductPrice(line: CartLine, product: CartProduct): boolean {
  return linePriceE4(line) === product.price_bani * 100 && (line.base_quantity_milli ?? 1000) === 1000 && line.price_includes_vat === product.price_includes_vat;
}

function clampIndex(cart: Cart, index: number): number {
  if (cart.lines.length === 0) return -1;
  return Math.max(0, Math.min(cart.lines.length - 1, index));
}

function updateLine(cart: Cart, index: number, patch: Partial<CartLine>): Cart {
  if (index < 0 || index >= cart.lines.length) return cart;
  const lines = cart.lines.slice();
  const line = { ...lines[index]!, ...patch };
  // The service refuses a category on a line with VAT: whatever changed, only a 0% line keeps one.
  lines[index] = line.vat_rate_bp === 0 ? line : { ...line, vat_category: null };
  return { ...cart, lines };
}

export function cartReducer(cart: Cart, action: CartAction): Cart {
  switch (action.type) {
    case 'addProduct': {
      const quantity = action.quantity_milli ?? 1000;
      // Scanning the same article again adds to its line, as a till does, instead of a new line; not to
      // a line given a discount or another price, which are that line's alone.
      const existing = cart.lines.findIndex((l) => l.product_id === action.product.id && l.discount_bp === 0 && atProductPrice(l, action.product));
      if (existing >= 0) {
        const line = cart.lines[existing]!;
        return { ...updateLine(cart, existing, { quantity_milli: line.quantity_milli + quantity }), selected: existing };
      }
      const line: CartLine = {
        key: `l${cart.nextKey}`,
        product_id: action.product.id,
        code: action.product.code,
        description: action.product.name,
        unit: action.product.unit,
        unit_code: action.product.unit_code,
        quantity_milli: quantity,
        unit_price_bani: action.product.price_bani,
        price_includes_vat: action.product.price_includes_vat,
        vat_rate_bp: percentToBp(action.product.vat_rate),
        discount_bp: 0,
        vat_exemption_reason: null,
        vat_category: null,
        return_of: null,
      };
      return { ...cart, lines: [...cart.lines, line], selected: cart.lines.length, nextKey: cart.nextKey + 1 };
    }
    case 'addFree': {
      const line: CartLine = {
        key: `l${cart.nextKey}`,
        product_id: null,
        code: null,
        description: action.description,
        unit: 'buc',
        unit_code: 'H87',
        quantity_milli: action.quantity_milli ?? 1000,
        unit_price_bani: action.unit_price_bani,
        price_includes_vat: false,
        vat_rate_bp: action.vat_rate_bp,
        discount_bp: 0,
        vat_exemption_reason: null,
        vat_category: null,
        return_of: null,
      };
      return { ...cart, lines: [...cart.lines, line], selected: cart.lines.length, nextKey: cart.nextKey + 1 };
    }
    case 'setQuantity':
      // Zero is not a line (the wire refuses it); negative quantities belong to a storno, not the counter.
      if (action.quantity_milli <= 0) return cart;
      return updateLine(cart, action.index, { quantity_milli: action.quantity_milli });
    case 'setDiscount':
      if (action.discount_bp < 0 || action.discount_bp > 10_000) return cart;
      return updateLine(cart, action.index, { discount_bp: action.discount_bp });
    case 'setPrice':
      if (action.unit_price_bani < 0) return cart;
      // A price typed in bani replaces a 4-decimal one.
      return updateLine(cart, action.index, { unit_price_bani: action.unit_price_bani, unit_price_e4: undefined });
    case 'setUnitPrice': {
      // The price typed at the counter, up to 4 decimals, with or without VAT as the line's product
      // states it (price_includes_vat stays) and for the line's base quantity (kept too).
      const line = cart.lines[action.index];
      if (!line || !Number.isSafeInteger(action.unit_price_e4) || action.unit_price_e4 <= 0) return cart;
      if (linePriceE4(line) === action.unit_price_e4) return cart;
      // A whole number of bani travels as bani alone, as a catalogue price does; more decimals keep
      // the exact price, and `unit_price_bani` is only its rounding to the ban (what the wire wants).
      const exact = action.unit_price_e4 % 100 !== 0;
      return updateLine(cart, action.index, {
        unit_price_bani: exact ? roundHalfAwayFromZero(action.unit_price_e4, 100) : action.unit_price_e4 / 100,
        unit_price_e4: exact ? action.unit_price_e4 : undefined,
      });
    }
    case 'setExemption':
      return updateLine(cart, action.index, { vat_exemption_reason: action.reason });
    case 'setVatCategory':
      return updateLine(cart, action.index, { vat_category: action.category });
    case 'remove': {
      if (action.index < 0 || action.index >= cart.lines.length) return cart;
      const lines = cart.lines.filter((_, i) => i !== action.index);
      const next = { ...cart, lines };
      return { ...next, selected: clampIndex(next, cart.selected >= action.index ? cart.selected - 1 : cart.selected) };
    }
    case 'select':
      return { ...cart, selected: clampIndex(cart, action.index) };
    case 'nudgeQuantity': {
      const line = cart.lines[cart.selected];
      if (!line) return cart;
      const next = line.quantity_milli + action.delta_milli;
      if (next <= 0) return cartReducer(cart, { type: 'remove', index: cart.selected });
      return updateLine(cart, cart.selected, { quantity_milli: next });
    }
    case 'setClient':
      // A buyer outside the VAT system cannot be invoiced under reverse charge.
      return { ...cart, client: action.client, reverse_charge: action.client?.vat_payer ? cart.reverse_charge : false };
    case 'setPayment':
      return { ...cart, payment_method: action.payment_method, card_bani: 0 };
    case 'setSplit':
      // A card part is paid alongside cash: the method is cash, the card part recorded apart.
      return { ...cart, payment_method: 'receipt', card_bani: Math.max(0, action.card_bani) };
    case 'setTendered':
      return { ...cart, tendered_bani: Math.max(0, action.tendered_bani) };
    case 'restore':
      return action.cart;
    case 'setReverseCharge':
      return { ...cart, reverse_charge: action.value };
    case 'setObservations':
      return { ...cart, observations: action.value };
    case 'setDates':
      return {
        ...cart,
        due_date: action.due_date ?? cart.due_date,
        delivery_date: action.delivery_date ?? cart.delivery_date,
      };
    case 'addAdjustment': {
      // At the rate most of the invoice carries: the highest rate of its lines (21% on an empty cart).
      const rate = cart.lines.reduce((max, l) => Math.max(max, l.vat_rate_bp), cart.lines.length ? 0 : 2100);
      const adjustment: CartAdjustment = {
        key: `a${cart.nextKey}`, charge: action.charge, percent_bp: action.charge ? null : 0, amount_bani: 0, vat_rate_bp: rate, vat_category: null,
        reason_code: action.charge ? CHARGE_REASON_CHOICES[0] : ALLOWANCE_REASON_CHOICES[0], reason: '',
      };
      return { ...cart, adjustments: [...cart.adjustments, adjustment], nextKey: cart.nextKey + 1 };
    }
    case 'updateAdjustment': {
      if (action.index < 0 || action.index >= cart.adjustments.length) return cart;
      const adjustments = cart.adjustments.slice();
      adjustments[action.index] = { ...adjustments[action.index]!, ...action.patch };
      return { ...cart, adjustments };
    }
    case 'removeAdjustment':
      return { ...cart, adjustments: cart.adjustments.filter((_, i) => i !== action.index) };
    case 'setReference':
      return { ...cart, references: { ...cart.references, [action.kind]: action.value } };
    case 'load': {
      // A draft reopened at the counter: its lines become editable cart lines again.
      const lines = action.lines.map((l, i) => ({ ...l, key: `l${cart.nextKey + i}` }));
      return {
        ...cart,
        lines,
        client: action.client,
        payment_method: action.payment_method ?? cart.payment_method,
        reverse_charge: action.reverse_charge,
        observations: action.observations,
        due_date: action.due_date,
        delivery_date: action.delivery_date,
        adjustments: (action.adjustments ?? []).map((a, i) => ({ ...a, key: `a${cart.nextKey + lines.length + i}` })),
        references: action.references ?? {},
        selected: lines.length - 1,
        nextKey: cart.nextKey + lines.length + (action.adjustments?.length ?? 0),
      };
    }
    case 'clear':
      // Every new cart starts from the counter's default method, not the last customer's.
      return { ...emptyCart(action.payment_method, action.id), nextKey: cart.nextKey };
  }
}

function totalsInput(cart: Cart) {
  return cart.lines.map((l) => ({
    quantity_milli: l.quantity_milli,
    unit_price_bani: l.unit_price_bani,
    unit_price_e4: l.unit_price_e4,
    base_quantity_milli: l.base_quantity_milli,
    vat_rate_bp: l.vat_rate_bp,
    discount_bp: l.discount_bp,
    vat_category: l.vat_category,
    price_includes_vat: l.price_includes_vat,
  }));
}

/** The rate (and, at 0%, category) key a discount or charge shares with its lines, as the service matches them. */
function rateKey(rateBp: number, category: LineVatCategory | null): string {
  return `${rateBp}:${rateBp === 0 ? (category ?? 'E') : ''}`;
}

/**
 * Each discount and charge in bani: a percent is taken of the net of the lines at its rate (after their own
 * discounts), rounded to the ban once, here, so the host and the service receive the same amount.
 */
export function cartAdjustmentAmounts(cart: Cart): Bani[] {
  const plain = computeTotals(totalsInput(cart), { reverse_charge: cart.reverse_charge });
  return cart.adjustments.map((a) => {
    if (a.percent_bp === null) return a.amount_bani;
    const base = cart.lines.reduce((sum, l, i) => (rateKey(l.vat_rate_bp, l.vat_category) === rateKey(a.vat_rate_bp, a.vat_category) ? sum + plain.lines[i]!.net_bani : sum), 0);
    return mulDivRound(base, a.percent_bp, 10_000);
  });
}

/** Which discounts and charges name a rate no line has (the host and the service refuse them). */
function adjustmentsWithoutLines(cart: Cart): number[] {
  const rates = new Set(cart.lines.map((l) => rateKey(l.vat_rate_bp, l.vat_category)));
  return cart.adjustments.flatMap((a, i) => (rates.has(rateKey(a.vat_rate_bp, a.vat_category)) ? [] : [i]));
}

export function cartTotals(cart: Cart): InvoiceTotals {
  // Only those the computation can place: one at a rate no line has is a problem to fix (cartProblems), not a crash.
  const orphan = new Set(adjustmentsWithoutLines(cart));
  const amounts = cartAdjustmentAmounts(cart);
  const adjustments = cart.adjustments.flatMap((a, i) => (orphan.has(i) || amounts[i]! <= 0 ? [] : [{ charge: a.charge, amount_bani: amounts[i]!, vat_rate_bp: a.vat_rate_bp, vat_category: a.vat_category }]));
  return computeTotals(totalsInput(cart), { reverse_charge: cart.reverse_charge, adjustments });
}

/** The discounts and charges as the host's `invoices.issue` takes them; `label` names a reason code when no text was typed. */
export function cartAdjustmentInputs(cart: Cart, label: (code: string) => string): AdjustmentInput[] {
  const amounts = cartAdjustmentAmounts(cart);
  return cart.adjustments.map((a, i) => ({
    charge: a.charge,
    amount_bani: amounts[i]!,
    vat_rate: bpToPercent(a.vat_rate_bp),
    vat_category: a.vat_rate_bp === 0 ? a.vat_category : null,
    reason: a.reason.trim() || (a.reason_code ? label(a.reason_code) : null),
    reason_code: a.reason_code || null,
  }));
}

/** The references typed, trimmed; null when none. */
export function cartReferences(cart: Cart): CartReferences | null {
  const entries = Object.entries(cart.references).map(([k, v]) => [k, v?.trim() ?? ''] as const).filter(([, v]) => v !== '');
  return entries.length ? Object.fromEntries(entries) : null;
}

/** The lines as the host's `invoices.issue` takes them (bani prices, wire quantities and percents). */
export function cartItems(cart: Cart): LineInput[] {
  return cart.lines.map((l) => ({
    product_id: l.product_id,
    description: l.description,
    quantity: fromMilli(l.quantity_milli),
    unit: l.unit,
    unit_code: l.unit_code,
    unit_price_bani: l.unit_price_bani,
    ...(l.unit_price_e4 !== undefined ? { unit_price_e4: l.unit_price_e4 } : {}),
    ...(l.base_quantity_milli !== undefined && l.base_quantity_milli !== 1000 ? { base_quantity: fromMilli(l.base_quantity_milli) } : {}),
    price_includes_vat: l.price_includes_vat,
    vat_rate: bpToPercent(l.vat_rate_bp),
    discount_percent: bpToPercent(l.discount_bp),
    // The reason is an exempt (E) line's only: K and G print their fixed legal mention, Z has none
    // (BR-Z-10). Kept in the cart, so switching back to E brings the typed reason back.
    vat_exemption_reason: isExempt(l) ? l.vat_exemption_reason : null,
    vat_category: l.vat_rate_bp === 0 ? l.vat_category : null,
  }));
}

/** A 0% line under the exemption (E), the one that must say why (art. 292). */
function isExempt(line: CartLine): boolean {
  return lineVatCategory(line.vat_rate_bp, line.vat_category) === 'E';
}

/** What must be fixed before issuing; empty when the cart can be issued. */
export type CartProblem =
  | 'no_lines'
  | 'client_required'
  | 'exemption_missing'
  | 'intra_community_buyer'
  | 'intra_community_vat_id'
  | 'intra_community_region'
  | 'due_before_issue'
  | 'zero_total'
  | 'card_part_too_large'
  | 'adjustment_rate'
  | 'adjustment_amount';

/**
 * What an intra-community supply (K) asks of its buyer, the rules the service applies when it sends
 * the invoice to e-Factura (server/modules/efactura-spv/invoice-document.ts): a client in another
 * member state (art. 294 alin. (2)), its VAT id with the country prefix (BR-IC-02) and the region on
 * its address, which is the delivery address (BR-RO-211). Caught here, the cashier fixes it before
 * the number is spent, not days later from the e-Factura outbox.
 */
function intraCommunityProblems(client: CartClient | null): CartProblem[] {
  if (!client || !isOtherEuMemberState(client.country)) return ['intra_community_buyer'];
  const problems: CartProblem[] = [];
  if (!foreignVatId(client.cui, client.vat_payer, client.country)) problems.push('intra_community_vat_id');
  if (!client.county?.trim()) problems.push('intra_community_region');
  return problems;
}

/** Who the counter's document is issued to: the chosen client, or a walk-in sale when none is chosen. */
export function cartIssueBuyer(cart: Cart): { client_id: string } | { walk_in: true } {
  return cart.client?.id ? { client_id: cart.client.id } : { walk_in: true };
}

export function cartProblems(cart: Cart, today?: string): CartProblem[] {
  const problems: CartProblem[] = [];
  if (cart.lines.length === 0) problems.push('no_lines');
  // No client is a walk-in sale: the document goes to "Persoană fizică" (cartIssueBuyer).
  // e-Factura (BR-E-10) and art. 319 (20) k: an exempt 0% line must say why; K, G and Z lines carry
  // their ground in the category itself.
  if (!cart.reverse_charge && cart.lines.some((l) => isExempt(l) && !l.vat_exemption_reason?.trim())) {
    problems.push('exemption_missing');
  }
  // Under reverse charge every line is AE, a K line included (as the service maps it).
  if (!cart.reverse_charge && cart.lines.some((l) => l.vat_rate_bp === 0 && l.vat_category === 'K')) {
    problems.push(...intraCommunityProblems(cart.client));
  }
  // The invoice is dated today: a due date before it is refused by the service (and by the host).
  if (today && cart.due_date && cart.due_date < today) problems.push('due_before_issue');
  // A sale of 0 lei or less is no sale (the host refuses it too): goods given back go through a storno.
  const total = cart.lines.length > 0 ? cartTotals(cart).total_bani : 0;
  if (cart.lines.length > 0 && total <= 0) problems.push('zero_total');
  if (adjustmentsWithoutLines(cart).length) problems.push('adjustment_rate');
  if (cartAdjustmentAmounts(cart).some((a) => a <= 0)) problems.push('adjustment_amount');
  if (cart.payment_method === 'receipt' && cart.card_bani > 0 && cart.card_bani >= total && total > 0) problems.push('card_part_too_large');
  return problems;
}

/** What the customer pays by card and in cash, and the change to give back from the cash handed over. */
export function cartTender(cart: Cart, totalBani: Bani): { card_bani: Bani; cash_bani: Bani; change_bani: Bani } {
  if (cart.payment_method === 'card') return { card_bani: totalBani, cash_bani: 0, change_bani: 0 };
  if (cart.payment_method !== 'receipt') return { card_bani: 0, cash_bani: 0, change_bani: 0 };
  const card = Math.min(cart.card_bani, Math.max(0, totalBani));
  const cash = Math.max(0, totalBani - card);
  return { card_bani: card, cash_bani: cash, change_bani: cart.tendered_bani > cash ? cart.tendered_bani - cash : 0 };
}
