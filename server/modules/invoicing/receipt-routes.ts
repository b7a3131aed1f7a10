import { z } from 'zod';
import { conflict, notFound } from '../../platform/errors';
import { defineRoute, type AnyRoute, type HandlerContext } from '../../platform/route';
import { changesListQuery, listPageSchema, paginate } from '../../platform/list';
import { recordDeletion } from '../../platform/tombstones';
import { newId } from '../../platform/ids';
import type { Db, Dialect } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { fromBani, toBani } from '../../../shared/money';
import { zPaymentMethodType } from '../../../shared/schemas/common';
import { zReceipt, zReceiptCreate, zReceiptUpdate, type Receipt } from '../../../shared/schemas/receipt';
import { invalid } from './fail';
import { isUniqueViolation } from '../../platform/db-errors';
import { lockInvoiceRow, paymentView, recomputePaid, vatShare } from './payment-store';
import { assertPayable, assertWithinDue } from './payment-routes';
import {
  claimNumber, formatNumber, isLocked, lockAndTakeNext, lockSeriesRow, readSeriesRow, RECEIPT_YEAR, seriesLockedError, todayAt, type SeriesRow,
} from './numbering';
import { AlreadyCreated, assertOneNumberSource, consumeReservation } from './reservation-consume';
import { defaultReceiptSeries } from './receipt-series-routes';
import { findClient, isCurrencyEnabled } from './catalog-bridge';
import { CURRENCY_NOT_ENABLED } from './invoice-input';
import { bool } from './views';
import { zDeleted } from '../../platform/envelope';
import type { InvoicesTable, PaymentsTable, ReceiptsTable } from './tables';
import './messages';
import { emitEvent, webhooksListening } from '../webhooks/events';
import { zCashCeilingWarning } from '../../../shared/schemas/accounting';
import { receiptCeilingWarnings } from '../accounting/cash-ceilings';
import { RECEIPTS_SEARCH } from './migrations/0210_search';

const idParams = z.object({ id: z.string() });

/** Receipts with their invoice summary and payment, one query for each. */
export async function receiptViews(db: Db, rows: ReceiptsTable[], locale: Locale): Promise<Receipt[]> {
  const invoiceIds = [...new Set(rows.map((r) => r.invoice_id).filter((id): id is string => id !== null))];
  const paymentIds = rows.map((r) => r.payment_id).filter((id): id is string => id !== null);
  const invoices = new Map(
    (invoiceIds.length
      ? await db.selectFrom('invoices').select(['id', 'full_number', 'total_bani', 'currency', 'paid_state']).where('id', 'in', invoiceIds).execute()
      : []
    ).map((i) => [i.id, i]),
  );
  const payments = new Map(
    (paymentIds.length ? await db.selectFrom('payments').selectAll().where('id', 'in', paymentIds).execute() : []).map((p) => [p.id, p]),
  );
  return rows.map((row) => {
    const invoice = row.invoice_id ? invoices.get(row.invoice_id) : undefined;
    const payment = row.payment_id ? payments.get(row.payment_id) : undefined;
    return {
      id: row.id,
      object: 'receipt',
      receipt_number: row.receipt_number,
      series_id: row.series_id,
      amount: fromBani(Number(row.amount_bani)),
      amount_without_vat: fromBani(Number(row.amount_without_vat_bani)),
      amount_vat: fromBani(Number(row.amount_vat_bani)),
      currency: row.currency,
      date: row.date,
      observations: row.observations,
      language: row.language,
      is_draft: bool(row.is_draft),
      is_deleted: bool(row.is_deleted),
      exchange_rate: row.exchange_rate === null ? null : Number(row.exchange_rate),
      exchange_currency: row.exchange_currency,
      type: row.type as Receipt['type'],
      client: { id: row.client_id, name: row.client_name },
      invoice: invoice
        ? { id: invoice.id, number: invoice.full_number, total: fromBani(Number(invoice.total_bani)), currency: invoice.currency, is_paid: invoice.paid_state === 'paid' }
        : null,
      payment: payment ? paymentView(payment, invoice?.full_number ?? null, locale) : null,
      client_local_uuid: row.client_local_uuid,
      created_at: Number(row.created_at),
      updated_at: row.updated_at === null ? null : Number(row.updated_at),
    };
  });
}

