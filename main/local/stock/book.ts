import { createHash } from 'node:crypto';
import { inList, sql } from '../../db/sql';
import type { ReadDb } from '../../db/store';
import type { ProductRow } from '../../db/rows';
import { unsyncedSales } from './levels';

/**
 * Book levels of one warehouse for the inventory count and the transfer screens, from the cache.
 * This device's sales the service has not counted yet come off the warehouse sales take from (the
 * default one, or the only one), as on the "Stoc" screen: the count then compares the shelf with
 * what the counter believes is there.
 */
export function bookLevels(db: ReadDb, warehouseId: string, products: readonly ProductRow[]): Map<string, number | null> {
  const out = new Map<string, number | null>();
  const goods = products.filter((p) => p.is_service !== 1 && p.server_id);
  for (const p of products) out.set(p.id, null);
  if (!goods.length) return out;
  const serverIds = goods.map((p) => p.server_id!);
  const rows = db.all<{ product_id: string; q: number }>(
    sql`SELECT product_id, quantity_milli AS q FROM stock_levels WHERE warehouse_id = ${warehouseId} AND product_id IN ${inList(serverIds)}`,
  );
  const level = new Map(rows.map((r) => [r.product_id, r.q]));
  const warehouse = db.get<{ is_default: number; n: number }>(
    sql`SELECT COALESCE((SELECT is_default FROM stock_warehouses WHERE id = ${warehouseId}), 0) AS is_default, (SELECT COUNT(*) FROM stock_warehouses) AS n`,
  );
  const takesSales = !!warehouse && (warehouse.is_default === 1 || warehouse.n <= 1);
  const sold = takesSales ? unsyncedSales(db, goods.map((p) => p.id)) : new Map<string, number>();
  for (const p of goods) {
    const on = level.get(p.server_id!);
    if (on === undefined) continue;
    out.set(p.id, on - (sold.get(p.id) ?? 0));
  }
  return out;
}

/** A product by the exact code or barcode a scanner typed (never a name match: a count must not guess). */
export function productByCode(db: ReadDb, code: string): ProductRow | undefined {
  return db.get<ProductRow>(sql`SELECT * FROM products WHERE is_deleted = 0 AND (barcode = ${code} OR code = ${code}) ORDER BY (barcode = ${code}) DESC, name LIMIT 1`);
}

/**
 * The Idempotency-Key of one form's request: its request id and what it asks. A resend of the same
 * request after a lost reply replays the first answer; the form corrected after a refusal is a new
 * request (the same key with another body would be refused by the service as a key reused).
 */
export function requestKey(requestId: string, body: unknown): string {
  return `${requestId}-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 24)}`;
}
