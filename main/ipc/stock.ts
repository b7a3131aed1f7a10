import type { z } from 'zod';
import {
  createNir, createStockCount, createStockTransfer, getNir, getStockSettings, getSupplierBillWithLines, listNirs, listStockMovements,
} from '../api/endpoints';
import type { ProductRow } from '../db/rows';
import { inList, sql } from '../db/sql';
import { AppError } from '../errors';
import { getProductRow } from '../local/products';
import { bookLevels, productByCode, requestKey } from '../local/stock/book';
import { NEGATIVE_RULE_TTL_MS, readNegativeRule, storeNegativeRule } from '../local/stock/negative-rule';
import { stockOf } from '../local/stock/levels';
import { listStockLevels } from '../local/stock/list';
import { bpToPercent, fromMilli } from '../../shared/invoice-math';
import { toBani } from '../../shared/money';
import type { NirView, StockDocumentView } from '../../shared/ipc/contract-stock';
import type { zNir, zStockDocument } from '../../shared/schemas/stock';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

const notOnService = 'The product is not on the service yet: wait for the sync, then try again.|Produsul nu este încă pe serviciu: așteptați sincronizarea și încercați din nou.';

type Channels =
  | 'stock.levels' | 'stock.movements' | 'stock.createNir' | 'stock.warehouses' | 'stock.scan' | 'stock.bookLevels' | 'stock.createCount'
  | 'stock.createTransfer' | 'stock.nirs' | 'stock.nir' | 'stock.billForNir' | 'stock.nirFromBill' | 'stock.cartStock';

