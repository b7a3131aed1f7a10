import { z } from 'zod';
import { defineRoute, binaryReply } from '../../platform/route';
import { ApiError, notFound, validationFailed } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { todayAt } from '../../platform/bucharest-time';
import { formatRon, fromBani, toBani } from '../../../shared/money';
import {
  zCashDay,
  zCashDayClose,
  zCashMovement,
  zCashMovementCreate,
  zCashSettings,
  zCashSettingsUpdate,
  zCashCeilingWarning,
  zPeriodQuery,
} from '../../../shared/schemas/accounting';
import type { CashMovementsTable } from './tables';
import { closedDay, lowestBalanceFrom, registerDay, type Register } from './cash-register';
import { cashSettings, ceilingWarning } from './cash-ceilings';
import { cashRegisterHtml } from './cash-print';
import { checkedPeriod } from './journal-routes';
import { firmOf } from './journal-files';
import { formatDateRo } from '../../../shared/accounting/format';
import './messages';

const zCurrencyQuery = z.object({ currency: z.string().regex(/^[A-Z]{3}$/, 'A three-letter ISO 4217 code|Un cod ISO 4217 de trei litere').default('RON') });

const reg = (ctx: { companyId: string; workPointId: string }, currency: string): Register => ({
  companyId: ctx.companyId,
  workPointId: ctx.workPointId,
  currency,
});

const OUTFLOWS = new Set(['bank_deposit', 'payment']);

function movementView(row: CashMovementsTable): z.input<typeof zCashMovement> {
  return {
    object: 'cash_movement', id: row.id, work_point_id: row.work_point_id, currency: row.currency, date: row.date, kind: row.kind,
    amount: fromBani(Number(row.amount_bani)), document_number: row.document_number, description: row.description,
    corrects_id: row.corrects_id, created_at: Number(row.created_at),
  };
}

export const getCashDay = defineRoute({
  method: 'GET',
  path: '/accounting/cash-register/day',
  operationId: 'getCashRegisterDay',
  summary: 'One day of the cash register (registrul de casă) of the work point',
  description:
    'Our design. The register of the selected work point (`work_point_id`) in `currency` (default RON): the opening balance (everything before the day), ' +
    'each entry (chitanțe issued, expenses paid in cash — payment type 1 — on their payment date, and cash movements), the totals and the closing balance, ' +
    'which is the next day\'s opening. `closed` says whether the day was closed.',
  tags: ['accounting'],
  scope: 'accounting:read',
  query: zCurrencyQuery.extend({ date: zPeriodQuery.shape.start_date }),
  response: zCashDay,
  handler: async (ctx) => registerDay(ctx.db, reg(ctx, ctx.query.currency), ctx.query.date),
});

export const getCashRegisterHtml = defineRoute({
  method: 'GET',
  path: '/accounting/cash-register/html',
  operationId: 'getCashRegisterHtml',
  summary: 'The cash register as printable pages (form 14-4-7A), one per day with entries',
  description: 'Our design. The HTML the desktop app prints to PDF. Days without entries are left out; each page carries the day\'s opening and closing balance.',
  tags: ['accounting'],
  scope: 'accounting:read',
  query: zPeriodQuery.extend(zCurrencyQuery.shape),
  response: z.unknown(),
  produces: 'text/html',
  handler: async (ctx) => {
    const q = checkedPeriod(ctx.query);
    const firm = await firmOf(ctx.db, ctx.companyId);
    const wp = await ctx.db.selectFrom('work_points').select(['name', 'address']).where('id', '=', ctx.workPointId).executeTakeFirstOrThrow();
    return binaryReply(
      'text/html; charset=utf-8',
      cashRegisterHtml(ctx.db, reg(ctx, q.currency), q, firm, wp),
      `registru-casa-${q.currency}-${q.start_date}-${q.end_date}.html`,
    );
  },
});

