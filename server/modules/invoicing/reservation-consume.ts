import type { Db, Dialect } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { lockSeriesRow, type SeriesRow } from './numbering';
import { invalid } from './fail';
import type { SeriesKind } from './tables';
import './messages';

/** Thrown when the document being created already exists under the same `client_local_uuid`. */
export class AlreadyCreated extends Error {
  constructor() {
    super('already created under this client_local_uuid');
    this.name = 'AlreadyCreated';
  }
}

export interface ReservationContext {
  dialect: Dialect;
  companyId: string;
  locale: Locale;
  now: number;
}

/** A document printed offline carries one number: a reservation's or the lock holder's, never both (422). */
export function assertOneNumberSource(locale: Locale, input: { reservation_token?: string | undefined; number?: number | undefined }): void {
  if (input.reservation_token !== undefined && input.number !== undefined) {
    throw invalid(locale, { number: 'Send either number or reservation_token, not both.|Trimiteți fie number, fie reservation_token, nu amândouă.' });
  }
}

export interface ConsumeReservation {
  kind: SeriesKind;
  token: string;
  deviceId: string | undefined;
  /** The series the request names, if any: it must be the reservation's. */
  seriesId: string | null | undefined;
  clientLocalUuid: string | null;
  /** The invoice or receipt that takes the number. */
  documentId: string;
}

export interface ConsumedNumber {
  series: SeriesRow;
  year: number;
  number: number;
  token: string;
}

/**
 * Gives a document being issued the number a device reserved for it offline, inside the caller's
 * transaction; the series row stays locked until the transaction ends. Only the reserving device may
 * consume it; a released one is refused; an expired one is accepted (the number may be on paper). The
 * same document sent twice at once (same `client_local_uuid`) throws {@link AlreadyCreated}, so the
 * caller answers the one already made. A token of the other kind of series (an invoice reservation on
 * a receipt) answers like an unknown one.
 */
export async function consumeReservation(ctx: ReservationContext, trx: Db, input: ConsumeReservation): Promise<ConsumedNumber> {
  const found = await trx
    .selectFrom('number_reservations')
    .selectAll()
    .where('token', '=', input.token)
    .where('company_id', '=', ctx.companyId)
    .executeTakeFirst();
  if (!found) throw notFound('reservation_token');
  if (!input.deviceId) {
    throw invalid(ctx.locale, { device_id: 'Required with reservation_token: the device that reserved the number.|Obligatoriu cu reservation_token: dispozitivul care a rezervat numărul.' });
  }
  if (found.device_id !== input.deviceId) throw new ApiError(403, 'permission_error', 'forbidden', { param: 'reservation_token' });
  if (input.seriesId && input.seriesId !== found.series_id) {
    throw invalid(ctx.locale, { series_id: 'The reservation belongs to another series.|Rezervarea aparține altei serii.' });
  }
  const series = await lockSeriesRow(trx, ctx.dialect, ctx.companyId, found.series_id, input.kind);
  if (!series) throw notFound('reservation_token');
  // Read again under the series lock: a concurrent release or consumption has finished by now.
  const reservation = await trx.selectFrom('number_reservations').selectAll().where('token', '=', found.token).executeTakeFirstOrThrow();
  if (reservation.status === 'released') throw conflict('reservation_released', 'reservation_token');
  if (reservation.status === 'consumed') {
    if (input.clientLocalUuid !== null && reservation.client_local_uuid === input.clientLocalUuid) throw new AlreadyCreated();
    throw conflict('reservation_consumed', 'reservation_token');
  }
  await trx
    .updateTable('number_reservations')
    .set({
      status: 'consumed', consumed_at: ctx.now, client_local_uuid: input.clientLocalUuid,
      ...(input.kind === 'invoice' ? { invoice_id: input.documentId } : { receipt_id: input.documentId }),
    })
    .where('token', '=', reservation.token)
    .execute();
  return { series, year: Number(reservation.year), number: Number(reservation.number), token: reservation.token };
}
