import { z } from 'zod';
import { deleteSetting, getSetting, selectedWorkPointId, setSetting } from '../db/queries/settings';
import { inList, sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { WORK_POINT_ENTITY_TYPES } from '../sync/outbox';
import { WORK_POINT_DELETION_KEYS, WORK_POINT_RESOURCES } from '../sync/pull';

/**
 * The work point (branch) the device works at, and what changing it does to the local cache.
 *
 * On the service, invoices, series (and their numbers), receipts, payments, expenses and supplier
 * bills belong to a work point; clients, products, suppliers, VAT rates and the company profile are
 * the company's. The cache holds ONE work point's documents (every list and the dashboard would
 * otherwise mix two shops' takings), so a change:
 * 1. is refused while a document of the current work point waits in the outbox (it must land where
 *    it was made, and its local row is about to go);
 * 2. gives back what the device holds there (done by the engine, online): a series lock, and the
 *    unused reserved numbers, released as documented gaps (the release items remember their work point);
 * 3. in one transaction: records the choice, forgets that work point's documents, series and pull
 *    cursors (and the default series, which was one of them), keeping the company-wide data;
 * 4. pulls the new work point's data at once (a full pass).
 * Going back later pulls the old one's documents again: nothing is lost, the service has them.
 */

export const zWorkPointEntry = z.object({ id: z.string(), name: z.string(), address: z.string().nullable() });
export type WorkPointEntry = z.infer<typeof zWorkPointEntry>;

export function cachedWorkPoints(db: ReadDb): WorkPointEntry[] | null {
  return getSetting(db, 'work_points', z.array(zWorkPointEntry)) ?? null;
}

export function rememberWorkPoints(db: WriteDb, items: readonly WorkPointEntry[]): void {
  setSetting(db, 'work_points', items);
}

/** Documents of the current work point not yet on the server (they block a change). */
export function unsyncedWorkPointItems(db: ReadDb): number {
  return db.get<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM outbox WHERE state <> 'done' AND entity_type IN ${inList(WORK_POINT_ENTITY_TYPES)}`,
  )?.n ?? 0;
}

/** Forgets the current work point's data (step 3 above); the caller's transaction also records the choice. */
export function forgetWorkPointData(db: WriteDb): void {
  db.run(sql`DELETE FROM refill_intents`);
  db.run(sql`DELETE FROM reservations`);
  db.run(sql`DELETE FROM invoice_lines`);
  db.run(sql`DELETE FROM invoices`);
  db.run(sql`DELETE FROM receipts`);
  db.run(sql`DELETE FROM payments`);
  db.run(sql`DELETE FROM series`);
  db.run(sql`DELETE FROM expenses`);
  db.run(sql`DELETE FROM supplier_bills`);
  db.run(sql`DELETE FROM stock_levels`);
  db.run(sql`DELETE FROM stock_warehouses`);
  db.run(sql`DELETE FROM refresh_queue WHERE entity_type IN ('invoice', 'receipt')`);
  db.run(sql`DELETE FROM sync_state WHERE resource IN ${inList(WORK_POINT_RESOURCES)}`);
  db.run(sql`DELETE FROM sync_state WHERE resource IN ${inList(WORK_POINT_DELETION_KEYS)}`);
  setSetting(db, 'default_series_id', null);
}

/** Records the choice (null: the key's own work point) and forgets the previous one's data. */
export function selectWorkPoint(db: WriteDb, target: WorkPointEntry | null, targetId: string | null): void {
  forgetWorkPointData(db);
  setSetting(db, 'work_point_id', targetId);
  if (target) setSetting(db, 'work_point', { id: target.id, name: target.name });
  else deleteSetting(db, 'work_point');
}

export { selectedWorkPointId };