export const createCashMovement = defineRoute({
  method: 'POST',
  path: '/accounting/cash-movements',
  operationId: 'createCashMovement',
  summary: 'Record a cash movement: opening balance, bank deposit or withdrawal, other payment or receipt, correction',
  description:
    'Our design. `amount` is positive; `bank_deposit` and `payment` take cash out, `opening`, `bank_withdrawal` and `receipt` bring it in, a `correction` ' +
    'says its `direction`. Refused with 409 `cash_day_closed` on a closed day (correct it on an open day, naming `corrects_id`), and with 409 ' +
    '`cash_register_negative` when the cash out would leave the register below zero on that day or any later one.',
  tags: ['accounting'],
  scope: 'accounting:write',
  create: true,
  body: zCashMovementCreate,
  response: zCashMovement,
  errors: { cash_day_closed: 409, cash_register_negative: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    const r = reg(ctx, b.currency);
    const bani = toBani(b.amount);
    const out = b.kind === 'correction' ? b.direction === 'out' : OUTFLOWS.has(b.kind);
    return ctx.db.transaction().execute(async (trx) => {
      if (await closedDay(trx, r, b.date)) {
        throw new ApiError(409, 'invalid_request_error', 'cash_day_closed', { param: 'date', vars: { date: formatDateRo(b.date) } });
      }
      if (out) {
        const lowest = await lowestBalanceFrom(trx, r, b.date);
        if (lowest.balance - bani < 0) {
          throw new ApiError(409, 'invalid_request_error', 'cash_register_negative', {
            param: 'amount',
            vars: { amount: money(bani, ctx.locale, b.currency), balance: money(lowest.balance - bani, ctx.locale, b.currency), date: formatDateRo(lowest.date) },
          });
        }
      }
      const row: CashMovementsTable = {
        id: newId('cash'), company_id: ctx.companyId, work_point_id: ctx.workPointId, currency: b.currency, date: b.date, kind: b.kind,
        amount_bani: out ? -bani : bani, document_number: b.document_number ?? null, description: b.description,
        corrects_id: b.corrects_id ?? null, created_at: ctx.now,
      };
      await trx.insertInto('cash_movements').values(row).execute();
      return movementView(row);
    });
  },
});

