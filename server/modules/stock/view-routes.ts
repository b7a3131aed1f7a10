import { sql } from 'kysely';
import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { changesListQuery, listPageSchema, listQuery, paginate } from '../../platform/list';
import { fromBani } from '../../../shared/money';
import { fromMilli } from '../../../shared/invoice-math';
import { STOCK_DOCUMENT_TYPES, unitCostFromMilli, zStockLevel, zStockMovement, zStockValue } from '../../../shared/schemas/stock';
import { zDate } from '../../../shared/schemas/common';
import { todayAt } from '../invoicing/numbering';
import { foldTerm, indexedSearch } from '../../platform/search';
import { PRODUCTS_SEARCH } from '../catalog/migrations/0131_products_search_barcode';
import { warehouseOf } from './warehouse-routes';
import type { StockMovementsTable } from './tables';
import './messages';

export function movementView(m: StockMovementsTable) {
  return {
    id: m.id, object: 'stock_movement' as const, warehouse_id: m.warehouse_id, product_id: m.product_id, quantity: fromMilli(Number(m.quantity_milli)),
    unit_cost: unitCostFromMilli(Number(m.unit_cost_milli)), value: fromBani(Number(m.value_bani)), document_type: m.document_type,
    document_id: m.document_id, date: m.date, created_at: Number(m.created_at),
  };
}

const listStock = defineRoute({
  method: 'GET', path: '/stock', operationId: 'listStock', summary: 'Stock per product and warehouse',
  description:
    'The levels of the work point\'s warehouses (or of `warehouse_id`, any of the firm\'s), one row per product and warehouse that ever ' +
    'moved. `search` matches the product\'s name, code and barcode (as `GET /products`); `product_id` keeps one product. Quantities are in the product\'s unit; ' +
    '`unit_cost` is the average cost of what is in stock (CMP, or under FIFO the average of the open lots; lei, up to 5 decimals), `value` the stock value in lei. `updated_since` with ' +
    '`sort=updated_at&order=asc` walks the levels changed since an instant (the desktop app\'s incremental pull).',
  tags: ['stock'], scope: 'stock:read',
  query: changesListQuery(['product_name', 'quantity', 'value'] as const).extend({ warehouse_id: z.string().optional(), product_id: z.string().optional() }),
  response: listPageSchema(zStockLevel), errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const q = ctx.query;
    // The work point's few warehouses first: the levels are then read by their primary key's prefix, with no join to warehouses.
    const warehouseIds = q.warehouse_id
      ? [(await warehouseOf(ctx.db, ctx.companyId, q.warehouse_id, 'warehouse_id')).id]
      : (await ctx.db.selectFrom('warehouses').select('id').where('company_id', '=', ctx.companyId).where('work_point_id', '=', ctx.workPointId).execute()).map((w) => w.id);
    let base = ctx.db.selectFrom('stock_levels as l')
      .innerJoin('products as p', 'p.id', 'l.product_id')
      .select(['l.warehouse_id', 'l.product_id', 'p.name as product_name', 'p.code as product_code', 'p.unit', 'l.quantity_milli', 'l.unit_cost_milli', 'l.value_bani', 'l.updated_at'])
      .where('l.company_id', '=', ctx.companyId)
      .where('l.warehouse_id', 'in', warehouseIds.length ? warehouseIds : ['-']);
    if (q.product_id) base = base.where('l.product_id', '=', q.product_id);
    // Through the products' own search index (trigrams), as GET /products searches: folding the name and
    // code of every product of the firm per keystroke cost 1,2 s at 50 000 products (bench/stock.ts).
    if (q.search && foldTerm(q.search) !== '') base = base.where(indexedSearch(ctx.dialect, PRODUCTS_SEARCH, 'p', q.search));
    const page = await paginate(base, { ...q, search: undefined }, {
      sortColumns: { product_name: 'p.name', quantity: 'l.quantity_milli', value: 'l.value_bani', updated_at: 'l.updated_at' },
      defaultSort: 'product_name', defaultOrder: 'asc', tieBreaker: 'l.product_id', updatedColumn: 'l.updated_at',
    });
    return {
      ...page,
      data: page.data.map((r) => ({
        object: 'stock_level' as const, warehouse_id: r.warehouse_id, product_id: r.product_id, product_name: r.product_name, product_code: r.product_code,
        unit: r.unit, quantity: fromMilli(Number(r.quantity_milli)), unit_cost: unitCostFromMilli(Number(r.unit_cost_milli)),
        value: fromBani(Number(r.value_bani)), updated_at: Number(r.updated_at),
      })),
    };
  },
});

