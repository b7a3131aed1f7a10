import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import { newId } from '../../platform/ids';
import type { Db, Dialect } from '../../db/types';
import { zSeriesLockRequest, zSeriesUnlockRequest } from '../../../shared/schemas/series';
import { zReceiptSeries, zReceiptSeriesCreate, type ReceiptSeries } from '../../../shared/schemas/receipt-series';
import {
  applyLock, applyUnlock, changeSeries, findSeries, isLocked, lockSeriesRow, lockView, RECEIPT_YEAR, seriesWithCounter, type SeriesRow,
  type SeriesWithCounter,
} from './numbering';
import { gapsRoute } from './reservation-routes';
import './messages';

/** Receipt numbers print as `<prefix>-<number>`; the stored format says so for the gap register. */
const RECEIPT_FORMAT = '{name}-{number}';
export const DEFAULT_RECEIPT_PREFIX = 'CH';

export function receiptSeriesView(row: SeriesWithCounter): ReceiptSeries {
  return {
    id: row.id,
    object: 'receipt_series',
    work_point_id: row.work_point_id,
    prefix: row.name,
    description: row.description,
    start_number: Number(row.start_number),
    next_number: row.counter_next !== null && row.counter_next !== undefined ? Number(row.counter_next) : Number(row.start_number),
    is_used: Boolean(Number(row.used)),
    is_locked: isLocked(row),
    lock: lockView(row),
    created_at: Number(row.created_at),
  };
}

function newReceiptSeries(companyId: string, workPointId: string, input: z.output<typeof zReceiptSeriesCreate>, primary: boolean, now: number): SeriesRow {
  return {
    id: newId('rser'), company_id: companyId, work_point_id: workPointId, kind: 'receipt', name: input.prefix,
    document_type: 'receipt', description: input.description, start_number: input.start_number, format: RECEIPT_FORMAT,
    is_primary: primary ? 1 : 0, lock_device_id: null, lock_session_id: null, lock_user_id: null, lock_device_name: null,
    lock_device_platform: null, locked_at: null, created_at: now, updated_at: null,
  };
}

/**
 * The receipt series a receipt is numbered from when none is named: the work point's first one,
 * created on first use with prefix `CH`. The first series of a work point is its primary (the unique
 * index on primaries keeps two concurrent first receipts from making two default series).
 */
export async function defaultReceiptSeries(trx: Db, dialect: Dialect, companyId: string, workPointId: string, now: number): Promise<SeriesRow> {
  const find = () =>
    trx
      .selectFrom('number_series')
      .select('id')
      .where('work_point_id', '=', workPointId)
      .where('kind', '=', 'receipt')
      .where('is_primary', '=', 1)
      .executeTakeFirst();
  let found = await find();
  if (!found) {
    const row = newReceiptSeries(companyId, workPointId, { prefix: DEFAULT_RECEIPT_PREFIX, description: '', start_number: 1 }, true, now);
    await trx.insertInto('number_series').values(row).onConflict((oc) => oc.doNothing()).execute();
    found = await find();
  }
  const series = await lockSeriesRow(trx, dialect, companyId, found!.id, 'receipt');
  return series!;
}

const idParams = z.object({ id: z.string() });

/** The series as every route answers it: read again after the change, with its counter. */
async function receiptSeriesReply(ctx: { db: Db; companyId: string }, id: string): Promise<ReceiptSeries> {
  return receiptSeriesView(await findSeries(ctx.db, ctx.companyId, id, 'receipt', RECEIPT_YEAR));
}

const createReceiptSeries = defineRoute({
  method: 'POST', path: '/receipt-series', operationId: 'createReceiptSeries', summary: 'Create a receipt series',
  description: 'Receipts print `<prefix>-<number>`; numbers never restart. The first series of a work point is the one receipts use by default.',
  tags: ['receipts'], scope: 'receipts:write', create: true, body: zReceiptSeriesCreate, response: zReceiptSeries,
  handler: async (ctx) => {
    const id = await ctx.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('number_series')
        .select('id')
        .where('work_point_id', '=', ctx.workPointId)
        .where('kind', '=', 'receipt')
        .where('is_primary', '=', 1)
        .executeTakeFirst();
      const row = newReceiptSeries(ctx.companyId, ctx.workPointId, ctx.body, !existing, ctx.now);
      await trx.insertInto('number_series').values(row).execute();
      return row.id;
    });
    return receiptSeriesReply(ctx, id);
  },
});

const listReceiptSeries = defineRoute({
  method: 'GET', path: '/receipt-series', operationId: 'listReceiptSeries', summary: 'List the receipt series of the work point',
  tags: ['receipts'], scope: 'receipts:read', query: listQuery(['created_at'] as const), response: listPageSchema(zReceiptSeries),
  handler: async (ctx) => {
    const base = seriesWithCounter(ctx.db, RECEIPT_YEAR)
      .where('s.company_id', '=', ctx.companyId)
      .where('s.work_point_id', '=', ctx.workPointId)
      .where('s.kind', '=', 'receipt');
    const page = await paginate(base, ctx.query, {
      sortColumns: { created_at: 's.created_at' }, defaultSort: 'created_at', defaultOrder: 'asc', searchColumns: ['s.name'], tieBreaker: 's.id',
    });
    return mapPage(page, (row) => receiptSeriesView(row as SeriesWithCounter));
  },
});

const getReceiptSeries = defineRoute({
  method: 'GET', path: '/receipt-series/:id', operationId: 'getReceiptSeries', summary: 'Retrieve a receipt series',
  tags: ['receipts'], scope: 'receipts:read', params: idParams, response: zReceiptSeries, errors: { resource_missing: 404 },
  handler: async (ctx) => receiptSeriesReply(ctx, ctx.params.id),
});

const lockReceiptSeries = defineRoute({
  method: 'POST', path: '/receipt-series/:id/lock', operationId: 'lockReceiptSeries', summary: 'Take a receipt series exclusively for one device',
  description: 'Same semantics as POST /invoice-series/{id}/lock: the holder numbers receipts offline; others get 409 `series_locked` unless `takeover`.',
  tags: ['receipts'], scope: 'receipts:write', params: idParams, body: zSeriesLockRequest, response: zReceiptSeries,
  errors: { resource_missing: 404, series_locked: 409 },
  handler: async (ctx) => {
    await changeSeries(ctx, ctx.params.id, 'receipt', (trx, series) => applyLock(trx, ctx.companyId, series, ctx.body, ctx.now));
    return receiptSeriesReply(ctx, ctx.params.id);
  },
});

const unlockReceiptSeries = defineRoute({
  method: 'POST', path: '/receipt-series/:id/unlock', operationId: 'unlockReceiptSeries', summary: 'Give a receipt series lock back',
  tags: ['receipts'], scope: 'receipts:write', params: idParams, body: zSeriesUnlockRequest, response: zReceiptSeries,
  errors: { resource_missing: 404, forbidden: 403 },
  handler: async (ctx) => {
    await changeSeries(ctx, ctx.params.id, 'receipt', (trx, series) => applyUnlock(trx, series, ctx.body.device_id, ctx.now));
    return receiptSeriesReply(ctx, ctx.params.id);
  },
});

export const receiptSeriesRoutes: AnyRoute[] = [
  createReceiptSeries, listReceiptSeries, getReceiptSeries, lockReceiptSeries, unlockReceiptSeries, gapsRoute('receipt'),
];
