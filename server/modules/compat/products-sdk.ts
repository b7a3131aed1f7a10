import { z } from 'zod';
import { defineRoute, type AnyRoute, type HandlerContext } from '../../platform/route';
import { eachOf } from '../../platform/aliases';
import { ApiError, notFound, validationFailed } from '../../platform/errors';
import { fromMilli } from '../../../shared/invoice-math';
import { zProductReply, zProductUpdate, type ProductReply } from '../../../shared/schemas/product';
import { zClient, zClientCreate, type Client } from '../../../shared/schemas/client';
import { zImport, zImportUpload } from '../../../shared/schemas/import';
import type { zStockDocument } from '../../../shared/schemas/stock';
import { zId } from '../../../shared/schemas/common';
import type { Db } from '../../db/types';
import { catalogRoutes } from '../catalog/routes';
import { CLIENT_ALIASES, PRODUCT_ALIASES } from '../catalog/aliases';
import { insertClient } from '../catalog/clients';
import { toProduct } from '../catalog/products';
import { stockRoutes } from '../stock/routes';
import { IMPORT_BODY_LIMIT } from '../imports/routes';
import { commit, createImport, fileTooLarge } from '../imports/service';
import { callRoute, routeNamed } from './alias';
import { asItem, inTransaction } from './prefixed';

/**
 * Issue 18, the product and client calls of Contazen's SDK we lacked: the catalogue synced in one call,
 * imports under its names (our import of the first-day issue, uploaded and committed at once), and the
 * stock of a product set by a one-product inventory count (the stock module's count). Each maps onto a
 * route or service we already have; docs/contazen-compatibility.md lists them.
 */

const route = (operationId: string) => routeNamed([...catalogRoutes, ...stockRoutes], operationId);

type Ctx = HandlerContext<unknown, unknown, unknown>;

/** A product of the company named by its id or, as the SDK allows, by its SKU (our `code`); 404 otherwise. */
async function productByRef(db: Db, companyId: string, ref: string, param: string) {
  const byId = await db.selectFrom('products').selectAll().where('company_id', '=', companyId).where('id', '=', ref).executeTakeFirst();
  if (byId) return byId;
  const byCode = await db.selectFrom('products').selectAll().where('company_id', '=', companyId).where('code', '=', ref).executeTakeFirst();
  if (!byCode) throw notFound(param);
  return byCode;
}

// ---- Sync --------------------------------------------------------------------------------------

const MAX_BULK = 500;

const productSync = defineRoute({
  method: 'POST', path: '/products/sync', operationId: 'syncProducts', summary: 'Create or update many products at once, matched by SKU',
  description:
    'Contazen\'s `POST /products/sync`. `products`: up to 500 products with the members of `POST /products` (and its aliases: `sku`, ' +
    '`unit_of_measure`, `ubl_um`, `sell_price`). One with a `code` (`sku`) that a product of the firm has updates it as `PUT ' +
    '/products/{id}` does (only the members sent change); any other is created as `POST /products` creates it (`name` and `price` ' +
    'needed). All or nothing, in one transaction: a refusal names its member under `products.<n>` and nothing is written. The reply ' +
    'counts what was `created` and `updated` and lists every product as it now is, in the order sent.',
  tags: ['products', 'compat'], scope: 'products:write', create: true, successStatus: 200,
  body: z.object({ products: z.array(zProductUpdate).min(1).max(MAX_BULK) }),
  aliases: { body: [eachOf('products', PRODUCT_ALIASES)] },
  response: z.object({ object: z.literal('product_sync'), created: z.number().int(), updated: z.number().int(), products: z.array(zProductReply) }),
  errors: { duplicate_code: 409, duplicate_barcode: 409 },
  handler: async (ctx) => {
    const outcome = await ctx.db.transaction().execute(async (trx) => {
      const inner = inTransaction(ctx, trx);
      const products: ProductReply[] = [];
      let created = 0;
      for (const [i, item] of ctx.body.products.entries()) {
        const code = item.code?.trim();
        const existing = code
          ? await trx.selectFrom('products').select('id').where('company_id', '=', ctx.companyId).where('code', '=', code).executeTakeFirst()
          : undefined;
        products.push(await asItem(`products.${i}`, () => existing
          ? callRoute<ProductReply>(route('updateProduct'), inner, { params: { id: existing.id }, body: item })
          : callRoute<ProductReply>(route('createProduct'), inner, { body: item })));
        if (!existing) created += 1;
      }
      return { products, created };
    });
    return { object: 'product_sync' as const, created: outcome.created, updated: outcome.products.length - outcome.created, products: outcome.products };
  },
});

