import { sql } from 'kysely';
import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { randomBase62 } from '../../platform/ids';
import type { Db } from '../../db/types';
import {
  GAP_REASONS, RESERVATION_STATUSES, zNumberGap, zNumberReservation, zReservationRequest, type NumberGap, type NumberReservation,
} from '../../../shared/schemas/series';
import {
  findSeries, formatNumber, lockSeriesRow, recordGap, seriesLockedError, isLocked, takeNumbers, yearAt, RECEIPT_YEAR,
  type SeriesRow,
} from './numbering';
import { invalid } from './fail';
import type { NumberReservationsTable, SeriesKind } from './tables';
import './messages';

/** A reservation lives a week unless the device asks otherwise: long enough for a counter offline over a holiday. */
export const DEFAULT_RESERVATION_TTL = 7 * 86_400;

type FormatSource = Pick<SeriesRow, 'kind' | 'name' | 'format'>;

export function reservationStatus(row: Pick<NumberReservationsTable, 'status' | 'expires_at'>, now: number): NumberReservation['status'] {
  if (row.status === 'pending' && Number(row.expires_at) <= now) return 'expired';
  return row.status;
}

export function reservationView(row: NumberReservationsTable, series: FormatSource, now: number): NumberReservation {
  return {
    object: 'number_reservation',
    token: row.token,
    series_id: row.series_id,
    number: Number(row.number),
    full_number: formatNumber(series, Number(row.number), Number(row.year)),
    year: Number(row.year),
    status: reservationStatus(row, now),
    device_id: row.device_id,
    reserved_at: Number(row.reserved_at),
    expires_at: Number(row.expires_at),
    consumed_at: row.consumed_at === null ? null : Number(row.consumed_at),
    client_local_uuid: row.client_local_uuid,
  };
}

const idParams = z.object({ id: z.string() });

/** What differs between the reservations of invoice series and of receipt series. */
interface KindRoutes {
  kind: SeriesKind;
  base: '/invoice-series' | '/receipt-series';
  tag: 'invoice_series' | 'receipts';
  scope: 'invoice_series' | 'receipts';
  /** Invoice numbers restart every year; receipt numbers never do (one book, year 0). */
  yearAt: (now: number) => number;
}

const KINDS: Record<SeriesKind, KindRoutes> = {
  invoice: { kind: 'invoice', base: '/invoice-series', tag: 'invoice_series', scope: 'invoice_series', yearAt },
  receipt: { kind: 'receipt', base: '/receipt-series', tag: 'receipts', scope: 'receipts', yearAt: () => RECEIPT_YEAR },
};

function reserveRoute({ kind, base, tag, scope, yearAt: yearOf }: KindRoutes) {
  const invoice = kind === 'invoice';
  return defineRoute({
    method: 'POST', path: `${base}/:id/reservations`, operationId: invoice ? 'reserveNumbers' : 'reserveReceiptNumbers',
    summary: invoice ? 'Reserve numbers for offline issuing' : 'Reserve receipt numbers for offline issuing',
    description:
      `Reserves \`count\` consecutive numbers${invoice ? ' of the current year' : ''} for \`device_id\`, one reservation (with its own \`token\`) per number. ` +
      'The series counter advances now, so no other device can ever receive these numbers. Refused with 409 `series_locked` on a locked series ' +
      '(a locked series numbers without reservations). Answers the reservations as a list.',
    tags: [tag], scope: `${scope}:write`, create: true,
    params: idParams, body: zReservationRequest, response: listPageSchema(zNumberReservation),
    errors: { resource_missing: 404, series_locked: 409 },
    handler: async (ctx) => {
      const { device_id: deviceId, count } = ctx.body;
      const ttl = ctx.body.ttl_seconds ?? DEFAULT_RESERVATION_TTL;
      const year = yearOf(ctx.now);
      const { rows, series } = await ctx.db.transaction().execute(async (trx) => {
        const series = await lockSeriesRow(trx, ctx.dialect, ctx.companyId, ctx.params.id, kind);
        if (!series) throw notFound('id');
        if (isLocked(series)) throw seriesLockedError(series);
        const first = await takeNumbers(trx, series, year, count);
        const rows: NumberReservationsTable[] = [];
        for (let i = 0; i < count; i++) {
          rows.push({
            token: `rsv_${randomBase62(24)}`, company_id: ctx.companyId, series_id: series.id, year, number: first + i,
            device_id: deviceId, status: 'pending', reserved_at: ctx.now, expires_at: ctx.now + ttl,
            consumed_at: null, released_at: null, client_local_uuid: null, invoice_id: null, receipt_id: null,
          });
        }
        await trx.insertInto('number_reservations').values(rows).execute();
        return { rows, series };
      });
      return {
        object: 'list' as const, data: rows.map((r) => reservationView(r, series, ctx.now)),
        has_more: false, total: rows.length, page: 1, per_page: rows.length, total_pages: 1,
      };
    },
  });
}

