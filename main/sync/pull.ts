import { z } from 'zod';
import type { ApiClient } from '../api/client';
import { ApiHttpError } from '../api/errors';
import { listPage, PULLED, type PulledResource } from '../api/endpoints';
import { sql } from '../db/sql';
import type { Store, WriteDb } from '../db/store';
import type { Clock } from '../local/context';
import { bucharestWallTimeToUnix } from '../../shared/dates';
import { applyStockLevel } from '../local/stock/apply-level';
import { applyClient, applyExpense, applyInvoice, applyPayment, applyProduct, applyReceipt, applySupplier, applySupplierBill } from './apply';

/**
 * Incremental pull, per resource, page by page. Each page is applied in ONE transaction together with
 * the cursor that says it was read, so a crash between pages loses nothing and repeats nothing.
 *
 * Two strategies, chosen per resource by what the server supports:
 * - `updated`: `sort=updated_at&order=asc&updated_since=<cursor>` (inclusive). Sees new AND changed
 *   records; cheap when nothing changed (one request answering the few records of the cursor's own
 *   second). Used whenever the server accepts `sort=updated_at` (it has since the lists gained
 *   `updated_since`).
 * - `created`: the fallback on today's server (`sort=created_at&order=desc`, stop at the cursor).
 *   Sees new records only; a change to an old record reaches the device when it is next pushed or
 *   when its edit is discarded (refresh queue).
 *
 * Every walk starts `PULL_OVERLAP_SECONDS` before its cursor: the service stamps `updated_at` when a
 * request starts, so a slow transaction can commit a change dated before an instant a walk has already
 * passed. Applying a copy twice changes nothing (rule 2), so re-reading that minute is only a cost.
 */

export const PULL_OVERLAP_SECONDS = 60;

/** The lower bound sent for a cursor: a little before it (never below 0, which the server refuses). */
export function walkStart(since: number): number {
  return Math.max(0, since - PULL_OVERLAP_SECONDS);
}

/** Stock levels last: after the push of this pass, so a level read then includes every sale just sent (main/local/stock/levels.ts). */
export const PULL_ORDER: readonly PulledResource[] = ['clients', 'products', 'invoices', 'receipts', 'payments', 'suppliers', 'expenses', 'supplier_bills', 'stock_levels'];

/** Resources that belong to a work point: their cursors start over when the device moves to another. */
export const WORK_POINT_RESOURCES: readonly PulledResource[] = ['invoices', 'receipts', 'payments', 'expenses', 'supplier_bills', 'stock_levels'];

/** Their tombstone cursors (main/sync/deletions.ts), which start over with them. */
export const WORK_POINT_DELETION_KEYS: readonly string[] = ['deleted:invoices', 'deleted:payments'];

const zCursor = z.object({
  strategy: z.enum(['updated', 'created']),
  /** Lower bound of the walk in progress (inclusive), Unix seconds; null: from the beginning. */
  since: z.number().int().nullable(),
  /** Next page of the walk in progress (1 when none). */
  page: z.number().int().min(1),
  /** Highest timestamp seen in the walk in progress. */
  max: z.number().int().nullable(),
  /** `total` of the walk's first page: a different total at its end means rows moved under it. */
  total: z.number().int().nullable(),
  /** When the `updated` strategy was last refused (retried after a day). */
  checked_at: z.number().int().nullable(),
  /** The key lacks the scope (403): skip until this time. */
  forbidden_until: z.number().int().nullable().default(null),
});
export type PullCursor = z.infer<typeof zCursor>;

const FRESH: PullCursor = { strategy: 'updated', since: null, page: 1, max: null, total: null, checked_at: null, forbidden_until: null };

export function readCursor(store: Store, resource: string): PullCursor {
  const row = store.reader.get<{ cursor: string | null }>(sql`SELECT cursor FROM sync_state WHERE resource = ${resource}`);
  if (!row?.cursor) return { ...FRESH };
  const parsed = zCursor.safeParse(JSON.parse(row.cursor));
  return parsed.success ? parsed.data : { ...FRESH };
}

function writeCursor(db: WriteDb, resource: string, cursor: PullCursor, now: number): void {
  db.run(sql`INSERT INTO sync_state (resource, cursor, last_pull_at) VALUES (${resource}, ${JSON.stringify(cursor)}, ${now})
             ON CONFLICT (resource) DO UPDATE SET cursor = excluded.cursor, last_pull_at = excluded.last_pull_at, last_error = NULL`);
}

type Item = { id: string; created_at: number | string; updated_at?: number | null | string };

/**
 * Unix seconds of a timestamp member: integers, or the expenses' `YYYY-MM-DD HH:MM:SS` text, which the
 * service prints in Bucharest wall time (read as UTC it would put the cursor 2-3 hours ahead and
 * every change in that window would be skipped for good).
 */
export function toUnix(value: number | string | null | undefined): number | null {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return null;
  return bucharestWallTimeToUnix(value);
}

function stamp(item: Item, strategy: PullCursor['strategy']): number {
  const updated = strategy === 'updated' ? toUnix(item.updated_at) : null;
  return updated ?? toUnix(item.created_at) ?? 0;
}

