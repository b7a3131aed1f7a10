import type { ApiClient } from '../api/client';
import { ApiHttpError } from '../api/errors';
import { listReceiptSeries, listSeries, lockReceiptSeries, lockSeries, reserveNumbers, unlockReceiptSeries, unlockSeries } from '../api/endpoints';
import type { ReservationRow, SeriesRow } from '../db/rows';
import { sql } from '../db/sql';
import type { Store } from '../db/store';
import { AppError, invalidState, notFound } from '../errors';
import type { Clock, Device, LocalContext } from '../local/context';
import { enqueueRelease, getSeriesRow, lockedByMe } from '../local/series';
import { applyReceiptSeries, applyReservations, applySeries } from './apply';

/**
 * Both offline numbering modes, on the online side: taking and giving back a series' lock, and keeping
 * a pool of reserved numbers above its low-water mark. Nothing here runs offline: the pool is only
 * refilled when the server answers.
 */

export interface NumberingDeps {
  store: Store;
  api: ApiClient;
  clock: Clock;
  device: Device;
  ctx: LocalContext;
  /** Lifetime asked for reserved numbers (the server's default is a week). */
  reservationTtlSeconds?: number;
}

export async function refreshSeries(deps: NumberingDeps): Promise<number> {
  let count = 0;
  for (let page = 1; ; page++) {
    const list = await listSeries(deps.api, page);
    const now = deps.clock.now();
    deps.store.write((db) => {
      for (const s of list.data) applySeries(db, s, deps.device.id, now);
    });
    count += list.data.length;
    if (!list.has_more) break;
  }
  for (let page = 1; ; page++) {
    const list = await listReceiptSeries(deps.api, page);
    const now = deps.clock.now();
    deps.store.write((db) => {
      for (const s of list.data) applyReceiptSeries(db, s, deps.device.id, now);
    });
    count += list.data.length;
    if (!list.has_more) return count;
  }
}

function unsyncedLockNumbers(store: Store, seriesId: string): number {
  const invoices = store.reader.get<{ n: number }>(sql`
    SELECT COUNT(*) AS n FROM invoices i
    WHERE i.series_id = ${seriesId} AND i.numbering = 'lock'
      AND EXISTS (SELECT 1 FROM outbox o WHERE o.entity_type = 'invoice' AND o.entity_id = i.id AND o.state <> 'done')`)?.n ?? 0;
  const receipts = store.reader.get<{ n: number }>(sql`
    SELECT COUNT(*) AS n FROM receipts r
    WHERE r.series_id = ${seriesId} AND r.numbering = 'lock'
      AND EXISTS (SELECT 1 FROM outbox o WHERE o.entity_type = 'receipt' AND o.entity_id = r.id AND o.state <> 'done')`)?.n ?? 0;
  return invoices + receipts;
}

/** Unused reservations of a series are released: each becomes a documented gap now rather than an expiry later. */
function releaseUnused(deps: NumberingDeps, seriesId: string): number {
  return deps.store.write((db) => {
    const unused = db.all<ReservationRow>(sql`SELECT * FROM reservations WHERE series_id = ${seriesId} AND status = 'pending'`);
    for (const r of unused) enqueueRelease(db, deps.ctx, r);
    return unused.length;
  });
}

