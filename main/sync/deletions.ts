import { z } from 'zod';
import type { ApiClient } from '../api/client';
import { listDeletedRecords } from '../api/endpoints';
import { ApiHttpError } from '../api/errors';
import { sql } from '../db/sql';
import type { ReadDb, Store, WriteDb } from '../db/store';
import type { Clock } from '../local/context';
import { recomputePaid } from '../local/receipts';
import type { DeletedRecord, TombstonedResource } from '../../shared/schemas/deleted-record';
import { TOMBSTONED_RESOURCES } from '../../shared/schemas/deleted-record';
import { markFailed, type EntityType, type StoredError } from './outbox';
import { walkStart } from './pull';

export { WORK_POINT_DELETION_KEYS } from './pull';

/**
 * Records deleted for good on the server (GET /deleted-records), applied to the local cache. Each
 * resource has its own cursor on `deleted_at`, kept in `sync_state` beside the resource's own cursor
 * (under `deleted:<resource>`); each page is applied in ONE transaction with the cursor that says it
 * was read. Tombstones are only ever added, so a walk cannot skip one: an insertion during the walk
 * shifts later rows to a later page (seen twice, which is harmless), never to an earlier one.
 *
 * A record with a change of this device still waiting in the outbox is not deleted silently: the
 * local copy stays and the waiting change is set `failed` with `resource_deleted`, so the user sees it
 * (discarding it re-reads the record, which answers 404 and drops it). A waiting delete is left alone:
 * the server answers it 404, which completes it and removes the copy.
 */

export const DELETION_RESOURCES: readonly TombstonedResource[] = TOMBSTONED_RESOURCES;

export const deletionCursorKey = (resource: TombstonedResource) => `deleted:${resource}`;

const zDeletionCursor = z.object({
  /** Highest `deleted_at` applied (inclusive lower bound of the next walk); null: from the beginning. */
  since: z.number().int().nullable(),
  page: z.number().int().min(1),
  max: z.number().int().nullable(),
  forbidden_until: z.number().int().nullable(),
});
export type DeletionCursor = z.infer<typeof zDeletionCursor>;

const FRESH: DeletionCursor = { since: null, page: 1, max: null, forbidden_until: null };

export function readDeletionCursor(db: ReadDb, resource: TombstonedResource): DeletionCursor {
  const row = db.get<{ cursor: string | null }>(sql`SELECT cursor FROM sync_state WHERE resource = ${deletionCursorKey(resource)}`);
  if (!row?.cursor) return { ...FRESH };
  const parsed = zDeletionCursor.safeParse(JSON.parse(row.cursor));
  return parsed.success ? parsed.data : { ...FRESH };
}

function writeDeletionCursor(db: WriteDb, resource: TombstonedResource, cursor: DeletionCursor, now: number): void {
  db.run(sql`INSERT INTO sync_state (resource, cursor, last_pull_at) VALUES (${deletionCursorKey(resource)}, ${JSON.stringify(cursor)}, ${now})
             ON CONFLICT (resource) DO UPDATE SET cursor = excluded.cursor, last_pull_at = excluded.last_pull_at, last_error = NULL`);
}

const ENTITY: Record<TombstonedResource, EntityType> = { invoices: 'invoice', products: 'product', payments: 'payment', suppliers: 'supplier' };

function localIdByServerId(db: ReadDb, resource: TombstonedResource, serverId: string): string | null {
  const row = db.get<{ id: string }>(
    resource === 'invoices' ? sql`SELECT id FROM invoices WHERE server_id = ${serverId}`
    : resource === 'products' ? sql`SELECT id FROM products WHERE server_id = ${serverId}`
    : resource === 'payments' ? sql`SELECT id FROM payments WHERE server_id = ${serverId}`
    : sql`SELECT id FROM suppliers WHERE server_id = ${serverId}`,
  );
  return row?.id ?? null;
}

const DELETED_ERROR: StoredError = {
  type: 'conflict',
  code: 'resource_deleted',
  message: 'The record was deleted on the server; this change cannot be sent. Discard it.',
  status: 404,
};

/**
 * Applies one tombstone. Returns what happened: `deleted` (the local copy is gone), `kept` (a local
 * change waits: the copy stays and the change is failed visibly) or `absent` (nothing held here).
 */
