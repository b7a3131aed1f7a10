import { z } from 'zod';
import {
  WORK_POINT_EXPANSIONS, WORK_POINT_SORTS, zWorkPoint, zWorkPointCreate, zWorkPointUpdate, type CompanySummary, type WorkPoint,
} from '../../../shared/schemas/work-point';
import type { Db } from '../../db/types';
import type { WorkPointsTable } from '../../platform/tables';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { expandShape, expansions, listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import { conflict, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db-errors';

const tags = ['work_points'];
const idParams = z.object({ id: z.string().min(1).max(64) });
const expandQuery = z.object(expandShape(WORK_POINT_EXPANSIONS));

function toWorkPoint(row: WorkPointsTable, company?: CompanySummary): WorkPoint {
  return {
    id: row.id,
    object: 'work_point',
    company_id: row.company_id,
    name: row.name,
    address: row.address,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(company ? { company } : {}),
  };
}

async function companySummary(db: Db, companyId: string): Promise<CompanySummary> {
  const row = await db.selectFrom('companies').select(['id', 'name', 'cui']).where('id', '=', companyId).executeTakeFirstOrThrow();
  return { ...row, object: 'company' };
}

/** A work point of the caller's company; another company's answers exactly like a missing one. */
async function findWorkPoint(db: Db, companyId: string, id: string): Promise<WorkPointsTable> {
  const row = await db.selectFrom('work_points').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw notFound('id');
  return row;
}

const listWorkPoints = defineRoute({
  method: 'GET',
  path: '/work-points',
  operationId: 'listWorkPoints',
  summary: 'List the work points of the company',
  description: 'Every work point of the key’s company (a key reaches all of them). Sort by `name` (default, ascending) or `created_at`; `search` matches name and address; `start_date`/`end_date` filter by creation day (Europe/Bucharest).',
  tags,
  scope: 'work_points:read',
  query: listQuery(WORK_POINT_SORTS, WORK_POINT_EXPANSIONS),
  response: listPageSchema(zWorkPoint),
  handler: async (ctx) => {
    const page = await paginate(
      ctx.db.selectFrom('work_points').selectAll().where('company_id', '=', ctx.companyId),
      ctx.query,
      {
        sortColumns: { name: 'name', created_at: 'created_at' },
        defaultSort: 'name',
        defaultOrder: ctx.query.sort === 'created_at' ? 'desc' : 'asc',
        searchColumns: ['name', 'address'],
        timestampColumn: 'created_at',
        tieBreaker: 'id',
      },
    );
    const company = expansions(ctx.query).has('company') ? await companySummary(ctx.db, ctx.companyId) : undefined;
    return mapPage(page, (row) => toWorkPoint(row, company));
  },
});

const getWorkPoint = defineRoute({
  method: 'GET',
  path: '/work-points/:id',
  operationId: 'getWorkPoint',
  summary: 'Retrieve a work point',
  tags,
  scope: 'work_points:read',
  params: idParams,
  query: expandQuery,
  response: zWorkPoint,
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await findWorkPoint(ctx.db, ctx.companyId, ctx.params.id);
    const company = expansions(ctx.query).has('company') ? await companySummary(ctx.db, ctx.companyId) : undefined;
    return toWorkPoint(row, company);
  },
});

const createWorkPoint = defineRoute({
  method: 'POST',
  path: '/work-points',
  operationId: 'createWorkPoint',
  summary: 'Create a work point',
  description: 'Names are unique within a company (409 work_point_exists).',
  tags,
  scope: 'work_points:write',
  create: true,
  body: zWorkPointCreate,
  response: zWorkPoint,
  errors: { work_point_exists: 409, idempotency_conflict: 409, idempotency_in_progress: 409 },
  handler: async (ctx) => {
    const row: WorkPointsTable = {
      id: newId('wp'),
      company_id: ctx.companyId,
      name: ctx.body.name,
      address: ctx.body.address ?? null,
      created_at: ctx.now,
      updated_at: null,
    };
    try {
      await ctx.db.insertInto('work_points').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('work_point_exists', 'name');
      throw error;
    }
    return toWorkPoint(row);
  },
});

const updateWorkPoint = defineRoute({
  method: 'PUT',
  path: '/work-points/:id',
  operationId: 'updateWorkPoint',
  summary: 'Rename a work point or change its address',
  tags,
  scope: 'work_points:write',
  params: idParams,
  body: zWorkPointUpdate,
  response: zWorkPoint,
  errors: { resource_missing: 404, work_point_exists: 409 },
  handler: async (ctx) => {
    const row = await findWorkPoint(ctx.db, ctx.companyId, ctx.params.id);
    const next: WorkPointsTable = {
      ...row,
      ...(ctx.body.name !== undefined ? { name: ctx.body.name } : {}),
      ...(ctx.body.address !== undefined ? { address: ctx.body.address } : {}),
      updated_at: ctx.now,
    };
    try {
      await ctx.db
        .updateTable('work_points')
        .set({ name: next.name, address: next.address, updated_at: next.updated_at })
        .where('id', '=', row.id)
        .where('company_id', '=', ctx.companyId)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('work_point_exists', 'name');
      throw error;
    }
    return toWorkPoint(next);
  },
});

const deleteWorkPoint = defineRoute({
  method: 'DELETE',
  path: '/work-points/:id',
  operationId: 'deleteWorkPoint',
  summary: 'Delete a work point nothing refers to',
  description: 'Refused with 409 work_point_in_use while an API key (even a revoked one) or a document refers to it.',
  tags,
  scope: 'work_points:write',
  params: idParams,
  response: z.object({ id: z.string(), object: z.literal('work_point'), deleted: z.literal(true) }),
  errors: { resource_missing: 404, work_point_in_use: 409 },
  handler: async (ctx) => {
    const row = await findWorkPoint(ctx.db, ctx.companyId, ctx.params.id);
    try {
      // Every table with a work_point_id references work_points(id): the database itself says
      // whether anything still points here, for tables of modules this one does not know.
      await ctx.db.deleteFrom('work_points').where('id', '=', row.id).where('company_id', '=', ctx.companyId).execute();
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict('work_point_in_use', 'id');
      throw error;
    }
    return { id: row.id, object: 'work_point' as const, deleted: true as const };
  },
});

export const workPointRoutes: AnyRoute[] = [listWorkPoints, getWorkPoint, createWorkPoint, updateWorkPoint, deleteWorkPoint];
