import { MAX_AMOUNT_BANI } from '../../../shared/schemas/common';
import { addBani, mulDivRound, type Bani } from '../../../shared/money';
import type { ExpenseItemInput, ExpenseVat, ExpenseVatRate, VatBreakdownInput } from '../../../shared/schemas/expense';

/**
 * Expense arithmetic, all in integer bani. One rule for every path: VAT is rounded half away from
 * zero to the ban, per line (or per header on a flat expense), and totals are sums, so header,
 * lines and breakdown always add up exactly.
 *
 * `with_vat` says whether the amount the caller gives (the flat `amount`, or each line's
 * `unit_price`) already includes VAT:
 *   - true:  total = amount, VAT = round(total * rate / (100 + rate)), net = total - VAT;
 *   - false: net = amount, VAT = round(net * rate / 100), total = net + VAT.
 * A `mix` expense ignores it: the contract makes `amount` the net there.
 */

export interface Split {
  net: Bani;
  vat: Bani;
  total: Bani;
}

export function splitAmount(amount: Bani, rate: number, withVat: boolean): Split {
  if (withVat) {
    const vat = mulDivRound(amount, rate, 100 + rate);
    return { net: amount - vat, vat, total: amount };
  }
  const vat = mulDivRound(amount, rate, 100);
  return { net: amount, vat, total: addBani(amount, vat) };
}

export interface ComputedLine extends Split {
  kind: 'item' | 'vat_group';
  description: string | null;
  quantity_milli: number;
  unit_price_bani: Bani;
  vat_percent: number;
}

/** A line as sent (`item`) or as stored, whose amounts are (re)computed from quantity and price. */
export interface LineBasis {
  description: string;
  quantity_milli: number;
  unit_price_bani: Bani;
  vat_percent: number;
}

export function computeItemLine(line: LineBasis, withVat: boolean): ComputedLine {
  const amount = mulDivRound(line.quantity_milli, line.unit_price_bani, 1000);
  return { kind: 'item', description: line.description, quantity_milli: line.quantity_milli, unit_price_bani: line.unit_price_bani, vat_percent: line.vat_percent, ...splitAmount(amount, line.vat_percent, withVat) };
}

export function itemBasis(item: ExpenseItemInput): LineBasis {
  return { description: item.description, quantity_milli: item.quantity ?? 1000, unit_price_bani: item.unit_price, vat_percent: item.vat };
}

/** What the expense header stores, whichever path produced it. */
export interface HeaderAmounts extends Split {
  /** null when several rates are present. */
  vat_percent: number | null;
  with_vat: boolean;
  itemized: boolean;
  entered_amount_bani: Bani | null;
  vat_manual_bani: Bani | null;
  lines: ComputedLine[];
}

function sum(lines: readonly Split[]): Split {
  let net = 0;
  let vat = 0;
  let total = 0;
  for (const l of lines) {
    net = addBani(net, l.net);
    vat = addBani(vat, l.vat);
    total = addBani(total, l.total);
  }
  // A total is an amount too: past the limit the route answers 422 value_out_of_range, before any write.
  if (Math.abs(total) > MAX_AMOUNT_BANI || Math.abs(net) > MAX_AMOUNT_BANI) throw new RangeError('Expense total out of range');
  return { net, vat, total };
}

/** Itemized: the header is whatever the lines add up to; one rate if they share one, else `mix`. */
export function fromLines(lines: readonly LineBasis[], withVat: boolean): HeaderAmounts {
  const computed = lines.map((l) => computeItemLine(l, withVat));
  const rates = new Set(computed.map((l) => l.vat_percent));
  return {
    ...sum(computed),
    vat_percent: rates.size === 1 ? [...rates][0]! : null,
    with_vat: withVat,
    itemized: true,
    entered_amount_bani: null,
    vat_manual_bani: null,
    lines: computed,
  };
}

