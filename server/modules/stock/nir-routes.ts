import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { ApiError, notFound, validationFailed } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { listPageSchema, listQuery, paginate } from '../../platform/list';
import { isUniqueViolation } from '../../platform/db-errors';
import { fromBani, mulDivRound } from '../../../shared/money';
import { fromMilli, toMilli } from '../../../shared/invoice-math';
import { proposedSalePrice, valueOf } from '../../../shared/stock-math';
import { unitCostFromMilli, unitCostToMilli, zNir, zNirCreate } from '../../../shared/schemas/stock';
import { todayAt } from '../invoicing/numbering';
import type { Db } from '../../db/types';
import type { NirLinesTable, NirsTable } from './tables';
import { applyMoves, defaultWarehouse, lockSettings } from './ledger';
import { warehouseOf } from './warehouse-routes';
import './messages';

const idParams = z.object({ id: z.string() });

/** How a supplier's item is remembered: its code when it has one, else its name without case or extra spaces. */
export function itemKey(name: string, code?: string | null): string {
  return code ? `code:${code.trim().toLowerCase()}` : `name:${name.trim().toLowerCase().replace(/\s+/g, ' ')}`;
}

function nirView(row: NirsTable, lines?: NirLinesTable[]) {
  return {
    id: row.id, object: 'nir' as const, work_point_id: row.work_point_id, warehouse_id: row.warehouse_id, number: Number(row.number),
    full_number: row.full_number, date: row.date, supplier_bill_id: row.supplier_bill_id, supplier_name: row.supplier_name,
    supplier_cui: row.supplier_cui, document_number: row.document_number, total_cost: fromBani(Number(row.total_cost_bani)),
    created_at: Number(row.created_at),
    ...(lines
      ? {
          lines: lines.map((l) => ({
            object: 'nir_line' as const, position: Number(l.position), product_id: l.product_id, supplier_item: l.supplier_item,
            quantity_invoiced: fromMilli(Number(l.quantity_invoiced_milli)), quantity_received: fromMilli(Number(l.quantity_received_milli)),
            difference: fromMilli(Number(l.quantity_received_milli) - Number(l.quantity_invoiced_milli)),
            unit_cost: unitCostFromMilli(Number(l.unit_cost_milli)), value: fromBani(Number(l.value_bani)),
            proposed_sale_price: fromBani(Number(l.sale_price_bani)),
          })),
        }
      : {}),
  };
}

interface DraftLine {
  supplierItem: string;
  key: string;
  productId: string | undefined;
  invoicedMilli: number;
  receivedMilli: number;
  unitCostMilli: number;
}

type Body = z.output<typeof zNirCreate>;

/** The lines of a NIR from a supplier bill already in the service, with the body's mappings and received quantities. */
async function linesFromBill(db: Db, companyId: string, b: Body) {
  const bill = await db.selectFrom('supplier_bills').selectAll().where('company_id', '=', companyId).where('id', '=', b.supplier_bill_id!).executeTakeFirst();
  if (!bill) throw notFound('supplier_bill_id');
  if (bill.kind !== 'invoice') {
    throw validationFailed({ supplier_bill_id: 'A credit note is not received into stock by NIR.|O notă de credit nu se recepționează prin NIR.' });
  }
  const supplier = await db.selectFrom('suppliers').select(['name', 'cui']).where('id', '=', bill.supplier_id).executeTakeFirst();
  const billLines = await db.selectFrom('supplier_bill_lines').selectAll().where('bill_id', '=', bill.id).orderBy('position').execute();
  const overrides = new Map(b.lines.filter((l) => l.line_id).map((l) => [l.line_id!, l]));
  const unknown = [...overrides.keys()].filter((id) => !billLines.some((l) => l.line_id === id));
  if (unknown.length) throw validationFailed(Object.fromEntries(unknown.map((id) => [`lines.${b.lines.findIndex((l) => l.line_id === id)}.line_id`, 'The bill has no such line.|Factura nu are această linie.'])));
  const lines: DraftLine[] = billLines.map((l) => {
    const o = overrides.get(l.line_id);
    const invoiced = Number(l.quantity_milli);
    return {
      supplierItem: l.name, key: itemKey(l.name, o?.supplier_code), productId: o?.product_id, invoicedMilli: invoiced,
      receivedMilli: o?.quantity_received !== undefined ? toMilli(o.quantity_received) : invoiced,
      // The cost of a unit is what the line really costs, allowances and charges included.
      unitCostMilli: o?.unit_cost !== undefined ? unitCostToMilli(o.unit_cost) : invoiced > 0 ? mulDivRound(Number(l.line_net_bani), 1_000_000, invoiced) : 0,
    };
  });
  return {
    lines, supplierKey: `sup:${bill.supplier_id}`, supplierName: supplier?.name ?? bill.invoice_number, supplierCui: supplier?.cui ?? null,
    documentNumber: bill.invoice_number, billId: bill.id,
  };
}

