import { z } from 'zod';
import {
  zCurrency, zCurrencyEnable, zCurrencyList, type Currency, type CurrencyCatalogEntry,
} from '../../../shared/schemas/currency';
import type { Db, Dialect } from '../../db/types';
import { conflict, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { defineRoute, preSerialized } from '../../platform/route';
import { prepared } from '../../db/prepared';
import iso4217 from './data/iso4217.json';
import { invalidFields, zIdParams } from './common';
import { zDeleted } from '../../platform/envelope';
import { isUniqueViolation } from '../../platform/db-errors';
import { isReferenced, referencedValues } from './references';

/** The active ISO 4217 list (table A.1), the catalog a firm enables currencies from. */
export const ISO_4217: readonly CurrencyCatalogEntry[] = z
  .array(z.object({ code: z.string().regex(/^[A-Z]{3}$/), description: z.string().min(1) }))
  .parse(iso4217.currencies);
const DESCRIPTIONS = new Map(ISO_4217.map((c) => [c.code, c.description]));

export const DEFAULT_CURRENCY = 'RON';
/**
 * RON is enabled for every firm and is never stored, so it has one fixed id. Ids stay opaque: a
 * caller must not build them, only read them from a reply.
 */
export const RON_ID = 'cur_RON';

export function currencyDescription(code: string): string {
  return DESCRIPTIONS.get(code) ?? code;
}

/** Whether a firm may use `code` (products, bank accounts, documents): RON, or a currency it enabled. */
export async function isCurrencyEnabled(db: Db, companyId: string, code: string): Promise<boolean> {
  if (code === DEFAULT_CURRENCY) return true;
  const row = await db
    .selectFrom('currencies')
    .select('id')
    .where('company_id', '=', companyId)
    .where('code', '=', code)
    .executeTakeFirst();
  return row !== undefined;
}

const enabledRows = prepared(['companyId'], (db, p: { companyId: string }) =>
  db.selectFrom('currencies').select(['id', 'code']).where('company_id', '=', p.companyId).orderBy('code'),
);

async function enabledCurrencies(db: Db, dialect: Dialect, companyId: string): Promise<Currency[]> {
  const rows = await enabledRows.rows(db, { companyId });
  const used = await referencedValues(db, dialect, 'currency', companyId, [DEFAULT_CURRENCY, ...rows.map((r) => r.code)]);
  const ron: Currency = { id: RON_ID, code: DEFAULT_CURRENCY, description: currencyDescription(DEFAULT_CURRENCY), is_used: used.has(DEFAULT_CURRENCY), is_default: true };
  return [
    ron,
    ...rows.map((r) => ({ id: r.id, code: r.code, description: currencyDescription(r.code), is_used: used.has(r.code), is_default: false })),
  ];
}

/**
 * `available` of GET /currencies: the ISO list minus what a firm enabled, with its JSON text. Firms
 * enable few currencies and the same few sets recur (most firms: RON alone), so each set's list is
 * built and serialized once, and its text is spliced into every reply for that set: the list is
 * most of the reply, and serializing it was most of the route's cost.
 */
const availableCache = new Map<string, CurrencyCatalogEntry[]>();
const AVAILABLE_CACHE_SIZE = 1_000;

function availableBesides(enabled: readonly Currency[]): CurrencyCatalogEntry[] {
  const key = enabled.map((c) => c.code).join(',');
  let list = availableCache.get(key);
  if (!list) {
    const codes = new Set(enabled.map((c) => c.code));
    const entries = ISO_4217.filter((c) => !codes.has(c.code));
    list = preSerialized(entries, JSON.stringify(entries));
    if (availableCache.size >= AVAILABLE_CACHE_SIZE) availableCache.clear();
    availableCache.set(key, list);
  }
  return list;
}

async function findCurrency(db: Db, dialect: Dialect, companyId: string, id: string): Promise<Currency> {
  if (id === RON_ID) {
    return { id, code: DEFAULT_CURRENCY, description: currencyDescription(DEFAULT_CURRENCY), is_used: await isReferenced(db, dialect, 'currency', companyId, DEFAULT_CURRENCY), is_default: true };
  }
  const row = await db
    .selectFrom('currencies')
    .select(['id', 'code'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('id');
  return {
    id: row.id,
    code: row.code,
    description: currencyDescription(row.code),
    is_used: await isReferenced(db, dialect, 'currency', companyId, row.code),
    is_default: false,
  };
}

export const listCurrencies = defineRoute({
  method: 'GET',
  path: '/currencies',
  operationId: 'listCurrencies',
  summary: 'List the currencies enabled for the firm',
  description:
    'Returns, at top level beside `success`: `object` (`list`), `data` (the currencies enabled for the firm, RON first, then by code), ' +
    '`total` (how many are enabled), `available` (the active ISO 4217 currencies the firm can still enable with POST /currencies) and ' +
    '`default_code` (always `RON`). RON is always enabled and is the default. `is_used` is true when a product, a bank account or a ' +
    'document of the firm is in that currency; such a currency cannot be disabled. No pagination: the list is short by nature.',
  tags: ['currencies'],
  scope: 'currencies:read',
  response: zCurrencyList,
  envelope: 'top',
  handler: async (ctx) => {
    const data = await enabledCurrencies(ctx.db, ctx.dialect, ctx.companyId);
    return { object: 'list' as const, data, total: data.length, available: availableBesides(data), default_code: 'RON' as const };
  },
});

export const getCurrency = defineRoute({
  method: 'GET',
  path: '/currencies/:id',
  operationId: 'getCurrency',
  summary: 'Retrieve an enabled currency',
  description: 'One currency row of the firm, by its id (as listed by GET /currencies). A currency of another firm answers 404.',
  tags: ['currencies'],
  scope: 'currencies:read',
  params: zIdParams,
  response: zCurrency,
  errors: { resource_missing: 404 },
  handler: async (ctx) => findCurrency(ctx.db, ctx.dialect, ctx.companyId, ctx.params.id),
});

export const enableCurrency = defineRoute({
  method: 'POST',
  path: '/currencies',
  operationId: 'enableCurrency',
  summary: 'Enable a currency for the firm',
  description:
    'Body `{ code }`: an active ISO 4217 code (one of `available` in GET /currencies; case-insensitive). Answers the new currency row. ' +
    'A code that is not an active ISO 4217 currency is a 422 `validation_error` on `code`; a currency already enabled (RON included) ' +
    'is a 409 `already_enabled`.',
  tags: ['currencies'],
  scope: 'currencies:write',
  create: true,
  body: zCurrencyEnable,
  response: zCurrency,
  errors: { already_enabled: 409 },
  handler: async (ctx) => {
    const code = ctx.body.code;
    if (!DESCRIPTIONS.has(code)) {
      throw invalidFields({ code: 'Not an active ISO 4217 currency code|Nu este un cod de monedă ISO 4217 în vigoare' }, ctx.locale);
    }
    if (await isCurrencyEnabled(ctx.db, ctx.companyId, code)) throw conflict('already_enabled', 'code');
    const id = newId('cur');
    try {
      await ctx.db.insertInto('currencies').values({ id, company_id: ctx.companyId, code, created_at: ctx.now }).execute();
    } catch (error) {
      // Two requests raced to enable the same code: the loser hears what a late caller would.
      if (isUniqueViolation(error)) throw conflict('already_enabled', 'code');
      throw error;
    }
    return { id, code, description: currencyDescription(code), is_used: await isReferenced(ctx.db, ctx.dialect, 'currency', ctx.companyId, code), is_default: false };
  },
});

export const disableCurrency = defineRoute({
  method: 'DELETE',
  path: '/currencies/:id',
  operationId: 'disableCurrency',
  summary: 'Disable a currency',
  description:
    'Removes a currency from the firm. Answers at top level `{ success: true, object: "currency", id, deleted: true }`. ' +
    '409 `in_use` when `is_used` is true (a product, a bank account or a document is in it); 409 `is_default` for RON, which stays enabled.',
  tags: ['currencies'],
  scope: 'currencies:write',
  params: zIdParams,
  response: zDeleted('currency'),
  envelope: 'top',
  errors: { resource_missing: 404, in_use: 409, is_default: 409 },
  handler: async (ctx) => {
    const currency = await findCurrency(ctx.db, ctx.dialect, ctx.companyId, ctx.params.id);
    if (currency.is_default) throw conflict('is_default', 'id');
    if (currency.is_used) throw conflict('in_use', 'id');
    await ctx.db.deleteFrom('currencies').where('company_id', '=', ctx.companyId).where('id', '=', currency.id).execute();
    return { object: 'currency' as const, id: currency.id, deleted: true as const };
  },
});

export const currencyRoutes = [listCurrencies, getCurrency, enableCurrency, disableCurrency];
