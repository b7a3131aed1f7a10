import { sql } from 'kysely';
import type { Db } from '../../db/types';
import { fromBani } from '../../../shared/money';
import type { CashDay } from '../../../shared/schemas/accounting';

/**
 * Registrul de casă (OMFP 2634/2015, form 14-4-7A): one per work point and currency. Its entries come
 * from three places: the chitanțe issued there (cash in), the expenses paid there in cash (payment
 * type 1, on their payment date; cash out) and the cash movements of this module (opening balance,
 * bank deposits and withdrawals, other payments and receipts, corrections). A day's closing balance is
 * the next day's opening: the sum of everything before it.
 */

export interface Register {
  companyId: string;
  workPointId: string;
  currency: string;
}

/** Expense payment type 1 is cash (see PAYMENT_TYPES in shared/schemas/expense.ts). */
const CASH_PAYMENT_TYPE = 1;

function receiptsOf(db: Db, r: Register) {
  return db
    .selectFrom('receipts')
    .where('receipts.company_id', '=', r.companyId)
    .where('receipts.work_point_id', '=', r.workPointId)
    .where('receipts.currency', '=', r.currency)
    .where('receipts.is_draft', '=', 0)
    .where('receipts.is_deleted', '=', 0);
}

function cashExpensesOf(db: Db, r: Register) {
  return db
    .selectFrom('expenses')
    .where('expenses.company_id', '=', r.companyId)
    .where('expenses.work_point_id', '=', r.workPointId)
    .where('expenses.currency', '=', r.currency)
    .where('expenses.is_paid', '=', 1)
    .where('expenses.payment_type', '=', CASH_PAYMENT_TYPE);
}

function movementsOf(db: Db, r: Register) {
  return db
    .selectFrom('cash_movements')
    .where('cash_movements.company_id', '=', r.companyId)
    .where('cash_movements.work_point_id', '=', r.workPointId)
    .where('cash_movements.currency', '=', r.currency);
}

/** The balance at the start of `date`: every entry before it. */
export async function balanceBefore(db: Db, r: Register, date: string): Promise<number> {
  const [rc, ex, mv] = await Promise.all([
    receiptsOf(db, r).where('receipts.date', '<', date).select(sql<string>`coalesce(sum(amount_bani), 0)`.as('s')).executeTakeFirstOrThrow(),
    cashExpensesOf(db, r).where('expenses.paid_date', '<', date).select(sql<string>`coalesce(sum(total_bani), 0)`.as('s')).executeTakeFirstOrThrow(),
    movementsOf(db, r).where('cash_movements.date', '<', date).select(sql<string>`coalesce(sum(amount_bani), 0)`.as('s')).executeTakeFirstOrThrow(),
  ]);
  return Number(rc.s) - Number(ex.s) + Number(mv.s);
}

