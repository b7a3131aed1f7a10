import { z } from 'zod';
import {
  STANDARD_VAT_RATES, zVatRate, zVatRateCreate, zVatRateUpdate, type VatRate,
} from '../../../shared/schemas/vat-rate';
import type { Db } from '../../db/types';
import { conflict, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { listPageSchema, listQuery, type ListPage } from '../../platform/list';
import type { Locale } from '../../platform/locale';
import { defineRoute } from '../../platform/route';
import type { VatRatesTable } from './tables';
import { bpToPercent, createdOn, percentToBp, zIdParams } from './common';
import { zDeleted } from '../../platform/envelope';
import { isUniqueViolation } from '../../platform/db-errors';
import { isReferenced, referencedValues } from './references';

/**
 * The Romanian VAT rates every firm has (Codul fiscal art. 291): 21% standard and 11% reduced since
 * 1 August 2025; 19%, 9% and 5% were the rates before and still serve corrections and transitional
 * deliveries; 0% for exempt deliveries and reverse charge. Not stored: one fixed id each.
 */
const STANDARD_NAMES: Record<(typeof STANDARD_VAT_RATES)[number], { en: string; ro: string }> = {
  21: { en: 'Standard rate', ro: 'Cota standard' },
  19: { en: 'Former standard rate (until 31 July 2025)', ro: 'Cota standard anterioară (până la 31 iulie 2025)' },
  11: { en: 'Reduced rate', ro: 'Cota redusă' },
  9: { en: 'Former reduced rate (until 31 July 2025)', ro: 'Cota redusă anterioară (până la 31 iulie 2025)' },
  5: { en: 'Former reduced rate (until 31 July 2025)', ro: 'Cota redusă anterioară (până la 31 iulie 2025)' },
  0: { en: 'Exempt or reverse charge', ro: 'Scutit sau taxare inversă' },
};

export const standardVatRateId = (rate: number): string => `vat_std_${rate}`;
const STANDARD_BP = new Set<number>(STANDARD_VAT_RATES.map(percentToBp));

function standardRate(rate: (typeof STANDARD_VAT_RATES)[number], locale: Locale, used: boolean): VatRate {
  return {
    id: standardVatRateId(rate),
    object: 'vat_rate',
    rate,
    name: STANDARD_NAMES[rate][locale],
    is_standard: true,
    is_used: used,
    created_at: null,
    updated_at: null,
  };
}

function customRate(row: VatRatesTable, used: boolean): VatRate {
  return {
    id: row.id,
    object: 'vat_rate',
    rate: bpToPercent(row.rate_bp),
    name: row.name,
    is_standard: false,
    is_used: used,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Percent rates a firm may put on a product or a line: the standard set and its custom rates. */
export async function allowedVatRates(db: Db, companyId: string): Promise<number[]> {
  const rows = await db.selectFrom('vat_rates').select('rate_bp').where('company_id', '=', companyId).execute();
  return [...STANDARD_VAT_RATES, ...rows.map((r) => bpToPercent(r.rate_bp))];
}

export async function isVatRateAllowed(db: Db, companyId: string, rate: number): Promise<boolean> {
  const bp = percentToBp(rate);
  if (STANDARD_BP.has(bp)) return true;
  const row = await db
    .selectFrom('vat_rates')
    .select('id')
    .where('company_id', '=', companyId)
    .where('rate_bp', '=', bp)
    .executeTakeFirst();
  return row !== undefined;
}

async function findCustom(db: Db, companyId: string, id: string): Promise<VatRatesTable> {
  const row = await db.selectFrom('vat_rates').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('id');
  return row;
}

function standardById(id: string): (typeof STANDARD_VAT_RATES)[number] | undefined {
  return STANDARD_VAT_RATES.find((rate) => standardVatRateId(rate) === id);
}

const vatRateListQuery = listQuery(['rate', 'created_at'] as const).extend({
  is_standard: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});

export const listVatRates = defineRoute({
  method: 'GET',
  path: '/vat-rates',
  operationId: 'listVatRates',
  summary: 'List the VAT rates of the firm',
  description:
    'The standard Romanian rates (21, 19, 11, 9, 5, 0; `is_standard: true`, read-only, `created_at` null) followed by the firm’s custom ' +
    'rates, as a paginated list. `search` matches the name or the rate (`9.5`); `sort` is `rate` (default, descending) or `created_at`; ' +
    '`start_date`/`end_date` filter on the creation day (Europe/Bucharest), which leaves the standard rates out; `is_standard` filters ' +
    'by kind. `is_used` says a product or a document line uses the rate.',
  tags: ['vat_rates'],
  scope: 'vat_rates:read',
  query: vatRateListQuery,
  response: listPageSchema(zVatRate),
  handler: async (ctx) => {
    const q = ctx.query;
    const rows = await ctx.db.selectFrom('vat_rates').selectAll().where('company_id', '=', ctx.companyId).execute();
    const used = await referencedValues(ctx.db, ctx.dialect, 'vat_rate', ctx.companyId, [
      ...new Set([...STANDARD_VAT_RATES.map((r) => percentToBp(r)), ...rows.map((row) => row.rate_bp)]),
    ]);
    const datedFilter = q.start_date !== undefined || q.end_date !== undefined;
    // A handful of rows per firm: filtered, sorted and paged in memory, with the same rules as paginate().
    let items: Array<{ rate: VatRate; createdOn: string | null }> = [
      ...STANDARD_VAT_RATES.map((r) => ({ rate: standardRate(r, ctx.locale, used.has(String(percentToBp(r)))), createdOn: null })),
      ...rows.map((row) => ({ rate: customRate(row, used.has(String(row.rate_bp))), createdOn: row.created_on })),
    ];
    if (q.is_standard !== undefined) items = items.filter((i) => i.rate.is_standard === q.is_standard);
    if (q.search) {
      const term = q.search.toLowerCase();
      items = items.filter((i) => i.rate.name.toLowerCase().includes(term) || String(i.rate.rate).includes(term));
    }
    if (datedFilter) {
      items = items.filter(
        (i) => i.createdOn !== null && (q.start_date === undefined || i.createdOn >= q.start_date) && (q.end_date === undefined || i.createdOn <= q.end_date),
      );
    }
    const sort = q.sort ?? 'rate';
    const direction = (q.order ?? 'desc') === 'asc' ? 1 : -1;
    const key = (v: VatRate) => (sort === 'rate' ? v.rate : (v.created_at ?? -1));
    items.sort((a, b) => (key(a.rate) - key(b.rate)) * direction || (a.rate.id < b.rate.id ? -1 : a.rate.id > b.rate.id ? 1 : 0) * direction);
    const total = items.length;
    const totalPages = Math.ceil(total / q.per_page);
    const page: ListPage<VatRate> = {
      object: 'list',
      data: items.slice((q.page - 1) * q.per_page, q.page * q.per_page).map((i) => i.rate),
      has_more: q.page < totalPages,
      total,
      page: q.page,
      per_page: q.per_page,
      total_pages: totalPages,
    };
    return page;
  },
});

export const getVatRate = defineRoute({
  method: 'GET',
  path: '/vat-rates/:id',
  operationId: 'getVatRate',
  summary: 'Retrieve a VAT rate',
  description: 'A standard rate (`vat_std_21`, ...) or one of the firm’s custom rates. A custom rate of another firm answers 404.',
  tags: ['vat_rates'],
  scope: 'vat_rates:read',
  params: zIdParams,
  response: zVatRate,
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const standard = standardById(ctx.params.id);
    if (standard !== undefined) {
      return standardRate(standard, ctx.locale, await isReferenced(ctx.db, ctx.dialect, 'vat_rate', ctx.companyId, percentToBp(standard)));
    }
    const row = await findCustom(ctx.db, ctx.companyId, ctx.params.id);
    return customRate(row, await isReferenced(ctx.db, ctx.dialect, 'vat_rate', ctx.companyId, row.rate_bp));
  },
});

async function assertRateFree(db: Db, companyId: string, bp: number, exceptId?: string): Promise<void> {
  if (STANDARD_BP.has(bp)) throw conflict('duplicate_rate', 'rate');
  let query = db.selectFrom('vat_rates').select('id').where('company_id', '=', companyId).where('rate_bp', '=', bp);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw conflict('duplicate_rate', 'rate');
}

export const createVatRate = defineRoute({
  method: 'POST',
  path: '/vat-rates',
  operationId: 'createVatRate',
  summary: 'Create a custom VAT rate',
  description:
    'Body: `rate` (percent, above 0 and below 100, at most 2 decimals) and an optional `name` (default `TVA <rate>%`). A custom rate ' +
    'may then be put on the firm’s products. 409 `duplicate_rate` when the rate is a standard one or the firm already has it.',
  tags: ['vat_rates'],
  scope: 'vat_rates:write',
  create: true,
  body: zVatRateCreate,
  response: zVatRate,
  errors: { duplicate_rate: 409 },
  handler: async (ctx) => {
    const bp = percentToBp(ctx.body.rate);
    await assertRateFree(ctx.db, ctx.companyId, bp);
    const row: VatRatesTable = {
      id: newId('vat'),
      company_id: ctx.companyId,
      rate_bp: bp,
      name: ctx.body.name ?? `TVA ${bpToPercent(bp)}%`,
      created_at: ctx.now,
      created_on: createdOn(ctx.now),
      updated_at: null,
    };
    try {
      await ctx.db.insertInto('vat_rates').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('duplicate_rate', 'rate');
      throw error;
    }
    return customRate(row, false);
  },
});

export const updateVatRate = defineRoute({
  method: 'PUT',
  path: '/vat-rates/:id',
  operationId: 'updateVatRate',
  summary: 'Update a custom VAT rate',
  description:
    'Members sent change: `name`, `rate`. 409 `is_standard` for a standard rate; 409 `in_use` when changing the `rate` of a rate a ' +
    'product or a document line uses (renaming is always allowed); 409 `duplicate_rate` when the new rate already exists.',
  tags: ['vat_rates'],
  scope: 'vat_rates:write',
  params: zIdParams,
  body: zVatRateUpdate,
  response: zVatRate,
  errors: { resource_missing: 404, is_standard: 409, in_use: 409, duplicate_rate: 409 },
  handler: async (ctx) => {
    if (standardById(ctx.params.id) !== undefined) throw conflict('is_standard', 'id');
    const row = await findCustom(ctx.db, ctx.companyId, ctx.params.id);
    const used = await isReferenced(ctx.db, ctx.dialect, 'vat_rate', ctx.companyId, row.rate_bp);
    const bp = ctx.body.rate === undefined ? row.rate_bp : percentToBp(ctx.body.rate);
    if (bp !== row.rate_bp) {
      if (used) throw conflict('in_use', 'rate');
      await assertRateFree(ctx.db, ctx.companyId, bp, row.id);
    }
    const next: VatRatesTable = { ...row, rate_bp: bp, name: ctx.body.name ?? row.name, updated_at: ctx.now };
    try {
      await ctx.db
        .updateTable('vat_rates')
        .set({ rate_bp: next.rate_bp, name: next.name, updated_at: next.updated_at })
        .where('company_id', '=', ctx.companyId)
        .where('id', '=', row.id)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('duplicate_rate', 'rate');
      throw error;
    }
    // A rate in use cannot have changed its value above, so `used` still holds.
    return customRate(next, used);
  },
});

export const deleteVatRate = defineRoute({
  method: 'DELETE',
  path: '/vat-rates/:id',
  operationId: 'deleteVatRate',
  summary: 'Delete a custom VAT rate',
  description:
    'Answers at top level `{ success: true, object: "vat_rate", id, deleted: true }`. 409 `is_standard` for a standard rate; ' +
    '409 `in_use` while a product or a document line uses the rate (move those products to another rate first; issued documents keep it for good).',
  tags: ['vat_rates'],
  scope: 'vat_rates:write',
  params: zIdParams,
  response: zDeleted('vat_rate'),
  envelope: 'top',
  errors: { resource_missing: 404, is_standard: 409, in_use: 409 },
  handler: async (ctx) => {
    if (standardById(ctx.params.id) !== undefined) throw conflict('is_standard', 'id');
    const row = await findCustom(ctx.db, ctx.companyId, ctx.params.id);
    if (await isReferenced(ctx.db, ctx.dialect, 'vat_rate', ctx.companyId, row.rate_bp)) throw conflict('in_use', 'id');
    await ctx.db.deleteFrom('vat_rates').where('company_id', '=', ctx.companyId).where('id', '=', row.id).execute();
    return { object: 'vat_rate' as const, id: row.id, deleted: true as const };
  },
});

export const vatRateRoutes = [listVatRates, getVatRate, createVatRate, updateVatRate, deleteVatRate];
