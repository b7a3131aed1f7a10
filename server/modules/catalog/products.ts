import { z } from 'zod';
import { fromBani, toBani } from '../../../shared/money';
import { zProductCreate, zProductReply, zProductUpdate, type ProductReply } from '../../../shared/schemas/product';
import type { Db } from '../../db/types';
import { conflict, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { changesListQuery, listPageSchema, mapPage, preparedList } from '../../platform/list';
import { recordDeletion } from '../../platform/tombstones';
import type { Locale } from '../../platform/locale';
import { defineRoute } from '../../platform/route';
import { PRODUCT_ALIASES } from './aliases';
import type { ProductsTable } from './tables';
import { bpToPercent, createdOn, fromFlag, invalidFields, percentToBp, textOrNull, toFlag, zIdParams } from './common';
import { zDeleted } from '../../platform/envelope';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db-errors';
import { isCurrencyEnabled } from './currencies';
import { isVatRateAllowed } from './vat-rates';
import { PRODUCTS_SEARCH } from './migrations/0131_products_search_barcode';

export function toProduct(row: ProductsTable): ProductReply {
  return {
    id: row.id,
    object: 'product',
    name: row.name,
    code: row.code,
    // Contazen's name of `code`, repeated in every reply (zProductReply).
    sku: row.code,
    barcode: row.barcode ?? null,
    unit: row.unit,
    unit_code: row.unit_code,
    price: fromBani(row.price),
    price_includes_vat: fromFlag(row.price_includes_vat),
    vat_rate: bpToPercent(row.vat_rate_bp),
    currency: row.currency,
    is_service: fromFlag(row.is_service),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A product of the company; undefined when it is not the company's. */
export async function findProduct(db: Db, companyId: string, id: string): Promise<ProductsTable | undefined> {
  return db.selectFrom('products').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

/** The VAT rate and currency must be the firm's: checked only for the members a request sets. */
async function checkFirmChoices(db: Db, companyId: string, locale: Locale, choice: { vat_rate?: number; currency?: string }) {
  const fields: Record<string, string> = {};
  if (choice.vat_rate !== undefined && !(await isVatRateAllowed(db, companyId, choice.vat_rate))) {
    fields.vat_rate =
      'Not a standard VAT rate (21, 19, 11, 9, 5, 0) nor a custom rate of the company|Nu este o cotă standard de TVA (21, 19, 11, 9, 5, 0) și nici o cotă personalizată a firmei';
  }
  if (choice.currency !== undefined && !(await isCurrencyEnabled(db, companyId, choice.currency))) {
    fields.currency = 'Currency not enabled for the company (POST /currencies)|Moneda nu este activată pentru firmă (POST /currencies)';
  }
  if (Object.keys(fields).length) throw invalidFields(fields, locale);
}

async function assertCodeFree(db: Db, companyId: string, code: string | null, exceptId?: string): Promise<void> {
  if (code === null) return;
  let query = db.selectFrom('products').select('id').where('company_id', '=', companyId).where('code', '=', code);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw conflict('duplicate_code', 'code');
}

async function assertBarcodeFree(db: Db, companyId: string, barcode: string | null, exceptId?: string): Promise<void> {
  if (barcode === null) return;
  let query = db.selectFrom('products').select('id').where('company_id', '=', companyId).where('barcode', '=', barcode);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw conflict('duplicate_barcode', 'barcode');
}

/** Which unique member a violation was about: the two indexes name their column. */
function uniqueConflict(error: unknown) {
  return /barcode/i.test(String((error as { message?: unknown }).message ?? '')) ? conflict('duplicate_barcode', 'barcode') : conflict('duplicate_code', 'code');
}

const productListQuery = changesListQuery(['name', 'code', 'price', 'created_at'] as const).extend({
  /** Exact code, for a barcode scanner: at most one product matches. */
  code: z.string().max(64).optional(),
  /** Exact barcode (a scan of the article's EAN): at most one product matches. */
  barcode: z.string().max(64).optional(),
});

/** Compiled once per shape (platform/list.ts): a values-only run per request. */
const productPage = preparedList(
  (db, p: { companyId: string; code: string | undefined; barcode: string | undefined }) => {
    let base = db.selectFrom('products').selectAll().where('company_id', '=', p.companyId);
    if (p.code !== undefined) base = base.where('code', '=', p.code);
    if (p.barcode !== undefined) base = base.where('barcode', '=', p.barcode);
    return base;
  },
  {
    sortColumns: { name: 'name', code: 'code', price: 'price', created_at: 'created_at' },
    defaultSort: 'created_at',
    defaultOrder: 'desc',
    searchIndex: { spec: PRODUCTS_SEARCH, dialect: 'sqlite' },
    dateColumn: 'created_on',
    tieBreaker: 'id',
    updatedColumn: 'updated_at',
    createdColumn: 'created_at',
  },
);

export const listProducts = defineRoute({
  method: 'GET',
  path: '/products',
  operationId: 'listProducts',
  summary: 'List products',
  description:
    'The firm’s products, as a paginated list. `search` matches the name, the code or the barcode (case-insensitive, anywhere in the text); ' +
    '`code` finds the product with exactly that code, `barcode` the one with exactly that barcode (a scan); `sort` is `created_at` (default, newest first), `name`, `code` ' +
    'or `price`; `start_date`/`end_date` filter on the creation day (Europe/Bucharest). `updated_since` keeps the products changed ' +
    'at or after that instant (`sort=updated_at` orders by it); deleted products are listed by GET /deleted-records.',
  tags: ['products'],
  scope: 'products:read',
  query: productListQuery,
  response: listPageSchema(zProductReply),
  handler: async (ctx) => {
    const page = await productPage(ctx.db, ctx.dialect, { companyId: ctx.companyId, code: ctx.query.code, barcode: ctx.query.barcode }, ctx.query);
    return mapPage(page, toProduct);
  },
});

export const createProduct = defineRoute({
  method: 'POST',
  path: '/products',
  operationId: 'createProduct',
  summary: 'Create a product',
  description:
    'Body: `name`; optional `code` (SKU, unique in the firm: 409 `duplicate_code`), `barcode` (EAN/UPC printed on the article, up to 64 ' +
    'digits or letters, unique in the firm: 409 `duplicate_barcode`), `unit` (default `buc`), `unit_code` ' +
    '(UN/ECE rec. 20 code for e-Factura, default `H87`), `price` (required; lei, at most 2 decimals), ' +
    '`price_includes_vat` (default false), `vat_rate` (percent, default 21: a standard rate or one of the firm’s custom rates), ' +
    '`currency` (default RON; must be enabled for the firm) and `is_service`. An unknown VAT rate or a currency not enabled is a 422 ' +
    '`validation_error` on that member.',
  tags: ['products'],
  scope: 'products:write',
  create: true,
  body: zProductCreate,
  aliases: { body: PRODUCT_ALIASES },
  response: zProductReply,
  errors: { duplicate_code: 409, duplicate_barcode: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    await checkFirmChoices(ctx.db, ctx.companyId, ctx.locale, { vat_rate: b.vat_rate, currency: b.currency });
    const code = textOrNull(b.code);
    await assertCodeFree(ctx.db, ctx.companyId, code);
    const barcode = textOrNull(b.barcode);
    await assertBarcodeFree(ctx.db, ctx.companyId, barcode);
    const row: ProductsTable = {
      id: newId('prod'),
      company_id: ctx.companyId,
      name: b.name,
      code,
      barcode,
      unit: b.unit,
      unit_code: b.unit_code,
      price: toBani(b.price),
      price_includes_vat: toFlag(b.price_includes_vat),
      vat_rate_bp: percentToBp(b.vat_rate),
      currency: b.currency,
      is_service: toFlag(b.is_service),
      created_at: ctx.now,
      created_on: createdOn(ctx.now),
      updated_at: null,
    };
    try {
      await ctx.db.insertInto('products').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw uniqueConflict(error);
      throw error;
    }
    return toProduct(row);
  },
});

async function requireProduct(db: Db, companyId: string, id: string): Promise<ProductsTable> {
  const row = await findProduct(db, companyId, id);
  if (!row) throw notFound('id');
  return row;
}

export const getProduct = defineRoute({
  method: 'GET',
  path: '/products/:id',
  operationId: 'getProduct',
  summary: 'Retrieve a product',
  description: 'A product of the firm. Another firm’s product answers 404.',
  tags: ['products'],
  scope: 'products:read',
  params: zIdParams,
  response: zProductReply,
  errors: { resource_missing: 404 },
  handler: async (ctx) => toProduct(await requireProduct(ctx.db, ctx.companyId, ctx.params.id)),
});

export const updateProduct = defineRoute({
  method: 'PUT',
  path: '/products/:id',
  operationId: 'updateProduct',
  summary: 'Update a product',
  description:
    'Members sent change; omitted members keep their values; `code: null` clears the code. The create’s rules apply to the members ' +
    'sent: 409 `duplicate_code`, 422 for a VAT rate that is not the firm’s or a currency not enabled. Invoices already issued keep ' +
    'their own copy of the line and do not change.',
  tags: ['products'],
  scope: 'products:write',
  params: zIdParams,
  body: zProductUpdate,
  aliases: { body: PRODUCT_ALIASES },
  response: zProductReply,
  errors: { resource_missing: 404, duplicate_code: 409, duplicate_barcode: 409 },
  handler: async (ctx) => {
    const row = await requireProduct(ctx.db, ctx.companyId, ctx.params.id);
    const b = ctx.body;
    await checkFirmChoices(ctx.db, ctx.companyId, ctx.locale, { vat_rate: b.vat_rate, currency: b.currency });
    const code = b.code === undefined ? row.code : textOrNull(b.code);
    if (code !== row.code) await assertCodeFree(ctx.db, ctx.companyId, code, row.id);
    const barcode = b.barcode === undefined ? (row.barcode ?? null) : textOrNull(b.barcode);
    if (barcode !== (row.barcode ?? null)) await assertBarcodeFree(ctx.db, ctx.companyId, barcode, row.id);
    const next: ProductsTable = {
      ...row,
      name: b.name ?? row.name,
      code,
      barcode,
      unit: b.unit ?? row.unit,
      unit_code: b.unit_code ?? row.unit_code,
      price: b.price === undefined ? row.price : toBani(b.price),
      price_includes_vat: b.price_includes_vat === undefined ? row.price_includes_vat : toFlag(b.price_includes_vat),
      vat_rate_bp: b.vat_rate === undefined ? row.vat_rate_bp : percentToBp(b.vat_rate),
      currency: b.currency ?? row.currency,
      is_service: b.is_service === undefined ? row.is_service : toFlag(b.is_service),
      updated_at: ctx.now,
    };
    const { id: _id, company_id: _company, created_at: _created, created_on: _on, ...changes } = next;
    try {
      await ctx.db.updateTable('products').set(changes).where('company_id', '=', ctx.companyId).where('id', '=', row.id).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw uniqueConflict(error);
      throw error;
    }
    return toProduct(next);
  },
});

export const deleteProduct = defineRoute({
  method: 'DELETE',
  path: '/products/:id',
  operationId: 'deleteProduct',
  summary: 'Delete a product',
  description:
    'Removes the product for good (its code becomes free again). Invoice lines keep their own copy of description, price and VAT, ' +
    'so issued documents are unaffected. Answers at top level `{ success: true, object: "product", id, deleted: true }`; the ' +
    'deletion is listed by GET /deleted-records. ' +
    '409 `in_use` only if another table holds a foreign key to the product.',
  tags: ['products'],
  scope: 'products:write',
  params: zIdParams,
  response: zDeleted('product'),
  envelope: 'top',
  errors: { resource_missing: 404, in_use: 409 },
  handler: async (ctx) => {
    const row = await requireProduct(ctx.db, ctx.companyId, ctx.params.id);
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('products').where('company_id', '=', ctx.companyId).where('id', '=', row.id).execute();
        await recordDeletion(trx, { resource: 'products', id: row.id, companyId: ctx.companyId, workPointId: null, now: ctx.now });
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict('in_use', 'id');
      throw error;
    }
    return { object: 'product' as const, id: row.id, deleted: true as const };
  },
});

export const productRoutes = [listProducts, createProduct, getProduct, updateProduct, deleteProduct];
