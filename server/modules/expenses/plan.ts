import { ACCOUNTING_CURRENCY, type ExpenseUpdate } from '../../../shared/schemas/expense';
import {
  breakdownLines,
  flatMix,
  flatSingle,
  fromLines,
  groupsMatch,
  itemBasis,
  storedVat,
  toAccountingCurrency,
  type ComputedLine,
  type HeaderAmounts,
  type Split,
} from './amounts';
import type { ExpenseRow, LineRow } from './store';

/**
 * Works out the amounts an expense will have after a create (no current row) or an update, from
 * the members sent and the ones stored. Pure: the routes do the reading and writing. Field
 * messages are `English|Română`.
 *
 * The paths, in the contract's order of precedence:
 *  1. `items` with lines: they replace every line; header `amount`, `vat`, `amount_vat_manual`
 *     and `vat_breakdown` are ignored and derived from the lines.
 *  2. an itemized expense with `items` omitted: lines untouched (re-priced if `with_vat` changes);
 *     sending header amounts then is refused, since they would contradict the lines.
 *  3. flat (no `items`, or `items: []`, which turns an itemized expense flat and then needs
 *     `amount` and `vat` alongside): single rate, or `mix` with `amount_vat_manual` and an
 *     optional `vat_breakdown` that becomes one line per rate.
 */

export interface Current {
  row: ExpenseRow;
  lines: readonly LineRow[];
}

export interface PlannedAmounts {
  header: HeaderAmounts;
  currency: string;
  rateMicro: number | null;
  account: Split;
}

type Fields = Record<string, string>;

const ITEMIZED =
  'This expense is itemized: its amounts come from its items. Send items, or items: [] with amount and vat to make it flat.' +
  '|Această cheltuială are linii: sumele vin din linii. Trimiteți items, sau items: [] împreună cu amount și vat pentru a renunța la linii.';
const REQUIRED_FLAT = 'Required for an expense without items.|Obligatoriu pentru o cheltuială fără linii.';
const REQUIRED_MIX = 'Required when vat is mix.|Obligatoriu când vat este mix.';
const BREAKDOWN_ONLY_MIX =
  'A VAT breakdown belongs to a multi-rate receipt: send it with vat = mix.|Defalcarea TVA este pentru bonuri cu mai multe cote: trimiteți-o cu vat = mix.';
const BREAKDOWN_STALE =
  'The stored VAT breakdown no longer adds up to amount and amount_vat_manual: send a new vat_breakdown.' +
  '|Defalcarea TVA salvată nu mai însumează amount și amount_vat_manual: trimiteți o nouă vat_breakdown.';
const POSITIVE_TOTAL = 'The items must add up to more than 0.|Liniile trebuie să însumeze mai mult de 0.';
const RATE_REQUIRED = 'Required when currency is not RON.|Obligatoriu când moneda nu este RON.';

function storedItemBasis(lines: readonly LineRow[]) {
  return lines
    .filter((l) => l.kind === 'item')
    .map((l) => ({ description: l.description ?? '', quantity_milli: Number(l.quantity_milli), unit_price_bani: Number(l.unit_price_bani), vat_percent: l.vat_percent }));
}

