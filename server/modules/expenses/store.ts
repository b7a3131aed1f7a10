import type { Selectable, Transaction } from 'kysely';
import type { Database, Db, Dialect } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { newId } from '../../platform/ids';
import { baniToDecimalString } from '../../../shared/money';
import { fromMilli } from '../../../shared/invoice-math';
import {
  ACCOUNTING_CURRENCY,
  PAYMENT_TYPES,
  type Expense,
  type ExpenseStatus,
  type PaymentTypeId,
} from '../../../shared/schemas/expense';
import type { ExpenseEventsTable, ExpenseLinesTable, ExpensesTable } from './tables';
import type { ComputedLine } from './amounts';
import { closedMonths } from './periods';
import { formatDateTime, monthOf, todayAt } from './time';

export type ExpenseRow = Selectable<ExpensesTable>;
export type LineRow = Selectable<ExpenseLinesTable>;
type Executor = Db | Transaction<Database>;

const money = (bani: number) => baniToDecimalString(Number(bani));

/** Status is never stored: it depends on today, so it is worked out on every read. */
export function statusOf(row: Pick<ExpenseRow, 'is_paid' | 'due_date'>, today: string): ExpenseStatus {
  if (row.is_paid) return 'paid';
  return row.due_date !== null && row.due_date < today ? 'overdue' : 'unpaid';
}

export interface RenderContext {
  today: string;
  closed: ReadonlySet<string>;
  locale: Locale;
}

export function renderExpense(row: ExpenseRow, lines: readonly LineRow[], rc: RenderContext): Expense {
  const byRate = new Map<number, { net: number; vat: number; total: number }>();
  for (const l of lines) {
    const entry = byRate.get(l.vat_percent) ?? { net: 0, vat: 0, total: 0 };
    entry.net += Number(l.net_bani);
    entry.vat += Number(l.vat_bani);
    entry.total += Number(l.total_bani);
    byRate.set(l.vat_percent, entry);
  }
  // A flat single-rate expense is its own one-entry breakdown; a flat `mix` without one has none.
  if (!lines.length && row.vat_percent !== null) {
    byRate.set(row.vat_percent, { net: Number(row.net_bani), vat: Number(row.vat_bani), total: Number(row.total_bani) });
  }
  const paymentType = row.payment_type === null ? null : (row.payment_type as PaymentTypeId);
  return {
    id: row.id,
    object: 'expense',
    reference: row.reference,
    description: row.description,
    amount: { total: money(row.total_bani), without_vat: money(row.net_bani), vat: money(row.vat_bani), currency: row.currency },
    account_amount: {
      total: money(row.account_total_bani),
      without_vat: money(row.account_net_bani),
      vat: money(row.account_vat_bani),
      currency: ACCOUNTING_CURRENCY,
    },
    vat_percent: row.vat_percent === null ? null : Number(row.vat_percent),
    with_vat: Boolean(row.with_vat),
    date: row.date,
    due_date: row.due_date,
    paid_date: row.paid_date,
    is_paid: Boolean(row.is_paid),
    payment_type: paymentType === null ? null : { id: paymentType, name: PAYMENT_TYPES[paymentType][rc.locale] },
    status: statusOf(row, rc.today),
    supplier_id: row.supplier_id,
    category_id: row.category_id === null ? null : Number(row.category_id),
    user_id: row.user_id === null ? null : Number(row.user_id),
    currency: row.currency,
    exchange_rate: row.exchange_rate_micro === null ? null : Number(row.exchange_rate_micro) / 1_000_000,
    work_point_id: row.work_point_id,
    is_locked: rc.closed.has(monthOf(row.date)),
    items: [...lines]
      .sort((a, b) => a.position - b.position)
      .map((l) => ({
        id: l.id,
        kind: l.kind,
        description: l.description,
        quantity: fromMilli(Number(l.quantity_milli)),
        unit_price: money(l.unit_price_bani),
        vat_percent: Number(l.vat_percent),
        amount: { total: money(l.total_bani), without_vat: money(l.net_bani), vat: money(l.vat_bani) },
      })),
    vat_breakdown: [...byRate.entries()]
      .sort(([a], [b]) => b - a)
      .map(([rate, e]) => ({ rate, net: money(e.net), vat_amount: money(e.vat), gross: money(e.total) })),
    created_at: formatDateTime(Number(row.created_at)),
    updated_at: formatDateTime(Number(row.updated_at)),
  };
}