// ---- Imports -----------------------------------------------------------------------------------

const zExisting = z.enum(['update', 'skip']).optional();

/** Uploads the file as `POST /{kind}/imports` and commits it under the mapping proposed from its header, in one call. */
async function importAtOnce(ctx: Ctx, kind: 'products' | 'clients', body: z.output<typeof zImportUpload> & { existing?: 'update' | 'skip' | undefined }) {
  const row = await createImport(ctx.db, ctx.companyId, kind, body, ctx.now);
  const { view } = await commit(ctx.db, row, { existing: body.existing ?? 'update' }, ctx.locale, ctx.now);
  return view;
}

const IMPORT_DOC =
  'The file as `POST /{kind}/imports` takes it (`content` base64, `format` `csv` or `xlsx`, `file_name`), committed at once under ' +
  'the mapping proposed from its header row (as `POST /{kind}/imports/{id}/commit` with no mapping; `existing`: `update`, the ' +
  'default, or `skip`). All or nothing: a row with a problem answers 422 `import_rows_invalid` naming `rows.<row>.<member>` and ' +
  'nothing is written. The reply is the committed import with its `result`; `GET /{kind}/imports/{id}` reads it again.';

const IMPORT_ERRORS = {
  import_file_too_large: 413, import_not_spreadsheet: 422, import_xls_legacy: 422, import_empty: 422, import_too_many_rows: 422,
  import_csv_malformed: 422, import_workbook_too_large: 422, import_rows_invalid: 422, import_conflict: 409,
};

const productImport = defineRoute({
  method: 'POST', path: '/products/import', operationId: 'importProductsAtOnce', summary: 'Import products from a CSV or XLSX file in one call',
  description: `Contazen's \`POST /products/import\` (its SDK's \`importCsv\`). ${IMPORT_DOC.replaceAll('{kind}', 'products')}`,
  tags: ['products', 'imports', 'compat'], scope: 'products:write', create: true, successStatus: 200,
  body: zImportUpload.extend({ existing: zExisting }), response: zImport,
  bodyLimit: IMPORT_BODY_LIMIT, bodyTooLarge: (length) => fileTooLarge(Math.floor((length * 3) / 4)), errors: IMPORT_ERRORS,
  handler: async (ctx) => importAtOnce(ctx, 'products', ctx.body),
});

const zClientImportBody = z.object({
  /** The SDK's `importBulk`: clients as `POST /clients` takes them. */
  clients: z.array(zClientCreate).min(1).max(MAX_BULK).optional(),
  /** The SDK's `importCsv`: a file, as `POST /clients/imports` takes it. */
  content: zImportUpload.shape.content.optional(),
  format: zImportUpload.shape.format,
  file_name: zImportUpload.shape.file_name,
  existing: zExisting,
});

const ONE_OF = 'Send either `clients` (a list) or `content` (a file), one of them.|Trimiteți fie `clients` (o listă), fie `content` (un fișier), doar unul.';

const clientImport = defineRoute({
  method: 'POST', path: '/clients/import', operationId: 'importClientsAtOnce', summary: 'Create many clients, or import them from a file, in one call',
  description:
    'Contazen\'s `POST /clients/import`, which its SDK calls two ways. With `clients` (`importBulk`): up to 500 clients with the members ' +
    'of `POST /clients` (and its aliases), each created as `POST /clients` creates it, all in one transaction: a refusal names its member ' +
    'under `clients.<n>` and none is created; the reply is the list of clients created, in the order sent. With `content` ' +
    `(\`importCsv\`): ${IMPORT_DOC.replaceAll('{kind}', 'clients')} \`format\`, \`file_name\` and \`existing\` belong to the file.`,
  tags: ['clients', 'imports', 'compat'], scope: 'clients:write', create: true, successStatus: 200,
  body: zClientImportBody, aliases: { body: [eachOf('clients', CLIENT_ALIASES)] },
  response: z.union([z.array(zClient), zImport]),
  bodyLimit: IMPORT_BODY_LIMIT, bodyTooLarge: (length) => fileTooLarge(Math.floor((length * 3) / 4)), errors: IMPORT_ERRORS,
  handler: async (ctx) => {
    const { clients, content, format, file_name: fileName, existing } = ctx.body;
    if ((clients === undefined) === (content === undefined)) throw validationFailed({ [clients ? 'content' : 'clients']: ONE_OF });
    if (content !== undefined) {
      return importAtOnce(ctx, 'clients', { content, format, file_name: fileName, existing });
    }
    if (format !== undefined || fileName !== undefined || existing !== undefined) {
      throw validationFailed({ [format !== undefined ? 'format' : fileName !== undefined ? 'file_name' : 'existing']: 'Belongs to a file (`content`), not to a list of clients.|Ține de un fișier (`content`), nu de o listă de clienți.' });
    }
    return ctx.db.transaction().execute(async (trx) => {
      const made: Client[] = [];
      for (const [i, client] of clients!.entries()) {
        made.push((await asItem(`clients.${i}`, () => insertClient(trx, ctx.companyId, client, ctx.now, ctx.locale))).client);
      }
      return made;
    });
  },
});

