import { z } from 'zod';
import type { Database, Db } from '../../db/types';
import type { Transaction } from 'kysely';
import { defineRoute } from '../../platform/route';
import { ApiError, notFound, validationFailed } from '../../platform/errors';
import { changesListQuery, listPageSchema, paginate } from '../../platform/list';
import type { Locale } from '../../platform/locale';
import { newId } from '../../platform/ids';
import {
  EXPENSE_STATUSES,
  zExpense,
  zExpenseActionReply,
  zExpenseCreate,
  zExpenseUpdate,
  type Expense,
} from '../../../shared/schemas/expense';
import { actionMessage, fieldText } from './messages';
import { amountColumns, planAmounts } from './plan';
import type { ComputedLine } from './amounts';
import { closedMonths } from './periods';
import { documentedBody, parseBody, withoutIgnoredMembers } from './body';
import {
  appendEvent,
  changesBetween,
  findExpense,
  loadLines,
  referenceKey,
  renderExpense,
  replaceLines,
  type ExpenseRow,
  type LineRow,
} from './store';
import { monthOf, todayAt } from './time';
import { ISO_4217 } from '../catalog/lookups';
import { EXPENSES_SEARCH } from './migrations/0320_search';

type Executor = Db | Transaction<Database>;
type Fields = Record<string, string>;

const NO_SUPPLIER = 'No such supplier in this company.|Acest furnizor nu există în firmă.';
const NO_CATEGORY = 'No such expense category in this company.|Această categorie de cheltuieli nu există în firmă.';
const DUE_BEFORE_DATE = 'Must not be before date.|Nu poate fi înaintea datei (date).';
const PAID_IN_FUTURE = 'Must not be in the future.|Nu poate fi în viitor.';
const PAYMENT_TYPE_REQUIRED = 'Required when marking the expense paid.|Obligatoriu când cheltuiala este marcată plătită.';
const NOT_ISO = 'Not an ISO 4217 currency code.|Nu este un cod de monedă ISO 4217.';
const PAID_DATE_NOT_PAID =
  'Only a paid expense has a paid_date: send is_paid: true too, or use POST /expenses/{id}/pay.' +
  '|Doar o cheltuială plătită are paid_date: trimiteți și is_paid: true, sau folosiți POST /expenses/{id}/pay.';

/**
 * Any current ISO 4217 currency, enabled for the firm or not: like a supplier bill's, an expense's
 * currency is the supplier's choice, so it neither needs enabling nor makes a currency "used".
 */
const ISO_CODES = new Set(ISO_4217.map((c) => c.code));

export function localize(fields: Fields, locale: Locale): Fields {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, fieldText(v, locale)]));
}

export function periodClosed(month: string): ApiError {
  return new ApiError(409, 'invalid_request_error', 'accounting_period_closed', { param: 'date', vars: { month } });
}

async function supplierExists(db: Executor, companyId: string, id: string): Promise<boolean> {
  return Boolean(await db.selectFrom('suppliers').select('id').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst());
}

async function categoryExists(db: Executor, companyId: string, id: number): Promise<boolean> {
  return Boolean(
    await db.selectFrom('expense_categories').select('id').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst(),
  );
}

/** Lines equal in content (ids aside): an update that leaves them so must not renumber them. */
function sameLines(stored: readonly LineRow[], next: readonly ComputedLine[]): boolean {
  if (stored.length !== next.length) return false;
  return stored.every((s, i) => {
    const n = next[i]!;
    return (
      s.kind === n.kind &&
      s.description === n.description &&
      Number(s.quantity_milli) === n.quantity_milli &&
      Number(s.unit_price_bani) === n.unit_price_bani &&
      s.vat_percent === n.vat_percent &&
      Number(s.net_bani) === n.net &&
      Number(s.vat_bani) === n.vat &&
      Number(s.total_bani) === n.total
    );
  });
}

const cleanText = (text: string | null | undefined) => (text === undefined || text === null || text === '' ? null : text);

// ---------------------------------------------------------------------------------------------

/** Who records an expense, and when: what {@link createExpenseRecord} needs of a request. */
export interface ExpenseCreateContext {
  companyId: string;
  /** The work point the expense belongs to. */
  workPointId: string;
  /** The API key that made it, for the audit trail. */
  keyId: string;
  /** Unix seconds, from the service clock. */
  now: number;
  locale: Locale;
}

export type ExpenseCreateInput = z.output<typeof zExpenseCreate>;

/**
 * Records an expense with every check of `POST /expenses` (supplier and category of the company,
 * amounts, dates, closed months) and its audit trail, inside the caller's transaction: the caller
 * may do more in the same one (the e-Factura module marks its supplier bill). Throws the same
 * 422/409 `ApiError`s the route answers.
 */