async function oneView(db: Db, row: ReceiptsTable, locale: Locale): Promise<Receipt> {
  return (await receiptViews(db, [row], locale))[0]!;
}

async function lockReceiptRow(trx: Db, dialect: Dialect, companyId: string, id: string): Promise<ReceiptsTable | undefined> {
  const query = trx.selectFrom('receipts').selectAll().where('id', '=', id).where('company_id', '=', companyId);
  return dialect === 'postgres' ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
}

/** The paired invoice: exists, can receive money, same currency as the receipt. */
async function pairedInvoice(ctx: HandlerContext<unknown, unknown, unknown>, trx: Db, invoiceId: string, currency: string): Promise<InvoicesTable> {
  const invoice = await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, invoiceId);
  if (!invoice) throw notFound('invoice_id');
  if (invoice.currency !== currency) {
    throw invalid(ctx.locale, { currency: `Must be the invoice's currency, ${invoice.currency}.|Trebuie să fie moneda facturii, ${invoice.currency}.` });
  }
  return invoice;
}

function receiptRate(ctx: HandlerContext<unknown, unknown, unknown>, currency: string, given: number | null | undefined, invoice: InvoicesTable | null): number | null {
  if (currency === 'RON') return null;
  const rate = given ?? invoice?.exchange_rate ?? null;
  if (rate === null) throw invalid(ctx.locale, { exchange_rate: 'Required for a currency other than RON.|Obligatoriu pentru o altă monedă decât RON.' });
  return Number(rate);
}

function paymentRow(receipt: Omit<ReceiptsTable, 'series_id' | 'number' | 'receipt_number'>, invoice: InvoicesTable, id: string, now: number): PaymentsTable {
  return {
    id, company_id: receipt.company_id, work_point_id: receipt.work_point_id, invoice_id: invoice.id,
    amount_bani: receipt.amount_bani, amount_without_vat_bani: receipt.amount_without_vat_bani, amount_vat_bani: receipt.amount_vat_bani,
    currency: receipt.currency, date: receipt.date, type: receipt.type, exchange_rate: receipt.exchange_rate,
    exchange_currency: receipt.exchange_currency, client_id: receipt.client_id, client_name: receipt.client_name,
    receipt_id: receipt.id, client_local_uuid: null, created_at: now, updated_at: null,
  };
}

async function findReceiptByUuid(db: Db, companyId: string, uuid: string) {
  return db.selectFrom('receipts').selectAll().where('company_id', '=', companyId).where('client_local_uuid', '=', uuid).executeTakeFirst();
}

type ReceiptNumber = { series: SeriesRow; number: number };

/**
 * The series' next number, not taken yet (as {@link LateNumber} for invoices): the series was read
 * and checked without a lock, and {@link takeLateReceiptNumber} locks it and takes the number after
 * every other write of the receipt, just before the commit. `isDefault`: no series was named, so a
 * default deleted in between is replaced by whichever is the default then.
 */
interface LateReceiptNumber {
  late: true;
  series: SeriesRow;
  isDefault: boolean;
  deviceId: string | undefined;
}

/**
 * What number a receipt being issued will get, inside the issuing transaction: the reservation's
 * (offline, shared series) or the one the lock holder printed (offline, exclusive series) are taken
 * now; the series' next number is only planned, its series checked (exists, at this work point, not
 * held by another device), and taken last.
 */
async function planReceiptNumber(
  ctx: HandlerContext<unknown, unknown, unknown>,
  trx: Db,
  b: z.output<typeof zReceiptCreate>,
  receiptId: string,
): Promise<ReceiptNumber | LateReceiptNumber> {
  if (b.reservation_token !== undefined) {
    const taken = await consumeReservation(ctx, trx, {
      kind: 'receipt', token: b.reservation_token, deviceId: b.device_id, seriesId: b.series_id,
      clientLocalUuid: b.client_local_uuid ?? null, documentId: receiptId,
    });
    assertAtWorkPoint(ctx, taken.series);
    return { series: taken.series, number: taken.number };
  }
  if (b.number !== undefined) {
    // Continuity of a printed number is checked under the lock: taken now, like an invoice's.
    const series = b.series_id
      ? await lockSeriesRow(trx, ctx.dialect, ctx.companyId, b.series_id, 'receipt')
      : await defaultReceiptSeries(trx, ctx.dialect, ctx.companyId, ctx.workPointId, ctx.now);
    if (!series) throw notFound('series_id');
    assertAtWorkPoint(ctx, series);
    return { series, number: await claimNumber(trx, series, RECEIPT_YEAR, { kind: 'explicit', number: b.number, deviceId: b.device_id }) };
  }
  const series = b.series_id
    ? await readSeriesRow(trx, ctx.companyId, b.series_id, 'receipt')
    : await defaultReceiptSeries(trx, ctx.dialect, ctx.companyId, ctx.workPointId, ctx.now, { lock: false });
  if (!series) throw notFound('series_id');
  checkReceiptSeries(ctx, series, b.device_id);
  return { late: true, series, isDefault: !b.series_id, deviceId: b.device_id };
}