// ---- Stock -------------------------------------------------------------------------------------

type StockDocument = z.infer<typeof zStockDocument>;

/** The quantity of a product over the work point's warehouses (or one warehouse), from the stock levels. */
async function quantityOf(db: Db, companyId: string, warehouseIds: string[], productId: string): Promise<number> {
  if (!warehouseIds.length) return 0;
  const rows = await db.selectFrom('stock_levels').select('quantity_milli')
    .where('company_id', '=', companyId).where('product_id', '=', productId).where('warehouse_id', 'in', warehouseIds).execute();
  return fromMilli(rows.reduce((sum, r) => sum + Number(r.quantity_milli), 0));
}

async function workPointWarehouses(db: Db, companyId: string, workPointId: string): Promise<string[]> {
  return (await db.selectFrom('warehouses').select('id').where('company_id', '=', companyId).where('work_point_id', '=', workPointId).execute()).map((w) => w.id);
}

/** Checked to the thousandth by the count's own schema. */
const zQuantity = z.number().min(0).max(1_000_000_000);

const COUNT_DOC =
  'Booked as an inventory count (`POST /stock-counts`) in `warehouse_id`, by default the work point\'s default warehouse: the ' +
  'difference from the stock goes in or out at the average cost, and the count is listed by `GET /stock-counts`. A product that ' +
  'never entered that warehouse has no cost yet: receive it first with a NIR (`POST /nirs`); a service has no stock (both 422).';

const zStockProduct = zProductReply.extend({
  /** Always true here: the product is stocked. */
  track_stock: z.literal(true),
  /** The quantity in the warehouse counted, after the count. */
  stock_quantity: z.number(),
  warehouse_id: z.string(),
  /** The count that set it. */
  stock_count_id: z.string(),
});

const updateStock = defineRoute({
  method: 'POST', path: '/products/:id/stock', operationId: 'setProductStock', summary: 'Set the stock quantity of a product (an inventory count of one product)',
  description: `Contazen's \`POST /products/{id or sku}/stock\`: the path names the product by id or by SKU (our \`code\`); \`quantity\` is what is on the shelf. ${COUNT_DOC} The reply is the product with \`stock_quantity\`.`,
  tags: ['products', 'stock', 'compat'], scope: 'stock:write', create: true, successStatus: 200,
  params: z.object({ id: z.string().min(1).max(64) }),
  body: z.object({ quantity: zQuantity, warehouse_id: zId.optional() }),
  response: zStockProduct, errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const product = await productByRef(ctx.db, ctx.companyId, ctx.params.id, 'id');
    if ((await neverReceived(ctx.db, ctx.companyId, ctx.workPointId, ctx.body.warehouse_id, [product.id])).size) {
      throw validationFailed({ quantity: NEVER_RECEIVED });
    }
    const count = await countAs(ctx, {
      ...(ctx.body.warehouse_id ? { warehouse_id: ctx.body.warehouse_id } : {}), note: 'Contazen API: stock', lines: [{ product_id: product.id, quantity: ctx.body.quantity }],
    }, () => 'quantity');
    return {
      ...toProduct(product), track_stock: true as const, stock_quantity: await quantityOf(ctx.db, ctx.companyId, [count.warehouse_id], product.id),
      warehouse_id: count.warehouse_id, stock_count_id: count.id,
    };
  },
});

