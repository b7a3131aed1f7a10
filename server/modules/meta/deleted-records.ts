import { z } from 'zod';
import { defineRoute } from '../../platform/route';
import { ApiError } from '../../platform/errors';
import { scopeAllows } from '../../platform/api-keys';
import { changesListQuery, listPageSchema, mapPage, paginate, type ListPage } from '../../platform/list';
import { TOMBSTONED_RESOURCES, type TombstonedResource } from '../../platform/tombstones';

export const zDeletedRecord = z.object({
  object: z.literal('deleted_record'),
  /** The id the record had. */
  id: z.string(),
  resource: z.enum(TOMBSTONED_RESOURCES),
  /** The document's work point; null for company-wide records (products, suppliers). */
  work_point_id: z.string().nullable(),
  /** Unix seconds. */
  deleted_at: z.number().int(),
});
export type DeletedRecord = z.infer<typeof zDeletedRecord>;

export const listDeletedRecords = defineRoute({
  method: 'GET',
  path: '/deleted-records',
  operationId: 'listDeletedRecords',
  summary: 'Records deleted for good, for clients that keep copies',
  description:
    'Our design. Tombstones of the records removed for good: draft, voided and storno invoices (`invoices`), products, payments ' +
    '(deleted, or removed with their receipt) and suppliers. Soft deletes (clients, receipts) are not here: those records change ' +
    '(`is_deleted`, `updated_at`) and show in their own lists with `updated_since`. `updated_since` (Unix seconds, inclusive) on ' +
    '`deleted_at`; `resource` keeps one resource; default order oldest first. Each resource needs its own read scope: a `resource` ' +
    'the key may not read answers 403; without `resource`, only the resources it may read are listed. Documents (invoices, ' +
    'payments) are those of the selected work point; products and suppliers are company-wide. Kept indefinitely.',
  tags: ['meta'],
  scope: 'any',
  query: changesListQuery(['deleted_at'] as const).extend({ resource: z.enum(TOMBSTONED_RESOURCES).optional() }),
  response: listPageSchema(zDeletedRecord),
  errors: { insufficient_permissions: 403 },
  handler: async (ctx) => {
    const q = ctx.query;
    const readable = TOMBSTONED_RESOURCES.filter((r) => scopeAllows(ctx.auth.scopes, `${r}:read`));
    if (q.resource && !readable.includes(q.resource)) {
      throw new ApiError(403, 'permission_error', 'insufficient_permissions', { vars: { scope: `${q.resource}:read` } });
    }
    const wanted: TombstonedResource[] = q.resource ? [q.resource] : readable;
    if (!wanted.length) {
      const empty: ListPage<DeletedRecord> = { object: 'list', data: [], has_more: false, total: 0, page: q.page, per_page: q.per_page, total_pages: 0 };
      return empty;
    }
    const base = ctx.db
      .selectFrom('deleted_records')
      .selectAll()
      .where('company_id', '=', ctx.companyId)
      .where('resource', 'in', wanted)
      .where((eb) => eb.or([eb('work_point_id', '=', ctx.workPointId), eb('work_point_id', 'is', null)]));
    const page = await paginate(base, q, {
      sortColumns: { deleted_at: 'deleted_at' },
      defaultSort: 'deleted_at',
      defaultOrder: 'asc',
      timestampColumn: 'deleted_at',
      updatedColumn: 'deleted_at',
      tieBreaker: 'record_id',
    });
    return mapPage(
      page,
      (row): DeletedRecord => ({
        object: 'deleted_record',
        id: row.record_id,
        resource: row.resource as TombstonedResource,
        work_point_id: row.work_point_id,
        deleted_at: Number(row.deleted_at),
      }),
    );
  },
});