export function stockHandlers(s: MainServices): HandlerGroup<Channels> {
  const warehouseName = (id: string) => s.store.reader.get<{ name: string }>(sql`SELECT name FROM stock_warehouses WHERE id = ${id}`)?.name ?? id;
  const byServerId = (ids: readonly string[]) =>
    new Map(ids.length ? s.store.reader.all<ProductRow>(sql`SELECT * FROM products WHERE server_id IN ${inList([...new Set(ids)])}`).map((p) => [p.server_id!, p]) : []);
  /** Local products by id, each checked to be goods known to the service: a 422 naming the line otherwise. */
  const goodsOnService = (ids: readonly string[]): ProductRow[] => {
    const products = ids.map((id) => getProductRow(s.store.reader, id));
    const fields: Record<string, string> = {};
    products.forEach((p, i) => {
      if (!p) fields[`lines.${i}.product_id`] = 'No such product.|Produsul nu există.';
      else if (p.is_service === 1) fields[`lines.${i}.product_id`] = `"${p.name}" is a service: it has no stock.|„${p.name}” este un serviciu: nu are stoc.`;
      else if (!p.server_id) fields[`lines.${i}.product_id`] = notOnService;
    });
    if (Object.keys(fields).length) throw new AppError('validation_error', 'invalid_payload', 'Invalid input', fields);
    return products as ProductRow[];
  };
  /** A count or transfer as booked, its lines named from this device's products (the service's ids swapped back). */
  const documentView = (doc: z.infer<typeof zStockDocument>): StockDocumentView => {
    const local = byServerId(doc.lines.map((l) => l.product_id));
    return {
      id: doc.id, kind: doc.object === 'stock_count' ? 'count' : 'transfer', date: doc.date, warehouse_name: warehouseName(doc.warehouse_id),
      to_warehouse_name: doc.to_warehouse_id ? warehouseName(doc.to_warehouse_id) : null,
      lines: doc.lines.map((l) => ({
        name: local.get(l.product_id)?.name ?? l.product_id, unit: local.get(l.product_id)?.unit ?? '', quantity: l.quantity,
        expected: l.expected ?? null, difference: l.difference ?? null,
      })),
    };
  };
  /** A NIR from the service with what the printed form needs of each line's product (the proposed price when the product is not here). */
  const nirView = (nir: z.infer<typeof zNir>): NirView => {
    const local = byServerId((nir.lines ?? []).map((l) => l.product_id));
    return {
      nir,
      warehouse_name: warehouseName(nir.warehouse_id),
      lines: (nir.lines ?? []).map((l) => {
        const p = local.get(l.product_id);
        return p
          ? { name: p.name, unit: p.unit, vat_rate: bpToPercent(p.vat_rate_bp), price_bani: p.price_bani, price_includes_vat: p.price_includes_vat === 1 }
          : { name: l.supplier_item, unit: 'buc', vat_rate: 0, price_bani: toBani(l.proposed_sale_price), price_includes_vat: false };
      }),
    };
  };
  // When the rule could not be read (a key without stock:read, a service older than stock): not asked again before the TTL.
  let ruleTriedAt = 0;
  /** After a booking the counter sees the new levels now, not at the next pass. */
  const pullLevels = () => s.engine.pullNow(['stock_levels']).catch(() => 0);
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
    'stock.warehouses': () =>
      s.store.reader.all<{ id: string; name: string; is_default: number }>(sql`SELECT id, name, is_default FROM stock_warehouses ORDER BY is_default DESC, name COLLATE NOCASE`)
        .map((w) => ({ id: w.id, name: w.name, is_default: w.is_default === 1 })),
    'stock.scan': ({ warehouse_id, code }) => {
      const p = productByCode(s.store.reader, code);
      if (!p) return null;
      if (p.is_service === 1) throw new AppError('validation_error', 'product_is_service', `"${p.name}" is a service: it has no stock.|„${p.name}” este un serviciu: nu are stoc.`);
      const book = bookLevels(s.store.reader, warehouse_id, [p]).get(p.id) ?? null;
      return { product_id: p.id, name: p.name, code: p.code, barcode: p.barcode, unit: p.unit, book_quantity: book === null ? null : fromMilli(book) };
    },
    'stock.bookLevels': ({ warehouse_id, product_ids }) => {
      const rows = product_ids.map((id) => getProductRow(s.store.reader, id)).filter((p): p is ProductRow => !!p);
      const book = bookLevels(s.store.reader, warehouse_id, rows);
      return product_ids.map((id) => {
        const q = book.get(id);
        return { product_id: id, book_quantity: q === undefined || q === null ? null : fromMilli(q) };
      });
    },
    'stock.createCount': async (input) => {
      const products = goodsOnService(input.lines.map((l) => l.product_id));
      const body = {
        warehouse_id: input.warehouse_id, ...(input.note ? { note: input.note } : {}),
        lines: input.lines.map((l, i) => ({ product_id: products[i]!.server_id!, quantity: l.quantity })),
      };
      const doc = await s.engine.withService(({ api }) => createStockCount(api, body, requestKey(input.request_id, body)));
      await pullLevels();
      return documentView(doc);
    },
    'stock.createTransfer': async (input) => {
      const products = goodsOnService(input.lines.map((l) => l.product_id));
      const body = {
        from_warehouse_id: input.from_warehouse_id, to_warehouse_id: input.to_warehouse_id, ...(input.note ? { note: input.note } : {}),
        lines: input.lines.map((l, i) => ({ product_id: products[i]!.server_id!, quantity: l.quantity })),
      };
      const doc = await s.engine.withService(({ api }) => createStockTransfer(api, body, requestKey(input.request_id, body)));
      await pullLevels();
      return documentView(doc);
    },
    'stock.nirs': async ({ page, search }) => {
      const list = await s.engine.withService(({ api }) => listNirs(api, page, search));
      return {
        has_more: list.has_more,
        items: list.data.map((n) => ({
          id: n.id, full_number: n.full_number, date: n.date, supplier_name: n.supplier_name, document_number: n.document_number,
          total_cost: n.total_cost, from_bill: n.supplier_bill_id !== null,
        })),
      };
    },
    'stock.nir': async ({ id }) => nirView(await s.engine.withService(({ api }) => getNir(api, id))),
    'stock.billForNir': async ({ bill_id }) => {
      const { supplier_bill: bill } = await s.engine.withService(({ api }) => getSupplierBillWithLines(api, bill_id));
      // Found by the bill's number, then by its id: the service's list searches numbers, not bill ids.
      const earlier = await s.engine.withService(({ api }) => listNirs(api, 1, bill.invoice_number));
      return {
        bill_id: bill.id, invoice_number: bill.invoice_number, supplier_name: bill.supplier?.name ?? '', issue_date: bill.issue_date,
        nir_number: earlier.data.find((n) => n.supplier_bill_id === bill.id)?.full_number ?? null,
        lines: (bill.lines ?? []).map((l) => ({ line_id: l.line_id, name: l.name, quantity: l.quantity, unit_code: l.unit_code, net: l.net })),
      };
    },
    'stock.nirFromBill': async (input) => {
      const picked = input.lines.filter((l) => l.product_id);
      const products = goodsOnService(picked.map((l) => l.product_id!));
      const serverOf = new Map(picked.map((l, i) => [l.line_id, products[i]!.server_id!]));
      const body = {
        supplier_bill_id: input.bill_id,
        lines: input.lines
          .filter((l) => l.product_id || l.quantity_received !== undefined)
          .map((l) => ({
            line_id: l.line_id, ...(serverOf.has(l.line_id) ? { product_id: serverOf.get(l.line_id)! } : {}),
            ...(l.quantity_received !== undefined ? { quantity_received: l.quantity_received } : {}),
          })),
      };
      const nir = await s.engine.withService(({ api }) => createNir(api, body, requestKey(input.request_id, body)));
      await pullLevels();
      return nirView(nir);
    },
    'stock.cartStock': async ({ product_ids }) => {
      const rule = readNegativeRule(s.store.reader);
      // Asked of the service when not known or old, and only while online: offline the counter keeps the last rule it read.
      const stale = !rule || Date.now() - rule.read_at > NEGATIVE_RULE_TTL_MS;
      if (stale && Date.now() - ruleTriedAt > NEGATIVE_RULE_TTL_MS && s.engine.status().mode === 'online') {
        try {
          const settings = await s.engine.withService(({ api }) => getStockSettings(api));
          s.store.write((db) => storeNegativeRule(db, settings.negative_stock, Date.now()));
          ruleTriedAt = 0;
        } catch {
          ruleTriedAt = Date.now();
          // A key without stock:read or a service older than stock: no rule, the warning stays the default's.
        }
      }
      const rows = product_ids.map((id) => getProductRow(s.store.reader, id)).filter((p): p is ProductRow => !!p);
      const levels = stockOf(s.store.reader, rows);
      return {
        negative_stock: readNegativeRule(s.store.reader)?.value ?? null,
        levels: product_ids.map((id) => {
          const q = levels.get(id);
          return { product_id: id, quantity: q === undefined || q === null ? null : fromMilli(q) };
        }),
      };
    },
  };
}
