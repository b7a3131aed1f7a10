import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/types';
import { defineRoute } from '../../platform/route';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { changesListQuery, listPageSchema, mapPage, paginate } from '../../platform/list';
import { recordDeletion } from '../../platform/tombstones';
import { newId } from '../../platform/ids';
import { zDeleted } from '../../platform/envelope';
import { zSupplier, zSupplierCreate, zSupplierUpdate, type Supplier } from '../../../shared/schemas/supplier';
import type { SuppliersTable } from './tables';
import { SUPPLIERS_SEARCH } from './migrations/0320_search';

type SupplierRow = Selectable<SuppliersTable>;

/** A supplier's VAT id as printed: `RO` + CUI for a VAT payer, the bare CUI otherwise, null without a CUI. */
export function supplierVatId(row: Pick<SupplierRow, 'cui' | 'vat_payer'>): string | null {
  if (row.cui === null) return null;
  return Number(row.vat_payer) ? `RO${row.cui}` : row.cui;
}

function toWire(row: SupplierRow): Supplier {
  const vatPayer = Boolean(row.vat_payer);
  return {
    id: row.id,
    object: 'supplier',
    name: row.name,
    cui: row.cui,
    vat_payer: vatPayer,
    vat_id: supplierVatId(row),
    reg_com: row.reg_com,
    address: row.address,
    email: row.email,
    phone: row.phone,
    iban: row.iban,
    created_at: Number(row.created_at),
    updated_at: row.updated_at === null ? null : Number(row.updated_at),
  };
}

const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v);

function cuiTaken(id: string): ApiError {
  return new ApiError(409, 'invalid_request_error', 'supplier_exists', { param: 'cui', vars: { id } });
}

async function supplierWithCui(db: Db, companyId: string, cui: string, exceptId?: string) {
  let q = db.selectFrom('suppliers').select('id').where('company_id', '=', companyId).where('cui', '=', cui);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return q.executeTakeFirst();
}

async function findSupplier(db: Db, companyId: string, id: string): Promise<SupplierRow> {
  const row = await db.selectFrom('suppliers').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw notFound('id');
  return row;
}

const idParams = z.object({ id: z.string() });

export const createSupplier = defineRoute({
  method: 'POST',
  path: '/suppliers',
  operationId: 'createSupplier',
  summary: 'Create a supplier',
  description:
    'Our design. cui is accepted with or without RO and stored as digits; vat_payer defaults to whether RO was written. ' +
    'A CUI is unique within the company (409 supplier_exists).',
  tags: ['suppliers'],
  scope: 'suppliers:write',
  create: true,
  body: zSupplierCreate,
  response: zSupplier,
  errors: { supplier_exists: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    const cui = b.cui ?? null;
    if (cui) {
      const other = await supplierWithCui(ctx.db, ctx.companyId, cui.digits);
      if (other) throw cuiTaken(other.id);
    }
    const row: SupplierRow = {
      id: newId('sup'),
      company_id: ctx.companyId,
      name: b.name,
      cui: cui?.digits ?? null,
      vat_payer: cui ? ((b.vat_payer ?? cui.ro_prefix) ? 1 : 0) : 0,
      reg_com: blankToNull(b.reg_com) ?? null,
      address: blankToNull(b.address) ?? null,
      email: b.email ?? null,
      phone: blankToNull(b.phone) ?? null,
      iban: b.iban ?? null,
      created_at: ctx.now,
      updated_at: null,
    };
    try {
      await ctx.db.insertInto('suppliers').values(row).execute();
    } catch (error) {
      // Two creates with one CUI racing: the unique constraint stops the second; answer as the check would have.
      const other = cui ? await supplierWithCui(ctx.db, ctx.companyId, cui.digits) : undefined;
      if (other) throw cuiTaken(other.id);
      throw error;
    }
    return toWire(row);
  },
});

export const listSuppliers = defineRoute({
  method: 'GET',
  path: '/suppliers',
  operationId: 'listSuppliers',
  summary: 'List suppliers',
  description:
    'Company-wide. search matches name, cui, reg_com and email; sort by name (default, asc), created_at or updated_at. start_date/end_date ' +
    'do not apply. updated_since keeps the suppliers changed at or after that instant; deleted ones are listed by GET /deleted-records.',
  tags: ['suppliers'],
  scope: 'suppliers:read',
  query: changesListQuery(['name', 'created_at'] as const),
  response: listPageSchema(zSupplier),
  handler: async (ctx) => {
    const base = ctx.db.selectFrom('suppliers').selectAll().where('company_id', '=', ctx.companyId);
    const page = await paginate(base, ctx.query, {
      sortColumns: { name: 'name', created_at: 'created_at' },
      defaultSort: 'name',
      defaultOrder: 'asc',
      searchIndex: { spec: SUPPLIERS_SEARCH, dialect: ctx.dialect },
      tieBreaker: 'id',
      updatedColumn: 'updated_at',
      createdColumn: 'created_at',
    });
    return mapPage(page, toWire);
  },
});

