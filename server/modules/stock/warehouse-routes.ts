import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { listPageSchema, listQuery, paginate, mapPage } from '../../platform/list';
import { isUniqueViolation } from '../../platform/db-errors';
import { zStockSettings, zStockSettingsUpdate, zWarehouse, zWarehouseCreate, type Warehouse } from '../../../shared/schemas/stock';
import type { Db } from '../../db/types';
import type { WarehousesTable } from './tables';
import { defaultWarehouse, lockSettings, stockSettings } from './ledger';
import './messages';

const idParams = z.object({ id: z.string() });

export function warehouseView(row: WarehousesTable): Warehouse {
  return {
    id: row.id, object: 'warehouse', work_point_id: row.work_point_id, name: row.name, is_default: Number(row.is_default) === 1,
    created_at: Number(row.created_at), updated_at: Number(row.updated_at),
  };
}

/** A warehouse of the company, or 404 `resource_missing` on `param` (another company's is missing too). */
export async function warehouseOf(db: Db, companyId: string, id: string, param = 'id'): Promise<WarehousesTable> {
  const row = await db.selectFrom('warehouses').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(param);
  return row;
}

const settingsView = (s: Awaited<ReturnType<typeof stockSettings>>) => ({
  object: 'stock_settings' as const, valuation: s.valuation, negative_stock: s.negative_stock, markup_percent: Number(s.markup_bp) / 100, nir_prefix: s.nir_prefix,
});

const getSettings = defineRoute({
  method: 'GET', path: '/stock/settings', operationId: 'getStockSettings', summary: 'The firm\'s stock settings',
  tags: ['stock'], scope: 'stock:read', response: zStockSettings,
  handler: async (ctx) => settingsView(await stockSettings(ctx.db, ctx.companyId)),
});

const updateSettings = defineRoute({
  method: 'PUT', path: '/stock/settings', operationId: 'updateStockSettings', summary: 'Change the firm\'s stock settings',
  description:
    '`valuation`: `cmp` (weighted average cost, the default) or `fifo` (first in, first out: each reception is a lot at its cost, ' +
    'a sale takes the oldest lots and is valued at exactly what it took). The method is chosen once: after the firm\'s first stock ' +
    'movement (reception, sale of goods, count or transfer) a different `valuation` answers 409 `valuation_locked`; the same one is accepted. ' +
    '`negative_stock`: `allow` (a sale below zero goes through with a `negative_stock` warning in `meta.warnings`) or `block` ' +
    '(409 `stock_insufficient`). `markup_percent` proposes the sale price of received goods. `nir_prefix` prints before NIR numbers.',
  tags: ['stock'], scope: 'stock:write', body: zStockSettingsUpdate, response: zStockSettings,
  errors: { valuation_locked: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    await ctx.db.transaction().execute(async (trx) => {
      // When the method may change, the lock also waits for every stock transaction in flight and holds new
      // ones (see lockSettings), so "no movement yet" stays true until this commits.
      const current = await lockSettings(trx, ctx.companyId, ctx.now, b.valuation ? 'valuation' : 'counter');
      if (b.valuation && b.valuation !== current.valuation) {
        const moved = await trx.selectFrom('stock_movements').select('id').where('company_id', '=', ctx.companyId).limit(1).executeTakeFirst();
        if (moved) throw new ApiError(409, 'invalid_request_error', 'valuation_locked', { param: 'valuation', vars: { method: current.valuation.toUpperCase() } });
      }
      await trx.updateTable('stock_settings').set({
        ...(b.valuation ? { valuation: b.valuation } : {}),
        ...(b.negative_stock ? { negative_stock: b.negative_stock } : {}),
        ...(b.markup_percent !== undefined ? { markup_bp: Math.round(b.markup_percent * 100) } : {}),
        ...(b.nir_prefix ? { nir_prefix: b.nir_prefix } : {}),
        updated_at: ctx.now,
      }).where('company_id', '=', ctx.companyId).execute();
    });
    return settingsView(await stockSettings(ctx.db, ctx.companyId));
  },
});

const listWarehouses = defineRoute({
  method: 'GET', path: '/warehouses', operationId: 'listWarehouses', summary: 'List the warehouses (gestiuni) of the work point',
  description: 'The default warehouse of the work point is made on first use (this list, or the first sale or reception).',
  tags: ['stock'], scope: 'stock:read', query: listQuery(['name', 'created_at'] as const), response: listPageSchema(zWarehouse),
  handler: async (ctx) => {
    await defaultWarehouse(ctx.db, ctx.companyId, ctx.workPointId, ctx.now);
    const base = ctx.db.selectFrom('warehouses').selectAll().where('company_id', '=', ctx.companyId).where('work_point_id', '=', ctx.workPointId);
    const page = await paginate(base, ctx.query, {
      sortColumns: { name: 'name', created_at: 'created_at' }, defaultSort: 'created_at', defaultOrder: 'asc', searchColumns: ['name'], tieBreaker: 'id',
    });
    return mapPage(page, warehouseView);
  },
});

const createWarehouse = defineRoute({
  method: 'POST', path: '/warehouses', operationId: 'createWarehouse', summary: 'Add a warehouse to the work point',
  tags: ['stock'], scope: 'stock:write', create: true, body: zWarehouseCreate, response: zWarehouse, errors: { warehouse_name_taken: 409 },
  handler: async (ctx) => {
    await defaultWarehouse(ctx.db, ctx.companyId, ctx.workPointId, ctx.now);
    const row: WarehousesTable = {
      id: newId('whs'), company_id: ctx.companyId, work_point_id: ctx.workPointId, name: ctx.body.name, is_default: 0, default_of: null,
      created_at: ctx.now, updated_at: ctx.now,
    };
    try {
      await ctx.db.insertInto('warehouses').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('warehouse_name_taken', 'name');
      throw error;
    }
    return warehouseView(row);
  },
});

const getWarehouse = defineRoute({
  method: 'GET', path: '/warehouses/:id', operationId: 'getWarehouse', summary: 'Retrieve a warehouse',
  tags: ['stock'], scope: 'stock:read', params: idParams, response: zWarehouse, errors: { resource_missing: 404 },
  handler: async (ctx) => warehouseView(await warehouseOf(ctx.db, ctx.companyId, ctx.params.id)),
});

const updateWarehouse = defineRoute({
  method: 'PUT', path: '/warehouses/:id', operationId: 'updateWarehouse', summary: 'Rename a warehouse',
  tags: ['stock'], scope: 'stock:write', params: idParams, body: zWarehouseCreate, response: zWarehouse,
  errors: { resource_missing: 404, warehouse_name_taken: 409 },
  handler: async (ctx) => {
    const row = await warehouseOf(ctx.db, ctx.companyId, ctx.params.id);
    try {
      await ctx.db.updateTable('warehouses').set({ name: ctx.body.name, updated_at: ctx.now }).where('id', '=', row.id).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('warehouse_name_taken', 'name');
      throw error;
    }
    return warehouseView({ ...row, name: ctx.body.name, updated_at: ctx.now });
  },
});

export const warehouseRoutes: AnyRoute[] = [getSettings, updateSettings, listWarehouses, createWarehouse, getWarehouse, updateWarehouse];
