import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import { newId } from '../../platform/ids';
import type { Db } from '../../db/types';
import {
  DOCUMENT_TYPES, zInvoiceSeries, zInvoiceSeriesCreate, zInvoiceSeriesUpdate, zSeriesLockRequest, zSeriesUnlockRequest,
  type InvoiceSeries,
} from '../../../shared/schemas/series';
import {
  applyLock, applyUnlock, assertSeriesNameFree, changeSeries, deleteUnusedSeries, findSeries, formatProblem, guardSeriesName, inUse,
  isLocked, lockView, makePrimary, seriesIsUsed, seriesWithCounter, yearAt, type SeriesWithCounter,
} from './numbering';
import { invalid } from './fail';
import { zDeleted } from '../../platform/envelope';
import './messages';

/** The format of a series created without one: `TJ-2026-0042`. */
export const DEFAULT_SERIES_FORMAT = '{name}-{year}-{number:4}';

export function invoiceSeriesView(row: SeriesWithCounter, year: number): InvoiceSeries {
  return {
    id: row.id,
    object: 'invoice_series',
    name: row.name,
    document_type: row.document_type as InvoiceSeries['document_type'],
    description: row.description,
    start_number: Number(row.start_number),
    next_number: row.counter_next !== null && row.counter_next !== undefined ? Number(row.counter_next) : Number(row.start_number),
    format: row.format,
    is_primary: Number(row.is_primary) === 1,
    is_used: Boolean(Number(row.used)),
    is_locked: isLocked(row),
    lock: lockView(row),
    year,
    created_at: Number(row.created_at),
  };
}

const idParams = z.object({ id: z.string() });

/** The series as every route answers it: read again after the change, with the current year's counter. */
async function seriesReply(ctx: { db: Db; companyId: string; now: number }, id: string): Promise<InvoiceSeries> {
  const year = yearAt(ctx.now);
  return invoiceSeriesView(await findSeries(ctx.db, ctx.companyId, id, 'invoice', year), year);
}

const createSeries = defineRoute({
  method: 'POST', path: '/invoice-series', operationId: 'createInvoiceSeries', summary: 'Create an invoice series',
  description:
    'Only `name` is required. `format` defaults to `{name}-{year}-{number:4}` and must contain `{number}`. The series belongs to the selected work point. ' +
    'The name must be unique among the company\'s invoice series at all its work points, ignoring case (409 `duplicate_series`): ' +
    'the company\'s printed numbers must be unique.',
  tags: ['invoice_series'], scope: 'invoice_series:write', create: true,
  body: zInvoiceSeriesCreate, response: zInvoiceSeries,
  errors: { duplicate_series: 409 },
  handler: async (ctx) => {
    const body = ctx.body;
    const format = body.format ?? DEFAULT_SERIES_FORMAT;
    const problem = formatProblem(format);
    if (problem) throw invalid(ctx.locale, { format: problem });
    const id = newId('ser');
    await guardSeriesName('name', () => ctx.db.transaction().execute(async (trx) => {
      await assertSeriesNameFree(trx, { companyId: ctx.companyId, kind: 'invoice', name: body.name }, 'name');
      await trx
        .insertInto('number_series')
        .values({
          id, company_id: ctx.companyId, work_point_id: ctx.workPointId, kind: 'invoice', name: body.name,
          document_type: body.document_type, description: body.description, start_number: body.start_number, format,
          is_primary: 0, lock_device_id: null, lock_session_id: null, lock_user_id: null, lock_device_name: null,
          lock_device_platform: null, locked_at: null, created_at: ctx.now, updated_at: null,
        })
        .execute();
      if (body.is_primary) {
        await makePrimary(trx, { id, work_point_id: ctx.workPointId, kind: 'invoice', document_type: body.document_type });
      }
    }));
    return seriesReply(ctx, id);
  },
});

const listSeries = defineRoute({
  method: 'GET', path: '/invoice-series', operationId: 'listInvoiceSeries', summary: 'List the invoice series of the work point',
  tags: ['invoice_series'], scope: 'invoice_series:read',
  query: listQuery(['created_at', 'name'] as const).extend({ document_type: z.enum(DOCUMENT_TYPES).optional() }),
  response: listPageSchema(zInvoiceSeries),
  handler: async (ctx) => {
    const year = yearAt(ctx.now);
    let base = seriesWithCounter(ctx.db, year)
      .where('s.company_id', '=', ctx.companyId)
      .where('s.work_point_id', '=', ctx.workPointId)
      .where('s.kind', '=', 'invoice');
    if (ctx.query.document_type) base = base.where('s.document_type', '=', ctx.query.document_type);
    const page = await paginate(base, ctx.query, {
      sortColumns: { created_at: 's.created_at', name: 's.name' }, defaultSort: 'created_at', defaultOrder: 'asc',
      searchColumns: ['s.name', 's.description'], tieBreaker: 's.id',
    });
    return mapPage(page, (row) => invoiceSeriesView(row as SeriesWithCounter, year));
  },
});

