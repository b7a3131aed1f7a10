import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, Db } from '../../db/types';
import { newId } from '../../platform/ids';
import { ApiError } from '../../platform/errors';
import type { ApiWarning } from '../../platform/warnings';
import { messageFor } from '../../platform/messages';
import { stockIn, stockOut, type StockPosition } from '../../../shared/stock-math';
import { fromMilli } from '../../../shared/invoice-math';
import type { StockDocumentType, StockLevelsTable, StockMovementsTable, StockSettingsTable } from './tables';
import { FifoBook } from './fifo';
import './messages';

/** One movement asked for: in with a cost, or out at the average cost. */
export interface MoveRequest {
  warehouseId: string;
  productId: string;
  /** Signed thousandths: in positive, out negative. */
  quantityMilli: number;
  /** Ins only; absent on an in means "at the current average" (a count surplus of a known product). */
  unitCostMilli?: number;
  /** Ins of a storno under FIFO: put back into the lots this document took from (CMP uses unitCostMilli). */
  restoreOf?: string;
  /** Transfer ins under FIFO: carry the lots this out movement (written earlier in the transaction) took. */
  lotsOf?: string;
}

export interface MoveContext {
  companyId: string;
  documentType: StockDocumentType;
  documentId: string;
  date: string;
  now: number;
  /** Whether an out may take the level below zero; absent: the firm's setting decides. */
  negative?: 'allow' | 'block';
  /** The request's warnings (`ctx.warnings`): an out taken below zero where that is allowed adds one. */
  warnings: ApiWarning[];
}

const DEFAULT_SETTINGS = { valuation: 'cmp', negative_stock: 'allow', markup_bp: 3000, nir_prefix: 'NIR' } as const;

/**
 * PostgreSQL numbers placeholders `$1`, SQLite writes `?`: the hook inside insertInvoice gets a
 * transaction only, and learns its dialect without running anything.
 */
export function isPostgres(db: Kysely<Database>): boolean {
  return sql`select ${1}`.compile(db).sql.includes('$1');
}

export async function stockSettings(db: Db, companyId: string): Promise<Pick<StockSettingsTable, 'valuation' | 'negative_stock' | 'markup_bp' | 'nir_prefix'>> {
  const row = await db.selectFrom('stock_settings').select(['valuation', 'negative_stock', 'markup_bp', 'nir_prefix']).where('company_id', '=', companyId).executeTakeFirst();
  return row ? { ...row, markup_bp: Number(row.markup_bp) } : { ...DEFAULT_SETTINGS };
}

/**
 * The settings row, made when missing and locked on PostgreSQL (the NIR counter lives in it). For a
 * change of `valuation` the whole `stock_levels` table is also locked (EXCLUSIVE, PostgreSQL; SQLite
 * runs one writer at a time): that waits for every transaction that has locked or written a level and
 * holds new ones until commit, and since applyMoves reads the method in the very statement that locks
 * the first level (after its table lock is granted, so with a snapshot taken after this commit), no
 * movement can be booked under the method being replaced. Once per firm in its life; sales pay nothing.
 */
