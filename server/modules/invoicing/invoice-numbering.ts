import type { Db, Dialect } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { notFound } from '../../platform/errors';
import { prepared } from '../../db/prepared';
import { claimNumber, formatNumber, isLocked, lockAndTakeNext, lockSeriesRow, readSeriesRow, seriesLockedError, yearOfDate, type SeriesRow } from './numbering';
import { invalid } from './fail';
import { assertOneNumberSource, consumeReservation } from './reservation-consume';
import './messages';

export { AlreadyCreated } from './reservation-consume';

export interface NumberingInput {
  series_id?: string | null | undefined;
  reservation_token?: string | undefined;
  number?: number | undefined;
  device_id?: string | undefined;
}

export interface AssignedNumber {
  series: SeriesRow;
  year: number;
  number: number;
  full_number: string;
  reservation_token: string | null;
}

export interface AssignContext {
  db: Db;
  dialect: Dialect;
  companyId: string;
  workPointId: string;
  locale: Locale;
  now: number;
}

/**
 * An issue that will take the series' next number, not taken yet: the invoice, its lines and its
 * stock moves are written first (number NULL), and {@link takeLateNumber} locks the series, takes the
 * number and writes it into the invoice just before the commit. The series row is then locked for two
 * statements and the commit instead of for every statement of the issue: on PostgreSQL, where the lock
 * serializes the issuers of a series, that is the series' ceiling (docs/scaling.md). No number is
 * spent before the checks: they all ran before, and a failure after rolls the counter back with
 * everything else. `series` is the row as read without a lock, for the early checks and the insert;
 * the locked row read at the end is the one that counts.
 */
export interface LateNumber {
  late: true;
  series: SeriesRow;
  year: number;
  deviceId: string | undefined;
  documentType: string;
}

export type PlannedNumber = AssignedNumber | LateNumber;

export const isLateNumber = (planned: PlannedNumber | null): planned is LateNumber => planned !== null && 'late' in planned;

/** The primary series of a document type at a work point, if one is set. */
export async function primarySeriesId(db: Db, workPointId: string, documentType: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('number_series')
    .select('id')
    .where('work_point_id', '=', workPointId)
    .where('kind', '=', 'invoice')
    .where('document_type', '=', documentType)
    .where('is_primary', '=', 1)
    .executeTakeFirst();
  return row?.id;
}

function checkSeriesFits(ctx: Pick<AssignContext, 'locale' | 'workPointId'>, series: SeriesRow, documentType: string): void {
  if (series.document_type !== documentType) {
    throw invalid(ctx.locale, {
      series_id: `This series numbers ${series.document_type} invoices, not ${documentType}.|Această serie numerotează facturi ${series.document_type}, nu ${documentType}.`,
    });
  }
  if (series.work_point_id !== ctx.workPointId) {
    throw invalid(ctx.locale, {
      series_id: 'This series belongs to another work point; select it with work_point_id.|Această serie aparține altui punct de lucru; selectați-l cu work_point_id.',
    });
  }
}

/** Checks a draft's series without taking a number. */
export async function checkDraftSeries(ctx: AssignContext, trx: Db, seriesId: string, documentType: string): Promise<SeriesRow> {
  const series = await trx
    .selectFrom('number_series')
    .selectAll()
    .where('id', '=', seriesId)
    .where('company_id', '=', ctx.companyId)
    .where('kind', '=', 'invoice')
    .executeTakeFirst();
  if (!series) throw notFound('series_id');
  checkSeriesFits(ctx, series, documentType);
  return series;
}

/**
 * The series an issue names, else the work point's primary series of the document type; refused
 * (422 on `series_id`) when neither is there.
 */
async function seriesIdOrRefuse(ctx: AssignContext, trx: Db, seriesId: string | null | undefined, documentType: string): Promise<string> {
  const id = seriesId ?? (await primarySeriesId(trx, ctx.workPointId, documentType));
  if (!id) {
    throw invalid(ctx.locale, {
      series_id: `Required: this work point has no primary ${documentType} series.|Obligatoriu: acest punct de lucru nu are o serie ${documentType} principală.`,
    });
  }
  return id;
}

/** A reservation's number (offline, shared series), taken at once inside the caller's transaction. */
async function takeReservedNumber(
  ctx: AssignContext,
  trx: Db,
  input: NumberingInput,
  token: string,
  documentType: string,
  invoiceId: string,
  clientLocalUuid: string | null,
): Promise<AssignedNumber> {
  const taken = await consumeReservation(ctx, trx, {
    kind: 'invoice', token, deviceId: input.device_id, seriesId: input.series_id, clientLocalUuid, documentId: invoiceId,
  });
  checkSeriesFits(ctx, taken.series, documentType);
  const { series, year, number } = taken;
  return { series, year, number, full_number: formatNumber(series, number, year), reservation_token: taken.token };
}