/** The net cash of each day from `from` on (days with entries only), in date order. */
export async function dailyNetsFrom(db: Db, r: Register, from: string, to?: string): Promise<Array<{ date: string; in: number; out: number }>> {
  const end = to ?? '9999-12-31';
  const [rc, ex, mv] = await Promise.all([
    receiptsOf(db, r).where('receipts.date', '>=', from).where('receipts.date', '<=', end)
      .select(['receipts.date as date', sql<string>`sum(amount_bani)`.as('s')]).groupBy('receipts.date').execute(),
    cashExpensesOf(db, r).where('expenses.paid_date', '>=', from).where('expenses.paid_date', '<=', end)
      .select(['expenses.paid_date as date', sql<string>`sum(total_bani)`.as('s')]).groupBy('expenses.paid_date').execute(),
    movementsOf(db, r).where('cash_movements.date', '>=', from).where('cash_movements.date', '<=', end)
      .select([
        'cash_movements.date as date',
        sql<string>`sum(case when amount_bani > 0 then amount_bani else 0 end)`.as('i'),
        sql<string>`sum(case when amount_bani < 0 then -amount_bani else 0 end)`.as('o'),
      ]).groupBy('cash_movements.date').execute(),
  ]);
  const days = new Map<string, { date: string; in: number; out: number }>();
  const day = (d: string) => days.get(d) ?? days.set(d, { date: d, in: 0, out: 0 }).get(d)!;
  for (const x of rc) if (x.date) day(x.date).in += Number(x.s);
  for (const x of ex) if (x.date) day(x.date).out += Number(x.s);
  for (const x of mv) {
    day(x.date).in += Number(x.i);
    day(x.date).out += Number(x.o);
  }
  return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

export interface CashEntryRow {
  source: 'receipt' | 'expense' | 'cash_movement';
  source_id: string;
  kind: string;
  document_number: string | null;
  explanation: string;
  in_bani: number;
  out_bani: number;
  created_at: number;
}

const MOVEMENT_LABELS: Record<string, string> = {
  opening: 'Sold inițial',
  bank_deposit: 'Depunere numerar la bancă',
  bank_withdrawal: 'Ridicare numerar de la bancă',
  payment: 'Plată',
  receipt: 'Încasare',
  correction: 'Corecție',
};

/** The entries of one day, in the order they happened (creation time, then id). */
export async function entriesOn(db: Db, r: Register, date: string): Promise<CashEntryRow[]> {
  const [rc, ex, mv] = await Promise.all([
    receiptsOf(db, r).where('receipts.date', '=', date)
      .select(['id', 'receipt_number', 'client_name', 'amount_bani', 'created_at']).execute(),
    cashExpensesOf(db, r).innerJoin('suppliers', 'suppliers.id', 'expenses.supplier_id').where('expenses.paid_date', '=', date)
      .select(['expenses.id as id', 'expenses.reference', 'expenses.description', 'expenses.total_bani', 'expenses.created_at', 'suppliers.name as supplier_name'])
      .execute(),
    movementsOf(db, r).where('cash_movements.date', '=', date)
      .select(['id', 'kind', 'document_number', 'description', 'amount_bani', 'corrects_id', 'created_at']).execute(),
  ]);
  const rows: CashEntryRow[] = [
    ...rc.map((x) => ({
      source: 'receipt' as const, source_id: x.id, kind: 'receipt', document_number: x.receipt_number,
      explanation: `Încasare chitanță – ${x.client_name}`, in_bani: Number(x.amount_bani), out_bani: 0, created_at: Number(x.created_at),
    })),
    ...ex.map((x) => ({
      source: 'expense' as const, source_id: x.id, kind: 'expense', document_number: x.reference,
      explanation: `Plată ${x.supplier_name}${x.description ? ` – ${x.description}` : ''}`, in_bani: 0, out_bani: Number(x.total_bani), created_at: Number(x.created_at),
    })),
    ...mv.map((x) => {
      const amount = Number(x.amount_bani);
      return {
        source: 'cash_movement' as const, source_id: x.id, kind: x.kind, document_number: x.document_number,
        explanation: `${MOVEMENT_LABELS[x.kind] ?? x.kind}: ${x.description}${x.corrects_id ? ` (corectează ${x.corrects_id})` : ''}`,
        in_bani: amount > 0 ? amount : 0, out_bani: amount < 0 ? -amount : 0, created_at: Number(x.created_at),
      };
    }),
  ];
  return rows.sort((a, b) => a.created_at - b.created_at || (a.source_id < b.source_id ? -1 : 1));
}

export async function closedDay(db: Db, r: Register, date: string) {
  return db.selectFrom('cash_days').selectAll()
    .where('company_id', '=', r.companyId).where('work_point_id', '=', r.workPointId).where('currency', '=', r.currency).where('date', '=', date)
    .executeTakeFirst();
}

/** One day of the register as the API shows it. */
export async function registerDay(db: Db, r: Register, date: string): Promise<CashDay> {
  const [opening, entries, closed] = await Promise.all([balanceBefore(db, r, date), entriesOn(db, r, date), closedDay(db, r, date)]);
  const totalIn = entries.reduce((s, e) => s + e.in_bani, 0);
  const totalOut = entries.reduce((s, e) => s + e.out_bani, 0);
  return {
    object: 'cash_register_day',
    work_point_id: r.workPointId,
    currency: r.currency,
    date,
    opening_balance: fromBani(opening),
    total_in: fromBani(totalIn),
    total_out: fromBani(totalOut),
    closing_balance: fromBani(opening + totalIn - totalOut),
    closed: closed !== undefined,
    closed_at: closed ? Number(closed.closed_at) : null,
    entries: entries.map((e, i) => ({
      position: i + 1, source: e.source, source_id: e.source_id, kind: e.kind, document_number: e.document_number,
      explanation: e.explanation, cash_in: fromBani(e.in_bani), cash_out: fromBani(e.out_bani), created_at: e.created_at,
    })),
  };
}

/**
 * The lowest end-of-day balance from `date` on: a payment of more than this on `date` would leave the
 * register below zero on some day (that day is returned with it).
 */
export async function lowestBalanceFrom(db: Db, r: Register, date: string): Promise<{ balance: number; date: string }> {
  let running = await balanceBefore(db, r, date);
  let lowest = { balance: running, date };
  for (const d of await dailyNetsFrom(db, r, date)) {
    running += d.in - d.out;
    // The first day is `date` itself when it has entries: its end, not its opening, is what counts.
    if (d.date === date || running < lowest.balance) lowest = { balance: running, date: d.date };
  }
  return lowest;
}