export async function createExpenseRecord(trx: Executor, ctx: ExpenseCreateContext, body: ExpenseCreateInput): Promise<Expense> {
  const today = todayAt(ctx.now);
  const fields: Fields = {};
  if (!(await supplierExists(trx, ctx.companyId, body.supplier_id))) fields.supplier_id = NO_SUPPLIER;
  if (typeof body.category_id === 'number' && !(await categoryExists(trx, ctx.companyId, body.category_id))) fields.category_id = NO_CATEGORY;
  const planned = planAmounts(null, body);
  if (!planned.ok) Object.assign(fields, planned.fields);
  if (body.currency !== undefined && !ISO_CODES.has(body.currency)) fields.currency = NOT_ISO;
  const date = body.date ?? today;
  const dueDate = body.due_date ?? null;
  if (dueDate !== null && dueDate < date) fields.due_date = DUE_BEFORE_DATE;
  const isPaid = body.is_paid ?? false;
  let paidDate: string | null = null;
  if (isPaid) {
    if (body.payment_type === undefined) fields.payment_type = PAYMENT_TYPE_REQUIRED;
    paidDate = body.paid_date ?? date;
    if (paidDate > today) fields.paid_date = PAID_IN_FUTURE;
  } else if (body.paid_date !== undefined) {
    fields.paid_date = PAID_DATE_NOT_PAID;
  }
  if (!planned.ok || Object.keys(fields).length) throw validationFailed(localize(fields, ctx.locale));
  const closed = await closedMonths(trx, ctx.companyId);
  const closedHit = [date, paidDate].filter((d): d is string => d !== null).map(monthOf).filter((m) => closed.has(m)).sort()[0];
  if (closedHit) throw periodClosed(closedHit);

  const { header } = planned.plan;
  const row: ExpenseRow = {
    id: newId('exp'),
    company_id: ctx.companyId,
    work_point_id: ctx.workPointId,
    supplier_id: body.supplier_id,
    category_id: body.category_id ?? null,
    user_id: body.user_id ?? null,
    reference: cleanText(body.reference),
    reference_key: referenceKey(body.reference),
    description: cleanText(body.description),
    date,
    due_date: dueDate,
    paid_date: paidDate,
    is_paid: isPaid ? 1 : 0,
    payment_type: body.payment_type ?? null,
    ...amountColumns(planned.plan),
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  await trx.insertInto('expenses').values(row).execute();
  await replaceLines(trx, row.id, ctx.companyId, header.lines);
  const event = { companyId: ctx.companyId, expenseId: row.id, keyId: ctx.keyId, workPointId: ctx.workPointId, now: ctx.now };
  await appendEvent(trx, { ...event, type: 'created', data: {} });
  if (isPaid) await appendEvent(trx, { ...event, type: 'paid', data: { paid_date: paidDate, payment_type: body.payment_type, via: 'create' } });
  const lines = await loadLines(trx, [row.id]);
  return renderExpense(row, lines.get(row.id) ?? [], { today, closed, locale: ctx.locale });
}

export const createExpense = defineRoute({
  method: 'POST',
  path: '/expenses',
  operationId: 'createExpense',
  summary: 'Record an expense',
  description:
    'Flat (amount + vat, or vat = mix with amount_vat_manual and an optional vat_breakdown) or itemized (items; the header is derived). ' +
    'with_vat (default true) says whether amount and unit prices include VAT. A foreign currency needs exchange_rate (lei per unit). ' +
    'An expense may be recorded already paid (is_paid with payment_type; paid_date defaults to date).',
  tags: ['expenses'],
  scope: 'expenses:write',
  create: true,
  body: zExpenseCreate,
  response: zExpense,
  errors: { accounting_period_closed: 409 },
  handler: async (ctx) =>
    ctx.db.transaction().execute((trx) =>
      createExpenseRecord(trx, { companyId: ctx.companyId, workPointId: ctx.workPointId, keyId: ctx.auth.keyId, now: ctx.now, locale: ctx.locale }, ctx.body),
    ),
});

export const getExpense = defineRoute({
  method: 'GET',
  path: '/expenses/:id',
  operationId: 'getExpense',
  summary: 'Retrieve an expense',
  tags: ['expenses'],
  scope: 'expenses:read',
  params: z.object({ id: z.string() }),
  response: zExpense,
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await findExpense(ctx.db, ctx.dialect, ctx.companyId, ctx.params.id);
    if (!row) throw notFound('id');
    const lines = await loadLines(ctx.db, [row.id]);
    return renderExpense(row, lines.get(row.id) ?? [], { today: todayAt(ctx.now), closed: await closedMonths(ctx.db, ctx.companyId), locale: ctx.locale });
  },
});

