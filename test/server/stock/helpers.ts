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
