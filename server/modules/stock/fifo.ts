import type { Db } from '../../db/types';
import { newId } from '../../platform/ids';
import { mulDivRound } from '../../../shared/money';
import { valueOf, type StockPosition, type StockStep } from '../../../shared/stock-math';
import type { StockLotsTable, StockLotUsesTable } from './tables';

/**
 * FIFO valuation, the firm-wide option chosen once (issue 15). Every entry of goods is a lot with its
 * unit cost; an exit takes the oldest lots first (by the date the goods entered, then the order they
 * were booked) and its movement's value is exactly the sum of what it took from each lot. A lot keeps
 * the value of what is left, so partial takes are proportional to it and the last take empties it
 * whole: the lots of a level always sum to the level, and the level to its movements, in integer bani.
 *
 * All of a level's lots change only while its `stock_levels` row is locked (applyMoves locks it
 * first), so two sales of the same product never take the same units.
 */

/** What the movement asks of FIFO beyond quantity and cost. */
export interface FifoMove {
  movementId: string;
  warehouseId: string;
  productId: string;
  quantityMilli: number;
  unitCostMilli?: number;
  /** A storno: put back what this document took, at the value it took it at. */
  restoreOf?: string;
  /** A transfer in: the lots this (earlier, same transaction) out movement took, carried over with their costs. */
  lotsOf?: string;
}

interface LevelLots {
  warehouseId: string;
  productId: string;
  /** Open lots in FIFO order (loaded on first need). */
  open: StockLotsTable[] | null;
  seq: number;
}

export class FifoBook {
  private readonly levels = new Map<string, LevelLots>();
  private readonly lots = new Map<string, StockLotsTable>();
  private readonly made: StockLotsTable[] = [];
  private readonly changed = new Set<string>();
  private readonly uses: StockLotUsesTable[] = [];
  private readonly returned = new Map<string, StockLotUsesTable>();

  constructor(private readonly trx: Db, private readonly companyId: string, private readonly date: string, private readonly now: number) {}

  /** The level's lot counter as locked; called once per level before its first move. */
  enter(key: string, warehouseId: string, productId: string, lotSeq: number): void {
    if (!this.levels.has(key)) this.levels.set(key, { warehouseId, productId, open: null, seq: lotSeq });
  }

  seqOf(key: string): number {
    return this.levels.get(key)!.seq;
  }

  private async openLots(level: LevelLots): Promise<StockLotsTable[]> {
    if (!level.open) {
      const rows = await this.trx.selectFrom('stock_lots').selectAll()
        .where('warehouse_id', '=', level.warehouseId).where('product_id', '=', level.productId).where('remaining_milli', '<>', 0)
        .orderBy('received_date').orderBy('seq').orderBy('id').execute();
      level.open = rows.map((r) => this.remember(r));
    }
    return level.open;
  }

  private remember(row: StockLotsTable): StockLotsTable {
    const known = this.lots.get(row.id);
    if (known) return known;
    const lot = {
      ...row, seq: Number(row.seq), unit_cost_milli: Number(row.unit_cost_milli), quantity_milli: Number(row.quantity_milli),
      remaining_milli: Number(row.remaining_milli), remaining_value_bani: Number(row.remaining_value_bani),
    };
    this.lots.set(lot.id, lot);
    return lot;
  }

  private sort(open: StockLotsTable[]): void {
    open.sort((a, b) => (a.received_date < b.received_date ? -1 : a.received_date > b.received_date ? 1 : a.seq - b.seq || (a.id < b.id ? -1 : 1)));
  }

  private newLot(level: LevelLots, movementId: string, receivedDate: string, unitCostMilli: number, quantityMilli: number, valueBani: number): StockLotsTable {
    level.seq += 1;
    const lot: StockLotsTable = {
      id: newId('lot'), company_id: this.companyId, warehouse_id: level.warehouseId, product_id: level.productId, received_date: receivedDate,
      seq: level.seq, unit_cost_milli: unitCostMilli, quantity_milli: quantityMilli, remaining_milli: quantityMilli, remaining_value_bani: valueBani,
      movement_id: movementId, created_at: this.now,
    };
    this.lots.set(lot.id, lot);
    this.made.push(lot);
    return lot;
  }

  private use(movementId: string, lot: StockLotsTable, position: number, quantityMilli: number, valueBani: number): void {
    this.uses.push({
      id: newId('lus'), company_id: this.companyId, movement_id: movementId, lot_id: lot.id, position, quantity_milli: quantityMilli,
      value_bani: valueBani, returned_milli: 0, returned_value_bani: 0,
    });
  }