const NEVER_RECEIVED =
  'This product never entered this warehouse, so it has no cost yet: receive it first with a NIR (POST /nirs).|' +
  'Acest produs nu a intrat niciodată în această gestiune, deci nu are încă un cost: recepționați-l întâi cu un NIR (POST /nirs).';

/**
 * The products of `ids` that never entered the warehouse a count would use (`warehouseId`, else the
 * work point's default one): said before the count, in words that tell the caller what to do.
 */
async function neverReceived(db: Db, companyId: string, workPointId: string, warehouseId: string | undefined, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  let warehouses = db.selectFrom('warehouses').select('id').where('company_id', '=', companyId);
  warehouses = warehouseId !== undefined ? warehouses.where('id', '=', warehouseId) : warehouses.where('default_of', '=', workPointId);
  const warehouse = (await warehouses.executeTakeFirst())?.id;
  // A warehouse named but not the firm's is the count's 404 to answer.
  if (warehouseId !== undefined && !warehouse) return new Set();
  // A service has no stock at all: the count says so itself.
  const goods = (await db.selectFrom('products').select('id').where('company_id', '=', companyId).where('id', 'in', ids).where('is_service', '=', 0).execute()).map((p) => p.id);
  if (!warehouse || !goods.length) return new Set(goods);
  const stocked = await db.selectFrom('stock_levels').select('product_id').where('warehouse_id', '=', warehouse).where('product_id', 'in', goods).execute();
  const known = new Set(stocked.map((r) => r.product_id));
  return new Set(goods.filter((id) => !known.has(id)));
}

/** Runs the inventory count; its errors name `lines.<n>.…`, which are the caller's `name(n)`. */
async function countAs(ctx: Ctx, body: Record<string, unknown>, name: (line: number) => string): Promise<StockDocument> {
  try {
    return await callRoute<StockDocument>(route('createStockCount'), ctx, { body });
  } catch (error) {
    if (!(error instanceof ApiError) || !error.options.fields) throw error;
    const fields = Object.fromEntries(Object.entries(error.options.fields).map(([k, v]) => {
      const line = /^lines\.(\d+)\./.exec(k);
      return [line ? name(Number(line[1])) : k, v];
    }));
    throw new ApiError(error.status, error.type, error.code, { ...error.options, fields, param: Object.keys(fields)[0] ?? error.options.param });
  }
}

const zStockUpdate = z.object({
  /** The product by SKU (our `code`), as the SDK sends it... */
  sku: z.string().min(1).max(64).optional(),
  /** ...or by id. */
  product_id: zId.optional(),
  quantity: zQuantity,
});

const stockBulk = defineRoute({
  method: 'POST', path: '/products/stock-bulk', operationId: 'setProductsStock', summary: 'Set the stock quantity of many products (one inventory count)',
  description:
    `Contazen's \`POST /products/stock-bulk\`. \`updates\`: up to 500 of \`{sku or product_id, quantity}\`, one count with a line each. ${COUNT_DOC} ` +
    'All or nothing: an unknown SKU or a product refused by the count names `updates.<n>`. The reply lists, per update in the order ' +
    'sent, the product, its quantity before and after, and the count.',
  tags: ['products', 'stock', 'compat'], scope: 'stock:write', create: true, successStatus: 200,
  body: z.object({ updates: z.array(zStockUpdate).min(1).max(MAX_BULK), warehouse_id: zId.optional() }),
  response: z.array(z.object({
    object: z.literal('stock_update'), product_id: z.string(), sku: z.string().nullable(), previous_quantity: z.number(), quantity: z.number(),
    warehouse_id: z.string(), stock_count_id: z.string(),
  })),
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const fields: Record<string, string> = {};
    const ids: string[] = [];
    for (const [i, u] of ctx.body.updates.entries()) {
      if ((u.sku === undefined) === (u.product_id === undefined)) {
        fields[`updates.${i}.sku`] = 'Name the product by `sku` or by `product_id`, one of them.|Numiți produsul prin `sku` sau prin `product_id`, doar unul.';
        continue;
      }
      const found = await productByRef(ctx.db, ctx.companyId, (u.product_id ?? u.sku)!, 'x').catch(() => undefined);
      if (!found || (u.product_id !== undefined && found.id !== u.product_id)) {
        fields[`updates.${i}.${u.sku !== undefined ? 'sku' : 'product_id'}`] = 'No product of the firm has it.|Niciun produs al firmei nu îl are.';
      } else {
        ids.push(found.id);
      }
    }
    if (Object.keys(fields).length) throw validationFailed(fields);
    const fresh = await neverReceived(ctx.db, ctx.companyId, ctx.workPointId, ctx.body.warehouse_id, ids);
    ctx.body.updates.forEach((u, i) => {
      if (fresh.has(ids[i]!)) fields[`updates.${i}.${u.sku !== undefined ? 'sku' : 'product_id'}`] = NEVER_RECEIVED;
    });
    if (Object.keys(fields).length) throw validationFailed(fields);
    const count = await countAs(ctx, {
      ...(ctx.body.warehouse_id ? { warehouse_id: ctx.body.warehouse_id } : {}), note: 'Contazen API: stock-bulk',
      lines: ctx.body.updates.map((u, i) => ({ product_id: ids[i]!, quantity: u.quantity })),
    }, (line) => `updates.${line}.${ctx.body.updates[line]?.sku !== undefined ? 'sku' : 'product_id'}`);
    const codes = new Map((await ctx.db.selectFrom('products').select(['id', 'code']).where('company_id', '=', ctx.companyId).where('id', 'in', ids).execute()).map((p) => [p.id, p.code]));
    return count.lines.map((l) => ({
      object: 'stock_update' as const, product_id: l.product_id, sku: codes.get(l.product_id) ?? null, previous_quantity: l.expected ?? 0,
      quantity: l.quantity, warehouse_id: count.warehouse_id, stock_count_id: count.id,
    }));
  },
});