export async function setNumberingMode(
  deps: NumberingDeps,
  seriesId: string,
  mode: 'shared' | 'exclusive' | null,
  pool: { pool_target?: number | undefined; low_water?: number | undefined },
): Promise<void> {
  const row = getSeriesRow(deps.store.reader, seriesId);
  if (!row) throw notFound('Series');
  deps.store.write((db) => {
    if (pool.pool_target !== undefined) db.run(sql`UPDATE series SET pool_target = ${pool.pool_target} WHERE id = ${seriesId}`);
    if (pool.low_water !== undefined) db.run(sql`UPDATE series SET low_water = ${pool.low_water} WHERE id = ${seriesId}`);
  });
  const identity = { device_id: deps.device.id, device_name: deps.device.name, device_platform: deps.device.platform };
  if (mode === 'exclusive') {
    // Under the lock the device numbers from the counter: a reserve kept from shared mode is given up (documented gaps).
    if (row.kind === 'receipt') {
      const series = await lockReceiptSeries(deps.api, seriesId, identity);
      releaseUnused(deps, seriesId);
      deps.store.write((db) => {
        applyReceiptSeries(db, series, deps.device.id, deps.clock.now());
        db.run(sql`UPDATE series SET numbering_mode = 'exclusive' WHERE id = ${seriesId}`);
      });
      return;
    }
    const series = await lockSeries(deps.api, seriesId, identity);
    releaseUnused(deps, seriesId);
    deps.store.write((db) => {
      applySeries(db, series, deps.device.id, deps.clock.now());
      db.run(sql`UPDATE series SET numbering_mode = 'exclusive' WHERE id = ${seriesId}`);
    });
    return;
  }
  if (lockedByMe(row, deps.device.id)) {
    if (unsyncedLockNumbers(deps.store, seriesId) > 0) {
      throw invalidState('Documents numbered under this lock are not synced yet: sync them before giving the lock back');
    }
    if (row.kind === 'receipt') {
      const series = await unlockReceiptSeries(deps.api, seriesId, deps.device.id);
      deps.store.write((db) => applyReceiptSeries(db, series, deps.device.id, deps.clock.now()));
    } else {
      const series = await unlockSeries(deps.api, seriesId, deps.device.id);
      deps.store.write((db) => applySeries(db, series, deps.device.id, deps.clock.now()));
    }
  }
  deps.store.write((db) => db.run(sql`UPDATE series SET numbering_mode = ${mode}, local_next_number = NULL WHERE id = ${seriesId}`));
  if (mode === null) releaseUnused(deps, seriesId);
  else await refillPool(deps, seriesId, true);
}

/**
 * Tops up a shared series' pool to its target when it is below the low-water mark (or `force`).
 * The request is written down (refill_intents) before it is sent and its id is the Idempotency-Key:
 * after a crash the same request is sent again and the server replays the numbers it reserved,
 * instead of reserving more and orphaning the first ones.
 */
export async function refillPool(deps: NumberingDeps, seriesId: string, force = false): Promise<number> {
  const row = getSeriesRow(deps.store.reader, seriesId);
  if (!row || row.numbering_mode !== 'shared') return 0;
  const available = deps.store.reader.get<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM reservations WHERE series_id = ${seriesId} AND status = 'pending'`,
  )?.n ?? 0;
  const pending = deps.store.reader.all<{ id: string; count: number }>(sql`SELECT id, count FROM refill_intents WHERE series_id = ${seriesId}`);
  let added = 0;
  for (const intent of pending) added += await sendRefill(deps, row, intent.id, intent.count);
  const have = available + added;
  if (!force && have > row.low_water) return added;
  let missing = row.pool_target - have;
  while (missing > 0) {
    const count = Math.min(100, missing);
    const id = deps.ctx.uuid();
    deps.store.write((db) => db.run(sql`INSERT INTO refill_intents (id, series_id, count, created_at) VALUES (${id}, ${seriesId}, ${count}, ${deps.clock.now()})`));
    added += await sendRefill(deps, row, id, count);
    missing -= count;
  }
  return added;
}

async function sendRefill(deps: NumberingDeps, row: SeriesRow, intentId: string, count: number): Promise<number> {
  const list = await reserveNumbers(
    deps.api,
    row.kind,
    row.id,
    { device_id: deps.device.id, count, ...(deps.reservationTtlSeconds ? { ttl_seconds: deps.reservationTtlSeconds } : {}) },
    intentId,
  );
  return deps.store.write((db) => {
    const n = applyReservations(db, list.data, deps.clock.now());
    db.run(sql`DELETE FROM refill_intents WHERE id = ${intentId}`);
    return n;
  });
}

/** Every shared series below its low-water mark is topped up; a refusal of one series does not stop the others. */
export async function refillAll(deps: NumberingDeps): Promise<{ added: number; errors: AppError[] }> {
  const shared = deps.store.reader.all<{ id: string }>(sql`SELECT id FROM series WHERE numbering_mode = 'shared'`);
  let added = 0;
  const errors: AppError[] = [];
  for (const s of shared) {
    try {
      added += await refillPool(deps, s.id);
    } catch (error) {
      // One series refused (locked by another device, deleted...) must not stop the others; no answer at all does.
      if (error instanceof AppError) errors.push(error);
      else if (error instanceof ApiHttpError && error.status < 500 && error.status !== 401 && error.status !== 429) {
        errors.push(new AppError(error.type, error.code, error.message));
      } else throw error;
    }
  }
  return { added, errors };
}