function listReservationsRoute({ kind, base, tag, scope, yearAt: yearOf }: KindRoutes) {
  return defineRoute({
    method: 'GET', path: `${base}/:id/reservations`, operationId: kind === 'invoice' ? 'listReservations' : 'listReceiptReservations',
    summary: 'List the number reservations of a series',
    description: '`status=expired` selects pending reservations past `expires_at`; `status=pending` only those still valid.',
    tags: [tag], scope: `${scope}:read`, params: idParams,
    query: listQuery(['number', 'reserved_at'] as const).extend({
      device_id: z.string().max(64).optional(),
      status: z.enum(RESERVATION_STATUSES).optional(),
    }),
    response: listPageSchema(zNumberReservation),
    errors: { resource_missing: 404 },
    handler: async (ctx) => {
      const series = await findSeries(ctx.db, ctx.companyId, ctx.params.id, kind, yearOf(ctx.now));
      let rows = ctx.db.selectFrom('number_reservations').selectAll().where('series_id', '=', series.id);
      if (ctx.query.device_id) rows = rows.where('device_id', '=', ctx.query.device_id);
      const status = ctx.query.status;
      if (status === 'expired') rows = rows.where('status', '=', 'pending').where('expires_at', '<=', ctx.now);
      else if (status === 'pending') rows = rows.where('status', '=', 'pending').where('expires_at', '>', ctx.now);
      else if (status) rows = rows.where('status', '=', status);
      const page = await paginate(rows, ctx.query, {
        sortColumns: { number: 'number', reserved_at: 'reserved_at' }, defaultSort: 'number', defaultOrder: 'asc', tieBreaker: 'token',
      });
      return mapPage(page, (row) => reservationView(row, series, ctx.now));
    },
  });
}

function releaseRoute({ kind, base, tag, scope }: KindRoutes) {
  return defineRoute({
    method: 'POST', path: `${base}/reservations/:token/release`, operationId: kind === 'invoice' ? 'releaseReservation' : 'releaseReceiptReservation',
    summary: 'Release a number reservation',
    description:
      'The owning device gives a reserved number up (an offline document was discarded). The number is never handed out again: it becomes a gap ' +
      'with reason `released`. The caller names its device with `device_id`, in the query string (the contract sends no body) or in a JSON body. ' +
      'Releasing twice answers the released reservation again; a consumed reservation answers 409 `reservation_consumed`. ' +
      `A token of ${kind === 'invoice' ? 'a receipt' : 'an invoice'} series answers 404 here.`,
    tags: [tag], scope: `${scope}:write`,
    params: z.object({ token: z.string() }),
    query: z.object({ device_id: z.string().max(64).optional() }),
    body: z.object({ device_id: z.string().max(64).optional() }).optional(),
    response: zNumberReservation,
    errors: { resource_missing: 404, forbidden: 403, reservation_consumed: 409 },
    handler: async (ctx) => {
      const deviceId = ctx.body?.device_id ?? ctx.query.device_id;
      const found = await ctx.db
        .selectFrom('number_reservations')
        .selectAll()
        .where('token', '=', ctx.params.token)
        .where('company_id', '=', ctx.companyId)
        .executeTakeFirst();
      // Another firm's token answers exactly like an unknown one.
      if (!found) throw notFound('token');
      if (!deviceId) throw invalid(ctx.locale, { device_id: 'Required: the device releasing the reservation.|Obligatoriu: dispozitivul care eliberează rezervarea.' });
      if (found.device_id !== deviceId) throw new ApiError(403, 'permission_error', 'forbidden', { param: 'device_id' });
      return ctx.db.transaction().execute(async (trx) => {
        const series = await lockSeriesRow(trx, ctx.dialect, ctx.companyId, found.series_id, kind);
        if (!series) throw notFound('token');
        const row = await trx.selectFrom('number_reservations').selectAll().where('token', '=', found.token).executeTakeFirstOrThrow();
        if (row.status === 'consumed') throw conflict('reservation_consumed', 'token');
        if (row.status === 'released') return reservationView(row, series, ctx.now);
        await trx
          .updateTable('number_reservations')
          .set({ status: 'released', released_at: ctx.now })
          .where('token', '=', row.token)
          .execute();
        await recordGap(trx, {
          companyId: ctx.companyId, series, year: Number(row.year), number: Number(row.number), reason: 'released',
          deviceId: row.device_id, reservationToken: row.token, now: ctx.now,
        });
        return reservationView({ ...row, status: 'released', released_at: ctx.now }, series, ctx.now);
      });
    },
  });
}

