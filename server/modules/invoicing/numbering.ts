import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/types';
import { prepared } from '../../db/prepared';
import { formatSeriesNumber } from '../../../shared/schemas/series';
import { formatReceiptNumber } from '../../../shared/schemas/receipt-series';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { isUniqueViolation } from '../../platform/db-errors';
import { todayAt } from '../../platform/bucharest-time';
import { noteSeriesLocked } from '../../platform/lock-probe';
import type { NumberSeriesTable, SeriesKind } from './tables';

/**
 * The numbering engine shared by invoice and receipt series: series row locks, per-year counters,
 * exclusive device locks and the gap register. Every function that moves a counter must run inside a
 * transaction that first called {@link lockSeriesRow}: on PostgreSQL that row lock is what keeps two
 * issuers from reading the same counter; on SQLite the single writer connection already serializes.
 */

export type SeriesRow = NumberSeriesTable;

export { todayAt };

/** Receipt series never restart; their counter lives in year 0. */
export const RECEIPT_YEAR = 0;

export function yearAt(now: number): number {
  return Number(todayAt(now).slice(0, 4));
}

export function yearOfDate(date: string): number {
  return Number(date.slice(0, 4));
}

interface SeriesKey {
  id: string;
  companyId: string;
  kind: SeriesKind;
}

const seriesOf = (db: Db, p: SeriesKey) =>
  db.selectFrom('number_series').selectAll().where('id', '=', p.id).where('company_id', '=', p.companyId).where('kind', '=', p.kind);
// Every issue reads its series: prepared once (see db/prepared.ts), with and without the row lock.
const seriesRow = prepared(['id', 'companyId', 'kind'], seriesOf);
const seriesRowForUpdate = prepared(['id', 'companyId', 'kind'], (db, p: SeriesKey) => seriesOf(db, p).forUpdate());

/** The series row as committed, without a lock: for checks made before the number is taken. */
export async function readSeriesRow(db: Db, companyId: string, seriesId: string, kind: SeriesKind): Promise<SeriesRow | undefined> {
  return seriesRow.first(db, { id: seriesId, companyId, kind });
}

/** The series row, locked until the transaction ends (PostgreSQL); undefined when not the company's. */
export async function lockSeriesRow(
  trx: Db,
  dialect: Dialect,
  companyId: string,
  seriesId: string,
  kind: SeriesKind,
): Promise<SeriesRow | undefined> {
  const row = await (dialect === 'postgres' ? seriesRowForUpdate : seriesRow).first(trx, { id: seriesId, companyId, kind });
  noteSeriesLocked();
  return row;
}

/**
 * Runs `change` on a series in one transaction, its row locked first; 404 `resource_missing` (param
 * `id`) when the series is not the company's. Every write to a series (lock, unlock, update, delete)
 * goes through here.
 */
export async function changeSeries<T>(
  ctx: { db: Db; dialect: Dialect; companyId: string },
  seriesId: string,
  kind: SeriesKind,
  change: (trx: Db, series: SeriesRow) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    const series = await lockSeriesRow(trx, ctx.dialect, ctx.companyId, seriesId, kind);
    if (!series) throw notFound('id');
    return change(trx, series);
  });
}

export async function peekNext(trx: Db, series: SeriesRow, year: number): Promise<number> {
  const row = await trx
    .selectFrom('series_counters')
    .select('next_number')
    .where('series_id', '=', series.id)
    .where('year', '=', year)
    .executeTakeFirst();
  return row ? Number(row.next_number) : Number(series.start_number);
}

const advanceCounter = prepared(['seriesId', 'year', 'count'], (db, p: { seriesId: string; year: number; count: number }) =>
  db
    .updateTable('series_counters')
    .set((eb) => ({ next_number: eb('next_number', '+', p.count) }))
    .where('series_id', '=', p.seriesId)
    .where('year', '=', p.year)
    .returning('next_number'),
);

/**
 * On PostgreSQL, the series row locked and its counter of `year` moved by one in a single statement:
 * the row lock is granted and the number taken in one round trip, so the lock is held for nothing
 * else but the caller's last write and the commit. `advanced_to` is the counter after the move, null
 * when the year has no counter yet (nothing was moved). Under READ COMMITTED the update reads the
 * counter as the previous holder committed it (PostgreSQL re-reads a row updated while it waited).
 */
const lockAndAdvance = prepared(['id', 'companyId', 'kind', 'year'], (_db, p: SeriesKey & { year: number }) =>
  sql<NumberSeriesTable & { advanced_to: number | string | null }>`
    with s as (
      select * from number_series where id = ${p.id} and company_id = ${p.companyId} and kind = ${p.kind} for update
    ), c as (
      update series_counters set next_number = next_number + 1
      where series_id = (select id from s) and year = cast(${p.year} as integer)
      returning next_number
    )
    select s.*, (select next_number from c) as advanced_to from s`,
);