const getSeries = defineRoute({
  method: 'GET', path: '/invoice-series/:id', operationId: 'getInvoiceSeries', summary: 'Retrieve an invoice series',
  tags: ['invoice_series'], scope: 'invoice_series:read', params: idParams, response: zInvoiceSeries,
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    return seriesReply(ctx, ctx.params.id);
  },
});

const updateSeries = defineRoute({
  method: 'PUT', path: '/invoice-series/:id', operationId: 'updateInvoiceSeries', summary: 'Update an invoice series',
  description:
    '`start_number` and `document_type` cannot change once a number was taken from the series (409 `in_use`). ' +
    'A new `name` already used by another invoice series of the company, ignoring case, answers 409 `duplicate_series`.',
  tags: ['invoice_series'], scope: 'invoice_series:write', params: idParams, body: zInvoiceSeriesUpdate, response: zInvoiceSeries,
  errors: { resource_missing: 404, in_use: 409, duplicate_series: 409 },
  handler: async (ctx) => {
    const body = ctx.body;
    if (body.format !== undefined) {
      const problem = formatProblem(body.format);
      if (problem) throw invalid(ctx.locale, { format: problem });
    }
    await guardSeriesName('name', () => changeSeries(ctx, ctx.params.id, 'invoice', async (trx, series) => {
      const used = await seriesIsUsed(trx, series.id);
      if (used && body.start_number !== undefined && body.start_number !== Number(series.start_number)) throw inUse('start_number');
      if (used && body.document_type !== undefined && body.document_type !== series.document_type) throw inUse('document_type');
      if (body.name !== undefined) {
        await assertSeriesNameFree(trx, { companyId: ctx.companyId, kind: 'invoice', name: body.name, exceptId: series.id }, 'name');
      }
      const documentType = body.document_type ?? series.document_type;
      await trx
        .updateTable('number_series')
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.start_number !== undefined ? { start_number: body.start_number } : {}),
          ...(body.format !== undefined ? { format: body.format } : {}),
          document_type: documentType,
          // A series that changes type stops being the primary of its old type.
          ...(body.is_primary === false || documentType !== series.document_type ? { is_primary: 0 } : {}),
          updated_at: ctx.now,
        })
        .where('id', '=', series.id)
        .execute();
      if (body.is_primary === true) {
        await makePrimary(trx, { id: series.id, work_point_id: series.work_point_id, kind: 'invoice', document_type: documentType });
      }
    }));
    return seriesReply(ctx, ctx.params.id);
  },
});

const deleteSeries = defineRoute({
  method: 'DELETE', path: '/invoice-series/:id', operationId: 'deleteInvoiceSeries', summary: 'Delete an unused invoice series',
  description: 'A series from which a number was taken (issued invoice, reservation, lock takeover), or that a draft names, answers 409 `in_use`.',
  tags: ['invoice_series'], scope: 'invoice_series:write', params: idParams,
  response: zDeleted('invoice_series'), envelope: 'top',
  errors: { resource_missing: 404, in_use: 409 },
  handler: async (ctx) => {
    await changeSeries(ctx, ctx.params.id, 'invoice', deleteUnusedSeries);
    return { object: 'invoice_series' as const, id: ctx.params.id, deleted: true as const };
  },
});

const lockSeries = defineRoute({
  method: 'POST', path: '/invoice-series/:id/lock', operationId: 'lockInvoiceSeries', summary: 'Take a series exclusively for one device',
  description:
    'While locked, only the holding device issues from the series (it may send the `number` it printed offline; continuity is checked). ' +
    'Another device gets 409 `series_locked` unless it sends `takeover`: then `reserve_for_old_holder` numbers are set aside for the old holder ' +
    '(gap register, reason `lock_takeover`) and accepted later from it. The holder locking again refreshes the lock.',
  tags: ['invoice_series'], scope: 'invoice_series:write', params: idParams, body: zSeriesLockRequest, response: zInvoiceSeries,
  errors: { resource_missing: 404, series_locked: 409 },
  handler: async (ctx) => {
    await changeSeries(ctx, ctx.params.id, 'invoice', (trx, series) => applyLock(trx, ctx.companyId, series, ctx.body, ctx.now));
    return seriesReply(ctx, ctx.params.id);
  },
});

const unlockSeries = defineRoute({
  method: 'POST', path: '/invoice-series/:id/unlock', operationId: 'unlockInvoiceSeries', summary: 'Give a series lock back',
  description: 'Only the holding device may unlock (403 `forbidden`); unlocking an unlocked series changes nothing.',
  tags: ['invoice_series'], scope: 'invoice_series:write', params: idParams, body: zSeriesUnlockRequest, response: zInvoiceSeries,
  errors: { resource_missing: 404, forbidden: 403 },
  handler: async (ctx) => {
    await changeSeries(ctx, ctx.params.id, 'invoice', (trx, series) => applyUnlock(trx, series, ctx.body.device_id, ctx.now));
    return seriesReply(ctx, ctx.params.id);
  },
});

export const seriesRoutes: AnyRoute[] = [createSeries, listSeries, getSeries, updateSeries, deleteSeries, lockSeries, unlockSeries];