const SORTABLE = ['date', 'due_date', 'created_at', 'amount', 'reference'] as const;

export const listExpenses = defineRoute({
  method: 'GET',
  path: '/expenses',
  operationId: 'listExpenses',
  summary: 'List the expenses of the selected work point',
  description:
    'Common list parameters; search matches reference and description; start_date/end_date filter on date; sort by ' +
    `${SORTABLE.join(', ')} or updated_at (default date, desc). Filters: supplier_id, category_id, status, currency. updated_since ` +
    '(Unix seconds, although the expense shows its timestamps as Bucharest wall time) keeps the expenses changed at or after that ' +
    'instant, closing their accounting month included (it changes is_locked).',
  tags: ['expenses'],
  scope: 'expenses:read',
  query: changesListQuery(SORTABLE).extend({
    supplier_id: z.string().max(64).optional(),
    category_id: z.coerce.number().int().positive().optional(),
    status: z.enum(EXPENSE_STATUSES).optional(),
    currency: z.string().regex(/^[A-Za-z]{3}$/).transform((s) => s.toUpperCase()).optional(),
  }),
  response: listPageSchema(zExpense),
  handler: async (ctx) => {
    const q = ctx.query;
    const today = todayAt(ctx.now);
    let base = ctx.db.selectFrom('expenses').selectAll().where('company_id', '=', ctx.companyId).where('work_point_id', '=', ctx.workPointId);
    if (q.supplier_id) base = base.where('supplier_id', '=', q.supplier_id);
    if (q.category_id) base = base.where('category_id', '=', q.category_id);
    if (q.currency) base = base.where('currency', '=', q.currency);
    if (q.status === 'paid') base = base.where('is_paid', '=', 1);
    if (q.status === 'overdue') base = base.where('is_paid', '=', 0).where('due_date', 'is not', null).where('due_date', '<', today);
    if (q.status === 'unpaid') {
      base = base.where('is_paid', '=', 0).where((eb) => eb.or([eb('due_date', 'is', null), eb('due_date', '>=', today)]));
    }
    const page = await paginate(base, q, {
      sortColumns: { date: 'date', due_date: 'due_date', created_at: 'created_at', amount: 'total_bani', reference: 'reference' },
      defaultSort: 'date',
      searchIndex: { spec: EXPENSES_SEARCH, dialect: ctx.dialect },
      dateColumn: 'date',
      tieBreaker: 'id',
      // Set at creation already: no COALESCE needed.
      updatedColumn: 'updated_at',
    });
    const lines = await loadLines(ctx.db, page.data.map((r) => r.id));
    const rc = { today, closed: await closedMonths(ctx.db, ctx.companyId), locale: ctx.locale };
    return { ...page, data: page.data.map((r) => renderExpense(r, lines.get(r.id) ?? [], rc)) };
  },
});

