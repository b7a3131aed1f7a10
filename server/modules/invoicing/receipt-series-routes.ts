import { z } from 'zod';
import { sql } from 'kysely';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import { newId } from '../../platform/ids';
import type { Db, Dialect } from '../../db/types';
import { zSeriesLockRequest, zSeriesUnlockRequest } from '../../../shared/schemas/series';
import { zReceiptSeries, zReceiptSeriesCreate, zReceiptSeriesUpdate, type ReceiptSeries } from '../../../shared/schemas/receipt-series';
import { zDeleted } from '../../platform/envelope';
import {
  applyLock, applyUnlock, assertSeriesNameFree, changeSeries, deleteUnusedSeries, findSeries, guardSeriesName, inUse, isLocked,
  lockSeriesRow, lockView, readSeriesRow, makePrimary, RECEIPT_YEAR, seriesIsUsed, seriesWithCounter, type SeriesRow, type SeriesWithCounter,
} from './numbering';
import { gapsRoute, receiptReservationRoutes } from './reservation-routes';
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
 * Makes the work point's oldest receipt series its primary, as if it had been the first; answers its
 * id, or undefined when the work point has no receipt series left.
 */
async function promoteOldestReceiptSeries(trx: Db, workPointId: string): Promise<string | undefined> {
  const oldest = await trx
    .selectFrom('number_series')
    .select('id')
    .where('work_point_id', '=', workPointId)
    .where('kind', '=', 'receipt')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (oldest) await makePrimary(trx, { id: oldest.id, work_point_id: workPointId, kind: 'receipt', document_type: 'receipt' });
  return oldest?.id;
}

/**
 * The prefix of a default series made on first use: `CH`, or when another series of the firm (at
 * another work point, say) already prints `CH`, the first free of `CH2`, `CH3`…: the firm's receipt
 * numbers must stay unique.
 */
async function freeDefaultPrefix(trx: Db, companyId: string): Promise<string> {
  const rows = await trx
    .selectFrom('number_series')
    .select(sql<string>`lower(name)`.as('name'))
    .where('company_id', '=', companyId)
    .where('kind', '=', 'receipt')
    .execute();
  const taken = new Set(rows.map((r) => r.name));
  for (let n = 1; ; n++) {
    const prefix = n === 1 ? DEFAULT_RECEIPT_PREFIX : `${DEFAULT_RECEIPT_PREFIX}${n}`;
    if (!taken.has(prefix.toLowerCase())) return prefix;
  }
}

/**
 * The receipt series a receipt is numbered from when none is named: the work point's primary, which
 * is its first series (or, after the primary was deleted, the oldest remaining one); with no series
 * at all, one is created on first use with prefix `CH` (or `CH2`… when the firm already has a `CH`).
 * The unique index on primaries keeps two concurrent first receipts from making two default series;
 * the one on names makes a default racing another work point's for the same prefix look again.
 */
export async function defaultReceiptSeries(
  trx: Db,
  dialect: Dialect,
  companyId: string,
  workPointId: string,
  now: number,
  { lock = true }: { lock?: boolean } = {},
): Promise<SeriesRow> {
  const find = async () => {
    const primary = await trx
      .selectFrom('number_series')
      .select('id')
      .where('work_point_id', '=', workPointId)
      .where('kind', '=', 'receipt')
      .where('is_primary', '=', 1)
      .executeTakeFirst();
    // Two concurrent deletes can leave series without a primary; taking the oldest keeps the default
    // what DELETE promises, and keeps a fresh `CH` series from printing numbers an old one already printed.
    return primary?.id ?? (await promoteOldestReceiptSeries(trx, workPointId));
  };
  // The primary may be deleted between reading its id and locking its row (PostgreSQL); then look again.
  for (let attempt = 0; attempt < 3; attempt++) {
    let id = await find();
    if (!id) {
      const prefix = await freeDefaultPrefix(trx, companyId);
      const row = newReceiptSeries(companyId, workPointId, { prefix, description: '', start_number: 1 }, true, now);
      await trx.insertInto('number_series').values(row).onConflict((oc) => oc.doNothing()).execute();
      id = await find();
    }
    // Unlocked for a receipt that takes its number last: it locks the row then, and looks again if it is gone.
    const series = id ? await (lock ? lockSeriesRow(trx, dialect, companyId, id, 'receipt') : readSeriesRow(trx, companyId, id, 'receipt')) : undefined;
    if (series) return series;
  }
  throw new Error(`No default receipt series could be settled for work point ${workPointId}.`);
}

