import {
  LANGUAGE_CODES, LANGUAGE_NAMES, zLanguage, zLanguageDeleted, zLanguageEnable, zLanguageList, zLanguageUpdate,
  type Language, type LanguageCode,
} from '../../../shared/schemas/language';
import type { Db } from '../../db/types';
import { conflict, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { defineRoute } from '../../platform/route';
import { zIdParams } from './common';
import { isUniqueViolation } from '../../platform/db-errors';

export const DEFAULT_LANGUAGE: LanguageCode = 'ro';
/** Romanian is enabled for every firm and never stored, so it has one fixed id. */
export const RO_LANGUAGE_ID = 'lang_ro';

const romanian: Language = { id: RO_LANGUAGE_ID, object: 'language', code: 'ro', name: LANGUAGE_NAMES.ro, is_default: true };

const isLanguageCode = (code: string): code is LanguageCode => (LANGUAGE_CODES as readonly string[]).includes(code);

function toLanguage(row: { id: string; code: string }): Language {
  // Only codes of LANGUAGE_CODES are ever inserted; anything else would be a corrupt row.
  if (!isLanguageCode(row.code)) throw new Error(`unknown language code in table: ${row.code}`);
  return { id: row.id, object: 'language', code: row.code, name: LANGUAGE_NAMES[row.code], is_default: false };
}

/** Whether a firm may issue documents in `code`: `ro`, or a language it enabled. */
export async function isLanguageEnabled(db: Db, companyId: string, code: string): Promise<boolean> {
  if (code === DEFAULT_LANGUAGE) return true;
  const row = await db
    .selectFrom('languages')
    .select('id')
    .where('company_id', '=', companyId)
    .where('code', '=', code)
    .executeTakeFirst();
  return row !== undefined;
}

async function enabledLanguages(db: Db, companyId: string): Promise<Language[]> {
  const rows = await db.selectFrom('languages').select(['id', 'code']).where('company_id', '=', companyId).execute();
  const order = (code: string) => LANGUAGE_CODES.indexOf(code as LanguageCode);
  return [romanian, ...rows.map(toLanguage).sort((a, b) => order(a.code) - order(b.code))];
}

async function findLanguage(db: Db, companyId: string, id: string): Promise<Language> {
  if (id === RO_LANGUAGE_ID) return romanian;
  const row = await db
    .selectFrom('languages')
    .select(['id', 'code'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('id');
  return toLanguage(row);
}

export const listLanguages = defineRoute({
  method: 'GET',
  path: '/languages',
  operationId: 'listLanguages',
  summary: 'List the document languages enabled for the firm',
  description:
    'Shaped like GET /currencies, at top level beside `success`: `object` (`list`), `data` (the enabled languages, `ro` first), ' +
    '`total`, `available` (the languages the firm can still enable: `en`, `fr`, `de`, `hu`, `it`, `es`) and `default_code` ' +
    '(always `ro`). Romanian is the fixed default and is always enabled. No pagination: at most seven rows.',
  tags: ['languages'],
  scope: 'languages:read',
  response: zLanguageList,
  envelope: 'top',
  handler: async (ctx) => {
    const data = await enabledLanguages(ctx.db, ctx.companyId);
    const enabled = new Set<string>(data.map((l) => l.code));
    return {
      object: 'list' as const,
      data,
      total: data.length,
      available: LANGUAGE_CODES.filter((c) => !enabled.has(c)).map((code) => ({ code, name: LANGUAGE_NAMES[code] })),
      default_code: 'ro' as const,
    };
  },
});

export const getLanguage = defineRoute({
  method: 'GET',
  path: '/languages/:id',
  operationId: 'getLanguage',
  summary: 'Retrieve an enabled language',
  description: 'One language row of the firm, by its id (as listed by GET /languages). A language of another firm answers 404.',
  tags: ['languages'],
  scope: 'languages:read',
  params: zIdParams,
  response: zLanguage,
  errors: { resource_missing: 404 },
  handler: async (ctx) => findLanguage(ctx.db, ctx.companyId, ctx.params.id),
});

export const enableLanguage = defineRoute({
  method: 'POST',
  path: '/languages',
  operationId: 'enableLanguage',
  summary: 'Enable a document language',
  description:
    'Body `{ code }`: one of `en`, `fr`, `de`, `hu`, `it`, `es` (case-insensitive). Answers the new language row. Another code is a 422 ' +
    '`validation_error` on `code`; a language already enabled (`ro` included) is a 409 `already_enabled`.',
  tags: ['languages'],
  scope: 'languages:write',
  create: true,
  body: zLanguageEnable,
  response: zLanguage,
  errors: { already_enabled: 409 },
  handler: async (ctx) => {
    const code = ctx.body.code;
    if (await isLanguageEnabled(ctx.db, ctx.companyId, code)) throw conflict('already_enabled', 'code');
    const id = newId('lang');
    try {
      await ctx.db.insertInto('languages').values({ id, company_id: ctx.companyId, code, created_at: ctx.now }).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('already_enabled', 'code');
      throw error;
    }
    return toLanguage({ id, code });
  },
});

export const disableLanguage = defineRoute({
  method: 'DELETE',
  path: '/languages/:id',
  operationId: 'disableLanguage',
  summary: 'Disable a language',
  description:
    'Answers at top level `{ success: true, object: "language", deleted: true }` (contract). 409 `is_default` when removing `ro`: ' +
    'Romanian is the fixed default and stays enabled. Documents already issued in the language keep it.',
  tags: ['languages'],
  scope: 'languages:write',
  params: zIdParams,
  response: zLanguageDeleted,
  envelope: 'top',
  errors: { resource_missing: 404, is_default: 409 },
  handler: async (ctx) => {
    const language = await findLanguage(ctx.db, ctx.companyId, ctx.params.id);
    if (language.is_default) throw conflict('is_default', 'id');
    await ctx.db.deleteFrom('languages').where('company_id', '=', ctx.companyId).where('id', '=', language.id).execute();
    return { object: 'language' as const, deleted: true as const };
  },
});

export const updateLanguage = defineRoute({
  method: 'PUT',
  path: '/languages/:id',
  operationId: 'updateLanguage',
  summary: 'Change an enabled language',
  description:
    'Our design (the contract names the route only). Body `{ code }`, optional: the row then stands for that language instead ' +
    '(documents already issued keep theirs). The same code, or no body, answers the row unchanged. `ro` cannot change: 409 ' +
    '`is_default`. A code already enabled in another row is 409 `already_enabled`; an unknown code is 422 on `code`.',
  tags: ['languages'],
  scope: 'languages:write',
  params: zIdParams,
  body: zLanguageUpdate,
  response: zLanguage,
  errors: { resource_missing: 404, is_default: 409, already_enabled: 409 },
  handler: async (ctx) => {
    const language = await findLanguage(ctx.db, ctx.companyId, ctx.params.id);
    const code = ctx.body.code;
    if (code === undefined || code === language.code) return language;
    if (language.is_default) throw conflict('is_default', 'id');
    if (await isLanguageEnabled(ctx.db, ctx.companyId, code)) throw conflict('already_enabled', 'code');
    try {
      await ctx.db.updateTable('languages').set({ code }).where('company_id', '=', ctx.companyId).where('id', '=', language.id).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('already_enabled', 'code');
      throw error;
    }
    return toLanguage({ id: language.id, code });
  },
});

export const languageRoutes = [listLanguages, getLanguage, enableLanguage, updateLanguage, disableLanguage];