const listMovements = defineRoute({
  method: 'GET', path: '/stock/movements', operationId: 'listStockMovements', summary: 'Stock movements: which document moved what',
  description:
    'The firm\'s ledger, newest first; filter by `product_id`, `warehouse_id`, `document_id` or `document_type`, and by `start_date`/`end_date` ' +
    'on the movement\'s date. Quantities are signed: in positive, out negative.',
  tags: ['stock'], scope: 'stock:read',
  query: listQuery(['date', 'created_at'] as const).extend({
    product_id: z.string().optional(), warehouse_id: z.string().optional(), document_id: z.string().optional(), document_type: z.enum(STOCK_DOCUMENT_TYPES).optional(),
  }),
  response: listPageSchema(zStockMovement),
  handler: async (ctx) => {
    const q = ctx.query;
    let base = ctx.db.selectFrom('stock_movements').selectAll().where('company_id', '=', ctx.companyId);
    if (q.product_id) base = base.where('product_id', '=', q.product_id);
    if (q.warehouse_id) base = base.where('warehouse_id', '=', q.warehouse_id);
    if (q.document_id) base = base.where('document_id', '=', q.document_id);
    if (q.document_type) base = base.where('document_type', '=', q.document_type);
    const page = await paginate(base, q, {
      sortColumns: { date: 'date', created_at: 'created_at' }, defaultSort: 'date', defaultOrder: 'desc', dateColumn: 'date', tieBreaker: 'id',
    });
    return { ...page, data: page.data.map(movementView) };
  },
});

const stockValue = defineRoute({
  method: 'GET', path: '/stock/value', operationId: 'getStockValue', summary: 'The stock value at the end of a date',
  description:
    'The sum of the values of every movement dated on or before `date` (default today), per warehouse of the work point (or `warehouse_id`). ' +
    'At today\'s date it equals the sum of the levels\' values.',
  tags: ['stock'], scope: 'stock:read', query: z.object({ date: zDate.optional(), warehouse_id: z.string().optional() }),
  response: zStockValue, errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const date = ctx.query.date ?? todayAt(ctx.now);
    let q = ctx.db.selectFrom('stock_movements as m').innerJoin('warehouses as w', 'w.id', 'm.warehouse_id')
      .select(['m.warehouse_id', sql<string | number>`sum(m.value_bani)`.as('value')])
      .where('m.company_id', '=', ctx.companyId).where('m.date', '<=', date).groupBy('m.warehouse_id').orderBy('m.warehouse_id');
    if (ctx.query.warehouse_id) q = q.where('m.warehouse_id', '=', (await warehouseOf(ctx.db, ctx.companyId, ctx.query.warehouse_id, 'warehouse_id')).id);
    else q = q.where('w.work_point_id', '=', ctx.workPointId);
    const rows = await q.execute();
    const warehouses = rows.map((r) => ({ warehouse_id: r.warehouse_id, value: fromBani(Number(r.value)) }));
    const total = rows.reduce((s, r) => s + Number(r.value), 0);
    return { object: 'stock_value' as const, date, value: fromBani(total), warehouses };
  },
});

export const stockViewRoutes: AnyRoute[] = [listStock, listMovements, stockValue];
