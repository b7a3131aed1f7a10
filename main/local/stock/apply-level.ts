import type { z } from 'zod';
import type { zPulledStockLevel } from '../../api/endpoints';
import { sql } from '../../db/sql';
import type { WriteDb } from '../../db/store';
import { toMilli } from '../../../shared/invoice-math';
import { toBani } from '../../../shared/money';

type PulledLevel = z.output<typeof zPulledStockLevel>;

export function applyStockLevel(db: WriteDb, level: PulledLevel): void {
  // An older copy (the walk's overlap, a page read twice) never replaces a newer one.
  db.run(sql`INSERT INTO stock_levels (warehouse_id, product_id, product_name, product_code, unit, quantity_milli, unit_cost, value_bani, server_updated_at)
             VALUES (${level.warehouse_id}, ${level.product_id}, ${level.product_name}, ${level.product_code}, ${level.unit}, ${toMilli(level.quantity)}, ${level.unit_cost}, ${toBani(level.value)}, ${level.updated_at})
             ON CONFLICT (warehouse_id, product_id) DO UPDATE SET product_name = excluded.product_name, product_code = excluded.product_code,
             unit = excluded.unit, quantity_milli = excluded.quantity_milli, unit_cost = excluded.unit_cost,
             value_bani = excluded.value_bani, server_updated_at = excluded.server_updated_at
             WHERE excluded.server_updated_at >= stock_levels.server_updated_at`);
}
