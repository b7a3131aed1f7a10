import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/types';
import type { LineVatCategory } from '../../../shared/invoice-math';
import { storedBreakdownCategory } from '../../../shared/invoice-math';
import {
  collectionCashedAmounts,
  purchaseAmounts,
  rateMicro,
  salesAmounts,
  servicesShare,
  type Amounts,
  type BreakdownPart,
  type PurchaseColumn,
  type PurchasePart,
  type SalesColumn,
} from '../../../shared/accounting/journal-math';
import { percentToBp } from '../../../shared/invoice-math';
import { mulDivRound } from '../../../shared/money';

/**
 * The documents of a journal, walked in chunks by (date, id) so that a month of 100,000 documents is
 * never in memory at once: each chunk is one query, each document one row of the journal.
 */

export const CHUNK = 500;

export interface Period {
  start_date: string;
  end_date: string;
}

export interface JournalRow<C extends string> {
  kind: 'invoice' | 'storno' | 'collection' | 'expense' | 'supplier_bill';
  document_id: string;
  number: string;
  date: string;
  partner_name: string;
  partner_cui: string | null;
  currency: string;
  exchange_rate: number | null;
  amounts: Amounts<C>;
}

/** A document that cannot go in the journal as it is (a foreign-currency bill with no rate). */
export interface JournalWarning {
  document_id: string;
  number: string;
  code: 'missing_exchange_rate';
}

export type Cursor = { date: string; id: string } | null;

/**
 * Where a page of a (date, id) walk starts: the period's first day, then just after the last row read,
 * as one row-value comparison `(date, id) > (…, …)`. Both SQLite and PostgreSQL seek the (company, date,
 * id) index straight to it; the `date >= d AND (date > d OR (date = d AND id > i))` it replaces made
 * SQLite walk every row of the cursor's day again for each page (6 s of a 100,000-invoice month).
 */
export function pageFrom(date: string, id: string, start: string, after: Cursor): RawBuilder<SqlBool> {
  return after ? sql<SqlBool>`(${sql.ref(date)}, ${sql.ref(id)}) > (${after.date}, ${after.id})` : sql<SqlBool>`${sql.ref(date)} >= ${start}`;
}

/**
 * Lets the service's other requests run. SQLite answers synchronously and every await of a walk is a
 * microtask, so a month of 100,000 invoices summed into a journal or `GET /invoices/stats` (about a
 * second) held the event loop the whole time: every other client of the service waited (issue 17).
 * Between two pages the walk now steps back into the event loop.
 */
