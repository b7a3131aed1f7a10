import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/types';
import { defineRoute } from '../../platform/route';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import { zExpenseCategory, zExpenseCategoryWrite, type ExpenseCategory } from '../../../shared/schemas/expense-category';
import type { ExpenseCategoriesTable } from './tables';

type CategoryRow = Selectable<ExpenseCategoriesTable>;

function toWire(row: Pick<CategoryRow, 'id' | 'name' | 'created_at' | 'updated_at'>): ExpenseCategory {
  return {
    id: Number(row.id),
    object: 'expense_category',
    name: row.name,
    created_at: Number(row.created_at),
    updated_at: row.updated_at === null ? null : Number(row.updated_at),
  };
}

const nameKey = (name: string) => name.trim().toLowerCase();

function nameTaken(id: number): ApiError {
  return new ApiError(409, 'invalid_request_error', 'expense_category_exists', { param: 'name', vars: { id } });
}

async function categoryNamed(db: Db, companyId: string, name: string, exceptId?: number) {
  let q = db.selectFrom('expense_categories').select('id').where('company_id', '=', companyId).where('name_key', '=', nameKey(name));
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

/** Ids are integers (the contract's `category_id`); any other path segment is simply not found. */
function parseId(raw: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw notFound('id');
  return Number(raw);
}

async function findCategory(db: Db, companyId: string, rawId: string): Promise<CategoryRow> {
  const row = await db.selectFrom('expense_categories').selectAll().where('id', '=', parseId(rawId)).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw notFound('id');
  return row;
}

const idParams = z.object({ id: z.string() });

export const createCategory = defineRoute({
  method: 'POST',
  path: '/expense-categories',
  operationId: 'createExpenseCategory',
  summary: 'Create an expense category',
  description: 'Our design. Integer id; the name is unique within the company regardless of case (409 expense_category_exists).',
  tags: ['expense-categories'],
  scope: 'expense_categories:write',
  create: true,
  body: zExpenseCategoryWrite,
  response: zExpenseCategory,
  errors: { expense_category_exists: 409 },
  handler: async (ctx) => {
    const { name } = ctx.body;
    const other = await categoryNamed(ctx.db, ctx.companyId, name);
    if (other) throw nameTaken(Number(other.id));
    try {
      const row = await ctx.db
        .insertInto('expense_categories')
        .values({ company_id: ctx.companyId, name, name_key: nameKey(name), created_at: ctx.now, updated_at: null })
        .returning(['id', 'name', 'created_at', 'updated_at'])
        .executeTakeFirstOrThrow();
      return toWire(row);
    } catch (error) {
      const raced = await categoryNamed(ctx.db, ctx.companyId, name);
      if (raced) throw nameTaken(Number(raced.id));
      throw error;
    }
  },
});

export const listCategories = defineRoute({
  method: 'GET',
  path: '/expense-categories',
  operationId: 'listExpenseCategories',
  summary: 'List expense categories',
  description: 'Company-wide. search matches the name; sort by name (default, asc), id or created_at. start_date/end_date do not apply.',
  tags: ['expense-categories'],
  scope: 'expense_categories:read',
  query: listQuery(['name', 'id', 'created_at'] as const),
  response: listPageSchema(zExpenseCategory),
  handler: async (ctx) => {
    const base = ctx.db.selectFrom('expense_categories').selectAll().where('company_id', '=', ctx.companyId);
    const page = await paginate(base, ctx.query, {
      sortColumns: { name: 'name_key', id: 'id', created_at: 'created_at' },
      defaultSort: 'name',
      defaultOrder: 'asc',
      searchColumns: ['name'],
      tieBreaker: 'id',
    });
    return mapPage(page, toWire);
  },
});

export const getCategory = defineRoute({
  method: 'GET',
  path: '/expense-categories/:id',
  operationId: 'getExpenseCategory',
  summary: 'Retrieve an expense category',
  tags: ['expense-categories'],
  scope: 'expense_categories:read',
  params: idParams,
  response: zExpenseCategory,
  errors: { resource_missing: 404 },
  handler: async (ctx) => toWire(await findCategory(ctx.db, ctx.companyId, ctx.params.id)),
});

export const updateCategory = defineRoute({
  method: 'PUT',
  path: '/expense-categories/:id',
  operationId: 'updateExpenseCategory',
  summary: 'Rename an expense category',
  tags: ['expense-categories'],
  scope: 'expense_categories:write',
  params: idParams,
  body: zExpenseCategoryWrite,
  response: zExpenseCategory,
  errors: { resource_missing: 404, expense_category_exists: 409 },
  handler: async (ctx) => {
    const row = await findCategory(ctx.db, ctx.companyId, ctx.params.id);
    const { name } = ctx.body;
    const other = await categoryNamed(ctx.db, ctx.companyId, name, Number(row.id));
    if (other) throw nameTaken(Number(other.id));
    try {
      await ctx.db
        .updateTable('expense_categories')
        .set({ name, name_key: nameKey(name), updated_at: ctx.now })
        .where('id', '=', Number(row.id))
        .where('company_id', '=', ctx.companyId)
        .execute();
    } catch (error) {
      const raced = await categoryNamed(ctx.db, ctx.companyId, name, Number(row.id));
      if (raced) throw nameTaken(Number(raced.id));
      throw error;
    }
    return toWire({ ...row, name, updated_at: ctx.now });
  },
});

export const deleteCategory = defineRoute({
  method: 'DELETE',
  path: '/expense-categories/:id',
  operationId: 'deleteExpenseCategory',
  summary: 'Delete an expense category without expenses',
  description: 'Answers at top level: { success, id, object, deleted }. A category with expenses: 409 expense_category_in_use.',
  tags: ['expense-categories'],
  scope: 'expense_categories:write',
  params: idParams,
  response: z.object({ id: z.number().int(), object: z.literal('expense_category'), deleted: z.literal(true) }),
  envelope: 'top',
  errors: { resource_missing: 404, expense_category_in_use: 409 },
  handler: async (ctx) => {
    const row = await findCategory(ctx.db, ctx.companyId, ctx.params.id);
    const id = Number(row.id);
    const used = () => ctx.db.selectFrom('expenses').select('id').where('category_id', '=', id).executeTakeFirst();
    if (await used()) throw conflict('expense_category_in_use', 'id');
    try {
      await ctx.db.deleteFrom('expense_categories').where('id', '=', id).where('company_id', '=', ctx.companyId).execute();
    } catch (error) {
      if (await used()) throw conflict('expense_category_in_use', 'id');
      throw error;
    }
    return { id, object: 'expense_category' as const, deleted: true as const };
  },
});

export const categoryRoutes = [createCategory, listCategories, getCategory, updateCategory, deleteCategory];