/** At this work point and not held by another device: checked when planned, and again under the lock, where it counts. */
function checkReceiptSeries(ctx: HandlerContext<unknown, unknown, unknown>, series: SeriesRow, deviceId: string | undefined): void {
  assertAtWorkPoint(ctx, series);
  if (isLocked(series) && series.lock_device_id !== deviceId) throw seriesLockedError(series);
}

/**
 * Takes the planned number, last thing before the receipt's insert and the commit: locks the series
 * row, checks it again and moves its counter in one statement (PostgreSQL). A default series deleted
 * since it was read gives way to the default now (as a receipt that waited for the deleting
 * transaction always did); a named one answers 404. A refusal here rolls the counter back with the rest.
 */
async function takeLateReceiptNumber(ctx: HandlerContext<unknown, unknown, unknown>, trx: Db, planned: LateReceiptNumber): Promise<ReceiptNumber> {
  const taken = await lockAndTakeNext(
    trx, ctx.dialect, { companyId: ctx.companyId, seriesId: planned.series.id, kind: 'receipt', year: RECEIPT_YEAR },
    (locked) => checkReceiptSeries(ctx, locked, planned.deviceId),
  );
  if (taken) return taken;
  if (!planned.isDefault) throw notFound('series_id');
  const series = await defaultReceiptSeries(trx, ctx.dialect, ctx.companyId, ctx.workPointId, ctx.now);
  checkReceiptSeries(ctx, series, planned.deviceId);
  return { series, number: await claimNumber(trx, series, RECEIPT_YEAR, { kind: 'next', deviceId: planned.deviceId }) };
}

function assertAtWorkPoint(ctx: HandlerContext<unknown, unknown, unknown>, series: SeriesRow): void {
  if (series.work_point_id !== ctx.workPointId) {
    throw invalid(ctx.locale, { series_id: 'This series belongs to another work point.|Această serie aparține altui punct de lucru.' });
  }
}

/** A new receipt, with what the cash register module has to say about it (the day's ceiling). */
const zReceiptCreated = zReceipt.extend({ warnings: z.array(zCashCeilingWarning).optional() });

