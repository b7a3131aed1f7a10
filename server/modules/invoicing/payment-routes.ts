import { z } from 'zod';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { changesListQuery, listPageSchema, mapPage, paginate } from '../../platform/list';
import { recordDeletion } from '../../platform/tombstones';
import { newId } from '../../platform/ids';
import { toBani, fromBani } from '../../../shared/money';
import { zPaymentMethodType } from '../../../shared/schemas/common';
import { zPayment, zPaymentCreate, zPaymentUpdate } from '../../../shared/schemas/receipt';
import type { Db } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { invalid } from './fail';
import { isUniqueViolation } from '../../platform/db-errors';
import { lockInvoiceRow, paymentView, recomputePaid, vatShare } from './payment-store';
import { todayAt } from './numbering';
import { zDeleted } from '../../platform/envelope';
import type { InvoicesTable, PaymentsTable } from './tables';
import './messages';

const idParams = z.object({ id: z.string() });

/**
 * Whether an invoice may receive money: issued (fiscal or proforma), not a draft, not voided, not a storno.
 * Shared by payments and receipts.
 */
export function assertPayable(invoice: InvoicesTable): void {
  if (invoice.status === 'draft') throw conflict('invoice_is_draft', 'invoice_id');
  if (invoice.status === 'storno') throw conflict('invoice_is_storno', 'invoice_id');
  if (invoice.status === 'voided') {
    throw new ApiError(409, 'invalid_request_error', 'already_voided', { param: 'invoice_id', vars: { storno_id: invoice.storno_id ?? '' } });
  }
}

/** An amount received must not exceed what is still due (`alreadyCounted`: this document's own earlier share). */
export function assertWithinDue(locale: Locale, invoice: InvoicesTable, amountBani: number, alreadyCounted = 0): void {
  const due = Number(invoice.total_bani) - Number(invoice.amount_paid_bani) + alreadyCounted;
  if (amountBani > due) {
    throw invalid(locale, {
      amount: `Exceeds the amount due on the invoice (${fromBani(due)} ${invoice.currency}).|Depășește restul de plată al facturii (${fromBani(due)} ${invoice.currency}).`,
    });
  }
}

export async function paymentWithNumber(db: Db, row: PaymentsTable, locale: Locale) {
  const invoice = await db.selectFrom('invoices').select('full_number').where('id', '=', row.invoice_id).executeTakeFirst();
  return paymentView(row, invoice?.full_number ?? null, locale);
}

async function findPaymentByUuid(db: Db, companyId: string, uuid: string) {
  return db.selectFrom('payments').selectAll().where('company_id', '=', companyId).where('client_local_uuid', '=', uuid).executeTakeFirst();
}

const createPayment = defineRoute({
  method: 'POST', path: '/payments', operationId: 'createPayment', summary: 'Record a payment of an invoice',
  description:
    'Bank transfer, card and the like; cash is received with POST /receipts (type `receipt` is refused here). The payment is in the ' +
    'invoice\'s currency and may not exceed the amount due. Its VAT share is the invoice\'s VAT in proportion. A repeated ' +
    '`client_local_uuid` answers the payment already recorded.',
  tags: ['payments'], scope: 'payments:write', create: true, body: zPaymentCreate, response: zPayment,
  errors: { resource_missing: 404, invoice_is_draft: 409, invoice_is_storno: 409, already_voided: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    if (b.client_local_uuid) {
      const existing = await findPaymentByUuid(ctx.db, ctx.companyId, b.client_local_uuid);
      if (existing) {
        ctx.replayed();
        return paymentWithNumber(ctx.db, existing, ctx.locale);
      }
    }
    if (b.type === 'receipt') {
      throw invalid(ctx.locale, { type: 'Cash is received with POST /receipts.|Numerarul se încasează cu POST /receipts.' });
    }
    const amount = toBani(b.amount);
    try {
      const row = await ctx.db.transaction().execute(async (trx) => {
        const invoice = await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, b.invoice_id);
        if (!invoice) throw notFound('invoice_id');
        assertPayable(invoice);
        if (b.currency && b.currency !== invoice.currency) {
          throw invalid(ctx.locale, { currency: `Must be the invoice's currency, ${invoice.currency}.|Trebuie să fie moneda facturii, ${invoice.currency}.` });
        }
        assertWithinDue(ctx.locale, invoice, amount);
        const share = vatShare(amount, invoice);
        const rate = invoice.currency === 'RON' ? null : (b.exchange_rate ?? invoice.exchange_rate);
        const row: PaymentsTable = {
          id: newId('pay'), company_id: ctx.companyId, work_point_id: invoice.work_point_id, invoice_id: invoice.id,
          amount_bani: amount, amount_without_vat_bani: share.net, amount_vat_bani: share.vat, currency: invoice.currency,
          date: b.date ?? todayAt(ctx.now), type: b.type, exchange_rate: rate, exchange_currency: rate === null ? null : 'RON',
          client_id: invoice.client_id, client_name: invoice.buyer_name ?? '', receipt_id: null,
          client_local_uuid: b.client_local_uuid ?? null, created_at: ctx.now, updated_at: null,
        };
        await trx.insertInto('payments').values(row).execute();
        await recomputePaid(trx, invoice.id, ctx.now);
        return row;
      });
      return paymentWithNumber(ctx.db, row, ctx.locale);
    } catch (error) {
      if (b.client_local_uuid && isUniqueViolation(error)) {
        const existing = await findPaymentByUuid(ctx.db, ctx.companyId, b.client_local_uuid);
        if (existing) {
          ctx.replayed();
          return paymentWithNumber(ctx.db, existing, ctx.locale);
        }
      }
      throw error;
    }
  },
});