function planHeader(current: Current | null, body: ExpenseUpdate, fields: Fields): HeaderAmounts | null {
  const row = current?.row;
  const withVat = body.with_vat ?? (row ? Boolean(row.with_vat) : true);

  if (body.items && body.items.length > 0) {
    const header = fromLines(body.items.map(itemBasis), withVat);
    if (header.total <= 0) fields.items = POSITIVE_TOTAL;
    return header;
  }

  if (row?.itemized && body.items === undefined) {
    for (const member of ['amount', 'vat', 'amount_vat_manual', 'vat_breakdown'] as const) {
      if (body[member] !== undefined) fields[member] = ITEMIZED;
    }
    return fromLines(storedItemBasis(current!.lines), withVat);
  }

  // Flat from here on. `items: []` on an itemized expense starts over: nothing of the old header is kept.
  const fresh = !row || Boolean(row.itemized);
  const vat = body.vat ?? (fresh ? undefined : storedVat(row.vat_percent));
  const amount = body.amount ?? (fresh ? undefined : Number(row.entered_amount_bani));
  if (vat === undefined) fields.vat = REQUIRED_FLAT;
  if (amount === undefined) fields.amount = REQUIRED_FLAT;

  if (vat === 'mix') {
    // Required whenever `mix` is sent; an expense already `mix` keeps its manual VAT otherwise.
    const manual = body.amount_vat_manual ?? (body.vat === 'mix' || fresh ? undefined : Number(row.vat_manual_bani));
    if (manual === undefined) fields.amount_vat_manual = REQUIRED_MIX;
    if (amount === undefined || manual === undefined) return null;
    let groups: ComputedLine[] = [];
    if (body.items !== undefined) {
      // `items` sent (empty): the contract has the breakdown ignored, so no per-rate lines remain.
    } else if (body.vat_breakdown !== undefined) {
      const made = breakdownLines(body.vat_breakdown, amount, manual);
      if (!made.ok) Object.assign(fields, made.fields);
      else groups = made.lines;
    } else if (!fresh && row.vat_percent === null) {
      const stored = current!.lines.filter((l) => l.kind === 'vat_group');
      const splits = stored.map((l) => ({ net: Number(l.net_bani), vat: Number(l.vat_bani), total: Number(l.total_bani) }));
      if (stored.length && !groupsMatch(splits, amount, manual)) fields.vat_breakdown = BREAKDOWN_STALE;
      groups = stored.map((l, i) => ({
        kind: 'vat_group',
        description: l.description,
        quantity_milli: Number(l.quantity_milli),
        unit_price_bani: Number(l.unit_price_bani),
        vat_percent: l.vat_percent,
        ...splits[i]!,
      }));
    }
    return flatMix(amount, manual, groups);
  }

  if (body.vat_breakdown !== undefined && body.items === undefined) fields.vat_breakdown = BREAKDOWN_ONLY_MIX;
  if (vat === undefined || amount === undefined) return null;
  return flatSingle(amount, vat, withVat);
}

export function planAmounts(current: Current | null, body: ExpenseUpdate): { ok: true; plan: PlannedAmounts } | { ok: false; fields: Fields } {
  const fields: Fields = {};
  const header = planHeader(current, body, fields);
  const row = current?.row;
  const currency = body.currency ?? row?.currency ?? ACCOUNTING_CURRENCY;
  let rateMicro: number | null = null;
  if (currency !== ACCOUNTING_CURRENCY) {
    // A rate stays valid only for the currency it was given for.
    const kept = row && row.currency === currency && row.exchange_rate_micro !== null ? Number(row.exchange_rate_micro) : undefined;
    const rate = body.exchange_rate ?? kept;
    if (rate === undefined) fields.exchange_rate = RATE_REQUIRED;
    else rateMicro = rate;
  }
  if (!header || Object.keys(fields).length) return { ok: false, fields };
  return { ok: true, plan: { header, currency, rateMicro, account: toAccountingCurrency(header, rateMicro) } };
}

/** The stored columns of planned amounts, as the create and the update both write them. */
export function amountColumns(plan: PlannedAmounts) {
  const { header, currency, rateMicro, account } = plan;
  return {
    currency,
    exchange_rate_micro: rateMicro,
    vat_percent: header.vat_percent,
    with_vat: header.with_vat ? 1 : 0,
    itemized: header.itemized ? 1 : 0,
    entered_amount_bani: header.entered_amount_bani,
    vat_manual_bani: header.vat_manual_bani,
    net_bani: header.net,
    vat_bani: header.vat,
    total_bani: header.total,
    account_net_bani: account.net,
    account_vat_bani: account.vat,
    account_total_bani: account.total,
  };
}