/**
 * The next number of a series, taken with the series row locked: the row as locked (for the checks
 * that must hold at the moment of numbering: `check` throws to refuse) and the number. On PostgreSQL
 * the lock and the counter move are one statement, and a refusal by `check` rolls the move back with
 * the rest of the caller's transaction; on SQLite (one writer) the row is read, checked, then the
 * counter moved. Undefined when the series is not the company's.
 */
export async function lockAndTakeNext(
  trx: Db,
  dialect: Dialect,
  key: { companyId: string; seriesId: string; kind: SeriesKind; year: number },
  check: (series: SeriesRow) => void,
): Promise<{ series: SeriesRow; number: number } | undefined> {
  if (dialect !== 'postgres') {
    const series = await lockSeriesRow(trx, dialect, key.companyId, key.seriesId, key.kind);
    if (!series) return undefined;
    check(series);
    return { series, number: await takeNumbers(trx, series, key.year, 1) };
  }
  const row = await lockAndAdvance.first(trx, { id: key.seriesId, companyId: key.companyId, kind: key.kind, year: key.year });
  noteSeriesLocked();
  if (!row) return undefined;
  const { advanced_to: advancedTo, ...series } = row;
  check(series);
  if (advancedTo !== null) return { series, number: Number(advancedTo) - 1 };
  // First number of the year: the counter row is made now, under the series row lock.
  return { series, number: await takeNumbers(trx, series, key.year, 1) };
}

/**
 * Hands out `count` consecutive numbers of a year and returns the first. The caller holds the series
 * row lock, so the read and the write of the counter cannot interleave with another issuer.
 */
export async function takeNumbers(trx: Db, series: SeriesRow, year: number, count = 1): Promise<number> {
  // One statement on the hot path: move the counter and read where it now stands.
  const moved = await advanceCounter.first(trx, { seriesId: series.id, year, count });
  if (moved) return Number(moved.next_number) - count;
  // First number of the year. The series row lock keeps a second issuer from getting here at the same time.
  const first = Number(series.start_number);
  await trx.insertInto('series_counters').values({ series_id: series.id, year, next_number: first + count }).execute();
  return first;
}

export function formatNumber(series: Pick<SeriesRow, 'kind' | 'name' | 'format'>, number: number, year: number): string {
  return series.kind === 'receipt' ? formatReceiptNumber(series.name, number) : formatSeriesNumber(series.format, number, year, series.name);
}

export function isLocked(series: SeriesRow): boolean {
  return series.lock_device_id !== null;
}

export function seriesLockedError(series: SeriesRow): ApiError {
  return new ApiError(409, 'invalid_request_error', 'series_locked', {
    param: 'series_id',
    vars: { series: series.name, device_name: series.lock_device_name ?? '', device_id: series.lock_device_id ?? '' },
  });
}

export interface RecordGapInput {
  companyId: string;
  series: SeriesRow;
  year: number;
  number: number;
  reason: 'released' | 'lock_takeover' | 'deleted';
  deviceId: string | null;
  reservationToken: string | null;
  now: number;
}

export async function recordGap(trx: Db, input: RecordGapInput): Promise<void> {
  await trx
    .insertInto('number_gaps')
    .values({
      id: newId('gap'),
      company_id: input.companyId,
      series_id: input.series.id,
      year: input.year,
      number: input.number,
      reason: input.reason,
      device_id: input.deviceId,
      reservation_token: input.reservationToken,
      recorded_at: input.now,
    })
    .execute();
}

/**
 * How an issued document gets its number:
 * - `next`: the series' next number (online issue). Refused on a series another device holds.
 * - `explicit`: a number the device already printed offline, either as the lock holder (it must be
 *   exactly the next one: continuity is checked) or as the old holder of a lock that was taken over
 *   (it must be one of the numbers set aside for it).
 */
export type NumberClaim = { kind: 'next'; deviceId?: string | undefined } | { kind: 'explicit'; number: number; deviceId?: string | undefined };

