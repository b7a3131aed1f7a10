import { mulDivRound } from './money';

/**
 * Weighted average cost (CMP) of one product in one warehouse. Quantities are thousandths of the
 * unit (as invoice lines' quantity_milli), unit costs thousandths of a ban per unit, values bani.
 * Every movement carries the value it moved, and the level's value is exactly their sum: the
 * invariant the service checks never depends on rounding.
 */
export interface StockPosition {
  quantityMilli: number;
  valueBani: number;
  unitCostMilli: number;
}

export interface StockStep {
  /** The position after the movement. */
  after: StockPosition;
  /** Signed value of the movement, bani. */
  valueBani: number;
  /** The unit cost the movement is booked at. */
  unitCostMilli: number;
}

/** Value of `quantityMilli` units at `unitCostMilli`: qty/1000 * cost/1000 bani, rounded half away from zero. */
export function valueOf(quantityMilli: number, unitCostMilli: number): number {
  return mulDivRound(quantityMilli, unitCostMilli, 1_000_000);
}

/** Goods in at a known cost (reception, storno of a sale, count surplus, transfer in). */
export function stockIn(p: StockPosition, quantityMilli: number, unitCostMilli: number): StockStep {
  const quantity = p.quantityMilli + quantityMilli;
  if (p.quantityMilli < 0) {
    // Filling a position sold below zero: the units sold without stock are re-costed at this entry's
    // cost, so the position ends at quantity × cost (zero when it lands on zero), and the entry's
    // movement carries the correction, keeping the position the sum of its movements.
    const after = valueOf(quantity, unitCostMilli);
    return { after: { quantityMilli: quantity, valueBani: after, unitCostMilli }, valueBani: after - p.valueBani, unitCostMilli };
  }
  const value = valueOf(quantityMilli, unitCostMilli);
  const total = p.valueBani + value;
  // Below or at zero there is no stock to average with: the latest cost is the best estimate.
  const average = quantity > 0 && p.quantityMilli > 0 ? mulDivRound(total, 1_000_000, quantity) : unitCostMilli;
  return { after: { quantityMilli: quantity, valueBani: total, unitCostMilli: average }, valueBani: value, unitCostMilli };
}

/** Goods out at the average cost (sale, count shortage, transfer out); `quantityMilli` is positive. */
export function stockOut(p: StockPosition, quantityMilli: number): StockStep {
  const quantity = p.quantityMilli - quantityMilli;
  // Emptying the shelf takes its whole value, so no rounding residue stays on an empty position.
  const value = quantity === 0 ? p.valueBani : valueOf(quantityMilli, p.unitCostMilli);
  return {
    after: { quantityMilli: quantity, valueBani: p.valueBani - value, unitCostMilli: p.unitCostMilli },
    valueBani: -value,
    unitCostMilli: p.unitCostMilli,
  };
}

/** The sale price (bani, without VAT) proposed from a unit cost and a markup in hundredths of a percent. */
export function proposedSalePrice(unitCostMilli: number, markupBp: number): number {
  return mulDivRound(unitCostMilli, 10_000 + markupBp, 10_000_000);
}
