import type { CartStock } from '../../shared/ipc/contract-stock';
import type { CartLine } from './cart';

/** Why a cart line is flagged: what the counter believes is on the shelf, and the firm's rule. */
export interface LineStockWarning {
  /** On hand (units) as cached, this device's unsynced sales taken off. */
  in_stock: number;
  unit: string;
  rule: 'allow' | 'block';
}

/**
 * Lines that take more of a product than the cached level holds, every line of that product
 * counted together (the same product scanned on two lines empties the shelf twice). A return line
 * gives goods back and is not counted; a service or a product whose stock is unknown is never
 * flagged. The rule not known yet reads as the service's default, `allow`.
 */
export function cartStockWarnings(lines: readonly CartLine[], stock: CartStock | undefined): (LineStockWarning | null)[] {
  if (!stock) return lines.map(() => null);
  const level = new Map(stock.levels.map((l) => [l.product_id, l.quantity]));
  const wanted = new Map<string, number>();
  for (const l of lines) if (l.product_id && !l.return_of) wanted.set(l.product_id, (wanted.get(l.product_id) ?? 0) + l.quantity_milli);
  return lines.map((l) => {
    if (!l.product_id || l.return_of) return null;
    const on = level.get(l.product_id);
    if (on === undefined || on === null) return null;
    const onMilli = Math.round(on * 1000);
    return (wanted.get(l.product_id) ?? 0) > onMilli ? { in_stock: on, unit: l.unit, rule: stock.negative_stock ?? 'allow' } : null;
  });
}
