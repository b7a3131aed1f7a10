import type { z } from 'zod';
import { fromBani } from '../../shared/money';
import { bpToPercent, percentToBp } from '../../shared/invoice-math';
import type { ProductView, zProductInput, zProductPatch } from '../../shared/ipc/contract';
import type { ProductRow } from '../db/rows';
import { sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { notFound } from '../errors';
import { enqueue, isMutable, openItemsOf, rewrite } from '../sync/outbox';
import { foldForSearch } from '../../shared/text/search-fold';
import type { LocalContext } from './context';
import { likePattern, recordSync, recordSyncs } from './records';
import { stockOf } from './stock/levels';
import { fromMilli } from '../../shared/invoice-math';

type ProductInput = z.output<typeof zProductInput>;
type ProductPatch = z.output<typeof zProductPatch>;

function wireBody(row: ProductRow): Record<string, unknown> {
  return {
    name: row.name, code: row.code, barcode: row.barcode, unit: row.unit, unit_code: row.unit_code, price: fromBani(row.price_bani),
    price_includes_vat: row.price_includes_vat === 1, vat_rate: bpToPercent(row.vat_rate_bp), currency: row.currency,
    is_service: row.is_service === 1,
  };
}

const WIRE_KEY: Record<keyof ProductPatch, string> = {
  name: 'name', code: 'code', barcode: 'barcode', unit: 'unit', unit_code: 'unit_code', price_bani: 'price', price_includes_vat: 'price_includes_vat',
  vat_rate: 'vat_rate', currency: 'currency', is_service: 'is_service',
};

export function getProductRow(db: ReadDb, id: string): ProductRow | undefined {
  return db.get<ProductRow>(sql`SELECT * FROM products WHERE id = ${id} AND is_deleted = 0`);
}

function toView(row: ProductRow, sync: ProductView['sync'], stockMilli: number | null = null): ProductView {
  return {
    id: row.id, name: row.name, code: row.code, barcode: row.barcode, unit: row.unit, unit_code: row.unit_code, price_bani: row.price_bani,
    price_includes_vat: row.price_includes_vat === 1, vat_rate: bpToPercent(row.vat_rate_bp), currency: row.currency,
    is_service: row.is_service === 1, created_at: row.created_at, updated_at: row.updated_at, sync,
    stock: stockMilli === null ? null : fromMilli(stockMilli),
  };
}

export function productView(db: ReadDb, row: ProductRow): ProductView {
  return toView(row, recordSync(db, 'product', row), stockOf(db, [row]).get(row.id) ?? null);
}

export function createProduct(ctx: LocalContext, input: ProductInput): ProductView {
  const id = ctx.uuid();
  const now = ctx.clock.now();
  return ctx.store.write((db) => {
    db.run(sql`INSERT INTO products (id, server_id, client_local_uuid, name, code, barcode, unit, unit_code, price_bani, price_includes_vat,
               vat_rate_bp, currency, is_service, created_at, updated_at)
               VALUES (${id}, NULL, ${id}, ${input.name}, ${input.code ?? null}, ${input.barcode || null}, ${input.unit}, ${input.unit_code}, ${input.price_bani},
               ${input.price_includes_vat}, ${percentToBp(input.vat_rate)}, ${input.currency}, ${input.is_service}, ${now}, ${now})`);
    const row = getProductRow(db, id)!;
    enqueue(db, ctx, {
      kind: 'product.create',
      entityType: 'product',
      entityId: id,
      // No client_local_uuid: the service's products have none (it was dropped unread, and is now refused
      // as unknown); a retried create is recognised by the outbox item's Idempotency-Key.
      request: { method: 'POST', path: '/products', body: wireBody(row), create: true, refs: [], label: `Produs ${row.name}` },
    });
    return productView(db, row);
  });
}

export function updateProduct(ctx: LocalContext, id: string, patch: ProductPatch): ProductView {
  const now = ctx.clock.now();
  return ctx.store.write((db) => {
    const before = getProductRow(db, id);
    if (!before) throw notFound('Product');
    db.run(sql`UPDATE products SET
               name = ${patch.name ?? before.name},
               code = ${patch.code === undefined ? before.code : patch.code},
               barcode = ${patch.barcode === undefined ? before.barcode : patch.barcode || null},
               unit = ${patch.unit ?? before.unit},
               unit_code = ${patch.unit_code ?? before.unit_code},
               price_bani = ${patch.price_bani ?? before.price_bani},
               price_includes_vat = ${patch.price_includes_vat ?? before.price_includes_vat === 1},
               vat_rate_bp = ${patch.vat_rate !== undefined ? percentToBp(patch.vat_rate) : before.vat_rate_bp},
               currency = ${patch.currency ?? before.currency},
               is_service = ${patch.is_service ?? before.is_service === 1},
               updated_at = ${now}
               WHERE id = ${id}`);
    const row = getProductRow(db, id)!;
    queueProductChange(db, ctx, row, patch);
    return productView(db, row);
  });
}

function queueProductChange(db: WriteDb, ctx: LocalContext, row: ProductRow, patch: ProductPatch): void {
  const open = openItemsOf(db, 'product', row.id);
  const create = open.find((i) => i.kind === 'product.create');
  if (create && isMutable(create)) {
    rewrite(db, ctx, create.id, { ...create.request, body: wireBody(row), label: `Produs ${row.name}` });
    return;
  }
  const full = wireBody(row);
  const sent: Record<string, unknown> = {};
  for (const key of Object.keys(patch) as Array<keyof ProductPatch>) {
    if (patch[key] !== undefined) sent[WIRE_KEY[key]] = full[WIRE_KEY[key]];
  }
  const lastUpdate = [...open].reverse().find((i) => i.kind === 'product.update');
  if (lastUpdate && isMutable(lastUpdate)) {
    rewrite(db, ctx, lastUpdate.id, { ...lastUpdate.request, body: { ...(lastUpdate.request.body as object), ...sent } });
    return;
  }
  if (Object.keys(sent).length === 0) return;
  enqueue(db, ctx, {
    kind: 'product.update',
    entityType: 'product',
    entityId: row.id,
    request: { method: 'PUT', path: '/products/:id', body: sent, create: false, refs: [{ at: ':id', type: 'product', id: row.id }], label: `Produs ${row.name}` },
  });
}

export function getProduct(ctx: LocalContext, id: string): ProductView {
  const row = getProductRow(ctx.store.reader, id);
  if (!row) throw notFound('Product');
  return productView(ctx.store.reader, row);
}

/** The products carrying exactly this code or barcode (two index lookups; never a name match). */
function productsWithCode(db: ReadDb, code: string, limit: number): ProductView[] {
  const exact = db.all<ProductRow>(sql`SELECT * FROM products WHERE is_deleted = 0 AND (code = ${code} OR barcode = ${code}) ORDER BY name COLLATE NOCASE, id LIMIT ${limit}`);
  const syncs = recordSyncs(db, 'product', exact);
  const stock = stockOf(db, exact);
  return exact.map((r) => toView(r, syncs.get(r.id)!, stock.get(r.id) ?? null));
}

/**
 * The counter's scan lookup: the product whose code or barcode is exactly `code`, or null. Cheap enough
 * to be asked at every character a scanner types, so the answer is there when its Enter arrives.
 */
export function productByCode(ctx: LocalContext, code: string): ProductView | null {
  const typed = code.trim();
  if (!typed) return null;
  return ctx.store.snapshot((db) => productsWithCode(db, typed, 1)[0] ?? null);
}

export function listProducts(ctx: LocalContext, input: { search?: string | undefined; limit: number; offset: number }): { items: ProductView[]; total: number } {
  return ctx.store.snapshot((db) => {
    const typed = input.search?.trim() ?? '';
    // A scanner types an exact code or barcode: that product alone is the answer, never the products
    // whose names happen to contain those digits.
    if (typed && input.offset === 0) {
      const exact = productsWithCode(db, typed, input.limit);
      if (exact.length > 0) return { items: exact, total: exact.length };
    }
    // Name, code and barcode folded like the stored column (migration 0010): "cana" finds "Cană".
    const term = foldForSearch(typed);
    const where = term ? sql`is_deleted = 0 AND search_text LIKE ${likePattern(term)} ESCAPE '\\'` : sql`is_deleted = 0`;
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM products WHERE ${where}`)?.n ?? 0;
    const rows = db.all<ProductRow>(sql`SELECT * FROM products WHERE ${where} ORDER BY name COLLATE NOCASE, id LIMIT ${input.limit} OFFSET ${input.offset}`);
    const syncs = recordSyncs(db, 'product', rows);
    const stock = stockOf(db, rows);
    return { items: rows.map((r) => toView(r, syncs.get(r.id)!, stock.get(r.id) ?? null)), total };
  });
}