/** Lines of several expenses in one query, grouped by expense. */
export async function loadLines(db: Executor, expenseIds: readonly string[]): Promise<Map<string, LineRow[]>> {
  const out = new Map<string, LineRow[]>();
  if (!expenseIds.length) return out;
  const rows = await db.selectFrom('expense_lines').selectAll().where('expense_id', 'in', [...expenseIds]).orderBy('position').execute();
  for (const r of rows) out.set(r.expense_id, [...(out.get(r.expense_id) ?? []), r]);
  return out;
}

/**
 * An expense of the company (any of its work points), or undefined: another company's expense
 * looks exactly like a missing one. `lock` takes a row lock on PostgreSQL, so that two writers of
 * one expense (PUT, pay) run one after the other; SQLite serializes writers by itself.
 */
export async function findExpense(db: Executor, dialect: Dialect, companyId: string, id: string, lock = false): Promise<ExpenseRow | undefined> {
  let q = db.selectFrom('expenses').selectAll().where('id', '=', id).where('company_id', '=', companyId);
  if (lock && dialect === 'postgres') q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The wire Expense of one row, with its lines, as of `now`. */
export async function viewExpense(db: Executor, row: ExpenseRow, now: number, locale: Locale): Promise<Expense> {
  const lines = await loadLines(db, [row.id]);
  return renderExpense(row, lines.get(row.id) ?? [], { today: todayAt(now), closed: await closedMonths(db, row.company_id), locale });
}

export async function replaceLines(trx: Executor, expenseId: string, companyId: string, lines: readonly ComputedLine[]): Promise<void> {
  await trx.deleteFrom('expense_lines').where('expense_id', '=', expenseId).execute();
  if (!lines.length) return;
  await trx
    .insertInto('expense_lines')
    .values(
      lines.map((l, i) => ({
        id: newId('expl'),
        expense_id: expenseId,
        company_id: companyId,
        position: i + 1,
        kind: l.kind,
        description: l.description,
        quantity_milli: l.quantity_milli,
        unit_price_bani: l.unit_price_bani,
        vat_percent: l.vat_percent,
        net_bani: l.net,
        vat_bani: l.vat,
        total_bani: l.total,
      })),
    )
    .execute();
}

export interface EventInput {
  companyId: string;
  expenseId: string;
  type: ExpenseEventsTable['type'];
  data: Record<string, unknown>;
  keyId: string;
  workPointId: string;
  now: number;
}

/**
 * Appends to the audit trail, inside the caller's transaction: the change and its record commit
 * together or not at all. This table is also where internal notifications would be read from.
 */
export async function appendEvent(trx: Executor, e: EventInput): Promise<void> {
  const last = await trx
    .selectFrom('expense_events')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('expense_id', '=', e.expenseId)
    .executeTakeFirst();
  await trx
    .insertInto('expense_events')
    .values({
      id: newId('eev'),
      company_id: e.companyId,
      expense_id: e.expenseId,
      seq: Number(last?.seq ?? 0) + 1,
      type: e.type,
      data: JSON.stringify(e.data),
      key_id: e.keyId,
      work_point_id: e.workPointId,
      created_at: e.now,
    })
    .execute();
}

/** The reference as duplicate checks compare it: no whitespace, upper case; null when empty. */
export function referenceKey(reference: string | null | undefined): string | null {
  const key = reference ? reference.replace(/\s+/g, '').toUpperCase() : '';
  return key === '' ? null : key;
}

/** Members that differ between two views of an expense, as `{ member: { from, to } }`. */
export function changesBetween(before: Expense, after: Expense): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  const skip = new Set(['updated_at', 'status', 'is_locked']);
  for (const key of Object.keys(after) as (keyof Expense)[]) {
    if (skip.has(key)) continue;
    const a = key === 'items' ? before.items.map(({ id: _id, ...rest }) => rest) : before[key];
    const b = key === 'items' ? after.items.map(({ id: _id, ...rest }) => rest) : after[key];
    if (JSON.stringify(a) !== JSON.stringify(b)) changes[key] = { from: before[key], to: after[key] };
  }
  return changes;
}