const listPayments = defineRoute({
  method: 'GET', path: '/payments', operationId: 'listPayments', summary: 'List the payments of the work point',
  description:
    '`start_date`/`end_date` filter on the payment date; `invoice_id`, `client_id` and `type` keep one invoice\'s, one client\'s or one method\'s; `search` matches the client name and the invoice number. `updated_since` ' +
    'keeps the payments made or changed (a receipt\'s payment follows its receipt) at or after that instant; `sort=updated_at` ' +
    'orders by it; deleted payments are listed by GET /deleted-records.',
  tags: ['payments'], scope: 'payments:read',
  query: changesListQuery(['date', 'amount', 'created_at'] as const).extend({
    invoice_id: z.string().optional(),
    /** The payments of one client's invoices (Contazen's SDK, `getForClient`). */
    client_id: z.string().optional(),
    type: zPaymentMethodType.optional(),
  }),
  response: listPageSchema(zPayment),
  handler: async (ctx) => {
    const q = ctx.query;
    // The invoice's number is looked up for the page's rows only: joined, it made the `total` count
    // read every invoice of the work point's payments (106 ms at 100,000 on SQLite, bench/catalog-usage.ts);
    // alone, the count is one index's. Every payment has its invoice (a foreign key; a draft, the only
    // invoice ever deleted, takes no payment), so the join dropped no row. `search` matches the number: joined then.
    let base = q.search
      ? ctx.db
        .selectFrom('payments')
        .innerJoin('invoices', 'invoices.id', 'payments.invoice_id')
        .selectAll('payments')
        .select('invoices.full_number as invoice_number')
      : ctx.db
        .selectFrom('payments')
        .selectAll('payments')
        .select((eb) => eb.selectFrom('invoices').select('invoices.full_number').whereRef('invoices.id', '=', 'payments.invoice_id').as('invoice_number'));
    base = base.where('payments.company_id', '=', ctx.companyId).where('payments.work_point_id', '=', ctx.workPointId);
    if (q.invoice_id) base = base.where('payments.invoice_id', '=', q.invoice_id);
    if (q.client_id) base = base.where('payments.client_id', '=', q.client_id);
    if (q.type) base = base.where('payments.type', '=', q.type);
    const page = await paginate(base, q, {
      sortColumns: { date: 'payments.date', amount: 'payments.amount_bani', created_at: 'payments.created_at' },
      defaultSort: 'date', defaultOrder: 'desc', searchColumns: ['payments.client_name', 'invoices.full_number'],
      dateColumn: 'payments.date', tieBreaker: 'payments.id',
      updatedColumn: 'payments.updated_at', createdColumn: 'payments.created_at',
    });
    return mapPage(page, (row) => paymentView(row, row.invoice_number, ctx.locale));
  },
});

const getPayment = defineRoute({
  method: 'GET', path: '/payments/:id', operationId: 'getPayment', summary: 'Retrieve a payment',
  tags: ['payments'], scope: 'payments:read', params: idParams, response: zPayment, errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await ctx.db.selectFrom('payments').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', ctx.companyId).executeTakeFirst();
    if (!row) throw notFound('id');
    return paymentWithNumber(ctx.db, row, ctx.locale);
  },
});