export const updateExpense = defineRoute({
  method: 'PUT',
  path: '/expenses/:id',
  operationId: 'updateExpense',
  summary: 'Update an expense',
  description:
    'Every member optional; omitted members keep their values. items replaces all lines (header derived); items: [] makes the expense flat ' +
    '(send amount and vat). An expense dated in a closed accounting month answers 409 expense_locked.',
  tags: ['expenses'],
  scope: 'expenses:write',
  params: z.object({ id: z.string() }),
  // Parsed in the handler, after the existence and lock checks (see body.ts).
  body: documentedBody(zExpenseUpdate),
  response: zExpenseActionReply,
  envelope: 'top',
  errors: { resource_missing: 404, expense_locked: 409, accounting_period_closed: 409 },
  handler: async (ctx) => {
    const today = todayAt(ctx.now);
    const expense = await ctx.db.transaction().execute(async (trx) => {
      const row = await findExpense(trx, ctx.dialect, ctx.companyId, ctx.params.id, true);
      if (!row) throw notFound('id');
      const closed = await closedMonths(trx, ctx.companyId);
      if (closed.has(monthOf(row.date))) {
        throw new ApiError(409, 'invalid_request_error', 'expense_locked', { param: 'id', vars: { month: monthOf(row.date) } });
      }
      const body = parseBody(zExpenseUpdate, withoutIgnoredMembers(ctx.body), ctx.locale);
      const storedLines = (await loadLines(trx, [row.id])).get(row.id) ?? [];
      const rc = { today, closed, locale: ctx.locale };
      const before = renderExpense(row, storedLines, rc);

      const fields: Fields = {};
      if (body.supplier_id !== undefined && body.supplier_id !== row.supplier_id && !(await supplierExists(trx, ctx.companyId, body.supplier_id))) {
        fields.supplier_id = NO_SUPPLIER;
      }
      if (typeof body.category_id === 'number' && body.category_id !== row.category_id && !(await categoryExists(trx, ctx.companyId, body.category_id))) {
        fields.category_id = NO_CATEGORY;
      }
      const planned = planAmounts({ row, lines: storedLines }, body);
      if (!planned.ok) Object.assign(fields, planned.fields);
      if (body.currency !== undefined && body.currency !== row.currency && !ISO_CODES.has(body.currency)) fields.currency = NOT_ISO;
      const date = body.date ?? row.date;
      const dueDate = body.due_date !== undefined ? body.due_date : row.due_date;
      if (dueDate !== null && dueDate < date) fields.due_date = DUE_BEFORE_DATE;

      let isPaid = Boolean(row.is_paid);
      let paidDate = row.paid_date;
      let transition: 'paid' | 'unpaid' | null = null;
      if (body.is_paid === true) {
        if (!row.is_paid) {
          if (body.payment_type === undefined) fields.payment_type = PAYMENT_TYPE_REQUIRED;
          transition = 'paid';
        }
        isPaid = true;
        paidDate = body.paid_date ?? row.paid_date ?? today;
      } else if (body.is_paid === false) {
        if (body.paid_date !== undefined) fields.paid_date = PAID_DATE_NOT_PAID;
        if (row.is_paid) transition = 'unpaid';
        isPaid = false;
        paidDate = null;
      } else if (body.paid_date !== undefined) {
        if (row.is_paid) paidDate = body.paid_date;
        else fields.paid_date = PAID_DATE_NOT_PAID;
      }
      if (isPaid && paidDate !== null && paidDate > today) fields.paid_date = PAID_IN_FUTURE;
      if (!planned.ok || Object.keys(fields).length) throw validationFailed(localize(fields, ctx.locale));

      // Moving the expense, or its payment, into a closed month would change that month after all.
      if (date !== row.date && closed.has(monthOf(date))) throw periodClosed(monthOf(date));
      if (paidDate !== null && paidDate !== row.paid_date && closed.has(monthOf(paidDate))) {
        throw new ApiError(409, 'invalid_request_error', 'accounting_period_closed', { param: 'paid_date', vars: { month: monthOf(paidDate) } });
      }

      const { header } = planned.plan;
      const next: ExpenseRow = {
        ...row,
        supplier_id: body.supplier_id ?? row.supplier_id,
        category_id: body.category_id !== undefined ? body.category_id : row.category_id,
        user_id: body.user_id !== undefined ? body.user_id : row.user_id,
        reference: body.reference !== undefined ? cleanText(body.reference) : row.reference,
        reference_key: body.reference !== undefined ? referenceKey(body.reference) : row.reference_key,
        description: body.description !== undefined ? cleanText(body.description) : row.description,
        date,
        due_date: dueDate,
        paid_date: paidDate,
        is_paid: isPaid ? 1 : 0,
        payment_type: body.payment_type ?? row.payment_type,
        ...amountColumns(planned.plan),
        updated_at: ctx.now,
      };
      const { id: _id, company_id: _c, work_point_id: _w, created_at: _t, ...changes } = next;
      await trx.updateTable('expenses').set(changes).where('id', '=', row.id).where('company_id', '=', ctx.companyId).execute();
      let lines = storedLines;
      if (!sameLines(storedLines, header.lines)) {
        await replaceLines(trx, row.id, ctx.companyId, header.lines);
        lines = (await loadLines(trx, [row.id])).get(row.id) ?? [];
      }
      const after = renderExpense(next, lines, rc);
      const event = { companyId: ctx.companyId, expenseId: row.id, keyId: ctx.auth.keyId, workPointId: ctx.workPointId, now: ctx.now };
      const diff = changesBetween(before, after);
      if (Object.keys(diff).length) await appendEvent(trx, { ...event, type: 'updated', data: { changes: diff } });
      if (transition === 'paid') {
        await appendEvent(trx, { ...event, type: 'paid', data: { paid_date: paidDate, payment_type: next.payment_type, via: 'update' } });
      }
      if (transition === 'unpaid') await appendEvent(trx, { ...event, type: 'unpaid', data: { paid_date: row.paid_date } });
      return after;
    });
    return { expense, message: actionMessage('expense_updated', ctx.locale) };
  },
});

export const expenseCrudRoutes = [createExpense, listExpenses, getExpense, updateExpense];
