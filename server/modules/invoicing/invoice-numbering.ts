import type { Db, Dialect } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { claimNumber, formatNumber, lockSeriesRow, yearOfDate, type SeriesRow } from './numbering';
import { invalid } from './fail';
import './messages';

/** Thrown when the document being created already exists under the same `client_local_uuid`. */
export class AlreadyCreated extends Error {
  constructor() {
    super('already created under this client_local_uuid');
    this.name = 'AlreadyCreated';
  }
}

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

function checkSeriesFits(ctx: AssignContext, series: SeriesRow, documentType: string): void {
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
 * Gives an invoice being issued its number, inside the caller's transaction: the reservation's
 * number (offline, shared series), the number the lock holder printed (offline, exclusive series),
 * or the series' next one. The series row stays locked until the transaction ends.
 */
export async function assignInvoiceNumber(
  ctx: AssignContext,
  trx: Db,
  input: NumberingInput,
  documentType: string,
  issueDate: string,
  invoiceId: string,
  clientLocalUuid: string | null,
): Promise<AssignedNumber> {
  if (input.reservation_token !== undefined && input.number !== undefined) {
    throw invalid(ctx.locale, { number: 'Send either number or reservation_token, not both.|Trimiteți fie number, fie reservation_token, nu amândouă.' });
  }
  if (input.reservation_token !== undefined) {
    const found = await trx
      .selectFrom('number_reservations')
      .selectAll()
      .where('token', '=', input.reservation_token)
      .where('company_id', '=', ctx.companyId)
      .executeTakeFirst();
    if (!found) throw notFound('reservation_token');
    if (!input.device_id) {
      throw invalid(ctx.locale, { device_id: 'Required with reservation_token: the device that reserved the number.|Obligatoriu cu reservation_token: dispozitivul care a rezervat numărul.' });
    }
    if (found.device_id !== input.device_id) throw new ApiError(403, 'permission_error', 'forbidden', { param: 'reservation_token' });
    if (input.series_id && input.series_id !== found.series_id) {
      throw invalid(ctx.locale, { series_id: 'The reservation belongs to another series.|Rezervarea aparține altei serii.' });
    }
    const series = await lockSeriesRow(trx, ctx.dialect, ctx.companyId, found.series_id, 'invoice');
    if (!series) throw notFound('reservation_token');
    checkSeriesFits(ctx, series, documentType);
    // Read again under the series lock: a concurrent release or consumption has finished by now.
    const reservation = await trx.selectFrom('number_reservations').selectAll().where('token', '=', found.token).executeTakeFirstOrThrow();
    if (reservation.status === 'released') throw conflict('reservation_released', 'reservation_token');
    if (reservation.status === 'consumed') {
      // The same offline invoice sent twice at once: the other request won; the caller answers its invoice.
      if (clientLocalUuid !== null && reservation.client_local_uuid === clientLocalUuid) throw new AlreadyCreated();
      throw conflict('reservation_consumed', 'reservation_token');
    }
    // Pending, or expired but never released: the owner's late consumption is accepted (the number may be on paper).
    await trx
      .updateTable('number_reservations')
      .set({ status: 'consumed', consumed_at: ctx.now, client_local_uuid: clientLocalUuid, invoice_id: invoiceId })
      .where('token', '=', reservation.token)
      .execute();
    const year = Number(reservation.year);
    const number = Number(reservation.number);
    return { series, year, number, full_number: formatNumber(series, number, year), reservation_token: reservation.token };
  }
  const seriesId = input.series_id ?? (await primarySeriesId(trx, ctx.workPointId, documentType));
  if (!seriesId) {
    throw invalid(ctx.locale, {
      series_id: `Required: this work point has no primary ${documentType} series.|Obligatoriu: acest punct de lucru nu are o serie ${documentType} principală.`,
    });
  }
  const series = await lockSeriesRow(trx, ctx.dialect, ctx.companyId, seriesId, 'invoice');
  if (!series) throw notFound('series_id');
  checkSeriesFits(ctx, series, documentType);
  const year = yearOfDate(issueDate);
  const number = await claimNumber(
    trx,
    series,
    year,
    input.number !== undefined ? { kind: 'explicit', number: input.number, deviceId: input.device_id } : { kind: 'next', deviceId: input.device_id },
  );
  return { series, year, number, full_number: formatNumber(series, number, year), reservation_token: null };
}