function linesTyped(b: Body) {
  if (!b.supplier) throw validationFailed({ supplier: 'Name the supplier, or give supplier_bill_id.|Indicați furnizorul sau supplier_bill_id.' });
  const fields: Record<string, string> = {};
  if (!b.lines.length) fields.lines = 'At least one line.|Cel puțin o linie.';
  b.lines.forEach((l, i) => {
    if (!l.supplier_item) fields[`lines.${i}.supplier_item`] = 'Required.|Obligatoriu.';
    if (l.quantity_invoiced === undefined) fields[`lines.${i}.quantity_invoiced`] = 'Required.|Obligatoriu.';
    if (l.unit_cost === undefined) fields[`lines.${i}.unit_cost`] = 'Required.|Obligatoriu.';
  });
  if (Object.keys(fields).length) throw validationFailed(fields);
  const cui = b.supplier.cui?.replace(/^RO/i, '').trim() || null;
  const lines: DraftLine[] = b.lines.map((l) => ({
    supplierItem: l.supplier_item!, key: itemKey(l.supplier_item!, l.supplier_code), productId: l.product_id,
    invoicedMilli: toMilli(l.quantity_invoiced!), receivedMilli: toMilli(l.quantity_received ?? l.quantity_invoiced!), unitCostMilli: unitCostToMilli(l.unit_cost!),
  }));
  return {
    lines, supplierKey: cui ? `cui:${cui}` : `name:${b.supplier.name.toLowerCase()}`, supplierName: b.supplier.name, supplierCui: cui,
    documentNumber: b.document_number ?? null, billId: null,
  };
}

const createNir = defineRoute({
  method: 'POST', path: '/nirs', operationId: 'createNir', summary: 'Receive goods: a NIR (notă de intrare-recepție)',
  description:
    'From a supplier bill already in the service (`supplier_bill_id`: its lines, quantities and net costs; `lines[]` with `line_id` map a line to ' +
    'a product or give the quantity received) or typed in (`supplier` and `lines[]` with `supplier_item`, `quantity_invoiced`, `unit_cost`). ' +
    'Each line\'s product is remembered per supplier and item (code, else name): the next bill of that supplier maps itself. Unmapped lines ' +
    'answer 422 with one field per line. `quantity_received` (default the invoiced quantity) enters stock; the difference is kept on the line. ' +
    'The sale price is proposed from the markup of GET /stock/settings. Numbered in the firm\'s own NIR series. A bill already received: 409 `nir_bill_received`.',
  tags: ['stock'], scope: 'stock:write', create: true, body: zNirCreate, response: zNir,
  errors: { resource_missing: 404, nir_bill_received: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    const source = b.supplier_bill_id ? await linesFromBill(ctx.db, ctx.companyId, b) : linesTyped(b);
    const date = b.date ?? todayAt(ctx.now);
    const warehouseId = b.warehouse_id
      ? (await warehouseOf(ctx.db, ctx.companyId, b.warehouse_id, 'warehouse_id')).id
      : await defaultWarehouse(ctx.db, ctx.companyId, ctx.workPointId, ctx.now);
    try {
      const made = await ctx.db.transaction().execute(async (trx) => {
        if (source.billId) {
          const earlier = await trx.selectFrom('nirs').select('full_number').where('company_id', '=', ctx.companyId).where('supplier_bill_id', '=', source.billId).executeTakeFirst();
          if (earlier) throw received(source.documentNumber ?? '', earlier.full_number);
        }
        const remembered = new Map(
          (await trx.selectFrom('supplier_item_map').select(['item_key', 'product_id']).where('company_id', '=', ctx.companyId).where('supplier_key', '=', source.supplierKey).execute())
            .map((r) => [r.item_key, r.product_id]),
        );
        const ids = [...new Set(source.lines.map((l) => l.productId ?? remembered.get(l.key)).filter((x): x is string => !!x))];
        const products = new Map(
          ids.length ? (await trx.selectFrom('products').select(['id', 'is_service', 'name']).where('company_id', '=', ctx.companyId).where('id', 'in', ids).execute()).map((p) => [p.id, p]) : [],
        );
        const fields: Record<string, string> = {};
        source.lines.forEach((l, i) => {
          const id = l.productId ?? remembered.get(l.key);
          if (!id) fields[`lines.${i}.product_id`] = `Line "${l.supplierItem}" has no product yet: choose it once and it is remembered.|Linia „${l.supplierItem}” nu are încă un produs asociat: alegeți-l o dată și va fi reținut.`;
          else if (!products.has(id)) fields[`lines.${i}.product_id`] = 'No such product.|Produsul nu există.';
          else if (Number(products.get(id)!.is_service) === 1) fields[`lines.${i}.product_id`] = `"${products.get(id)!.name}" is a service: it has no stock.|„${products.get(id)!.name}” este un serviciu: nu are stoc.`;
          else l.productId = id;
        });
        if (Object.keys(fields).length) throw validationFailed(fields);
        const settings = await lockSettings(trx, ctx.companyId, ctx.now);
        const number = Number(settings.nir_next_number);
        await trx.updateTable('stock_settings').set({ nir_next_number: number + 1, updated_at: ctx.now }).where('company_id', '=', ctx.companyId).execute();
        const id = newId('nir');
        const lineRows: NirLinesTable[] = source.lines.map((l, i) => ({
          id: newId('nirl'), nir_id: id, position: i + 1, product_id: l.productId!, supplier_item: l.supplierItem,
          quantity_invoiced_milli: l.invoicedMilli, quantity_received_milli: l.receivedMilli, unit_cost_milli: l.unitCostMilli,
          value_bani: valueOf(l.receivedMilli, l.unitCostMilli), sale_price_bani: proposedSalePrice(l.unitCostMilli, Number(settings.markup_bp)),
        }));
        const row: NirsTable = {
          id, company_id: ctx.companyId, work_point_id: ctx.workPointId, warehouse_id: warehouseId, number, full_number: `${settings.nir_prefix}${number}`,
          date, supplier_bill_id: source.billId, supplier_name: source.supplierName, supplier_cui: source.supplierCui,
          document_number: source.documentNumber, total_cost_bani: lineRows.reduce((s, l) => s + l.value_bani, 0), created_at: ctx.now,
        };
        await trx.insertInto('nirs').values(row).execute();
        if (lineRows.length) await trx.insertInto('nir_lines').values(lineRows).execute();
        for (const l of source.lines) {
          await trx.insertInto('supplier_item_map')
            .values({ company_id: ctx.companyId, supplier_key: source.supplierKey, item_key: l.key, product_id: l.productId!, updated_at: ctx.now })
            .onConflict((oc) => oc.columns(['company_id', 'supplier_key', 'item_key']).doUpdateSet({ product_id: l.productId!, updated_at: ctx.now }))
            .execute();
        }
        await applyMoves(trx, { companyId: ctx.companyId, documentType: 'nir', documentId: id, date, now: ctx.now, warnings: ctx.warnings }, source.lines.map((l) => ({
          warehouseId, productId: l.productId!, quantityMilli: l.receivedMilli, unitCostMilli: l.unitCostMilli,
        })), ctx.locale);
        return nirView(row, lineRows);
      });
      return made;
    } catch (error) {
      // Two receptions of one bill at once: the unique index lets one through.
      if (source.billId && isUniqueViolation(error)) {
        const earlier = await ctx.db.selectFrom('nirs').select('full_number').where('company_id', '=', ctx.companyId).where('supplier_bill_id', '=', source.billId).executeTakeFirst();
        if (earlier) throw received(source.documentNumber ?? '', earlier.full_number);
      }
      throw error;
    }
  },
});