export const getSupplier = defineRoute({
  method: 'GET',
  path: '/suppliers/:id',
  operationId: 'getSupplier',
  summary: 'Retrieve a supplier',
  tags: ['suppliers'],
  scope: 'suppliers:read',
  params: idParams,
  response: zSupplier,
  errors: { resource_missing: 404 },
  handler: async (ctx) => toWire(await findSupplier(ctx.db, ctx.companyId, ctx.params.id)),
});

export const updateSupplier = defineRoute({
  method: 'PUT',
  path: '/suppliers/:id',
  operationId: 'updateSupplier',
  summary: 'Update a supplier',
  description: 'Only the members sent change; null clears an optional member. A new cui without vat_payer sets vat_payer from its RO prefix.',
  tags: ['suppliers'],
  scope: 'suppliers:write',
  params: idParams,
  body: zSupplierUpdate,
  response: zSupplier,
  errors: { resource_missing: 404, supplier_exists: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    const row = await findSupplier(ctx.db, ctx.companyId, ctx.params.id);
    if (b.cui) {
      const other = await supplierWithCui(ctx.db, ctx.companyId, b.cui.digits, row.id);
      if (other) throw cuiTaken(other.id);
    }
    const cui = b.cui === undefined ? row.cui : (b.cui?.digits ?? null);
    const vatPayer = cui === null ? false : (b.vat_payer ?? (b.cui ? b.cui.ro_prefix : Boolean(row.vat_payer)));
    const next: SupplierRow = {
      ...row,
      name: b.name ?? row.name,
      cui,
      vat_payer: vatPayer ? 1 : 0,
      reg_com: blankToNull(b.reg_com) === undefined ? row.reg_com : (blankToNull(b.reg_com) ?? null),
      address: blankToNull(b.address) === undefined ? row.address : (blankToNull(b.address) ?? null),
      email: b.email === undefined ? row.email : b.email,
      phone: blankToNull(b.phone) === undefined ? row.phone : (blankToNull(b.phone) ?? null),
      iban: b.iban === undefined ? row.iban : b.iban,
      updated_at: ctx.now,
    };
    const { id: _id, company_id: _c, created_at: _t, ...changes } = next;
    try {
      await ctx.db.updateTable('suppliers').set(changes).where('id', '=', row.id).where('company_id', '=', ctx.companyId).execute();
    } catch (error) {
      const other = cui ? await supplierWithCui(ctx.db, ctx.companyId, cui, row.id) : undefined;
      if (other) throw cuiTaken(other.id);
      throw error;
    }
    return toWire(next);
  },
});

export const deleteSupplier = defineRoute({
  method: 'DELETE',
  path: '/suppliers/:id',
  operationId: 'deleteSupplier',
  summary: 'Delete a supplier without expenses',
  description:
    'Answers at top level, as DELETE /languages/{id} does: { success, id, object, deleted }. A supplier with expenses: 409 supplier_in_use. ' +
    'The deletion is listed by GET /deleted-records.',
  tags: ['suppliers'],
  scope: 'suppliers:write',
  params: idParams,
  response: zDeleted('supplier'),
  envelope: 'top',
  errors: { resource_missing: 404, supplier_in_use: 409 },
  handler: async (ctx) => {
    const row = await findSupplier(ctx.db, ctx.companyId, ctx.params.id);
    const used = await ctx.db.selectFrom('expenses').select('id').where('company_id', '=', ctx.companyId).where('supplier_id', '=', row.id).executeTakeFirst();
    if (used) throw conflict('supplier_in_use', 'id');
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('suppliers').where('id', '=', row.id).where('company_id', '=', ctx.companyId).execute();
        await recordDeletion(trx, { resource: 'suppliers', id: row.id, companyId: ctx.companyId, workPointId: null, now: ctx.now });
      });
    } catch (error) {
      // An expense recorded since the check: the foreign key refuses the delete.
      if (await ctx.db.selectFrom('expenses').select('id').where('supplier_id', '=', row.id).executeTakeFirst()) throw conflict('supplier_in_use', 'id');
      throw error;
    }
    return { id: row.id, object: 'supplier' as const, deleted: true as const };
  },
});

export const supplierRoutes = [createSupplier, listSuppliers, getSupplier, updateSupplier, deleteSupplier];
