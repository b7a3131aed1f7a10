import type { Db, Dialect } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { notFound } from '../../platform/errors';
import { claimNumber, formatNumber, lockSeriesRow, yearOfDate, type SeriesRow } from './numbering';
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
  assertOneNumberSource(ctx.locale, input);
  if (input.reservation_token !== undefined) {
    const taken = await consumeReservation(ctx, trx, {
      kind: 'invoice', token: input.reservation_token, deviceId: input.device_id, seriesId: input.series_id,
      clientLocalUuid, documentId: invoiceId,
    });
    checkSeriesFits(ctx, taken.series, documentType);
    const { series, year, number, token } = taken;
    return { series, year, number, full_number: formatNumber(series, number, year), reservation_token: token };
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