const received = (bill: string, nir: string) => new ApiError(409, 'invalid_request_error', 'nir_bill_received', { param: 'supplier_bill_id', vars: { bill, nir } });

const listNirs = defineRoute({
  method: 'GET', path: '/nirs', operationId: 'listNirs', summary: 'List the NIRs of the work point',
  tags: ['stock'], scope: 'stock:read', query: listQuery(['date', 'number', 'created_at'] as const), response: listPageSchema(zNir),
  handler: async (ctx) => {
    const base = ctx.db.selectFrom('nirs').selectAll().where('company_id', '=', ctx.companyId).where('work_point_id', '=', ctx.workPointId);
    const page = await paginate(base, ctx.query, {
      sortColumns: { date: 'date', number: 'number', created_at: 'created_at' }, defaultSort: 'number', defaultOrder: 'desc',
      searchColumns: ['full_number', 'supplier_name', 'document_number'], dateColumn: 'date', tieBreaker: 'id',
    });
    return { ...page, data: page.data.map((r) => nirView(r)) };
  },
});

const getNir = defineRoute({
  method: 'GET', path: '/nirs/:id', operationId: 'getNir', summary: 'Retrieve a NIR with its lines',
  tags: ['stock'], scope: 'stock:read', params: idParams, response: zNir, errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await ctx.db.selectFrom('nirs').selectAll().where('company_id', '=', ctx.companyId).where('id', '=', ctx.params.id).executeTakeFirst();
    if (!row) throw notFound('id');
    const lines = await ctx.db.selectFrom('nir_lines').selectAll().where('nir_id', '=', row.id).orderBy('position').execute();
    return nirView(row, lines);
  },
});

export const nirRoutes: AnyRoute[] = [createNir, listNirs, getNir];