export const closeCashDay = defineRoute({
  method: 'POST',
  path: '/accounting/cash-register/days/close',
  operationId: 'closeCashRegisterDay',
  summary: 'Close a day of the cash register',
  description:
    'Our design. Stores the day\'s opening and closing balance; afterwards no cash movement may be dated on it (409 `cash_day_closed`). ' +
    'Closing a day already closed answers 409 `cash_day_already_closed`; a day still to come cannot be closed (422).',
  tags: ['accounting'],
  scope: 'accounting:write',
  create: true,
  body: zCashDayClose,
  response: zCashDay,
  errors: { cash_day_already_closed: 409 },
  handler: async (ctx) => {
    const { currency, date } = ctx.body;
    if (date > todayAt(ctx.now)) {
      throw validationFailed({ date: `Only a day that has begun can be closed: ${date} is in the future.|Se poate închide doar o zi începută: ${formatDateRo(date)} este în viitor.` });
    }
    const r = reg(ctx, currency);
    await ctx.db.transaction().execute(async (trx) => {
      const day = await registerDay(trx, r, date);
      const inserted = await trx
        .insertInto('cash_days')
        .values({
          company_id: ctx.companyId, work_point_id: ctx.workPointId, currency, date,
          opening_bani: toBani(day.opening_balance), closing_bani: toBani(day.closing_balance), closed_at: ctx.now, closed_by_key: ctx.auth.keyId,
        })
        .onConflict((oc) => oc.columns(['company_id', 'work_point_id', 'currency', 'date']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) {
        throw new ApiError(409, 'invalid_request_error', 'cash_day_already_closed', { param: 'date', vars: { date: formatDateRo(date) } });
      }
    });
    return registerDay(ctx.db, r, date);
  },
});

export const getCashSettings = defineRoute({
  method: 'GET',
  path: '/accounting/cash-settings',
  operationId: 'getCashSettings',
  summary: 'The daily cash ceilings for receipts from one person',
  description: 'Our design. Defaults: 5.000 lei a day from one legal person (B2B), 10.000 lei from one natural person (B2C), Legea 70/2015; the law changes them, so they are settings.',
  tags: ['accounting'],
  scope: 'accounting:read',
  response: zCashSettings,
  handler: async (ctx) => {
    const s = await cashSettings(ctx.db, ctx.companyId);
    return { object: 'cash_settings' as const, b2b_daily_limit: fromBani(s.b2b), b2c_daily_limit: fromBani(s.b2c) };
  },
});

export const updateCashSettings = defineRoute({
  method: 'PUT',
  path: '/accounting/cash-settings',
  operationId: 'updateCashSettings',
  summary: 'Change the daily cash ceilings',
  tags: ['accounting'],
  scope: 'accounting:write',
  body: zCashSettingsUpdate,
  response: zCashSettings,
  handler: async (ctx) => {
    const current = await cashSettings(ctx.db, ctx.companyId);
    const b2b = ctx.body.b2b_daily_limit === undefined ? current.b2b : toBani(ctx.body.b2b_daily_limit);
    const b2c = ctx.body.b2c_daily_limit === undefined ? current.b2c : toBani(ctx.body.b2c_daily_limit);
    await ctx.db
      .insertInto('cash_settings')
      .values({ company_id: ctx.companyId, b2b_daily_limit_bani: b2b, b2c_daily_limit_bani: b2c, updated_at: ctx.now })
      .onConflict((oc) => oc.column('company_id').doUpdateSet({ b2b_daily_limit_bani: b2b, b2c_daily_limit_bani: b2c, updated_at: ctx.now }))
      .execute();
    return { object: 'cash_settings' as const, b2b_daily_limit: fromBani(b2b), b2c_daily_limit: fromBani(b2c) };
  },
});

export const checkCashCeiling = defineRoute({
  method: 'GET',
  path: '/accounting/cash-ceiling',
  operationId: 'checkCashCeiling',
  summary: 'Whether a cash receipt would take one person over the day\'s ceiling',
  description:
    'Our design, for the counter before it issues a chitanță: `warning` is null when the receipt keeps the client (every work point, that day) within the ' +
    'ceiling of its kind (a client with a CUI is B2B, else B2C), else says by how much. A warning, never a refusal: the law fines, it does not void the receipt.',
  tags: ['accounting'],
  scope: 'accounting:read',
  query: z.object({
    client_id: z.string().max(64),
    amount: z.coerce.number().positive('The amount must be above 0.|Suma trebuie să fie mai mare decât 0.'),
    date: zPeriodQuery.shape.start_date.optional(),
  }),
  response: z.object({ warning: zCashCeilingWarning.nullable() }),
  handler: async (ctx) => {
    const client = await ctx.db.selectFrom('clients').select(['id', 'type', 'cui']).where('id', '=', ctx.query.client_id).where('company_id', '=', ctx.companyId).executeTakeFirst();
    if (!client) throw notFound('client_id');
    const warning = await ceilingWarning(ctx.db, ctx.companyId, client, ctx.query.date ?? todayAt(ctx.now), toBani(Math.round(ctx.query.amount * 100) / 100), ctx.locale);
    return { warning };
  },
});

function money(bani: number, locale: 'en' | 'ro', currency: string): string {
  const text = formatRon(bani, locale);
  return currency === 'RON' ? text : text.replace(/ lei$|^RON /, '') + ` ${currency}`;
}

export const cashRoutes = [getCashDay, getCashRegisterHtml, createCashMovement, closeCashDay, getCashSettings, updateCashSettings, checkCashCeiling];