export async function lockSettings(trx: Db, companyId: string, now: number, purpose: 'counter' | 'valuation' = 'counter'): Promise<StockSettingsTable> {
  await trx.insertInto('stock_settings')
    .values({ company_id: companyId, ...DEFAULT_SETTINGS, nir_next_number: 1, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('company_id').doNothing()).execute();
  const pg = isPostgres(trx);
  let q = trx.selectFrom('stock_settings').selectAll().where('company_id', '=', companyId);
  if (pg) q = q.forUpdate();
  const row = await q.executeTakeFirstOrThrow();
  if (pg && purpose === 'valuation') await sql`lock table stock_levels in exclusive mode`.execute(trx);
  return row;
}

/** The default warehouse of a work point, made on first use (a unique column keeps it single under races). */
export async function defaultWarehouse(db: Db, companyId: string, workPointId: string, now: number): Promise<string> {
  const found = await db.selectFrom('warehouses').select('id').where('default_of', '=', workPointId).where('company_id', '=', companyId).executeTakeFirst();
  if (found) return found.id;
  await db.insertInto('warehouses').values({
    id: newId('whs'), company_id: companyId, work_point_id: workPointId, name: 'Gestiunea principală', is_default: 1,
    default_of: workPointId, created_at: now, updated_at: now,
  }).onConflict((oc) => oc.column('default_of').doNothing()).execute();
  const made = await db.selectFrom('warehouses').select('id').where('default_of', '=', workPointId).where('company_id', '=', companyId).executeTakeFirstOrThrow();
  return made.id;
}

type LockedLevel = Selectable<StockLevelsTable> & { valuation: 'cmp' | 'fifo' | null };

async function lockLevel(trx: Db, pg: boolean, companyId: string, warehouseId: string, productId: string, now: number): Promise<LockedLevel> {
  const select = () => {
    const q = trx.selectFrom('stock_levels').selectAll('stock_levels')
      // The firm's valuation rides on the lock: no round trip of its own (see lockSettings for why it cannot be stale).
      .select((eb) => eb.selectFrom('stock_settings').select('valuation').whereRef('stock_settings.company_id', '=', 'stock_levels.company_id').as('valuation'))
      .where('warehouse_id', '=', warehouseId).where('product_id', '=', productId);
    // The row lock is what keeps 40 parallel sales of one product from losing a decrement.
    return (pg ? q.forUpdate() : q).executeTakeFirst();
  };
  // Nearly always the row exists: one round trip. Otherwise it is made (a racing maker wins harmlessly) and locked.
  const found = await select();
  if (found) return found;
  await trx.insertInto('stock_levels')
    .values({ warehouse_id: warehouseId, product_id: productId, company_id: companyId, quantity_milli: 0, value_bani: 0, unit_cost_milli: 0, updated_at: now })
    .onConflict((oc) => oc.columns(['warehouse_id', 'product_id']).doNothing()).execute();
  const made = await select();
  if (!made) throw new Error('stock level row vanished after its insert');
  return made;
}

/**
 * Books movements of one document, in the caller's transaction: each level row is locked (in a
 * fixed order, so two documents never deadlock), moved, and its movement written beside it. An out
 * below zero throws 409 `stock_insufficient` when blocked, else adds a `negative_stock` warning.
 */
export async function applyMoves(trx: Db, ctx: MoveContext, moves: MoveRequest[], locale: 'ro' | 'en' = 'ro'): Promise<StockMovementsTable[]> {
  if (!moves.length) return [];
  const pg = isPostgres(trx);
  // Read only when an out goes below zero: the common sale skips a query.
  let negative = ctx.negative;
  const order = [...moves.keys()].sort((a, b) => {
    const x = moves[a]!;
    const y = moves[b]!;
    return x.warehouseId === y.warehouseId ? (x.productId < y.productId ? -1 : x.productId > y.productId ? 1 : a - b) : x.warehouseId < y.warehouseId ? -1 : 1;
  });
  // FIFO or CMP: known from the first level locked (a firm without settings values at CMP).
  let fifo: FifoBook | null | undefined;
  const positions = new Map<string, StockPosition>();
  const written: StockMovementsTable[] = [];
  for (const index of order) {
    const m = moves[index]!;
    if (m.quantityMilli === 0) continue;
    const key = `${m.warehouseId}\u0000${m.productId}`;
    let p = positions.get(key);
    if (!p) {
      const level = await lockLevel(trx, pg, ctx.companyId, m.warehouseId, m.productId, ctx.now);
      p = { quantityMilli: Number(level.quantity_milli), valueBani: Number(level.value_bani), unitCostMilli: Number(level.unit_cost_milli) };
      fifo ??= level.valuation === 'fifo' ? new FifoBook(trx, ctx.companyId, ctx.date, ctx.now) : null;
      fifo?.enter(key, m.warehouseId, m.productId, Number(level.lot_seq));
    }
    const movementId = newId('stm');
    const step = fifo
      ? await fifo.move(key, { ...m, movementId }, p)
      : m.quantityMilli > 0 ? stockIn(p, m.quantityMilli, m.unitCostMilli ?? p.unitCostMilli) : stockOut(p, -m.quantityMilli);
    if (m.quantityMilli < 0 && step.after.quantityMilli < 0) {
      const product = await trx.selectFrom('products').select(['name', 'unit']).where('id', '=', m.productId).executeTakeFirst();
      const vars = { product: product?.name ?? m.productId, in_stock: fromMilli(p.quantityMilli), unit: product?.unit ?? '', wanted: fromMilli(-m.quantityMilli) };
      negative ??= (await stockSettings(trx, ctx.companyId)).negative_stock;
      if (negative === 'block') {
        throw new ApiError(409, 'invalid_request_error', 'stock_insufficient', {
          param: 'items', vars: { product: vars.product, in_stock: vars.in_stock, unit: vars.unit, wanted: vars.wanted },
        });
      }
      ctx.warnings.push({
        code: 'negative_stock', message: messageFor('negative_stock', locale, vars), product_id: m.productId, warehouse_id: m.warehouseId,
        quantity_in_stock: fromMilli(p.quantityMilli), quantity_after: fromMilli(step.after.quantityMilli),
      });
    }
    positions.set(key, step.after);
    written.push({
      id: movementId, company_id: ctx.companyId, warehouse_id: m.warehouseId, product_id: m.productId, quantity_milli: m.quantityMilli,
      unit_cost_milli: step.unitCostMilli, value_bani: step.valueBani, document_type: ctx.documentType, document_id: ctx.documentId,
      date: ctx.date, created_at: ctx.now,
    });
  }
  for (const [key, p] of positions) {
    const [warehouseId, productId] = key.split('\u0000') as [string, string];
    await trx.updateTable('stock_levels')
      .set({ quantity_milli: p.quantityMilli, value_bani: p.valueBani, unit_cost_milli: p.unitCostMilli, updated_at: ctx.now, ...(fifo ? { lot_seq: fifo.seqOf(key) } : {}) })
      .where('warehouse_id', '=', warehouseId).where('product_id', '=', productId).execute();
  }
  if (written.length) await trx.insertInto('stock_movements').values(written).execute();
  await fifo?.flush();
  return written;
}

/** The current position of a product in a warehouse (zero when it never moved there). */
export async function levelOf(db: Db, warehouseId: string, productId: string): Promise<StockPosition | null> {
  const row = await db.selectFrom('stock_levels').selectAll().where('warehouse_id', '=', warehouseId).where('product_id', '=', productId).executeTakeFirst();
  return row ? { quantityMilli: Number(row.quantity_milli), valueBani: Number(row.value_bani), unitCostMilli: Number(row.unit_cost_milli) } : null;
}