const createReceipt = defineRoute({
  method: 'POST', path: '/receipts', operationId: 'createReceipt', summary: 'Issue a cash receipt (chitanță)',
  description:
    'Standalone (to `client_id` or a walk-in `client_name`; VAT `amount_vat`, default 0) or paired with an invoice (`invoice_id`: same ' +
    'currency, at most the amount due; the client is the invoice\'s; the VAT is the invoice\'s VAT share of the amount; a payment row of ' +
    'the receipt\'s type is created and shown as `payment`). Numbered from `series_id`, else the work point\'s default receipt series ' +
    '(created with prefix `CH` on first use); a device holding the series lock sends the `number` it printed with its `device_id`, ' +
    'a device that reserved numbers of the series (`POST /receipt-series/{id}/reservations`) sends the `reservation_token` with its `device_id`. ' +
    'A repeated `client_local_uuid` answers the receipt already issued.',
  tags: ['receipts'], scope: 'receipts:write', create: true, body: zReceiptCreate, response: zReceiptCreated,
  errors: {
    resource_missing: 404, series_locked: 409, series_not_locked: 409, number_out_of_sequence: 409,
    invoice_is_draft: 409, invoice_is_storno: 409, already_voided: 409,
    forbidden: 403, reservation_released: 409, reservation_consumed: 409,
  },
  handler: async (ctx) => {
    const b = ctx.body;
    if (b.client_local_uuid) {
      const existing = await findReceiptByUuid(ctx.db, ctx.companyId, b.client_local_uuid);
      if (existing) {
        ctx.replayed();
        return oneView(ctx.db, existing, ctx.locale);
      }
    }
    assertOneNumberSource(ctx.locale, b);
    const amount = toBani(b.amount);
    const id = newId('rcpt');
    try {
      const row = await ctx.db.transaction().execute(async (trx) => {
        let invoice: InvoicesTable | null = null;
        let client: { id: string | null; name: string };
        let vat: number;
        if (b.invoice_id) {
          invoice = await pairedInvoice(ctx, trx, b.invoice_id, b.currency);
          assertPayable(invoice);
          if (b.client_id && b.client_id !== invoice.client_id) {
            throw invalid(ctx.locale, { client_id: 'A paired receipt is issued to the invoice\'s client.|O chitanță pentru o factură se emite clientului facturii.' });
          }
          assertWithinDue(ctx.locale, invoice, amount);
          client = { id: invoice.client_id, name: invoice.buyer_name ?? b.client_name ?? '' };
          vat = vatShare(amount, invoice).vat;
        } else {
          if (b.client_id) {
            const found = await findClient(trx, ctx.companyId, b.client_id);
            if (!found) throw notFound('client_id');
            client = { id: found.id, name: found.name };
          } else if (b.client_name) {
            client = { id: null, name: b.client_name };
          } else {
            throw invalid(ctx.locale, { client_id: 'Send client_id, client_name or invoice_id.|Trimiteți client_id, client_name sau invoice_id.' });
          }
          vat = b.amount_vat !== undefined ? toBani(b.amount_vat) : 0;
          if (vat > amount) throw invalid(ctx.locale, { amount_vat: 'Must not exceed the amount.|Nu poate depăși suma.' });
        }
        if (!invoice && !(await isCurrencyEnabled(trx, ctx.companyId, b.currency))) throw invalid(ctx.locale, { currency: CURRENCY_NOT_ENABLED });
        const rate = receiptRate(ctx, b.currency, b.exchange_rate, invoice);
        const planned = await planReceiptNumber(ctx, trx, b, id);
        const paymentId = invoice ? newId('pay') : null;
        const unnumbered: Omit<ReceiptsTable, 'series_id' | 'number' | 'receipt_number'> = {
          id, company_id: ctx.companyId, work_point_id: ctx.workPointId, amount_bani: amount, amount_without_vat_bani: amount - vat,
          amount_vat_bani: vat, currency: b.currency, date: b.payment_date ?? todayAt(ctx.now), observations: b.observations ?? null,
          language: b.language, is_draft: 0, is_deleted: 0, exchange_rate: rate, exchange_currency: rate === null ? null : 'RON',
          type: b.type, client_id: client.id, client_name: client.name, invoice_id: invoice?.id ?? null, payment_id: paymentId,
          client_local_uuid: b.client_local_uuid ?? null, device_id: b.device_id ?? null, created_at: ctx.now, updated_at: null,
          deleted_at: null,
        };
        // The payment (no foreign key to the receipt) and the invoice's paid state before the number:
        // once the series is locked only the receipt's insert, the event's and the commit remain.
        if (invoice && paymentId) {
          await trx.insertInto('payments').values(paymentRow(unnumbered, invoice, paymentId, ctx.now)).execute();
          await recomputePaid(trx, invoice.id, ctx.now);
        }
        const listening = await webhooksListening(trx, ctx.companyId);
        const numberless = { ...unnumbered, series_id: planned.series.id, number: 0, receipt_number: '' };
        const eventView = listening ? (await receiptViews(trx, [numberless], ctx.locale))[0]! : null;
        const { series, number } = 'late' in planned ? await takeLateReceiptNumber(ctx, trx, planned) : planned;
        const row: ReceiptsTable = { ...unnumbered, series_id: series.id, number, receipt_number: formatNumber(series, number, RECEIPT_YEAR) };
        await trx.insertInto('receipts').values(row).execute();
        if (eventView) {
          await emitEvent(trx, ctx.companyId, 'receipt.created', { ...eventView, series_id: row.series_id, receipt_number: row.receipt_number }, ctx.now, true);
        }
        return row;
      });
      // The day's cash ceiling for this client (Legea 70/2015): said in the reply, never refused.
      return { ...(await oneView(ctx.db, row, ctx.locale)), warnings: await receiptCeilingWarnings(ctx.db, ctx.companyId, row, ctx.locale) };
    } catch (error) {
      if (b.client_local_uuid && (isUniqueViolation(error) || error instanceof AlreadyCreated)) {
        const existing = await findReceiptByUuid(ctx.db, ctx.companyId, b.client_local_uuid);
        if (existing) {
          ctx.replayed();
          return oneView(ctx.db, existing, ctx.locale);
        }
      }
      throw error;
    }
  },
});