export function otherRequestsFirst(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The walk a page (one query) at a time, for what needs one more query per page rather than per row. */
async function* pages<T extends { id: string }>(
  load: (after: Cursor) => Promise<T[]>,
  dateOf: (row: T) => string,
): AsyncGenerator<T[]> {
  let after: Cursor = null;
  for (;;) {
    if (after) await otherRequestsFirst();
    const rows = await load(after);
    if (rows.length) yield rows;
    if (rows.length < CHUNK) return;
    const last = rows[rows.length - 1]!;
    after = { date: dateOf(last), id: last.id };
  }
}

async function* chunks<T extends { id: string }>(
  load: (after: Cursor) => Promise<T[]>,
  dateOf: (row: T) => string,
): AsyncGenerator<T> {
  for await (const page of pages(load, dateOf)) yield* page;
}

async function vatOnCollection(db: Db, companyId: string): Promise<boolean> {
  const row = await db.selectFrom('company_profiles').select('vat_on_collection').where('company_id', '=', companyId).executeTakeFirst();
  return row ? Boolean(Number(row.vat_on_collection)) : false;
}

interface StoredBreakdown {
  vat_rate_bp: number;
  vat_category?: LineVatCategory | null;
  net_bani: number;
  vat_bani: number;
}

/**
 * The sales journal: issued fiscal invoices dated in the period (a voided original stays, its storno is
 * a negative row in the storno's own month), then, for a firm under TVA la încasare, the payments
 * cashed in the period on its invoices.
 *
 * `partners: false` leaves the buyer's name and CUI out of the invoices' rows (empty and null): a walk
 * for the totals alone skips parsing each invoice's buyer, half of what a row cost.
 */
export async function* salesRows(db: Db, companyId: string, period: Period, partners = true): AsyncGenerator<JournalRow<SalesColumn>> {
  const collection = await vatOnCollection(db, companyId);
  const invoicePages = pages(
    (after) => {
      const q = db
        .selectFrom('invoices')
        .select(['id', 'status', 'full_number', 'issue_date', 'buyer_json', 'buyer_name', 'currency', 'exchange_rate', 'reverse_charge', 'vat_breakdown_json'])
        .where('company_id', '=', companyId)
        .where('document_type', '=', 'fiscal')
        .where('status', 'in', ['issued', 'voided', 'storno'])
        .where(pageFrom('issue_date', 'id', period.start_date, after))
        .where('issue_date', '<=', period.end_date);
      return q.orderBy('issue_date').orderBy('id').limit(CHUNK).execute();
    },
    (r) => r.issue_date,
  );
  for await (const page of invoicePages) {
    const parsed = page.map((inv) => {
      const reverse = Boolean(Number(inv.reverse_charge));
      const breakdown: BreakdownPart[] = (JSON.parse(inv.vat_breakdown_json) as StoredBreakdown[]).map((b) => ({
        vat_rate_bp: Number(b.vat_rate_bp),
        vat_category: storedBreakdownCategory(b, reverse),
        net_bani: Number(b.net_bani),
        vat_bani: Number(b.vat_bani),
      }));
      return { inv, reverse, breakdown };
    });
    await withServices(db, parsed.filter((p) => !p.reverse).map((p) => ({ id: p.inv.id, breakdown: p.breakdown })));
    for (const { inv, reverse, breakdown } of parsed) yield salesRow(inv, reverse, breakdown, collection, partners);
  }
  if (!collection) return;
  yield* collectionRows(db, companyId, period);
}

type SalesInvoice = {
  id: string; status: string; full_number: string | null; issue_date: string; buyer_json: string | null; buyer_name: string | null;
  currency: string; exchange_rate: number | string | null;
};

function salesRow(inv: SalesInvoice, reverse: boolean, breakdown: BreakdownPart[], collection: boolean, partners: boolean): JournalRow<SalesColumn> {
  const rate = inv.currency !== 'RON' && inv.exchange_rate !== null ? Number(inv.exchange_rate) : null;
  const buyer = partners && inv.buyer_json ? (JSON.parse(inv.buyer_json) as { name: string; cui: string | null }) : null;
  return {
    kind: inv.status === 'storno' ? 'storno' : 'invoice',
    document_id: inv.id,
    number: inv.full_number ?? '',
    date: inv.issue_date,
    partner_name: partners ? (buyer?.name ?? inv.buyer_name ?? '') : '',
    partner_cui: buyer?.cui ?? null,
    currency: inv.currency,
    exchange_rate: rate,
    amounts: salesAmounts(breakdown, { reverse_charge: reverse, rate_micro: rate === null ? null : rateMicro(rate), vat_on_collection: collection }),
  };
}

/**
 * Sets `services_net_bani` on the K and G parts of a page of invoices, from their lines' `is_service`
 * (as frozen at issue): one grouped query per page, and none at all for a page without K or G (a
 * domestic month costs nothing more).
 */
async function withServices(db: Db, invoices: { id: string; breakdown: BreakdownPart[] }[]): Promise<void> {
  const split = (b: BreakdownPart) => b.vat_rate_bp === 0 && (b.vat_category === 'K' || b.vat_category === 'G');
  const wanted = invoices.filter((i) => i.breakdown.some(split));
  if (!wanted.length) return;
  const sums = await db
    .selectFrom('invoice_lines')
    .select([
      'invoice_id',
      'vat_category',
      sql<number | string>`sum(case when is_service = 1 then net_bani else 0 end)`.as('services_net'),
      sql<number | string>`sum(net_bani)`.as('lines_net'),
    ])
    .where('invoice_id', 'in', wanted.map((i) => i.id))
    .where('vat_rate_bp', '=', 0)
    .where('vat_category', 'in', ['K', 'G'])
    .groupBy(['invoice_id', 'vat_category'])
    .execute();
  const byKey = new Map(sums.map((r) => [`${r.invoice_id}:${r.vat_category}`, { services: Number(r.services_net), lines: Number(r.lines_net) }]));
  for (const inv of wanted) {
    for (const part of inv.breakdown) {
      const s = split(part) ? byKey.get(`${inv.id}:${part.vat_category}`) : undefined;
      if (s) part.services_net_bani = servicesShare(part.net_bani, s.services, s.lines);
    }
  }
}

/** For a firm under TVA la încasare: the payments cashed in the period on its invoices. */
async function* collectionRows(db: Db, companyId: string, period: Period): AsyncGenerator<JournalRow<SalesColumn>> {
  const payments = chunks(
    (after) => {
      const q = db
        .selectFrom('payments')
        .innerJoin('invoices', 'invoices.id', 'payments.invoice_id')
        .select([
          'payments.id as id', 'payments.date as date', 'payments.amount_without_vat_bani', 'payments.amount_vat_bani', 'payments.client_name',
          'invoices.full_number', 'invoices.currency', 'invoices.exchange_rate', 'invoices.buyer_json', 'invoices.reverse_charge',
        ])
        .where('payments.company_id', '=', companyId)
        .where('invoices.document_type', '=', 'fiscal')
        .where(pageFrom('payments.date', 'payments.id', period.start_date, after))
        .where('payments.date', '<=', period.end_date);
      return q.orderBy('payments.date').orderBy('payments.id').limit(CHUNK).execute();
    },
    (r) => r.date ?? '',
  );
  for await (const p of payments) {
    if (Number(p.reverse_charge)) continue;
    const rate = p.currency !== 'RON' && p.exchange_rate !== null ? Number(p.exchange_rate) : null;
    const buyer = p.buyer_json ? (JSON.parse(p.buyer_json) as { name: string; cui: string | null }) : null;
    yield {
      kind: 'collection',
      document_id: p.id,
      number: p.full_number ?? '',
      date: p.date ?? '',
      partner_name: buyer?.name ?? p.client_name,
      partner_cui: buyer?.cui ?? null,
      currency: p.currency,
      exchange_rate: rate,
      amounts: collectionCashedAmounts(
        { without_vat_bani: Number(p.amount_without_vat_bani), vat_bani: Number(p.amount_vat_bani) },
        rate === null ? null : rateMicro(rate),
      ),
    };
  }
}

function expenseQuery(db: Db, companyId: string, period: Period, after: Cursor) {
  return db
    .selectFrom('expenses')
    .innerJoin('suppliers', 'suppliers.id', 'expenses.supplier_id')
    .select([
      'expenses.id as id', 'expenses.date as date', 'expenses.reference', 'expenses.currency', 'expenses.exchange_rate_micro',
      'expenses.vat_percent', 'expenses.net_bani', 'expenses.vat_bani', 'expenses.account_net_bani', 'expenses.account_vat_bani',
      'suppliers.name as supplier_name', 'suppliers.cui as supplier_cui',
    ])
    .where('expenses.company_id', '=', companyId)
    .where(pageFrom('expenses.date', 'expenses.id', period.start_date, after))
    .where('expenses.date', '<=', period.end_date);
}

type ExpenseRow = Awaited<ReturnType<ReturnType<typeof expenseQuery>['execute']>>[number];

/** The standard rate closest to vat/net, in basis points (a rate not among them keeps its own). */
function nearestRate(vat: number, net: number): number {
  const bp = Math.round((vat * 10_000) / net);
  const standard = [2100, 1900, 1100, 900, 500].find((r) => Math.abs(r - bp) <= 20);
  return standard ?? bp;
}

/**
 * The purchase journal: expenses dated in the period, then supplier bills received in it that no
 * expense records (a bill linked to an expense is that expense: counted once).
 */
export async function* purchaseRows(
  db: Db,
  companyId: string,
  period: Period,
  warnings: JournalWarning[] = [],
): AsyncGenerator<JournalRow<PurchaseColumn>> {
  const expenses = chunks<ExpenseRow>(
    (after) => {
      return expenseQuery(db, companyId, period, after).orderBy('expenses.date').orderBy('expenses.id').limit(CHUNK).execute();
    },
    (r) => r.date,
  );
  let batch: ExpenseRow[] = [];
  const flush = async function* (): AsyncGenerator<JournalRow<PurchaseColumn>> {
    if (!batch.length) return;
    const lines = await db
      .selectFrom('expense_lines')
      .select(['expense_id', 'vat_percent', 'net_bani', 'vat_bani'])
      .where('expense_id', 'in', batch.map((e) => e.id))
      .execute();
    const byExpense = new Map<string, PurchasePart[]>();
    for (const l of lines) {
      const parts = byExpense.get(l.expense_id) ?? [];
      const bp = percentToBp(Number(l.vat_percent));
      const same = parts.find((p) => p.vat_rate_bp === bp);
      if (same) {
        same.net_bani += Number(l.net_bani);
        same.vat_bani += Number(l.vat_bani);
      } else parts.push({ vat_rate_bp: bp, category: 'S', net_bani: Number(l.net_bani), vat_bani: Number(l.vat_bani) });
      byExpense.set(l.expense_id, parts);
    }
    for (const e of batch) {
      const rate = e.exchange_rate_micro === null ? null : Number(e.exchange_rate_micro);
      const parts = byExpense.get(e.id) ?? [
        { vat_rate_bp: percentToBp(Number(e.vat_percent ?? 0)), category: 'S', net_bani: Number(e.net_bani), vat_bani: Number(e.vat_bani) },
      ];
      yield {
        kind: 'expense',
        document_id: e.id,
        number: e.reference ?? '',
        date: e.date,
        partner_name: e.supplier_name,
        partner_cui: e.supplier_cui,
        currency: e.currency,
        exchange_rate: rate === null ? null : rate / 1_000_000,
        amounts: purchaseAmounts(parts, {
          rate_micro: rate,
          ron_net: Number(e.account_net_bani),
          ron_vat: Number(e.account_vat_bani),
        }),
      };
    }
    batch = [];
  };
  for await (const e of expenses) {
    batch.push(e);
    if (batch.length >= CHUNK) yield* flush();
  }
  yield* flush();

  const bills = chunks(
    (after) => {
      const q = db
        .selectFrom('supplier_bills')
        .innerJoin('suppliers', 'suppliers.id', 'supplier_bills.supplier_id')
        .select([
          'supplier_bills.id as id', 'supplier_bills.issue_date as date', 'supplier_bills.invoice_number', 'supplier_bills.currency',
          'supplier_bills.tax_exclusive_bani', 'supplier_bills.tax_bani',
          'suppliers.name as supplier_name', 'suppliers.cui as supplier_cui',
        ])
        .where('supplier_bills.company_id', '=', companyId)
        .where('supplier_bills.expense_id', 'is', null)
        .where(pageFrom('supplier_bills.issue_date', 'supplier_bills.id', period.start_date, after))
        .where('supplier_bills.issue_date', '<=', period.end_date);
      return q.orderBy('supplier_bills.issue_date').orderBy('supplier_bills.id').limit(CHUNK).execute();
    },
    (r) => r.date,
  );
  for await (const b of bills) {
    if (b.currency !== 'RON') {
      // The bill keeps no exchange rate of its own: its RON amounts would be a guess.
      warnings.push({ document_id: b.id, number: b.invoice_number, code: 'missing_exchange_rate' });
      continue;
    }
    const lines = await db.selectFrom('supplier_bill_lines').select(['vat_category', 'vat_rate_bp', 'line_net_bani']).where('bill_id', '=', b.id).execute();
    const parts: PurchasePart[] = [];
    for (const l of lines) {
      const bp = Number(l.vat_rate_bp);
      const same = parts.find((p) => p.vat_rate_bp === bp && p.category === l.vat_category);
      if (same) same.net_bani += Number(l.line_net_bani);
      else parts.push({ vat_rate_bp: bp, category: l.vat_category, net_bani: Number(l.line_net_bani), vat_bani: 0 });
    }
    // The supplier's VAT is charged only on S lines; spread per rate (its sum is the bill's own tax).
    for (const p of parts) if (p.category === 'S') p.vat_bani = mulDivRound(p.net_bani, p.vat_rate_bp, 10_000);
    if (!parts.length) {
      // A bill entered by hand has no lines: its rate is what its VAT is of its base.
      const net = Number(b.tax_exclusive_bani);
      const vat = Number(b.tax_bani);
      parts.push({ vat_rate_bp: vat === 0 || net === 0 ? 0 : nearestRate(vat, net), category: vat === 0 ? 'O' : 'S', net_bani: net, vat_bani: vat });
    }
    yield {
      kind: 'supplier_bill',
      document_id: b.id,
      number: b.invoice_number,
      date: b.date,
      partner_name: b.supplier_name,
      partner_cui: b.supplier_cui,
      currency: b.currency,
      exchange_rate: null,
      amounts: purchaseAmounts(parts, {
        rate_micro: null,
        ron_net: Number(b.tax_exclusive_bani),
        ron_vat: Number(b.tax_bani),
      }),
    };
  }
}