export function applyDeletion(db: WriteDb, record: DeletedRecord, now: number): 'deleted' | 'kept' | 'absent' {
  const resource = record.resource;
  const id = localIdByServerId(db, resource, record.id);
  if (id === null) return 'absent';
  const open = db.all<{ id: string; kind: string; state: string; code: string | null }>(
    sql`SELECT id, kind, state, json_extract(last_error, '$.code') AS code FROM outbox
        WHERE entity_type = ${ENTITY[resource]} AND entity_id = ${id} AND state <> 'done'`,
  );
  if (open.length) {
    // In flight cannot happen during a pull (passes do not overlap); a delete will be completed by its
    // 404; a change the server already answered 404 (`resource_missing`) says the same thing in its own words.
    for (const item of open) {
      if (item.state === 'in_flight' || item.kind.endsWith('.delete')) continue;
      if (item.state === 'failed' && (item.code === 'resource_missing' || item.code === 'resource_deleted')) continue;
      markFailed(db, item.id, DELETED_ERROR, 'not_applied', now);
    }
    return 'kept';
  }
  switch (resource) {
    case 'invoices':
      db.run(sql`DELETE FROM invoice_lines WHERE invoice_id = ${id}`);
      db.run(sql`DELETE FROM invoices WHERE id = ${id}`);
      break;
    case 'products':
      db.run(sql`DELETE FROM products WHERE id = ${id}`);
      break;
    case 'suppliers':
      db.run(sql`DELETE FROM suppliers WHERE id = ${id}`);
      break;
    case 'payments': {
      const invoiceId = db.get<{ invoice_id: string | null }>(sql`SELECT invoice_id FROM payments WHERE id = ${id}`)?.invoice_id ?? null;
      db.run(sql`DELETE FROM payments WHERE id = ${id}`);
      // Same rule as a pulled payment: an invoice with its own change waiting keeps its local state.
      const invoiceWaits = invoiceId !== null && db.get(
        sql`SELECT 1 AS y FROM outbox WHERE entity_type = 'invoice' AND entity_id = ${invoiceId} AND state <> 'done'`,
      ) !== undefined;
      if (invoiceId !== null && !invoiceWaits) recomputePaid(db, invoiceId, now);
      break;
    }
  }
  return 'deleted';
}

export interface DeletionPullDeps {
  store: Store;
  api: ApiClient;
  clock: Clock;
  onPage?: (resource: TombstonedResource, applied: number) => void;
}

const PER_PAGE = 100;

/**
 * One bounded step of a resource's tombstone walk (at most `maxPages` requests). `applied`: local
 * copies deleted or kept. Network errors propagate; a 403 parks the resource for an hour, like the
 * resource's own pull.
 */
export async function pullDeletions(
  deps: DeletionPullDeps,
  resource: TombstonedResource,
  maxPages = 20,
): Promise<{ requests: number; applied: number; more: boolean }> {
  let cursor = readDeletionCursor(deps.store.reader, resource);
  const now = deps.clock.now();
  const result = { requests: 0, applied: 0, more: false };
  if (cursor.forbidden_until !== null && cursor.forbidden_until > now) return result;
  while (result.requests < maxPages) {
    const query: Record<string, string | number> = { page: cursor.page, per_page: PER_PAGE, sort: 'deleted_at', order: 'asc' };
    if (cursor.since !== null) query.updated_since = walkStart(cursor.since);
    let page;
    try {
      result.requests += 1;
      page = await listDeletedRecords(deps.api, resource, query);
    } catch (error) {
      if (error instanceof ApiHttpError && error.status === 403) {
        const parked = { ...cursor, forbidden_until: now + 3600 };
        deps.store.write((db) => writeDeletionCursor(db, resource, parked, now));
        return result;
      }
      throw error;
    }
    const max = page.data.reduce((m, r) => Math.max(m, r.deleted_at), cursor.max ?? Number.MIN_SAFE_INTEGER);
    const found = max === Number.MIN_SAFE_INTEGER ? null : max;
    const next: DeletionCursor = page.has_more
      ? { ...cursor, page: cursor.page + 1, max: found, forbidden_until: null }
      : { since: found === null ? cursor.since : Math.max(found, cursor.since ?? found), page: 1, max: null, forbidden_until: null };
    const at = deps.clock.now();
    const applied = deps.store.write((db) => {
      let n = 0;
      // Only this resource's tombstones, whatever the server sent.
      for (const r of page.data) if (r.resource === resource && applyDeletion(db, r, at) !== 'absent') n += 1;
      writeDeletionCursor(db, resource, next, at);
      return n;
    });
    result.applied += applied;
    deps.onPage?.(resource, applied);
    cursor = next;
    if (!page.has_more) return result;
  }
  result.more = true;
  return result;
}
