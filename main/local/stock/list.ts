import type { StockLevelRow } from '../../../shared/ipc/contract-stock';
import { fromMilli } from '../../../shared/invoice-math';
import { foldForSearch } from '../../../shared/text/search-fold';
import { sql } from '../../db/sql';
import type { LocalContext } from '../context';
import { likePattern } from '../records';
import { unsyncedSales } from './levels';

interface LevelJoin {
  warehouse_id: string;
  product_name: string;
  product_code: string | null;
  unit: string;
  quantity_milli: number;
  unit_cost: number;
  value_bani: number;
  local_id: string | null;
  warehouse_name: string | null;
  is_default: number | null;
  warehouses: number;
}

/**
 * The "Stoc" screen's rows: one per product and warehouse of the cache, by name. This device's sales
 * the service has not counted yet come off the row of the warehouse sales take from (the default one;
 * the only one when the cache does not know which), as the counter shows them.
 */
export function listStockLevels(ctx: LocalContext, input: { search?: string | undefined; limit: number; offset: number }): { items: StockLevelRow[]; total: number } {
  return ctx.store.snapshot((db) => {
    const term = foldForSearch(input.search?.trim() ?? '');
    const where = term ? sql`tejghea_fold(l.product_name || ' ' || COALESCE(l.product_code, '')) LIKE ${likePattern(term)} ESCAPE '\\'` : sql`1 = 1`;
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM stock_levels l WHERE ${where}`)?.n ?? 0;
    const rows = db.all<LevelJoin>(sql`SELECT l.warehouse_id, l.product_name, l.product_code, l.unit, l.quantity_milli, l.unit_cost, l.value_bani,
        p.id AS local_id, w.name AS warehouse_name, w.is_default,
        (SELECT COUNT(DISTINCT warehouse_id) FROM stock_levels o WHERE o.product_id = l.product_id) AS warehouses
      FROM stock_levels l
      LEFT JOIN products p ON p.server_id = l.product_id AND p.is_deleted = 0
      LEFT JOIN stock_warehouses w ON w.id = l.warehouse_id
      WHERE ${where}
      ORDER BY l.product_name COLLATE NOCASE, w.name, l.warehouse_id
      LIMIT ${input.limit} OFFSET ${input.offset}`);
    const sold = unsyncedSales(db, rows.flatMap((r) => (r.local_id ? [r.local_id] : [])));
    return {
      total,
      items: rows.map((r) => {
        const takesSales = r.is_default === 1 || r.warehouses === 1;
        const unsynced = takesSales && r.local_id ? (sold.get(r.local_id) ?? 0) : 0;
        return {
          product_id: r.local_id, product_name: r.product_name, product_code: r.product_code, unit: r.unit, warehouse_id: r.warehouse_id,
          warehouse_name: r.warehouse_name ?? r.warehouse_id, quantity: fromMilli(r.quantity_milli - unsynced), unsynced: fromMilli(unsynced),
          unit_cost: r.unit_cost, value_bani: r.value_bani,
        };
      }),
    };
  });
}
