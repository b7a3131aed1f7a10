import { roBankName } from '../../../shared/ro/iban';
import {
  zBankAccount, zBankAccountCreate, zBankAccountUpdate, type BankAccount,
} from '../../../shared/schemas/bank-account';
import { zCurrencyCode } from '../../../shared/schemas/common';
import { IBAN_REASON_MESSAGES, validateIban } from '../../../shared/schemas/iban';
import type { Db } from '../../db/types';
import { conflict, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import type { Locale } from '../../platform/locale';
import { defineRoute } from '../../platform/route';
import type { BankAccountsTable } from './tables';
import { createdOn, fromFlag, invalidFields, textOrNull, toFlag, zIdParams } from './common';
import { zDeleted } from '../../platform/envelope';
import { isUniqueViolation } from '../../platform/db-errors';
import { isCurrencyEnabled } from './currencies';

export function toBankAccount(row: BankAccountsTable): BankAccount {
  return {
    id: row.id,
    object: 'bank_account',
    iban: row.iban,
    bank: row.bank,
    name: row.name,
    currency: row.currency,
    is_default: fromFlag(row.is_default),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The account an invoice in `currency` prints: the default one of that currency, if the firm has any. */
export async function defaultBankAccount(db: Db, companyId: string, currency: string): Promise<BankAccountsTable | undefined> {
  return db
    .selectFrom('bank_accounts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('currency', '=', currency)
    .where('is_default', '=', 1)
    .executeTakeFirst();
}

/**
 * Keeps the rule "every currency with accounts has exactly one default": when none is left (the
 * default was deleted, moved to another currency or unmarked), the oldest other account takes over.
 */
async function ensureDefault(db: Db, companyId: string, currency: string, avoidId?: string): Promise<void> {
  if (await defaultBankAccount(db, companyId, currency)) return;
  const candidates = await db
    .selectFrom('bank_accounts')
    .select(['id'])
    .where('company_id', '=', companyId)
    .where('currency', '=', currency)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const chosen = candidates.find((c) => c.id !== avoidId) ?? candidates[0];
  if (!chosen) return;
  await db.updateTable('bank_accounts').set({ is_default: 1 }).where('company_id', '=', companyId).where('id', '=', chosen.id).execute();
}

async function unsetDefaults(db: Db, companyId: string, currency: string, exceptId: string): Promise<void> {
  await db
    .updateTable('bank_accounts')
    .set({ is_default: 0 })
    .where('company_id', '=', companyId)
    .where('currency', '=', currency)
    .where('id', '!=', exceptId)
    .execute();
}

function checkIban(input: string, locale: Locale): string {
  const result = validateIban(input);
  if (!result.ok) throw invalidFields({ iban: IBAN_REASON_MESSAGES[result.reason] }, locale);
  return result.value;
}

async function checkCurrency(db: Db, companyId: string, currency: string, locale: Locale): Promise<void> {
  if (!(await isCurrencyEnabled(db, companyId, currency))) {
    throw invalidFields({ currency: 'Currency not enabled for the company (POST /currencies)|Moneda nu este activată pentru firmă (POST /currencies)' }, locale);
  }
}

async function assertIbanFree(db: Db, companyId: string, iban: string, exceptId?: string): Promise<void> {
  let query = db.selectFrom('bank_accounts').select('id').where('company_id', '=', companyId).where('iban', '=', iban);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw conflict('duplicate_iban', 'iban');
}

async function requireAccount(db: Db, companyId: string, id: string): Promise<BankAccountsTable> {
  const row = await db.selectFrom('bank_accounts').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('id');
  return row;
}

export const listBankAccounts = defineRoute({
  method: 'GET',
  path: '/bank-accounts',
  operationId: 'listBankAccounts',
  summary: 'List bank accounts',
  description:
    'The firm’s bank accounts, as a paginated list. `search` matches IBAN, bank or name; `currency` keeps one currency; `sort` is ' +
    '`created_at` (default, newest first), `bank` or `iban`; `start_date`/`end_date` filter on the creation day (Europe/Bucharest).',
  tags: ['bank_accounts'],
  scope: 'bank_accounts:read',
  query: listQuery(['created_at', 'bank', 'iban'] as const).extend({ currency: zCurrencyCode.optional() }),
  response: listPageSchema(zBankAccount),
  handler: async (ctx) => {
    let base = ctx.db.selectFrom('bank_accounts').selectAll().where('company_id', '=', ctx.companyId);
    if (ctx.query.currency) base = base.where('currency', '=', ctx.query.currency);
    const page = await paginate(base, ctx.query, {
      sortColumns: { created_at: 'created_at', bank: 'bank', iban: 'iban' },
      defaultSort: 'created_at',
      defaultOrder: 'desc',
      searchColumns: ['iban', 'bank', 'name'],
      dateColumn: 'created_on',
      tieBreaker: 'id',
    });
    return mapPage(page, toBankAccount);
  },
});

export const createBankAccount = defineRoute({
  method: 'POST',
  path: '/bank-accounts',
  operationId: 'createBankAccount',
  summary: 'Create a bank account',
  description:
    'Body: `iban` (spaces and lowercase accepted; a Romanian IBAN is checked with the Romanian rules, a foreign one with its ' +
    'registry length and mod 97), optional `bank` (named from a Romanian IBAN’s bank code when omitted), `name` (a label), ' +
    '`currency` (default RON; must be enabled for the firm) and `is_default`. Each currency with accounts has exactly one default, ' +
    'the account invoices in that currency print: the first account of a currency becomes its default, and `is_default: true` ' +
    'takes the mark from the previous one. 409 `duplicate_iban` when the firm already has the IBAN.',
  tags: ['bank_accounts'],
  scope: 'bank_accounts:write',
  create: true,
  body: zBankAccountCreate,
  response: zBankAccount,
  errors: { duplicate_iban: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    const iban = checkIban(b.iban, ctx.locale);
    await checkCurrency(ctx.db, ctx.companyId, b.currency, ctx.locale);
    await assertIbanFree(ctx.db, ctx.companyId, iban);
    const row: BankAccountsTable = {
      id: newId('bank'),
      company_id: ctx.companyId,
      iban,
      bank: textOrNull(b.bank) ?? roBankName(iban) ?? null,
      name: textOrNull(b.name),
      currency: b.currency,
      is_default: toFlag(b.is_default === true),
      created_at: ctx.now,
      created_on: createdOn(ctx.now),
      updated_at: null,
    };
    try {
      await ctx.db.transaction().execute(async (trx) => {
        if (row.is_default) await unsetDefaults(trx, ctx.companyId, row.currency, row.id);
        await trx.insertInto('bank_accounts').values(row).execute();
        await ensureDefault(trx, ctx.companyId, row.currency);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('duplicate_iban', 'iban');
      throw error;
    }
    return toBankAccount(await requireAccount(ctx.db, ctx.companyId, row.id));
  },
});

export const getBankAccount = defineRoute({
  method: 'GET',
  path: '/bank-accounts/:id',
  operationId: 'getBankAccount',
  summary: 'Retrieve a bank account',
  description: 'A bank account of the firm. Another firm’s account answers 404.',
  tags: ['bank_accounts'],
  scope: 'bank_accounts:read',
  params: zIdParams,
  response: zBankAccount,
  errors: { resource_missing: 404 },
  handler: async (ctx) => toBankAccount(await requireAccount(ctx.db, ctx.companyId, ctx.params.id)),
});

export const updateBankAccount = defineRoute({
  method: 'PUT',
  path: '/bank-accounts/:id',
  operationId: 'updateBankAccount',
  summary: 'Update a bank account',
  description:
    'Members sent change; omitted members keep their values. A new `iban` without `bank` names the bank again from a Romanian IBAN. ' +
    '`is_default: true` makes it the default of its currency; `is_default: false` hands the mark to the oldest other account of the ' +
    'currency (an only account stays the default). 409 `duplicate_iban`; 422 for an invalid IBAN or a currency not enabled.',
  tags: ['bank_accounts'],
  scope: 'bank_accounts:write',
  params: zIdParams,
  body: zBankAccountUpdate,
  response: zBankAccount,
  errors: { resource_missing: 404, duplicate_iban: 409 },
  handler: async (ctx) => {
    const row = await requireAccount(ctx.db, ctx.companyId, ctx.params.id);
    const b = ctx.body;
    const iban = b.iban === undefined ? row.iban : checkIban(b.iban, ctx.locale);
    const currency = b.currency ?? row.currency;
    if (b.currency !== undefined) await checkCurrency(ctx.db, ctx.companyId, currency, ctx.locale);
    if (iban !== row.iban) await assertIbanFree(ctx.db, ctx.companyId, iban, row.id);
    // As on create, a cleared bank is named from a Romanian IBAN; a new IBAN without a bank names it too.
    const bank =
      b.bank !== undefined
        ? (textOrNull(b.bank) ?? roBankName(iban) ?? null)
        : iban !== row.iban
          ? (roBankName(iban) ?? row.bank)
          : row.bank;
    // Moving to another currency joins it as a non-default account unless the caller asks otherwise.
    const isDefault = b.is_default ?? (currency !== row.currency ? false : fromFlag(row.is_default));
    try {
      await ctx.db.transaction().execute(async (trx) => {
        if (isDefault) await unsetDefaults(trx, ctx.companyId, currency, row.id);
        await trx
          .updateTable('bank_accounts')
          .set({ iban, bank, name: b.name === undefined ? row.name : textOrNull(b.name), currency, is_default: toFlag(isDefault), updated_at: ctx.now })
          .where('company_id', '=', ctx.companyId)
          .where('id', '=', row.id)
          .execute();
        const avoid = b.is_default === false ? row.id : undefined;
        await ensureDefault(trx, ctx.companyId, currency, avoid);
        if (currency !== row.currency) await ensureDefault(trx, ctx.companyId, row.currency);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('duplicate_iban', 'iban');
      throw error;
    }
    return toBankAccount(await requireAccount(ctx.db, ctx.companyId, row.id));
  },
});

export const deleteBankAccount = defineRoute({
  method: 'DELETE',
  path: '/bank-accounts/:id',
  operationId: 'deleteBankAccount',
  summary: 'Delete a bank account',
  description:
    'Removes the account. When it was the default of its currency, the oldest remaining account of that currency becomes the default. ' +
    'Documents already issued keep the IBAN they printed. Answers at top level `{ success: true, object: "bank_account", id, deleted: true }`.',
  tags: ['bank_accounts'],
  scope: 'bank_accounts:write',
  params: zIdParams,
  response: zDeleted('bank_account'),
  envelope: 'top',
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await requireAccount(ctx.db, ctx.companyId, ctx.params.id);
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('bank_accounts').where('company_id', '=', ctx.companyId).where('id', '=', row.id).execute();
      await ensureDefault(trx, ctx.companyId, row.currency);
    });
    return { object: 'bank_account' as const, id: row.id, deleted: true as const };
  },
});

export const bankAccountRoutes = [listBankAccounts, createBankAccount, getBankAccount, updateBankAccount, deleteBankAccount];
