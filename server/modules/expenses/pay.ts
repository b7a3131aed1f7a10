import { z } from 'zod';
import { defineRoute } from '../../platform/route';
import { ApiError, badRequest, notFound, validationFailed } from '../../platform/errors';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import { zExpenseActionReply, zExpenseEvent, zExpensePay, type ExpenseEvent } from '../../../shared/schemas/expense';
import { actionMessage, fieldText } from './messages';
import { closedMonths } from './periods';
import { documentedBody, parseBody } from './body';
import { appendEvent, findExpense, loadLines, renderExpense } from './store';
import { monthOf, todayAt } from './time';

export const payExpense = defineRoute({
  method: 'POST',
  path: '/expenses/:id/pay',
  operationId: 'payExpense',
  summary: 'Mark an expense as paid',
  description:
    'Records paid_date and payment_type (1-7) on an unpaid or overdue expense, and audits it (GET /expenses/{id}/events) in the same transaction. ' +
    'paid_date may not be in the future, nor in a closed accounting month (409 accounting_period_closed). ' +
    'An expense dated in a closed month can still be paid: the payment belongs to the month of paid_date.',
  tags: ['expenses'],
  scope: 'expenses:write',
  params: z.object({ id: z.string() }),
  // Parsed in the handler, after the existence and already-paid checks (see body.ts).
  body: documentedBody(zExpensePay, { required: true }),
  response: zExpenseActionReply,
  envelope: 'top',
  errors: { resource_missing: 404, expense_already_paid: 400, accounting_period_closed: 409 },
  handler: async (ctx) => {
    const today = todayAt(ctx.now);
    const expense = await ctx.db.transaction().execute(async (trx) => {
      const row = await findExpense(trx, ctx.dialect, ctx.companyId, ctx.params.id, true);
      if (!row) throw notFound('id');
      if (row.is_paid) throw badRequest('expense_already_paid', 'id');
      const { paid_date: paidDate, payment_type: paymentType } = parseBody(zExpensePay, ctx.body, ctx.locale);
      if (paidDate > today) throw validationFailed({ paid_date: fieldText('Must not be in the future.|Nu poate fi în viitor.', ctx.locale) });
      const closed = await closedMonths(trx, ctx.companyId);
      if (closed.has(monthOf(paidDate))) {
        throw new ApiError(409, 'invalid_request_error', 'accounting_period_closed', { param: 'paid_date', vars: { month: monthOf(paidDate) } });
      }
      // `is_paid = 0` in the WHERE as well: of two racing payments exactly one changes the row.
      const updated = await trx
        .updateTable('expenses')
        .set({ is_paid: 1, paid_date: paidDate, payment_type: paymentType, updated_at: ctx.now })
        .where('id', '=', row.id)
        .where('company_id', '=', ctx.companyId)
        .where('is_paid', '=', 0)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw badRequest('expense_already_paid', 'id');
      await appendEvent(trx, {
        companyId: ctx.companyId,
        expenseId: row.id,
        type: 'paid',
        data: { paid_date: paidDate, payment_type: paymentType, via: 'pay' },
        keyId: ctx.auth.keyId,
        workPointId: ctx.workPointId,
        now: ctx.now,
      });
      const next = { ...row, is_paid: 1, paid_date: paidDate, payment_type: paymentType, updated_at: ctx.now };
      const lines = (await loadLines(trx, [row.id])).get(row.id) ?? [];
      return renderExpense(next, lines, { today, closed, locale: ctx.locale });
    });
    return { expense, message: actionMessage('expense_paid', ctx.locale) };
  },
});

export const listExpenseEvents = defineRoute({
  method: 'GET',
  path: '/expenses/:id/events',
  operationId: 'listExpenseEvents',
  summary: 'The audit trail of an expense',
  description: 'Our design. Read-only: created, updated (with the changed members), paid and unpaid, oldest first by default.',
  tags: ['expenses'],
  scope: 'expenses:read',
  params: z.object({ id: z.string() }),
  query: listQuery(['seq'] as const),
  response: listPageSchema(zExpenseEvent),
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await findExpense(ctx.db, ctx.dialect, ctx.companyId, ctx.params.id);
    if (!row) throw notFound('id');
    const base = ctx.db.selectFrom('expense_events').selectAll().where('company_id', '=', ctx.companyId).where('expense_id', '=', row.id);
    const page = await paginate(base, ctx.query, { sortColumns: { seq: 'seq' }, defaultSort: 'seq', defaultOrder: 'asc' });
    return mapPage(
      page,
      (e): ExpenseEvent => ({
        id: e.id,
        object: 'expense_event',
        expense_id: e.expense_id,
        seq: Number(e.seq),
        type: e.type,
        data: JSON.parse(e.data) as Record<string, unknown>,
        key_id: e.key_id,
        work_point_id: e.work_point_id,
        created_at: Number(e.created_at),
      }),
    );
  },
});
