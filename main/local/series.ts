import { z } from 'zod';
import type { SeriesView } from '../../shared/ipc/contract';
import { formatSeriesNumber, zSeriesLock, type SeriesLock } from '../../shared/schemas/series';
import type { ReservationRow, SeriesRow } from '../db/rows';
import { sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { AppError, invalidState, notFound } from '../errors';
import { enqueue } from '../sync/outbox';
import type { LocalContext } from './context';

export function getSeriesRow(db: ReadDb, id: string): SeriesRow | undefined {
  return db.get<SeriesRow>(sql`SELECT * FROM series WHERE id = ${id}`);
}

export function seriesLock(row: SeriesRow): SeriesLock | null {
  if (!row.lock) return null;
  const parsed = zSeriesLock.safeParse(JSON.parse(row.lock));
  return parsed.success ? parsed.data : null;
}

export function lockedByMe(row: SeriesRow, deviceId: string): boolean {
  return row.is_locked === 1 && seriesLock(row)?.device_id === deviceId;
}

export function poolAvailable(db: ReadDb, seriesId: string): number {
  return db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM reservations WHERE series_id = ${seriesId} AND status = 'pending'`)?.n ?? 0;
}

export function seriesView(db: ReadDb, row: SeriesRow, deviceId: string): SeriesView {
  const mine = lockedByMe(row, deviceId);
  let nextNumber: number | null = null;
  let nextFull: string | null = null;
  if (row.numbering_mode === 'exclusive' && mine && row.local_next_number !== null) {
    nextNumber = row.local_next_number;
    nextFull = formatSeriesNumber(row.format, nextNumber, row.year, row.name);
  } else if (row.numbering_mode === 'shared') {
    const next = db.get<ReservationRow>(sql`SELECT * FROM reservations WHERE series_id = ${row.id} AND status = 'pending' ORDER BY number LIMIT 1`);
    if (next) {
      nextNumber = next.number;
      nextFull = next.full_number;
    }
  }
  return {
    id: row.id, kind: row.kind, name: row.name, document_type: row.document_type, description: row.description, format: row.format, year: row.year,
    is_primary: row.is_primary === 1, mode: row.numbering_mode, lock: seriesLock(row), locked_by_me: mine,
    pool: { available: poolAvailable(db, row.id), target: row.pool_target, low_water: row.low_water },
    next_number: nextNumber, next_full_number: nextFull,
    start_number: row.start_number, counter_next_number: row.next_number, is_used: row.is_used === 1,
    example_full_number: formatSeriesNumber(row.format, row.next_number, row.year, row.name),
  };
}

export function listSeries(ctx: LocalContext): SeriesView[] {
  return ctx.store.snapshot((db) =>
    db.all<SeriesRow>(sql`SELECT * FROM series ORDER BY kind, is_primary DESC, name`).map((r) => seriesView(db, r, ctx.device.id)),
  );
}

export function getSeries(ctx: LocalContext, id: string): SeriesView {
  const row = getSeriesRow(ctx.store.reader, id);
  if (!row) throw notFound('Series');
  return seriesView(ctx.store.reader, row, ctx.device.id);
}

export interface TakenNumber {
  number: number;
  full_number: string;
  numbering: 'reservation' | 'lock';
  reservation_token: string | null;
  /** Outbox items the invoice must follow (the previous number of a locked series: the server checks continuity). */
  after: string[];
}

/**
 * Takes the next number this device may print for `seriesId`, in the caller's transaction: the lock's
 * counter (exclusive, no gaps) or the lowest reserved number (shared). Never asks the network.
 */
export function takeNumber(db: WriteDb, ctx: LocalContext, seriesId: string, invoiceId: string, issueDate?: string): TakenNumber {
  const row = getSeriesRow(db, seriesId);
  if (!row) throw notFound('Series');
  const now = ctx.clock.now();
  if (row.numbering_mode === 'exclusive') {
    if (!lockedByMe(row, ctx.device.id) || row.local_next_number === null) {
      throw new AppError('conflict', 'no_number_available', `This device does not hold the lock of series ${row.name}`);
    }
    // Invoice numbers restart with the year on the server: a counter of another year is not this one.
    if (row.kind === 'invoice' && issueDate && Number(issueDate.slice(0, 4)) !== row.year) {
      throw new AppError('conflict', 'no_number_available', `Series ${row.name} is counted for ${row.year}: go online once to start the new year`);
    }
    const number = row.local_next_number;
    db.run(sql`UPDATE series SET local_next_number = ${number + 1} WHERE id = ${seriesId}`);
    const tail = row.lock_tail ? db.get<{ state: string }>(sql`SELECT state FROM outbox WHERE id = ${row.lock_tail}`) : undefined;
    return {
      number,
      full_number: formatSeriesNumber(row.format, number, row.year, row.name),
      numbering: 'lock',
      reservation_token: null,
      after: tail && tail.state !== 'done' ? [row.lock_tail!] : [],
    };
  }
  if (row.numbering_mode === 'shared') {
    const reservation = db.get<ReservationRow>(
      sql`SELECT * FROM reservations WHERE series_id = ${seriesId} AND status = 'pending' ORDER BY number LIMIT 1`,
    );
    if (!reservation) {
      throw new AppError('conflict', 'no_number_available', `No reserved number left for series ${row.name}: save a draft, or go online`);
    }
    db.run(sql`UPDATE reservations SET status = 'used', used_by = ${invoiceId}, updated_at = ${now} WHERE token = ${reservation.token}`);
    return { number: reservation.number, full_number: reservation.full_number, numbering: 'reservation', reservation_token: reservation.token, after: [] };
  }
  throw new AppError('conflict', 'no_number_available', `Series ${row.name} is not set up for offline numbering on this device`);
}

/**
 * Gives back a number that was taken but will never reach the server. A reserved number is released
 * on the server (a documented gap, never reused). A locked series' number can only be given back
 * when it is the last one taken: otherwise the series would have a hole, which exclusive numbering
 * promises never to leave.
 */
export function giveBackNumber(
  db: WriteDb,
  ctx: LocalContext,
  invoice: { id: string; series_id: string | null; number: number | null; numbering: string | null; reservation_token: string | null; full_number: string | null },
  /** The outbox item that carried the number (being dropped). */
  itemId?: string,
): string | null {
  if (invoice.numbering === 'reservation' && invoice.reservation_token) {
    enqueueRelease(db, ctx, { token: invoice.reservation_token, series_id: invoice.series_id, full_number: invoice.full_number });
    return invoice.full_number;
  }
  if (invoice.numbering === 'lock' && invoice.series_id && invoice.number !== null) {
    const series = getSeriesRow(db, invoice.series_id);
    if (!series || series.local_next_number !== invoice.number + 1) {
      throw invalidState('Only the last number of an exclusive series can be discarded; void this invoice by storno after it syncs');
    }
    // The chain of numbers under the lock now ends at what this item followed.
    const previous = itemId ? previousInChain(db, itemId, invoice.series_id) : undefined;
    db.run(sql`UPDATE series SET local_next_number = ${invoice.number}, lock_tail = ${previous?.id ?? null} WHERE id = ${invoice.series_id}`);
    return invoice.full_number;
  }
  return null;
}

/** The item a lock-numbered item follows in its series' chain (an invoice or a receipt of the same series). */
export function previousInChain(db: ReadDb, itemId: string, seriesId: string): { id: string } | undefined {
  return db.get<{ id: string }>(sql`
    SELECT d.depends_on AS id FROM outbox_deps d JOIN outbox o ON o.id = d.depends_on
    WHERE d.item_id = ${itemId} AND (
      (o.entity_type = 'invoice' AND EXISTS (SELECT 1 FROM invoices i WHERE i.id = o.entity_id AND i.series_id = ${seriesId} AND i.numbering = 'lock'))
      OR (o.entity_type = 'receipt' AND EXISTS (SELECT 1 FROM receipts r WHERE r.id = o.entity_id AND r.series_id = ${seriesId} AND r.numbering = 'lock')))`);
}

/**
 * The receipt series a receipt made here without naming one is numbered from: one this device holds the
 * lock of, else a shared one with reserved numbers left; none, and the server numbers it at sync.
 */
export function defaultReceiptSeries(db: ReadDb, deviceId: string): SeriesRow | undefined {
  const offline = db.all<SeriesRow>(sql`SELECT * FROM series WHERE kind = 'receipt' AND numbering_mode IS NOT NULL ORDER BY is_primary DESC, name`);
  return (
    offline.find((s) => s.numbering_mode === 'exclusive' && lockedByMe(s, deviceId)) ??
    offline.find((s) => s.numbering_mode === 'shared' && poolAvailable(db, s.id) > 0)
  );
}

/**
 * Queues the release of a reserved number this device will not use: on the server it becomes a
 * documented gap, never handed out again. Invoice and receipt series release under their own paths.
 */
export function enqueueRelease(db: WriteDb, ctx: LocalContext, reservation: { token: string; series_id: string | null; full_number: string | null }): void {
  const kind = (reservation.series_id ? getSeriesRow(db, reservation.series_id)?.kind : undefined) ?? 'invoice';
  const base = kind === 'receipt' ? '/receipt-series' : '/invoice-series';
  db.run(sql`UPDATE reservations SET status = 'releasing', updated_at = ${ctx.clock.now()} WHERE token = ${reservation.token}`);
  enqueue(db, ctx, {
    kind: 'reservation.release',
    entityType: 'reservation',
    entityId: reservation.token,
    request: {
      method: 'POST',
      path: `${base}/reservations/${encodeURIComponent(reservation.token)}/release`,
      create: false,
      refs: [],
      label: `Număr eliberat ${reservation.full_number ?? ''}`.trim(),
    },
  });
}

/** Records the outbox item carrying the number just taken under the lock (the next one will follow it). */
export function setLockTail(db: WriteDb, seriesId: string, itemId: string): void {
  db.run(sql`UPDATE series SET lock_tail = ${itemId} WHERE id = ${seriesId}`);
}

/** Settings of a series' pool, kept locally. */
export const zPoolSettings = z.object({ pool_target: z.number().int().min(1).max(1000), low_water: z.number().int().min(0).max(1000) });