function applyItem(db: WriteDb, resource: PulledResource, item: unknown, now: number): void {
  switch (resource) {
    case 'clients': applyClient(db, PULLED.clients.item.parse(item), now); break;
    case 'products': applyProduct(db, PULLED.products.item.parse(item), now); break;
    case 'invoices': applyInvoice(db, PULLED.invoices.item.parse(item), now); break;
    case 'receipts': applyReceipt(db, PULLED.receipts.item.parse(item), now); break;
    case 'payments': applyPayment(db, PULLED.payments.item.parse(item), now); break;
    case 'suppliers': applySupplier(db, PULLED.suppliers.item.parse(item), now); break;
    case 'expenses': applyExpense(db, PULLED.expenses.item.parse(item)); break;
    case 'supplier_bills': applySupplierBill(db, PULLED.supplier_bills.item.parse(item)); break;
    case 'stock_levels': applyStockLevel(db, PULLED.stock_levels.item.parse(item)); break;
  }
}

export interface PullDeps {
  store: Store;
  api: ApiClient;
  clock: Clock;
  onPage?: (resource: PulledResource, applied: number) => void;
}

export interface PullResult {
  requests: number;
  applied: number;
  /** The walk stopped at the page budget and continues at the next pass. */
  more: boolean;
}

const PER_PAGE = 100;

/**
 * One bounded step of a resource's pull: at most `maxPages` requests. Network errors propagate (the
 * engine goes offline); a 403 (key without that scope) parks the resource for an hour.
 */
export async function pullResource(deps: PullDeps, resource: PulledResource, maxPages = 20): Promise<PullResult> {
  let cursor = readCursor(deps.store, resource);
  const now = deps.clock.now();
  if (cursor.forbidden_until !== null && cursor.forbidden_until > now) return { requests: 0, applied: 0, more: false };
  if (cursor.strategy === 'created' && cursor.page === 1 && (cursor.checked_at ?? 0) < now - 86_400) {
    cursor = { ...cursor, strategy: 'updated' };
  }
  const result: PullResult = { requests: 0, applied: 0, more: false };
  const seen = new Set<string>();
  while (result.requests < maxPages) {
    const query: Record<string, string | number> = { page: cursor.page, per_page: PER_PAGE };
    if (cursor.strategy === 'updated') {
      query.sort = 'updated_at';
      query.order = 'asc';
      if (cursor.since !== null) query.updated_since = walkStart(cursor.since);
    } else {
      query.sort = 'created_at';
      query.order = 'desc';
    }
    let page;
    try {
      result.requests += 1;
      page = await listPage(deps.api, resource, query);
    } catch (error) {
      if (error instanceof ApiHttpError && cursor.strategy === 'updated' && (error.status === 422 || error.status === 400)) {
        // The server does not know `sort=updated_at` yet: fall back, and look again tomorrow.
        cursor = { ...FRESH, strategy: 'created', since: cursor.since, checked_at: now };
        continue;
      }
      // 403: the key lacks the scope; 404: a service older than the resource (stock came with issue 15).
      if (error instanceof ApiHttpError && (error.status === 403 || error.status === 404)) {
        const parked = { ...cursor, forbidden_until: now + 3600 };
        deps.store.write((db) => writeCursor(db, resource, parked, now));
        return result;
      }
      throw error;
    }
    const items = page.data as Item[];
    let stop = !page.has_more;
    let fresh = items;
    if (cursor.strategy === 'created' && cursor.since !== null) {
      const since = walkStart(cursor.since);
      fresh = items.filter((i) => (toUnix(i.created_at) ?? 0) >= since);
      if (fresh.length < items.length) stop = true;
    }
    let moved = false;
    for (const item of fresh) {
      if (seen.has(item.id)) moved = true;
      seen.add(item.id);
    }
    const max = fresh.reduce((m, i) => Math.max(m, stamp(i, cursor.strategy)), cursor.max ?? Number.MIN_SAFE_INTEGER);
    const total = cursor.total ?? page.total;
    let next: PullCursor;
    if (stop) {
      // Rows that moved or vanished under the walk may have shifted one past a page boundary:
      // walk again from the same lower bound instead of advancing.
      const unsafe = cursor.strategy === 'updated' && (moved || page.total !== total);
      // The overlap re-reads records older than the cursor: it never moves back.
      const since = unsafe || max === Number.MIN_SAFE_INTEGER ? cursor.since : Math.max(max, cursor.since ?? max);
      next = { ...cursor, since, page: 1, max: null, total: null };
    } else {
      next = { ...cursor, page: cursor.page + 1, max: max === Number.MIN_SAFE_INTEGER ? null : max, total };
    }
    const at = deps.clock.now();
    deps.store.write((db) => {
      for (const item of fresh) applyItem(db, resource, item, at);
      writeCursor(db, resource, next, at);
    });
    result.applied += fresh.length;
    deps.onPage?.(resource, fresh.length);
    cursor = next;
    if (stop) return result;
  }
  result.more = true;
  return result;
}
