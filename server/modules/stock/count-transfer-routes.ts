import { defineRoute, type AnyRoute } from '../../platform/route';
import { listPageSchema, listQuery, paginate } from '../../platform/list';
import { newId } from '../../platform/ids';
import { validationFailed } from '../../platform/errors';
import { fromMilli, toMilli } from '../../../shared/invoice-math';
import { zStockCountCreate, zStockDocument, zStockTransferCreate } from '../../../shared/schemas/stock';
import { z } from 'zod';
import { todayAt } from '../invoicing/numbering';
import type { Db } from '../../db/types';
import type { StockDocumentsTable } from './tables';
import { applyMoves, defaultWarehouse, isPostgres, type MoveRequest } from './ledger';
import { warehouseOf } from './warehouse-routes';
import './messages';

interface DocLine { product_id: string; quantity: number; expected?: number; difference?: number }

function documentView(row: StockDocumentsTable) {
  return {
    id: row.id, object: row.kind === 'count' ? ('stock_count' as const) : ('stock_transfer' as const), warehouse_id: row.warehouse_id,
    to_warehouse_id: row.to_warehouse_id, date: row.date, note: row.note, lines: JSON.parse(row.lines_json) as DocLine[], created_at: Number(row.created_at),
  };
}

/** Every product of the lines must be the company's and stocked (not a service): 422 naming the line otherwise. */
async function checkGoods(db: Db, companyId: string, productIds: string[]): Promise<void> {
  const found = new Map(
    (await db.selectFrom('products').select(['id', 'name', 'is_service']).where('company_id', '=', companyId).where('id', 'in', [...new Set(productIds)]).execute()).map((p) => [p.id, p]),
  );
  const fields: Record<string, string> = {};
  productIds.forEach((id, i) => {
    const p = found.get(id);
    if (!p) fields[`lines.${i}.product_id`] = 'No such product.|Produsul nu există.';
    else if (Number(p.is_service) === 1) fields[`lines.${i}.product_id`] = `"${p.name}" is a service: it has no stock.|„${p.name}” este un serviciu: nu are stoc.`;
  });
  if (Object.keys(fields).length) throw validationFailed(fields);
}

const createCount = defineRoute({
  method: 'POST', path: '/stock-counts', operationId: 'createStockCount', summary: 'Book an inventory count (inventar)',
  description:
    'The quantities found on the shelf of `warehouse_id` (default: the work point\'s default warehouse). Each difference from the stock is ' +
    'booked as a `count` movement at the average cost: a surplus in, a shortage out (under FIFO the shortage takes the oldest lots). A product that never moved in that warehouse, or a ' +
    'service, answers 422 on its line. The reply shows, per line, what was expected and the difference booked.',
  tags: ['stock'], scope: 'stock:write', create: true, body: zStockCountCreate, response: zStockDocument, errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const b = ctx.body;
    const named = b.warehouse_id ? (await warehouseOf(ctx.db, ctx.companyId, b.warehouse_id, 'warehouse_id')).id : null;
    const ids = b.lines.map((l) => l.product_id);
    const twice = ids.findIndex((id, i) => ids.indexOf(id) !== i);
    if (twice >= 0) throw validationFailed({ [`lines.${twice}.product_id`]: 'Counted twice in this count.|Numărat de două ori în acest inventar.' });
    await checkGoods(ctx.db, ctx.companyId, ids);
    const id = newId('stc');
    const date = b.date ?? todayAt(ctx.now);
    const row = await ctx.db.transaction().execute(async (trx) => {
      // The default warehouse is made on first use inside the count: a count refused below leaves none behind.
      const warehouseId = named ?? (await defaultWarehouse(trx, ctx.companyId, ctx.workPointId, ctx.now));
      let q = trx.selectFrom('stock_levels').select(['product_id', 'quantity_milli']).where('warehouse_id', '=', warehouseId).where('product_id', 'in', ids);
      // Locked so that a sale between reading and booking cannot make the difference wrong.
      if (isPostgres(trx)) q = q.forUpdate();
      const levels = new Map((await q.execute()).map((l) => [l.product_id, Number(l.quantity_milli)]));
      const fields: Record<string, string> = {};
      b.lines.forEach((l, i) => {
        if (!levels.has(l.product_id)) fields[`lines.${i}.product_id`] = 'This product is not stocked in this warehouse.|Acest produs nu este în stocul acestei gestiuni.';
      });
      if (Object.keys(fields).length) throw validationFailed(fields);
      const lines: DocLine[] = [];
      const moves: MoveRequest[] = [];
      for (const l of b.lines) {
        const expected = levels.get(l.product_id)!;
        const counted = toMilli(l.quantity);
        lines.push({ product_id: l.product_id, quantity: l.quantity, expected: fromMilli(expected), difference: fromMilli(counted - expected) });
        if (counted !== expected) moves.push({ warehouseId, productId: l.product_id, quantityMilli: counted - expected });
      }
      const doc: StockDocumentsTable = {
        id, company_id: ctx.companyId, kind: 'count', warehouse_id: warehouseId, to_warehouse_id: null, date, note: b.note ?? null,
        lines_json: JSON.stringify(lines), created_at: ctx.now,
      };
      await trx.insertInto('stock_documents').values(doc).execute();
      // A count states what is there: a shortage is booked even if the firm blocks selling below zero.
      await applyMoves(trx, { companyId: ctx.companyId, documentType: 'count', documentId: id, date, now: ctx.now, negative: 'allow', warnings: ctx.warnings }, moves, ctx.locale);
      return doc;
    });
    return documentView(row);
  },
});