const listReceipts = defineRoute({
  method: 'GET', path: '/receipts', operationId: 'listReceipts', summary: 'List the receipts of the work point',
  description:
    'Soft-deleted receipts are left out unless `include_deleted=true`. `search` matches the receipt number and the client name; dates ' +
    'filter on `date`. `updated_since` keeps the receipts changed (deleting is a change) at or after that instant; `sort=updated_at` orders by it.',
  tags: ['receipts'], scope: 'receipts:read',
  query: changesListQuery(['date', 'amount', 'created_at', 'number'] as const).extend({
    invoice_id: z.string().optional(),
    client_id: z.string().optional(),
    series_id: z.string().optional(),
    type: zPaymentMethodType.optional(),
    include_deleted: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  }),
  response: listPageSchema(zReceipt),
  handler: async (ctx) => {
    const q = ctx.query;
    let base = ctx.db.selectFrom('receipts').selectAll().where('company_id', '=', ctx.companyId).where('work_point_id', '=', ctx.workPointId);
    if (!q.include_deleted) base = base.where('is_deleted', '=', 0);
    if (q.invoice_id) base = base.where('invoice_id', '=', q.invoice_id);
    if (q.client_id) base = base.where('client_id', '=', q.client_id);
    if (q.series_id) base = base.where('series_id', '=', q.series_id);
    if (q.type) base = base.where('type', '=', q.type);
    const page = await paginate(base, q, {
      sortColumns: { date: 'date', amount: 'amount_bani', created_at: 'created_at', number: 'number' },
      defaultSort: 'date', defaultOrder: 'desc', searchIndex: { spec: RECEIPTS_SEARCH, dialect: ctx.dialect }, dateColumn: 'date', tieBreaker: 'id',
      updatedColumn: 'updated_at', createdColumn: 'created_at',
    });
    return { ...page, data: await receiptViews(ctx.db, page.data, ctx.locale) };
  },
});

const getReceipt = defineRoute({
  method: 'GET', path: '/receipts/:id', operationId: 'getReceipt', summary: 'Retrieve a receipt',
  description: 'A soft-deleted receipt is still answered, with `is_deleted` true.',
  tags: ['receipts'], scope: 'receipts:read', params: idParams, response: zReceipt, errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await ctx.db.selectFrom('receipts').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', ctx.companyId).executeTakeFirst();
    if (!row) throw notFound('id');
    return oneView(ctx.db, row, ctx.locale);
  },
});