/**
 * The number the lock holder printed offline (exclusive series), taken at once: continuity is checked
 * under the series row lock, which stays held until the transaction ends.
 */
async function takePrintedNumber(ctx: AssignContext, trx: Db, input: NumberingInput, number: number, documentType: string, issueDate: string): Promise<AssignedNumber> {
  const seriesId = await seriesIdOrRefuse(ctx, trx, input.series_id, documentType);
  const series = await lockSeriesRow(trx, ctx.dialect, ctx.companyId, seriesId, 'invoice');
  if (!series) throw notFound('series_id');
  checkSeriesFits(ctx, series, documentType);
  const year = yearOfDate(issueDate);
  const claimed = await claimNumber(trx, series, year, { kind: 'explicit', number, deviceId: input.device_id });
  return { series, year, number: claimed, full_number: formatNumber(series, claimed, year), reservation_token: null };
}

/**
 * What number an invoice being issued will get. A reservation or a number printed offline (exact
 * claims, checked against what the series holds) is taken now; the
 * series' next number is only planned: the series is read and checked (it exists, fits the document
 * and work point, no other device holds it) and the number is taken by {@link takeLateNumber} once
 * everything else of the issue is written.
 */
export async function planInvoiceNumber(
  ctx: AssignContext,
  trx: Db,
  input: NumberingInput,
  documentType: string,
  issueDate: string,
  invoiceId: string,
  clientLocalUuid: string | null,
): Promise<PlannedNumber> {
  assertOneNumberSource(ctx.locale, input);
  if (input.reservation_token !== undefined) return takeReservedNumber(ctx, trx, input, input.reservation_token, documentType, invoiceId, clientLocalUuid);
  if (input.number !== undefined) return takePrintedNumber(ctx, trx, input, input.number, documentType, issueDate);
  const seriesId = await seriesIdOrRefuse(ctx, trx, input.series_id, documentType);
  const series = await readSeriesRow(trx, ctx.companyId, seriesId, 'invoice');
  if (!series) throw notFound('series_id');
  checkSeriesFits(ctx, series, documentType);
  // Refused before any write; checked again under the lock, where it counts.
  if (isLocked(series) && series.lock_device_id !== input.device_id) throw seriesLockedError(series);
  return { late: true, series, year: yearOfDate(issueDate), deviceId: input.device_id, documentType };
}

// The last statement of every online issue: prepared once (db/prepared.ts).
const writeNumber = prepared(
  ['seriesName', 'number', 'fullNumber', 'id'],
  (db, p: { seriesName: string; number: number; fullNumber: string; id: string }) =>
    db.updateTable('invoices').set({ series_name: p.seriesName, number: p.number, full_number: p.fullNumber }).where('id', '=', p.id),
);

/**
 * Takes the planned number, last thing before the commit: locks the series row, checks it again
 * (another device may have locked it, or it may be gone, since it was read), moves the counter and
 * writes the number into the invoice `invoiceId` (inserted earlier in this transaction with none).
 */
export async function takeLateNumber(ctx: AssignContext, trx: Db, planned: LateNumber, invoiceId: string): Promise<AssignedNumber> {
  const taken = await lockAndTakeNext(
    trx, ctx.dialect, { companyId: ctx.companyId, seriesId: planned.series.id, kind: 'invoice', year: planned.year },
    (locked) => {
      checkSeriesFits(ctx, locked, planned.documentType);
      if (isLocked(locked) && locked.lock_device_id !== planned.deviceId) throw seriesLockedError(locked);
    },
  );
  if (!taken) throw notFound('series_id');
  const { series, number } = taken;
  const fullNumber = formatNumber(series, number, planned.year);
  await writeNumber.execute(trx, { seriesName: series.name, number, fullNumber, id: invoiceId });
  return { series, year: planned.year, number, full_number: fullNumber, reservation_token: null };
}

/** The invoice row with its number: `row` as inserted, completed by {@link takeLateNumber} when the number was planned. */
export async function numberInvoice<R extends { id: string; series_name: string | null; number: number | null; full_number: string | null }>(
  ctx: AssignContext,
  trx: Db,
  planned: PlannedNumber | null,
  row: R,
): Promise<R> {
  if (!isLateNumber(planned)) return row;
  const taken = await takeLateNumber(ctx, trx, planned, row.id);
  return { ...row, series_name: taken.series.name, number: taken.number, full_number: taken.full_number };
}