export async function claimNumber(
  trx: Db,
  series: SeriesRow,
  year: number,
  claim: NumberClaim,
): Promise<number> {
  if (claim.kind === 'explicit') {
    if (claim.deviceId) {
      const setAside = await trx
        .selectFrom('number_gaps')
        .select('id')
        .where('series_id', '=', series.id)
        .where('year', '=', year)
        .where('number', '=', claim.number)
        .where('reason', '=', 'lock_takeover')
        .where('device_id', '=', claim.deviceId)
        .executeTakeFirst();
      if (setAside) {
        // The old holder's offline document arrives: its number stops being a gap.
        await trx.deleteFrom('number_gaps').where('id', '=', setAside.id).execute();
        return claim.number;
      }
    }
    if (!isLocked(series)) {
      throw new ApiError(409, 'invalid_request_error', 'series_not_locked', { param: 'number', vars: { series: series.name } });
    }
    if (series.lock_device_id !== claim.deviceId) throw seriesLockedError(series);
    const expected = await peekNext(trx, series, year);
    if (claim.number !== expected) {
      throw new ApiError(409, 'invalid_request_error', 'number_out_of_sequence', {
        param: 'number',
        vars: { number: claim.number, expected, series: series.name },
      });
    }
    await takeNumbers(trx, series, year, 1);
    return claim.number;
  }
  if (isLocked(series) && series.lock_device_id !== claim.deviceId) throw seriesLockedError(series);
  return takeNumbers(trx, series, year, 1);
}

export interface LockRequest {
  device_id: string;
  device_name: string;
  device_platform: string;
  session_id: number;
  user_id: number;
  takeover: boolean;
  reserve_for_old_holder: number;
}

/**
 * Takes (or refreshes) a series' exclusive lock. A takeover sets `reserve_for_old_holder` numbers aside
 * for the device that loses the lock: they go to the gap register as `lock_takeover`, the counter moves
 * past them, and the old holder may still sync documents carrying them ({@link claimNumber}).
 */
export async function applyLock(trx: Db, companyId: string, series: SeriesRow, request: LockRequest, now: number): Promise<void> {
  const heldByOther = isLocked(series) && series.lock_device_id !== request.device_id;
  if (heldByOther && !request.takeover) throw seriesLockedError(series);
  if (heldByOther && request.reserve_for_old_holder > 0) {
    const year = series.kind === 'receipt' ? RECEIPT_YEAR : yearAt(now);
    const first = await takeNumbers(trx, series, year, request.reserve_for_old_holder);
    for (let i = 0; i < request.reserve_for_old_holder; i++) {
      await recordGap(trx, {
        companyId, series, year, number: first + i, reason: 'lock_takeover',
        deviceId: series.lock_device_id, reservationToken: null, now,
      });
    }
  }
  await trx
    .updateTable('number_series')
    .set({
      lock_device_id: request.device_id,
      lock_device_name: request.device_name,
      lock_device_platform: request.device_platform,
      lock_session_id: request.session_id,
      lock_user_id: request.user_id,
      // A refresh by the holder keeps the original time: the lock dates from when it was taken.
      locked_at: isLocked(series) && !heldByOther ? series.locked_at : now,
      updated_at: now,
    })
    .where('id', '=', series.id)
    .execute();
}

/** Gives a lock back. Only the holder may; unlocking an unlocked series changes nothing. */
export async function applyUnlock(trx: Db, series: SeriesRow, deviceId: string, now: number): Promise<void> {
  if (!isLocked(series)) return;
  if (series.lock_device_id !== deviceId) {
    throw new ApiError(403, 'permission_error', 'forbidden', { param: 'device_id' });
  }
  await trx
    .updateTable('number_series')
    .set({
      lock_device_id: null, lock_device_name: null, lock_device_platform: null,
      lock_session_id: null, lock_user_id: null, locked_at: null, updated_at: now,
    })
    .where('id', '=', series.id)
    .execute();
}

export function lockView(series: SeriesRow) {
  if (!isLocked(series)) return null;
  return {
    device_id: series.lock_device_id ?? '',
    session_id: Number(series.lock_session_id ?? 0),
    user_id: Number(series.lock_user_id ?? 0),
    device_name: series.lock_device_name ?? '',
    device_platform: series.lock_device_platform ?? '',
    locked_at: Number(series.locked_at ?? 0),
  };
}

/** Series rows with the counter of `year` and whether any number was ever taken. */
export function seriesWithCounter(db: Db, year: number) {
  return db
    .selectFrom('number_series as s')
    .selectAll('s')
    .select((eb) => [
      eb
        .selectFrom('series_counters as c')
        .select('c.next_number')
        .whereRef('c.series_id', '=', 's.id')
        .where('c.year', '=', year)
        .as('counter_next'),
      eb.exists(eb.selectFrom('series_counters as u').select('u.series_id').whereRef('u.series_id', '=', 's.id')).as('used'),
    ]);
}

export type SeriesWithCounter = SeriesRow & { counter_next: number | null; used: unknown };