const zStockLevelBySku = z.object({
  object: z.literal('product_stock'), product_id: z.string(), sku: z.string(), name: z.string(), unit: z.string(), is_service: z.boolean(),
  /** Summed over the work point's warehouses (or `warehouse_id`'s); 0 for a product that never moved. */
  quantity: z.number(),
});

const stockLevels = defineRoute({
  method: 'POST', path: '/products/stock-levels', operationId: 'getProductsStockBySku', summary: 'The stock of products named by SKU',
  description:
    'Contazen\'s `POST /products/stock-levels`. `skus`: up to 500 SKUs (our `code`). The reply maps each SKU sent to its product\'s ' +
    'quantity over the work point\'s warehouses (or `warehouse_id`\'s), from the levels `GET /stock` lists; an SKU no product of ' +
    'the firm has maps to null, said rather than left out.',
  tags: ['products', 'stock', 'compat'], scope: 'stock:read',
  body: z.object({ skus: z.array(z.string().min(1).max(64)).min(1).max(MAX_BULK), warehouse_id: zId.optional() }),
  response: z.record(z.string(), zStockLevelBySku.nullable()),
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const warehouses = ctx.body.warehouse_id
      ? (await ctx.db.selectFrom('warehouses').select('id').where('company_id', '=', ctx.companyId).where('id', '=', ctx.body.warehouse_id).execute()).map((w) => w.id)
      : await workPointWarehouses(ctx.db, ctx.companyId, ctx.workPointId);
    if (ctx.body.warehouse_id && !warehouses.length) throw notFound('warehouse_id');
    const skus = [...new Set(ctx.body.skus)];
    const products = await ctx.db.selectFrom('products').select(['id', 'code', 'name', 'unit', 'is_service'])
      .where('company_id', '=', ctx.companyId).where('code', 'in', skus).execute();
    const byCode = new Map(products.map((p) => [p.code!, p]));
    const levels = warehouses.length && products.length
      ? await ctx.db.selectFrom('stock_levels').select(['product_id', 'quantity_milli'])
        .where('company_id', '=', ctx.companyId).where('warehouse_id', 'in', warehouses).where('product_id', 'in', products.map((p) => p.id)).execute()
      : [];
    const milli = new Map<string, number>();
    for (const l of levels) milli.set(l.product_id, (milli.get(l.product_id) ?? 0) + Number(l.quantity_milli));
    const out: Record<string, z.input<typeof zStockLevelBySku> | null> = {};
    for (const sku of skus) {
      const p = byCode.get(sku);
      out[sku] = p
        ? { object: 'product_stock', product_id: p.id, sku, name: p.name, unit: p.unit, is_service: Number(p.is_service) === 1, quantity: fromMilli(milli.get(p.id) ?? 0) }
        : null;
    }
    return out;
  },
});

export const productsSdkRoutes: AnyRoute[] = [productSync, productImport, clientImport, updateStock, stockBulk, stockLevels];