const createTransfer = defineRoute({
  method: 'POST', path: '/stock-transfers', operationId: 'createStockTransfer', summary: 'Move goods between two warehouses of the firm',
  description:
    'Out of `from_warehouse_id` at its average cost, into `to_warehouse_id` at that same cost (two `transfer` movements per line, same value; ' +
    'under FIFO the oldest lots leave and arrive as lots of the destination with their costs and entry dates). ' +
    'The same warehouse on both sides answers 422. Below zero in the source follows the firm\'s setting, as a sale.',
  tags: ['stock'], scope: 'stock:write', create: true, body: zStockTransferCreate, response: zStockDocument,
  errors: { resource_missing: 404, stock_insufficient: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    if (b.from_warehouse_id === b.to_warehouse_id) {
      throw validationFailed({ to_warehouse_id: 'Must differ from from_warehouse_id.|Gestiunea de destinație trebuie să difere de cea de proveniență.' });
    }
    const from = await warehouseOf(ctx.db, ctx.companyId, b.from_warehouse_id, 'from_warehouse_id');
    const to = await warehouseOf(ctx.db, ctx.companyId, b.to_warehouse_id, 'to_warehouse_id');
    await checkGoods(ctx.db, ctx.companyId, b.lines.map((l) => l.product_id));
    const id = newId('stt');
    const date = b.date ?? todayAt(ctx.now);
    const row = await ctx.db.transaction().execute(async (trx) => {
      const move = { companyId: ctx.companyId, documentType: 'transfer' as const, documentId: id, date, now: ctx.now, warnings: ctx.warnings };
      const out = await applyMoves(trx, move, b.lines.map((l) => ({ warehouseId: from.id, productId: l.product_id, quantityMilli: -toMilli(l.quantity) })), ctx.locale);
      // In at the cost each line left at: the transfer moves value, it creates none. Under FIFO the lots
      // it took arrive as lots of the destination, with their entry dates and costs.
      await applyMoves(trx, move, out.map((m) => ({
        warehouseId: to.id, productId: m.product_id, quantityMilli: -Number(m.quantity_milli), unitCostMilli: Number(m.unit_cost_milli), lotsOf: m.id,
      })), ctx.locale);
      const doc: StockDocumentsTable = {
        id, company_id: ctx.companyId, kind: 'transfer', warehouse_id: from.id, to_warehouse_id: to.id, date, note: b.note ?? null,
        lines_json: JSON.stringify(b.lines.map((l) => ({ product_id: l.product_id, quantity: l.quantity }))), created_at: ctx.now,
      };
      await trx.insertInto('stock_documents').values(doc).execute();
      return doc;
    });
    return documentView(row);
  },
});

const listDocuments = (kind: 'count' | 'transfer') => defineRoute({
  method: 'GET', path: kind === 'count' ? '/stock-counts' : '/stock-transfers', operationId: kind === 'count' ? 'listStockCounts' : 'listStockTransfers',
  summary: kind === 'count' ? 'List the inventory counts of the firm' : 'List the transfers between warehouses of the firm',
  tags: ['stock'], scope: 'stock:read', query: listQuery(['date', 'created_at'] as const).extend({ warehouse_id: z.string().optional() }),
  response: listPageSchema(zStockDocument),
  handler: async (ctx) => {
    let base = ctx.db.selectFrom('stock_documents').selectAll().where('company_id', '=', ctx.companyId).where('kind', '=', kind);
    if (ctx.query.warehouse_id) base = base.where('warehouse_id', '=', ctx.query.warehouse_id);
    const page = await paginate(base, ctx.query, { sortColumns: { date: 'date', created_at: 'created_at' }, defaultSort: 'created_at', dateColumn: 'date', tieBreaker: 'id' });
    return { ...page, data: page.data.map(documentView) };
  },
});

export const countTransferRoutes: AnyRoute[] = [createCount, createTransfer, listDocuments('count'), listDocuments('transfer')];