const updateReceipt = defineRoute({
  method: 'PUT', path: '/receipts/:id', operationId: 'updateReceipt', summary: 'Update a receipt',
  description:
    'Every member optional; an omitted `client_id` keeps the existing client. 409 `resource_deleted` for a soft-deleted receipt. ' +
    'When paired with an invoice (already, or through `invoice_id`), the payment row follows the receipt and the paid state of the ' +
    'invoice (and of the previous invoice, when it changes) is recomputed. The number never changes.',
  tags: ['receipts'], scope: 'receipts:write', params: idParams, body: zReceiptUpdate, response: zReceipt,
  errors: { resource_missing: 404, resource_deleted: 409, invoice_is_draft: 409, invoice_is_storno: 409, already_voided: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    const row = await ctx.db.transaction().execute(async (trx) => {
      const current = await lockReceiptRow(trx, ctx.dialect, ctx.companyId, ctx.params.id);
      if (!current) throw notFound('id');
      if (bool(current.is_deleted)) throw conflict('resource_deleted', 'id');
      const amount = b.amount !== undefined ? toBani(b.amount) : Number(current.amount_bani);
      const currency = b.currency ?? current.currency;
      const invoiceId = b.invoice_id ?? current.invoice_id;
      const invoiceChanged = invoiceId !== current.invoice_id;
      if (invoiceChanged && current.invoice_id) await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, current.invoice_id);
      let invoice: InvoicesTable | null = null;
      let vat: number;
      if (invoiceId) {
        invoice = await pairedInvoice(ctx, trx, invoiceId, currency);
        if (invoiceChanged) assertPayable(invoice);
        const ownShare = !invoiceChanged && current.payment_id ? Number(current.amount_bani) : 0;
        assertWithinDue(ctx.locale, invoice, amount, ownShare);
        vat = vatShare(amount, invoice).vat;
      } else {
        if (b.currency !== undefined && !(await isCurrencyEnabled(trx, ctx.companyId, b.currency))) {
          throw invalid(ctx.locale, { currency: CURRENCY_NOT_ENABLED });
        }
        vat = b.amount_vat !== undefined ? toBani(b.amount_vat) : Number(current.amount_vat_bani);
        if (vat > amount) throw invalid(ctx.locale, { amount_vat: 'Must not exceed the amount.|Nu poate depăși suma.' });
      }
      let client = { id: current.client_id, name: current.client_name };
      if (b.client_id !== undefined) {
        const found = await findClient(trx, ctx.companyId, b.client_id);
        if (!found) throw notFound('client_id');
        client = { id: found.id, name: found.name };
      } else if (b.client_name !== undefined) {
        client = { id: current.client_id, name: b.client_name };
      }
      const rate = receiptRate(ctx, currency, b.exchange_rate !== undefined ? b.exchange_rate : current.exchange_rate, invoice);
      const next: ReceiptsTable = {
        ...current, amount_bani: amount, amount_vat_bani: vat, amount_without_vat_bani: amount - vat, currency,
        date: b.payment_date ?? current.date, observations: b.observations ?? current.observations, type: b.type ?? current.type,
        language: b.language ?? current.language, exchange_rate: rate, exchange_currency: rate === null ? null : 'RON',
        client_id: client.id, client_name: client.name, invoice_id: invoiceId, updated_at: ctx.now,
      };
      if (invoice) {
        next.payment_id = current.payment_id ?? newId('pay');
        const payment = paymentRow(next, invoice, next.payment_id, ctx.now);
        if (current.payment_id) {
          const { id: _id, company_id: _c, created_at: _t, ...changes } = payment;
          await trx.updateTable('payments').set({ ...changes, updated_at: ctx.now }).where('id', '=', current.payment_id).execute();
        } else {
          await trx.insertInto('payments').values(payment).execute();
        }
      }
      const { id: _id, company_id: _c, ...changes } = next;
      await trx.updateTable('receipts').set(changes).where('id', '=', current.id).execute();
      if (invoice) await recomputePaid(trx, invoice.id, ctx.now);
      if (invoiceChanged && current.invoice_id) await recomputePaid(trx, current.invoice_id, ctx.now);
      return next;
    });
    return oneView(ctx.db, row, ctx.locale);
  },
});

const deleteReceipt = defineRoute({
  method: 'DELETE', path: '/receipts/:id', operationId: 'deleteReceipt', summary: 'Soft-delete a receipt',
  description:
    'The receipt stays readable with `is_deleted` true and keeps its number; its payment row is removed (listed by GET ' +
    '/deleted-records) and the invoice\'s paid state recomputed. Deleting an already deleted receipt answers the same reply again.',
  tags: ['receipts'], scope: 'receipts:write', params: idParams, response: zDeleted('receipt'), envelope: 'top',
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    await ctx.db.transaction().execute(async (trx) => {
      const current = await lockReceiptRow(trx, ctx.dialect, ctx.companyId, ctx.params.id);
      if (!current) throw notFound('id');
      if (bool(current.is_deleted)) return;
      if (current.payment_id && current.invoice_id) {
        await lockInvoiceRow(trx, ctx.dialect, ctx.companyId, current.invoice_id);
        await trx.deleteFrom('payments').where('id', '=', current.payment_id).execute();
        await recordDeletion(trx, { resource: 'payments', id: current.payment_id, companyId: ctx.companyId, workPointId: current.work_point_id, now: ctx.now });
        await recomputePaid(trx, current.invoice_id, ctx.now);
      }
      await trx
        .updateTable('receipts')
        .set({ is_deleted: 1, deleted_at: ctx.now, updated_at: ctx.now, payment_id: null })
        .where('id', '=', current.id)
        .execute();
    });
    return { object: 'receipt' as const, id: ctx.params.id, deleted: true as const };
  },
});

export const receiptRoutes: AnyRoute[] = [createReceipt, listReceipts, getReceipt, updateReceipt, deleteReceipt];
