import { listWarehouses } from '../../api/endpoints';
import { ApiHttpError } from '../../api/errors';
import { inList, sql } from '../../db/sql';
import type { ReadDb, WriteDb } from '../../db/store';
import { pullResource, readCursor, type PullDeps, type PullResult } from '../../sync/pull';

/**
 * The stock the counter sees (issue 15). The service is the authority: `stock_levels` holds its
 * levels of this work point's warehouses as last pulled. What this device sold that the service
 * has not counted yet is the lines of the documents in `stock_pending` (kept by triggers, migration
 * 0013); the figure shown is the level minus those lines, so an offline sale lowers it at once.
 *
 * Reconciliation: a document leaves `stock_pending` when it is on the service (server id, no change
 * of it waiting in the outbox) before a stock walk starts and that walk reaches its end. The walk
 * reads every level changed since the last one, the sale's included, so from then on the level
 * holds the sale and subtracting it again would count it twice; before then, forgetting it would
 * show stock that is gone.
 */

/** Documents whose sales the service has surely counted: on the service, nothing of theirs waiting to be sent. */
export function settledDocuments(db: ReadDb): string[] {
  return db.all<{ invoice_id: string }>(sql`SELECT sp.invoice_id FROM stock_pending sp JOIN invoices i ON i.id = sp.invoice_id
    WHERE i.server_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.entity_type = 'invoice' AND o.entity_id = i.id AND o.state <> 'done')`).map((r) => r.invoice_id);
}

export function forgetSettled(db: WriteDb, invoiceIds: readonly string[]): void {
  if (invoiceIds.length) db.run(sql`DELETE FROM stock_pending WHERE invoice_id IN ${inList(invoiceIds)}`);
}

/**
 * One pass's stock pull: the warehouses' names (one request), then the levels' walk; the documents
 * settled before a walk that starts and finishes here leave `stock_pending`.
 */
export async function pullStock(deps: PullDeps, maxPages: number): Promise<PullResult> {
  try {
    const warehouses = await listWarehouses(deps.api);
    deps.store.write((db) => {
      db.run(sql`DELETE FROM stock_warehouses`);
      for (const w of warehouses.data) db.run(sql`INSERT INTO stock_warehouses (id, name, is_default) VALUES (${w.id}, ${w.name}, ${w.is_default})`);
    });
  } catch (error) {
    // A key without stock:read, or a service without stock: nothing to cache (the levels' walk parks itself).
    if (!(error instanceof ApiHttpError && (error.status === 403 || error.status === 404))) throw error;
  }
  const fromStart = readCursor(deps.store, 'stock_levels').page === 1;
  const settled = fromStart ? settledDocuments(deps.store.reader) : [];
  const result = await pullResource(deps, 'stock_levels', maxPages);
  if (fromStart && !result.more && settled.length) deps.store.write((db) => forgetSettled(db, settled));
  return result;
}

/** Thousandths sold (storno: given back) by this device's documents the service has not counted yet, per local product id. */
export function unsyncedSales(db: ReadDb, productIds: readonly string[]): Map<string, number> {
  if (!productIds.length) return new Map();
  const rows = db.all<{ product_id: string; q: number }>(
    sql`SELECT il.product_id, SUM(il.quantity_milli) AS q FROM stock_pending sp JOIN invoice_lines il ON il.invoice_id = sp.invoice_id
        WHERE il.product_id IN ${inList(productIds)} GROUP BY il.product_id`,
  );
  return new Map(rows.map((r) => [r.product_id, r.q]));
}

/**
 * Quantity on hand (thousandths) per local product id, in this work point's warehouses, minus what
 * this device sold and the service has not counted yet. null: a service, or nothing known (never
 * moved and never sold here).
 */
export function stockOf(db: ReadDb, products: ReadonlyArray<{ id: string; server_id: string | null; is_service: number }>): Map<string, number | null> {
  const out = new Map<string, number | null>();
  const goods = products.filter((p) => p.is_service !== 1);
  for (const p of products) out.set(p.id, null);
  if (!goods.length) return out;
  const levels = db.all<{ product_id: string; q: number }>(
    sql`SELECT product_id, SUM(quantity_milli) AS q FROM stock_levels WHERE product_id IN ${inList(goods.map((p) => p.server_id ?? p.id))} GROUP BY product_id`,
  );
  const level = new Map(levels.map((l) => [l.product_id, l.q]));
  const sold = unsyncedSales(db, goods.map((p) => p.id));
  for (const p of goods) {
    const on = level.get(p.server_id ?? p.id);
    const out_ = sold.get(p.id);
    if (on === undefined && out_ === undefined) continue;
    out.set(p.id, (on ?? 0) - (out_ ?? 0));
  }
  return out;
}