const idParams = z.object({ id: z.string() });

/** The series as every route answers it: read again after the change, with its counter. */
async function receiptSeriesReply(ctx: { db: Db; companyId: string }, id: string): Promise<ReceiptSeries> {
  return receiptSeriesView(await findSeries(ctx.db, ctx.companyId, id, 'receipt', RECEIPT_YEAR));
}

const createReceiptSeries = defineRoute({
  method: 'POST', path: '/receipt-series', operationId: 'createReceiptSeries', summary: 'Create a receipt series',
  description:
    'Receipts print `<prefix>-<number>`; numbers never restart. The first series of a work point is the one receipts use by default. ' +
    'The prefix must be unique among the company\'s receipt series at all its work points, ignoring case (409 `duplicate_series`): ' +
    'the company\'s printed numbers must be unique.',
  tags: ['receipts'], scope: 'receipts:write', create: true, body: zReceiptSeriesCreate, response: zReceiptSeries,
  errors: { duplicate_series: 409 },
  handler: async (ctx) => {
    const id = await guardSeriesName('prefix', () => ctx.db.transaction().execute(async (trx) => {
      await assertSeriesNameFree(trx, { companyId: ctx.companyId, kind: 'receipt', name: ctx.body.prefix }, 'prefix');
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
    }));
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

const updateReceiptSeries = defineRoute({
  method: 'PUT', path: '/receipt-series/:id', operationId: 'updateReceiptSeries', summary: 'Update a receipt series',
  description:
    'Only the members sent change. `prefix` and `start_number` cannot change once a number was taken from the series ' +
    '(409 `in_use`, `param` names the member): receipts already printed `<prefix>-<number>`. A `prefix` already used by another ' +
    'receipt series of the company, ignoring case, answers 409 `duplicate_series`.',
  tags: ['receipts'], scope: 'receipts:write', params: idParams, body: zReceiptSeriesUpdate, response: zReceiptSeries,
  errors: { resource_missing: 404, in_use: 409, duplicate_series: 409 },
  handler: async (ctx) => {
    const body = ctx.body;
    await guardSeriesName('prefix', () => changeSeries(ctx, ctx.params.id, 'receipt', async (trx, series) => {
      const used = await seriesIsUsed(trx, series.id);
      if (used && body.start_number !== undefined && body.start_number !== Number(series.start_number)) throw inUse('start_number');
      if (used && body.prefix !== undefined && body.prefix !== series.name) throw inUse('prefix');
      if (body.prefix !== undefined) {
        await assertSeriesNameFree(trx, { companyId: ctx.companyId, kind: 'receipt', name: body.prefix, exceptId: series.id }, 'prefix');
      }
      await trx
        .updateTable('number_series')
        .set({
          ...(body.prefix !== undefined ? { name: body.prefix } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.start_number !== undefined ? { start_number: body.start_number } : {}),
          updated_at: ctx.now,
        })
        .where('id', '=', series.id)
        .execute();
    }));
    return receiptSeriesReply(ctx, ctx.params.id);
  },
});

const deleteReceiptSeries = defineRoute({
  method: 'DELETE', path: '/receipt-series/:id', operationId: 'deleteReceiptSeries', summary: 'Delete an unused receipt series',
  description:
    'A series from which a number was taken (a receipt, or a lock takeover\'s set-aside numbers) answers 409 `in_use`. ' +
    'When the deleted series was the work point\'s default, its oldest remaining receipt series becomes the default; ' +
    'with none left, the next receipt without `series_id` creates a `CH` series again (`CH2`… when another series of the company has `CH`).',
  tags: ['receipts'], scope: 'receipts:write', params: idParams,
  response: zDeleted('receipt_series'), envelope: 'top',
  errors: { resource_missing: 404, in_use: 409 },
  handler: async (ctx) => {
    await changeSeries(ctx, ctx.params.id, 'receipt', async (trx, series) => {
      await deleteUnusedSeries(trx, series);
      if (Number(series.is_primary) === 1) await promoteOldestReceiptSeries(trx, series.work_point_id);
    });
    return { object: 'receipt_series' as const, id: ctx.params.id, deleted: true as const };
  },
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
  createReceiptSeries, listReceiptSeries, getReceiptSeries, updateReceiptSeries, deleteReceiptSeries, lockReceiptSeries, unlockReceiptSeries,
  gapsRoute('receipt'),
  ...receiptReservationRoutes,
];
