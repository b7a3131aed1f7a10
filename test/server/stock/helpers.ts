import { sql } from 'kysely';
import { expect } from 'vitest';
import type { TestServer } from '../../support/server';
import type { Firm } from '../invoicing/helpers';

/**
 * The invariant of issue 15: every stock level (quantity and value) is exactly the sum of its
 * movements, for every product and warehouse of every firm, and no movement lacks its level.
 * Read past the API, straight from the tables.
 */
export async function expectStockInvariant(server: TestServer): Promise<void> {
  const db = server.storage.db;
  const levels = await db.selectFrom('stock_levels').select(['warehouse_id', 'product_id', 'quantity_milli', 'value_bani']).execute();
  const sums = await db.selectFrom('stock_movements')
    .select(['warehouse_id', 'product_id', sql<string | number>`sum(quantity_milli)`.as('q'), sql<string | number>`sum(value_bani)`.as('v')])
    .groupBy(['warehouse_id', 'product_id']).execute();
  const key = (w: string, p: string) => `${w}/${p}`;
  const fromLevels = new Map(levels.map((l) => [key(l.warehouse_id, l.product_id), [Number(l.quantity_milli), Number(l.value_bani)]]));
  const fromMovements = new Map(sums.map((s) => [key(s.warehouse_id, s.product_id), [Number(s.q), Number(s.v)]]));
  for (const [k, [q, v]] of fromLevels) {
    // A level row made but never moved (a refused sale rolled back keeps none) must be zero.
    expect(fromMovements.get(k) ?? [0, 0], `level ${k} equals the sum of its movements`).toEqual([q, v]);
  }
  for (const k of fromMovements.keys()) expect(fromLevels.has(k), `movements of ${k} have a level`).toBe(true);

  // FIFO firms: the level is also exactly what is left in its lots; no lot is taken from beyond what it
  // held (the takes and puts-back of each lot account for every unit it lost or regained); CMP firms have no lots.
  const fifoLevels = await db.selectFrom('stock_levels as l').innerJoin('stock_settings as s', 's.company_id', 'l.company_id')
    .select(['l.warehouse_id', 'l.product_id', 'l.quantity_milli', 'l.value_bani', 's.valuation']).execute();
  const lots = await db.selectFrom('stock_lots')
    .select(['warehouse_id', 'product_id', sql<string | number>`sum(remaining_milli)`.as('q'), sql<string | number>`sum(remaining_value_bani)`.as('v')])
    .groupBy(['warehouse_id', 'product_id']).execute();
  const fromLots = new Map(lots.map((s) => [key(s.warehouse_id, s.product_id), [Number(s.q), Number(s.v)]]));
  for (const l of fifoLevels) {
    const k = key(l.warehouse_id, l.product_id);
    if (l.valuation === 'fifo') expect(fromLots.get(k) ?? [0, 0], `lots of ${k} sum to their level`).toEqual([Number(l.quantity_milli), Number(l.value_bani)]);
    else expect(fromLots.has(k), `CMP level ${k} has no lots`).toBe(false);
  }
  const perLot = await db.selectFrom('stock_lots as l').leftJoin('stock_lot_uses as u', 'u.lot_id', 'l.id')
    .select(['l.id', 'l.quantity_milli', 'l.remaining_milli', sql<string | number>`coalesce(sum(u.quantity_milli - u.returned_milli), 0)`.as('taken')])
    // The lot that records sales below zero starts at 0 and is refilled by entries, not by takes: left out.
    .where('l.quantity_milli', '>', 0)
    .groupBy(['l.id', 'l.quantity_milli', 'l.remaining_milli']).execute();
  for (const u of perLot) {
    expect(Number(u.quantity_milli) - Number(u.taken), `lot ${u.id}: received − taken (net of stornos) = left`).toBe(Number(u.remaining_milli));
    expect(Number(u.remaining_milli), `lot ${u.id} never taken below zero`).toBeGreaterThanOrEqual(0);
  }
}

export async function newProduct(firm: Firm, body: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  return firm.ok('POST', '/products', { name: `Produs ${Math.random().toString(36).slice(2, 8)}`, price: 10, vat_rate: 21, ...body });
}

/** The level of a product in the work point's warehouses (first row), as the API shows it. */
export async function stockOf(firm: Firm, productId: string): Promise<{ quantity: number; value: number; unit_cost: number } | undefined> {
  const page = await firm.ok('GET', `/stock?product_id=${productId}`);
  return page.data[0];
}

/** A NIR typed in: goods in at a cost, so a test starts with known stock. */
export async function receive(firm: Firm, productId: string, quantity: number, unitCost: number, extra: Record<string, unknown> = {}) {
  return firm.ok('POST', '/nirs', {
    supplier: { name: 'Furnizor Test SRL' }, document_number: `F-${Math.random().toString(36).slice(2, 8)}`,
    lines: [{ supplier_item: 'Marfă', product_id: productId, quantity_invoiced: quantity, unit_cost: unitCost }], ...extra,
  });
}