  private touch(lot: StockLotsTable): void {
    if (!this.made.includes(lot)) this.changed.add(lot.id);
  }

  /** One movement on one level, given the level's position before it; returns the position after and the movement's value. */
  async move(key: string, m: FifoMove, p: StockPosition): Promise<StockStep> {
    const level = this.levels.get(key)!;
    const value = m.quantityMilli < 0
      ? -(await this.takeOut(level, m.movementId, -m.quantityMilli, p))
      : m.restoreOf
        ? await this.restore(level, m, p)
        : m.lotsOf
          ? await this.carryIn(level, m, p)
          : await this.putIn(level, m.movementId, m.quantityMilli, m.unitCostMilli ?? p.unitCostMilli, this.date);
    const quantity = p.quantityMilli + m.quantityMilli;
    const total = p.valueBani + value;
    const moved = Math.abs(m.quantityMilli);
    const movementCost = m.quantityMilli > 0 && m.unitCostMilli !== undefined && !m.restoreOf && !m.lotsOf
      ? m.unitCostMilli
      : mulDivRound(Math.abs(value), 1_000_000, moved);
    // The level shows the average of what is on the shelf; empty or below zero, the latest cost known.
    const unitCostMilli = quantity > 0 ? mulDivRound(total, 1_000_000, quantity) : m.quantityMilli > 0 ? movementCost : p.unitCostMilli;
    return { after: { quantityMilli: quantity, valueBani: total, unitCostMilli }, valueBani: value, unitCostMilli: movementCost };
  }

  /** Takes `quantityMilli` (positive) oldest lot first; what no lot covers goes on the below-zero lot at the latest cost. Returns the value taken. */
  private async takeOut(level: LevelLots, movementId: string, quantityMilli: number, p: StockPosition): Promise<number> {
    const open = await this.openLots(level);
    let left = quantityMilli;
    let value = 0;
    let position = 0;
    for (const lot of open) {
      if (left === 0) break;
      if (lot.remaining_milli <= 0) continue;
      const take = Math.min(lot.remaining_milli, left);
      const v = take === lot.remaining_milli ? lot.remaining_value_bani : mulDivRound(lot.remaining_value_bani, take, lot.remaining_milli);
      lot.remaining_milli -= take;
      lot.remaining_value_bani -= v;
      this.touch(lot);
      this.use(movementId, lot, position++, take, v);
      value += v;
      left -= take;
    }
    if (left > 0) {
      // Sold without stock (allowed by the firm): recorded on one lot below zero, valued at the latest
      // cost, which the next entry re-costs at its own cost (as CMP does).
      let short = open.find((l) => l.remaining_milli < 0);
      if (!short) {
        short = this.newLot(level, movementId, this.date, p.unitCostMilli, 0, 0);
        open.push(short);
      }
      const v = valueOf(left, short.unit_cost_milli);
      short.remaining_milli -= left;
      short.remaining_value_bani -= v;
      this.touch(short);
      this.use(movementId, short, position, left, v);
      value += v;
    }
    this.prune(open);
    return value;
  }

  /** Goods in at a cost: first they fill a position sold below zero (re-costed at this cost), the rest is a new lot. Returns the value added. */
  private async putIn(level: LevelLots, movementId: string, quantityMilli: number, unitCostMilli: number, receivedDate: string, exactValue?: number): Promise<number> {
    let left = quantityMilli;
    let value = 0;
    const open = level.open ?? (await this.hasShortage(level) ? await this.openLots(level) : null);
    const short = open?.find((l) => l.remaining_milli < 0);
    if (short) {
      const fill = Math.min(left, -short.remaining_milli);
      const before = short.remaining_value_bani;
      short.remaining_milli += fill;
      short.unit_cost_milli = unitCostMilli;
      short.remaining_value_bani = valueOf(short.remaining_milli, unitCostMilli);
      this.touch(short);
      value += short.remaining_value_bani - before;
      left -= fill;
    }
    if (left > 0) {
      const v = exactValue !== undefined && left === quantityMilli ? exactValue : valueOf(left, unitCostMilli);
      const lot = this.newLot(level, movementId, receivedDate, unitCostMilli, left, v);
      if (open) {
        open.push(lot);
        this.sort(open);
      }
      value += v;
    }
    if (open) this.prune(open);
    return value;
  }

  /** Whether the level has a lot below zero (asked only when the open lots are not loaded yet). */
  private async hasShortage(level: LevelLots): Promise<boolean> {
    const row = await this.trx.selectFrom('stock_lots').select('id')
      .where('warehouse_id', '=', level.warehouseId).where('product_id', '=', level.productId).where('remaining_milli', '<', 0).executeTakeFirst();
    return row !== undefined;
  }