/** Flat, one rate. */
export function flatSingle(amount: Bani, rate: ExpenseVatRate, withVat: boolean): HeaderAmounts {
  return { ...splitAmount(amount, rate, withVat), vat_percent: rate, with_vat: withVat, itemized: false, entered_amount_bani: amount, vat_manual_bani: null, lines: [] };
}

/** Flat `mix`: net as given, VAT as given, total their sum; a breakdown becomes one line per rate. */
export function flatMix(net: Bani, vatManual: Bani, groups: readonly ComputedLine[]): HeaderAmounts {
  return { net, vat: vatManual, total: addBani(net, vatManual), vat_percent: null, with_vat: false, itemized: false, entered_amount_bani: net, vat_manual_bani: vatManual, lines: [...groups] };
}

/**
 * Checks a `mix` breakdown against the header and turns it into one line per rate. Each entry
 * must add up (net + VAT = gross, no VAT at rate 0), rates must differ, and the entries must sum to
 * the header's net and VAT. Returns field messages (`English|Română`) on failure.
 */
export function breakdownLines(
  breakdown: readonly VatBreakdownInput[],
  net: Bani,
  vatManual: Bani,
): { ok: true; lines: ComputedLine[] } | { ok: false; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const seen = new Set<number>();
  breakdown.forEach((entry, i) => {
    if (seen.has(entry.rate)) fields[`vat_breakdown.${i}.rate`] = 'Each rate may appear once.|Fiecare cotă poate apărea o singură dată.';
    seen.add(entry.rate);
    if (entry.net + entry.vat_amount !== entry.gross) {
      fields[`vat_breakdown.${i}.gross`] = 'gross must equal net + vat_amount.|gross trebuie să fie egal cu net + vat_amount.';
    }
    if (entry.rate === 0 && entry.vat_amount !== 0) {
      fields[`vat_breakdown.${i}.vat_amount`] = 'Must be 0 at rate 0.|Trebuie să fie 0 la cota 0.';
    }
  });
  if (Object.keys(fields).length === 0) {
    const totals = sum(breakdown.map((e) => ({ net: e.net, vat: e.vat_amount, total: e.gross })));
    if (totals.net !== net || totals.vat !== vatManual) {
      fields.vat_breakdown =
        'The entries must add up to amount (net) and amount_vat_manual (VAT).|Intrările trebuie să însumeze amount (net) și amount_vat_manual (TVA).';
    }
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  const lines = [...breakdown]
    .sort((a, b) => b.rate - a.rate)
    .map<ComputedLine>((e) => ({
      kind: 'vat_group',
      description: null,
      quantity_milli: 1000,
      unit_price_bani: e.net,
      vat_percent: e.rate,
      net: e.net,
      vat: e.vat_amount,
      total: e.gross,
    }));
  return { ok: true, lines };
}

/** True when stored `vat_group` lines still add up to a mix header. */
export function groupsMatch(lines: readonly Split[], net: Bani, vatManual: Bani): boolean {
  const totals = sum(lines);
  return totals.net === net && totals.vat === vatManual;
}

/**
 * The same amounts in the accounting currency (RON): net and VAT each converted and rounded to
 * the ban, the total their sum, so the RON figures add up too. `rateMicro` null means RON already.
 */
export function toAccountingCurrency(amounts: Split, rateMicro: number | null): Split {
  if (rateMicro === null) return { net: amounts.net, vat: amounts.vat, total: amounts.total };
  const net = mulDivRound(amounts.net, rateMicro, 1_000_000);
  const vat = mulDivRound(amounts.vat, rateMicro, 1_000_000);
  const total = addBani(net, vat);
  if (Math.abs(total) > MAX_AMOUNT_BANI) throw new RangeError('Expense total in the accounting currency out of range');
  return { net, vat, total };
}

/** The header `vat` of a stored expense: its single rate, or `mix`. */
export function storedVat(vatPercent: number | null): ExpenseVat {
  return vatPercent === null ? 'mix' : (vatPercent as ExpenseVatRate);
}
