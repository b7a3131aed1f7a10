import { createNir, listStockMovements } from '../api/endpoints';
import { sql } from '../db/sql';
import { AppError } from '../errors';
import { getProductRow } from '../local/products';
import { listStockLevels } from '../local/stock/list';
import { bpToPercent } from '../../shared/invoice-math';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

const notOnService = 'The product is not on the service yet: wait for the sync, then try again.|Produsul nu este încă pe serviciu: așteptați sincronizarea și încercați din nou.';

export function stockHandlers(s: MainServices): HandlerGroup<'stock.levels' | 'stock.movements' | 'stock.createNir'> {
  const warehouseName = (id: string) => s.store.reader.get<{ name: string }>(sql`SELECT name FROM stock_warehouses WHERE id = ${id}`)?.name ?? id;
  return {
    'stock.levels': (input) => listStockLevels(s.ctx, input),
    'stock.movements': async ({ product_id, page }) => {
      const product = getProductRow(s.store.reader, product_id);
      if (!product) throw new AppError('not_found', 'not_found', 'Product not found');
      // Made here and not sent yet: the service has moved nothing of it.
      if (!product.server_id) return { items: [], has_more: false };
      const serverId = product.server_id;
      const list = await s.engine.withService(({ api }) => listStockMovements(api, serverId, page));
      return {
        has_more: list.has_more,
        items: list.data.map((m) => ({
          id: m.id, date: m.date, document_type: m.document_type, warehouse_name: warehouseName(m.warehouse_id),
          document_label: m.document_type === 'invoice' || m.document_type === 'storno'
            ? (s.store.reader.get<{ full_number: string | null }>(sql`SELECT full_number FROM invoices WHERE server_id = ${m.document_id}`)?.full_number ?? null)
            : null,
          quantity: m.quantity, unit_cost: m.unit_cost, value: m.value,
        })),
      };
    },
    'stock.createNir': async (input) => {
      const products = input.lines.map((l) => getProductRow(s.store.reader, l.product_id));
      const fields: Record<string, string> = {};
      products.forEach((p, i) => {
        if (!p) fields[`lines.${i}.product_id`] = 'No such product.|Produsul nu există.';
        else if (p.is_service === 1) fields[`lines.${i}.product_id`] = `"${p.name}" is a service: it has no stock.|„${p.name}” este un serviciu: nu are stoc.`;
        else if (!p.server_id) fields[`lines.${i}.product_id`] = notOnService;
      });
      if (Object.keys(fields).length) throw new AppError('validation_error', 'invalid_payload', 'Invalid input', fields);
      const body = {
        supplier: { name: input.supplier_name, ...(input.supplier_cui ? { cui: input.supplier_cui } : {}) },
        document_number: input.document_number,
        ...(input.date ? { date: input.date } : {}),
        lines: input.lines.map((l, i) => ({
          supplier_item: products[i]!.name, product_id: products[i]!.server_id, quantity_invoiced: l.quantity_invoiced,
          ...(l.quantity_received !== undefined ? { quantity_received: l.quantity_received } : {}), unit_cost: l.unit_cost,
        })),
      };
      // The form's request id is the Idempotency-Key: pressing again after a lost reply answers the same NIR.
      const nir = await s.engine.withService(({ api }) => createNir(api, body, input.request_id));
      // The counter sees the received goods now, not at the next pass.
      await s.engine.pullNow(['stock_levels']).catch(() => 0);
      return {
        nir,
        warehouse_name: warehouseName(nir.warehouse_id),
        lines: products.map((p) => ({
          name: p!.name, unit: p!.unit, vat_rate: bpToPercent(p!.vat_rate_bp), price_bani: p!.price_bani, price_includes_vat: p!.price_includes_vat === 1,
        })),
      };
    },
  };
}