export async function findSeries(db: Db, companyId: string, id: string, kind: SeriesKind, year: number): Promise<SeriesWithCounter> {
  const row = await seriesWithCounter(db, year)
    .where('s.id', '=', id)
    .where('s.company_id', '=', companyId)
    .where('s.kind', '=', kind)
    .executeTakeFirst();
  if (!row) throw notFound('id');
  return row as SeriesWithCounter;
}

/** Makes `seriesId` the only primary series of its work point and type. */
export async function makePrimary(trx: Db, series: Pick<SeriesRow, 'id' | 'work_point_id' | 'kind' | 'document_type'>): Promise<void> {
  await trx
    .updateTable('number_series')
    .set({ is_primary: 0 })
    .where('work_point_id', '=', series.work_point_id)
    .where('kind', '=', series.kind)
    .where('document_type', '=', series.document_type)
    .where('id', '!=', series.id)
    .where('is_primary', '=', 1)
    .execute();
  await trx.updateTable('number_series').set({ is_primary: 1 }).where('id', '=', series.id).execute();
}

export async function seriesIsUsed(db: Db, seriesId: string): Promise<boolean> {
  const counter = await db.selectFrom('series_counters').select('series_id').where('series_id', '=', seriesId).executeTakeFirst();
  return counter !== undefined;
}

/** A numbering format must place the number, and may use only the placeholders we print. Returns the problem, `en|ro`. */
export function formatProblem(format: string): string | null {
  const placeholders = format.match(/\{[^}]*\}/g) ?? [];
  const unknown = placeholders.find((p) => !/^\{(name|year|number(:\d{1,2})?)\}$/.test(p));
  if (unknown) {
    return `Unknown placeholder ${unknown}; use {name}, {year}, {number} or {number:N}.|Substituent necunoscut ${unknown}; folosiți {name}, {year}, {number} sau {number:N}.`;
  }
  if (!placeholders.some((p) => p.startsWith('{number'))) return 'The format must contain {number}.|Formatul trebuie să conțină {number}.';
  return null;
}

/**
 * Whether a document names the series: invoice drafts may without taking a number from it; receipts
 * always took one, so for them this only backs up {@link seriesIsUsed}. Such a series cannot be deleted either.
 */
export async function seriesReferenced(db: Db, seriesId: string, kind: SeriesKind): Promise<boolean> {
  const row = await db
    .selectFrom(kind === 'receipt' ? 'receipts' : 'invoices')
    .select('id')
    .where('series_id', '=', seriesId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export const inUse = (param: string) => conflict('in_use', param);

/** The unique index on (company_id, kind, lower(name)) made by migration 0204_series_unique_names. */
const SERIES_NAME_INDEX = 'number_series_unique_name';

export const duplicateSeries = (param: string) => conflict('duplicate_series', param);

/**
 * A firm's numbers must be unique and the series name is printed in every one of them, so no two
 * series of a firm and kind share a name, whatever their work points, in any case (`ch` = `CH`).
 * 409 `duplicate_series` naming `param` when another series (not `exceptId`) has the name.
 */
export async function assertSeriesNameFree(
  db: Db,
  series: { companyId: string; kind: SeriesKind; name: string; exceptId?: string },
  param: string,
): Promise<void> {
  let query = db
    .selectFrom('number_series')
    .select('id')
    .where('company_id', '=', series.companyId)
    .where('kind', '=', series.kind)
    // lower() on both sides: the same folding as the unique index, whatever JavaScript would do.
    .where(sql<string>`lower(name)`, '=', sql<string>`lower(${series.name})`);
  if (series.exceptId) query = query.where('id', '!=', series.exceptId);
  if (await query.executeTakeFirst()) throw duplicateSeries(param);
}

/**
 * Runs a write that gives a series its name; two requests racing for one name both pass
 * {@link assertSeriesNameFree}, and the loser's unique violation becomes the same 409. Other unique
 * violations (the one-primary index) are not about the name and pass through.
 */
export async function guardSeriesName<T>(param: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error) && violatedIndex(error).includes(SERIES_NAME_INDEX)) throw duplicateSeries(param);
    throw error;
  }
}

/** pg names the index in `constraint`; better-sqlite3 only in the message (`UNIQUE constraint failed: index '…'`). */
function violatedIndex(error: unknown): string {
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  return typeof constraint === 'string' ? constraint : String(message ?? '');
}

/** Deletes a series from which no number was ever taken and that no document names; 409 `in_use` otherwise. */
export async function deleteUnusedSeries(trx: Db, series: SeriesRow): Promise<void> {
  if ((await seriesIsUsed(trx, series.id)) || (await seriesReferenced(trx, series.id, series.kind))) throw inUse('id');
  await trx.deleteFrom('number_series').where('id', '=', series.id).execute();
}