/**
 * The gap register of a series: stored gaps (released, lock takeover, deleted invoice) and, derived at
 * read time, every pending reservation past its expiry. A late consumption of an expired reservation
 * turns it consumed, so it leaves the register by itself.
 */
export async function listGaps(
  db: Db,
  series: SeriesRow,
  now: number,
  query: { page: number; per_page: number; order?: 'asc' | 'desc' | undefined; year?: number | undefined; reason?: NumberGap['reason'] | undefined },
) {
  let stored = db
    .selectFrom('number_gaps')
    .select(['series_id', 'year', 'number', 'reason', 'device_id', 'reservation_token', 'recorded_at'])
    .where('series_id', '=', series.id);
  let expired = db
    .selectFrom('number_reservations')
    .select([
      'series_id', 'year', 'number', sql<string>`'expired'`.as('reason'), 'device_id',
      'token as reservation_token', 'expires_at as recorded_at',
    ])
    .where('series_id', '=', series.id)
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now);
  if (query.year !== undefined) {
    stored = stored.where('year', '=', query.year);
    expired = expired.where('year', '=', query.year);
  }
  const reason = query.reason;
  // Both selects yield the same columns; the literal 'expired' only differs in its static type.
  const expiredAsStored = expired as unknown as typeof stored;
  const both = reason === 'expired' ? expiredAsStored : reason ? stored.where('reason', '=', reason) : stored.unionAll(expiredAsStored);
  const base = db.selectFrom(both.as('g')).selectAll();
  const page = await paginate(base, { ...query, sort: 'year' }, {
    sortColumns: { year: 'g.year' }, defaultSort: 'year', defaultOrder: 'asc', tieBreaker: 'g.number',
  });
  return mapPage(page, (row): NumberGap => ({
    object: 'number_gap',
    series_id: row.series_id,
    number: Number(row.number),
    full_number: formatNumber(series, Number(row.number), Number(row.year)),
    year: Number(row.year),
    reason: row.reason as NumberGap['reason'],
    device_id: row.device_id,
    reservation_token: row.reservation_token,
    recorded_at: Number(row.recorded_at),
  }));
}

export const gapsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(50),
  order: z.enum(['asc', 'desc']).optional(),
  year: z.coerce.number().int().min(0).max(9999).optional(),
  reason: z.enum(GAP_REASONS).optional(),
});

export function gapsRoute(kind: SeriesKind) {
  const invoice = kind === 'invoice';
  return defineRoute({
    method: 'GET', path: invoice ? '/invoice-series/:id/gaps' : '/receipt-series/:id/gaps',
    operationId: invoice ? 'listInvoiceSeriesGaps' : 'listReceiptSeriesGaps',
    summary: invoice ? 'The gap register of an invoice series' : 'The gap register of a receipt series',
    description:
      'Every number of the series that will never be a document, with its reason: `released` (reservation given up), `expired` ' +
      '(reservation neither used nor released in time), `lock_takeover` (set aside for the device that lost the lock), `deleted` ' +
      '(an issued document deleted afterwards). Ordered by year, then number.',
    tags: [invoice ? 'invoice_series' : 'receipts'], scope: invoice ? 'invoice_series:read' : 'receipts:read',
    params: idParams, query: gapsQuery, response: listPageSchema(zNumberGap),
    errors: { resource_missing: 404 },
    handler: async (ctx) => {
      const series = await findSeries(ctx.db, ctx.companyId, ctx.params.id, kind, invoice ? yearAt(ctx.now) : RECEIPT_YEAR);
      return listGaps(ctx.db, series, ctx.now, ctx.query);
    },
  });
}

export const reservationRoutes: AnyRoute[] = [
  reserveRoute(KINDS.invoice), listReservationsRoute(KINDS.invoice), releaseRoute(KINDS.invoice), gapsRoute('invoice'),
];

/** The same for receipt series (registered with the receipt series' routes). */
export const receiptReservationRoutes: AnyRoute[] = [
  reserveRoute(KINDS.receipt), listReservationsRoute(KINDS.receipt), releaseRoute(KINDS.receipt),
];