const deletePayment = defineRoute({
  method: 'DELETE', path: '/payments/:id', operationId: 'deletePayment', summary: 'Delete a payment',
  description:
    'The invoice\'s paid state is recomputed. A receipt\'s payment is removed by deleting the receipt (409 `payment_linked_to_receipt`). ' +
    'The deletion is listed by GET /deleted-records.',
  tags: ['payments'], scope: 'payments:write', params: idParams, response: zDeleted('payment'), envelope: 'top',
  errors: { resource_missing: 404, payment_linked_to_receipt: 409 },
  handler: async (ctx) => {
    await ctx.db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('payments').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', ctx.companyId).executeTakeFirst();
      if (!found) throw notFound('id');
      if (found.receipt_id) {
        throw new ApiError(409, 'invalid_request_error', 'payment_linked_to_receipt', { param: 'id', vars: { receipt_id: found.receipt_id } });
      }
      await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, found.invoice_id);
      await trx.deleteFrom('payments').where('id', '=', found.id).execute();
      await recordDeletion(trx, { resource: 'payments', id: found.id, companyId: ctx.companyId, workPointId: found.work_point_id, now: ctx.now });
      await recomputePaid(trx, found.invoice_id, ctx.now);
    });
    return { object: 'payment' as const, id: ctx.params.id, deleted: true as const };
  },
});

const updatePayment = defineRoute({
  method: 'PUT', path: '/payments/:id', operationId: 'updatePayment', summary: 'Update a payment',
  description:
    'Our design (the contract names the route only). Every member optional; omitted ones keep their values. The invoice stays ' +
    'the one paid (delete and create to pay another); `currency` may only repeat the invoice\'s. The amount may not exceed what ' +
    'is due counting this payment\'s own share; its VAT share and the invoice\'s paid state are recomputed. A receipt\'s ' +
    'payment changes with its receipt (409 `payment_linked_to_receipt`); cash (`type: receipt`) is refused as on create.',
  tags: ['payments'], scope: 'payments:write', params: idParams, body: zPaymentUpdate, response: zPayment,
  errors: { resource_missing: 404, payment_linked_to_receipt: 409, invoice_is_draft: 409, invoice_is_storno: 409, already_voided: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    if (b.type === 'receipt') {
      throw invalid(ctx.locale, { type: 'Cash is received with POST /receipts.|Numerarul se încasează cu POST /receipts.' });
    }
    const row = await ctx.db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('payments').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', ctx.companyId).executeTakeFirst();
      if (!found) throw notFound('id');
      if (found.receipt_id) {
        throw new ApiError(409, 'invalid_request_error', 'payment_linked_to_receipt', { param: 'id', vars: { receipt_id: found.receipt_id } });
      }
      const invoice = await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, found.invoice_id);
      if (!invoice) throw notFound('invoice_id');
      assertPayable(invoice);
      if (b.currency && b.currency !== invoice.currency) {
        throw invalid(ctx.locale, { currency: `Must be the invoice's currency, ${invoice.currency}.|Trebuie să fie moneda facturii, ${invoice.currency}.` });
      }
      const amount = b.amount !== undefined ? toBani(b.amount) : Number(found.amount_bani);
      assertWithinDue(ctx.locale, invoice, amount, Number(found.amount_bani));
      const share = vatShare(amount, invoice);
      const rate = invoice.currency === 'RON' ? null : (b.exchange_rate ?? found.exchange_rate ?? invoice.exchange_rate);
      const changes = {
        amount_bani: amount, amount_without_vat_bani: share.net, amount_vat_bani: share.vat,
        date: b.date ?? found.date, type: b.type ?? found.type, exchange_rate: rate, exchange_currency: rate === null ? null : 'RON',
        updated_at: ctx.now,
      };
      await trx.updateTable('payments').set(changes).where('id', '=', found.id).execute();
      await recomputePaid(trx, invoice.id, ctx.now);
      return { ...found, ...changes };
    });
    return paymentWithNumber(ctx.db, row, ctx.locale);
  },
});

export const paymentRoutes: AnyRoute[] = [createPayment, listPayments, getPayment, updatePayment, deletePayment];