  /** A transfer in: one lot per lot the out movement took, with its entry date, cost and exact value. */
  private async carryIn(level: LevelLots, m: FifoMove, p: StockPosition): Promise<number> {
    const taken = await this.trx.selectFrom('stock_lot_uses as u').innerJoin('stock_lots as l', 'l.id', 'u.lot_id')
      .select(['u.quantity_milli', 'u.value_bani', 'l.received_date'])
      .where('u.movement_id', '=', m.lotsOf!).orderBy('u.position').execute();
    let left = m.quantityMilli;
    let value = 0;
    for (const t of taken) {
      const q = Math.min(left, Number(t.quantity_milli));
      if (q <= 0) break;
      const exact = q === Number(t.quantity_milli) ? Number(t.value_bani) : undefined;
      // The cost the units actually left at (a lot below zero may have been re-costed since).
      const cost = mulDivRound(Number(t.value_bani), 1_000_000, Number(t.quantity_milli));
      value += await this.putIn(level, m.movementId, q, cost, t.received_date, exact);
      left -= q;
    }
    if (left > 0) value += await this.putIn(level, m.movementId, left, m.unitCostMilli ?? p.unitCostMilli, this.date);
    return value;
  }

  /** A storno: what the original document took from this level's lots goes back into those very lots, at the value it left at. */
  private async restore(level: LevelLots, m: FifoMove, p: StockPosition): Promise<number> {
    const taken = await this.trx.selectFrom('stock_lot_uses as u').innerJoin('stock_movements as mv', 'mv.id', 'u.movement_id')
      .selectAll('u')
      .where('mv.document_id', '=', m.restoreOf!).where('mv.company_id', '=', this.companyId)
      .where('mv.warehouse_id', '=', level.warehouseId).where('mv.product_id', '=', level.productId)
      .orderBy('mv.created_at', 'desc').orderBy('u.movement_id', 'desc').orderBy('u.position', 'desc').execute();
    const open = await this.openLots(level);
    let left = m.quantityMilli;
    let value = 0;
    for (const row of taken) {
      if (left === 0) break;
      const use = this.returned.get(row.id) ?? {
        ...row, quantity_milli: Number(row.quantity_milli), value_bani: Number(row.value_bani), returned_milli: Number(row.returned_milli),
        returned_value_bani: Number(row.returned_value_bani),
      };
      const rest = use.quantity_milli - use.returned_milli;
      if (rest <= 0) continue;
      this.returned.set(use.id, use);
      const q = Math.min(rest, left);
      const restValue = use.value_bani - use.returned_value_bani;
      const v = q === rest ? restValue : mulDivRound(restValue, q, rest);
      use.returned_milli += q;
      use.returned_value_bani += v;
      let lot = this.lots.get(use.lot_id);
      if (!lot) {
        lot = this.remember(await this.trx.selectFrom('stock_lots').selectAll().where('id', '=', use.lot_id).executeTakeFirstOrThrow());
      }
      lot.remaining_milli += q;
      lot.remaining_value_bani += v;
      this.touch(lot);
      if (!open.includes(lot)) {
        open.push(lot);
        this.sort(open);
      }
      value += v;
      left -= q;
    }
    this.prune(open);
    // More back than the document took (not reachable through a storno): a new lot at the latest cost.
    if (left > 0) value += await this.putIn(level, m.movementId, left, m.unitCostMilli ?? p.unitCostMilli, this.date);
    return value;
  }

  private prune(open: StockLotsTable[]): void {
    for (let i = open.length - 1; i >= 0; i--) if (open[i]!.remaining_milli === 0) open.splice(i, 1);
  }

  /** Writes the lots made and changed, the takes, and what stornos put back; after the movements are written. */
  async flush(): Promise<void> {
    if (this.made.length) await this.trx.insertInto('stock_lots').values(this.made).execute();
    for (const id of this.changed) {
      const lot = this.lots.get(id)!;
      await this.trx.updateTable('stock_lots')
        .set({ remaining_milli: lot.remaining_milli, remaining_value_bani: lot.remaining_value_bani, unit_cost_milli: lot.unit_cost_milli })
        .where('id', '=', id).execute();
    }
    if (this.uses.length) await this.trx.insertInto('stock_lot_uses').values(this.uses).execute();
    for (const use of this.returned.values()) {
      await this.trx.updateTable('stock_lot_uses').set({ returned_milli: use.returned_milli, returned_value_bani: use.returned_value_bani }).where('id', '=', use.id).execute();
    }
  }
}
