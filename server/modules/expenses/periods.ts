import type { Db } from '../../db/types';
import { defineRoute } from '../../platform/route';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import { validationFailed } from '../../platform/errors';
import { zAccountingPeriod, zAccountingPeriodClose, type AccountingPeriod } from '../../../shared/schemas/expense';
import { fieldText } from './messages';
import { monthOf, todayAt } from './time';

/**
 * Accounting periods (our design): the contract names `expense_locked` without saying what locks.
 * Here a month, once closed by the firm's accountant, locks every expense dated in it. A closed
 * month is a row of `accounting_periods`; there is no reopening in v1.
 */

/** The closed months of a company (a few a year: loaded whole). */
export async function closedMonths(db: Db, companyId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('accounting_periods').select('month').where('company_id', '=', companyId).execute();
  return new Set(rows.map((r) => r.month));
}

function toWire(row: { month: string; closed_at: number }): AccountingPeriod {
  return { object: 'accounting_period', month: row.month, status: 'closed', closed_at: Number(row.closed_at) };
}

export const closePeriod = defineRoute({
  method: 'POST',
  path: '/accounting/periods/close',
  operationId: 'closeAccountingPeriod',
  summary: 'Close an accounting month',
  description:
    'Our design. Closes a month that has ended (Europe/Bucharest): expenses dated in it become locked (PUT answers 409 expense_locked), ' +
    'and nothing may be created, moved or paid into it (409 accounting_period_closed). Closing a month already closed answers the existing period. ' +
    'The expenses dated in the month change (is_locked) and their updated_at moves to the closing time.',
  tags: ['accounting'],
  scope: 'accounting:write',
  body: zAccountingPeriodClose,
  response: zAccountingPeriod,
  handler: async (ctx) => {
    const { month } = ctx.body;
    if (month >= monthOf(todayAt(ctx.now))) {
      throw validationFailed({ month: fieldText('Only a month that has ended can be closed.|Se poate închide doar o lună încheiată.', ctx.locale) });
    }
    await ctx.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('accounting_periods')
        .values({ company_id: ctx.companyId, month, closed_at: ctx.now, closed_by_key: ctx.auth.keyId })
        .onConflict((oc) => oc.columns(['company_id', 'month']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return;
      // Their `is_locked` changed: a copy kept elsewhere (updated_since) must learn of it.
      await trx
        .updateTable('expenses')
        .set({ updated_at: ctx.now })
        .where('company_id', '=', ctx.companyId)
        .where('date', '>=', `${month}-01`)
        .where('date', '<=', `${month}-31`)
        .execute();
    });
    const row = await ctx.db
      .selectFrom('accounting_periods')
      .select(['month', 'closed_at'])
      .where('company_id', '=', ctx.companyId)
      .where('month', '=', month)
      .executeTakeFirstOrThrow();
    return toWire(row);
  },
});

export const listPeriods = defineRoute({
  method: 'GET',
  path: '/accounting/periods',
  operationId: 'listAccountingPeriods',
  summary: 'List the closed accounting months',
  description: 'Our design. Every month listed is closed; a month not listed is open.',
  tags: ['accounting'],
  scope: 'accounting:read',
  query: listQuery(['month', 'closed_at'] as const),
  response: listPageSchema(zAccountingPeriod),
  handler: async (ctx) => {
    const base = ctx.db.selectFrom('accounting_periods').select(['month', 'closed_at']).where('company_id', '=', ctx.companyId);
    const page = await paginate(base, ctx.query, {
      sortColumns: { month: 'month', closed_at: 'closed_at' },
      defaultSort: 'month',
      searchColumns: ['month'],
      tieBreaker: 'month',
    });
    return mapPage(page, toWire);
  },
});

export const periodRoutes = [closePeriod, listPeriods];
