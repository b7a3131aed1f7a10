import { z } from 'zod';
import { zIpcError, type IpcError } from '../../shared/ipc/contract';
import { selectedWorkPointId } from '../db/queries/settings';
import { inList, sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import type { LocalContext } from '../local/context';

/**
 * The outbox: every local change the server has not seen, written in the same transaction as the
 * change itself (the caller's `WriteDb`), so a crash never separates them. A row becomes exactly
 * one HTTP request; its id is the request's `Idempotency-Key`.
 *
 * References to records made offline are stored as local ids and listed in `refs`; they are swapped
 * for server ids only when the request is sent, and an item is not sent before the items creating
 * what it references are done (`outbox_deps`).
 */

export const ENTITY_TYPES = ['invoice', 'client', 'product', 'receipt', 'payment', 'reservation', 'expense', 'supplier'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Tables holding each entity type that can be referenced (a reservation is never a reference). */
export const ENTITY_TABLES = {
  invoice: 'invoices', client: 'clients', product: 'products', receipt: 'receipts', expense: 'expenses', supplier: 'suppliers',
} as const;
export type ReferencedType = keyof typeof ENTITY_TABLES;

export const OUTBOX_KINDS = [
  'client.create', 'client.update',
  'product.create', 'product.update',
  'invoice.create', 'invoice.update', 'invoice.issue', 'invoice.delete', 'invoice.storno', 'invoice.convert',
  'receipt.create', 'receipt.update',
  'payment.create',
  'reservation.release',
  'supplier.create',
  'expense.create', 'expense.pay',
] as const;

/** Entity types that belong to a work point on the server (the rest is company-wide). */
export const WORK_POINT_ENTITY_TYPES = ['invoice', 'receipt', 'payment', 'expense'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** `at`: `:name` replaces that placeholder of the path; otherwise a dotted path into the body. */
export const zRef = z.object({ at: z.string(), type: z.enum(['invoice', 'client', 'product', 'receipt', 'expense', 'supplier']), id: z.string() });
export type Ref = z.infer<typeof zRef>;

export const zOutboxRequest = z.object({
  method: z.enum(['POST', 'PUT', 'DELETE']),
  path: z.string(),
  body: z.unknown().optional(),
  /** Counts as a create for the rate limit, and carries `Idempotency-Key`. */
  create: z.boolean(),
  refs: z.array(zRef),
  /** A short human description for the outbox list. */
  label: z.string(),
  /**
   * The work point selected when the change was made; sent as `work_point_id`, so it lands there even
   * if the device moves to another work point before it is sent. Absent on items written before.
   */
  work_point_id: z.string().nullable().optional(),
});
export type OutboxRequest = z.infer<typeof zOutboxRequest>;

export const zStoredError = zIpcError.extend({ status: z.number().int().optional() });
export type StoredError = z.infer<typeof zStoredError>;

export type OutboxState = 'pending' | 'in_flight' | 'done' | 'failed';

interface OutboxRowRaw {
  id: string;
  seq: number;
  kind: string;
  entity_type: string;
  entity_id: string;
  payload: string;
  state: OutboxState;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  last_outcome: 'not_applied' | 'unknown' | null;
  result_id: string | null;
  created_at: number;
  updated_at: number;
  done_at: number | null;
}

export interface OutboxRow extends Omit<OutboxRowRaw, 'payload' | 'last_error' | 'kind' | 'entity_type'> {
  kind: OutboxKind;
  entity_type: EntityType;
  request: OutboxRequest;
  last_error: StoredError | null;
}

function decode(row: OutboxRowRaw): OutboxRow {
  const request = zOutboxRequest.parse(JSON.parse(row.payload));
  let lastError: StoredError | null = null;
  if (row.last_error) {
    const parsed = zStoredError.safeParse(JSON.parse(row.last_error));
    lastError = parsed.success ? parsed.data : { type: 'internal_error', code: 'internal_error', message: 'Unreadable error' };
  }
  return {
    ...row,
    kind: z.enum(OUTBOX_KINDS).parse(row.kind),
    entity_type: z.enum(ENTITY_TYPES).parse(row.entity_type),
    request,
    last_error: lastError,
  };
}

export interface EnqueueInput {
  kind: OutboxKind;
  entityType: EntityType;
  entityId: string;
  request: OutboxRequest;
  /** Items this one must wait for beyond those implied by its refs (e.g. the previous number of a locked series). */
  after?: readonly string[];
}

/** The unfinished item that creates a local record, if the record has not reached the server. */
export function pendingCreateOf(db: ReadDb, type: ReferencedType, id: string): string | null {
  const row = db.get<{ server_id: string | null }>(
    type === 'invoice' ? sql`SELECT server_id FROM invoices WHERE id = ${id}`
    : type === 'client' ? sql`SELECT server_id FROM clients WHERE id = ${id}`
    : type === 'product' ? sql`SELECT server_id FROM products WHERE id = ${id}`
    : type === 'expense' ? sql`SELECT server_id FROM expenses WHERE id = ${id}`
    : type === 'supplier' ? sql`SELECT server_id FROM suppliers WHERE id = ${id}`
    : sql`SELECT server_id FROM receipts WHERE id = ${id}`,
  );
  if (!row || row.server_id !== null) return null;
  const item = db.get<{ id: string }>(
    sql`SELECT id FROM outbox WHERE entity_type = ${type} AND entity_id = ${id} AND state <> 'done'
        AND kind IN ('client.create', 'product.create', 'invoice.create', 'invoice.storno', 'invoice.convert', 'receipt.create',
                     'supplier.create', 'expense.create')
        ORDER BY seq LIMIT 1`,
  );
  return item?.id ?? null;
}

export function enqueue(db: WriteDb, ctx: LocalContext, input: EnqueueInput): string {
  const id = ctx.uuid();
  const now = ctx.clock.now();
  const seqRow = db.get<{ next: number }>(sql`SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM outbox`);
  const request: OutboxRequest = { ...input.request, work_point_id: input.request.work_point_id ?? selectedWorkPointId(db) };
  db.run(sql`INSERT INTO outbox (id, seq, kind, entity_type, entity_id, payload, state, attempts, next_attempt_at, created_at, updated_at)
             VALUES (${id}, ${seqRow?.next ?? 1}, ${input.kind}, ${input.entityType}, ${input.entityId},
                     ${JSON.stringify(request)}, 'pending', 0, 0, ${now}, ${now})`);
  const deps = new Set(input.after ?? []);
  for (const ref of input.request.refs) {
    const dep = pendingCreateOf(db, ref.type, ref.id);
    if (dep) deps.add(dep);
  }
  deps.delete(id);
  for (const dep of deps) db.run(sql`INSERT OR IGNORE INTO outbox_deps (item_id, depends_on) VALUES (${id}, ${dep})`);
  return id;
}

export function getItem(db: ReadDb, id: string): OutboxRow | undefined {
  const row = db.get<OutboxRowRaw>(sql`SELECT * FROM outbox WHERE id = ${id}`);
  return row ? decode(row) : undefined;
}

/** Unfinished items of one record, oldest first. */
export function openItemsOf(db: ReadDb, type: EntityType, entityId: string): OutboxRow[] {
  return db
    .all<OutboxRowRaw>(sql`SELECT * FROM outbox WHERE entity_type = ${type} AND entity_id = ${entityId} AND state <> 'done' ORDER BY seq`)
    .map(decode);
}

/** True when the item's body may still change: never sent, or the server answered that it did nothing. */
export function isMutable(item: OutboxRow): boolean {
  if (item.state === 'in_flight' || item.state === 'done') return false;
  return item.attempts === 0 || item.last_outcome === 'not_applied';
}

/** Replaces the request of a mutable item (a local edit folded into the create not yet sent). */
export function rewrite(db: WriteDb, ctx: LocalContext, id: string, next: OutboxRequest): void {
  const now = ctx.clock.now();
  const request: OutboxRequest = { ...next, work_point_id: next.work_point_id ?? getItem(db, id)?.request.work_point_id ?? selectedWorkPointId(db) };
  db.run(sql`UPDATE outbox SET payload = ${JSON.stringify(request)}, state = 'pending', next_attempt_at = 0,
             updated_at = ${now} WHERE id = ${id} AND state <> 'in_flight' AND state <> 'done'`);
  for (const ref of request.refs) {
    const dep = pendingCreateOf(db, ref.type, ref.id);
    if (dep && dep !== id) db.run(sql`INSERT OR IGNORE INTO outbox_deps (item_id, depends_on) VALUES (${id}, ${dep})`);
  }
}

/** The next item to send: pending, due, every dependency done; lowest sequence first. */
export function nextReady(db: ReadDb, now: number): OutboxRow | undefined {
  const row = db.get<OutboxRowRaw>(sql`
    SELECT o.* FROM outbox o
    WHERE o.state = 'pending' AND o.next_attempt_at <= ${now}
      AND NOT EXISTS (SELECT 1 FROM outbox_deps d JOIN outbox p ON p.id = d.depends_on
                      WHERE d.item_id = o.id AND p.state <> 'done')
    ORDER BY o.seq LIMIT 1`);
  return row ? decode(row) : undefined;
}

/** Earliest time a pending item with satisfied dependencies becomes due (for the engine's timer). */
export function nextDueAt(db: ReadDb): number | null {
  const row = db.get<{ at: number | null }>(sql`
    SELECT MIN(o.next_attempt_at) AS at FROM outbox o
    WHERE o.state = 'pending'
      AND NOT EXISTS (SELECT 1 FROM outbox_deps d JOIN outbox p ON p.id = d.depends_on
                      WHERE d.item_id = o.id AND p.state <> 'done')`);
  return row?.at ?? null;
}

export function claim(db: WriteDb, id: string, now: number): boolean {
  return db.run(sql`UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, updated_at = ${now}
                    WHERE id = ${id} AND state = 'pending'`).changes === 1;
}

export function markDone(db: WriteDb, id: string, resultId: string | null, now: number): void {
  db.run(sql`UPDATE outbox SET state = 'done', result_id = ${resultId}, last_error = NULL, last_outcome = NULL,
             done_at = ${now}, updated_at = ${now} WHERE id = ${id}`);
}

/** Back to pending, to be tried again at `nextAt` (network, 5xx, 429: the request may succeed later). */
export function markRetry(db: WriteDb, id: string, error: StoredError, outcome: 'not_applied' | 'unknown', nextAt: number, now: number): void {
  db.run(sql`UPDATE outbox SET state = 'pending', last_error = ${JSON.stringify(error)}, last_outcome = ${outcome},
             next_attempt_at = ${nextAt}, updated_at = ${now} WHERE id = ${id}`);
}

/** Set aside until the user acts: the server refused it and would refuse it again unchanged. */
export function markFailed(db: WriteDb, id: string, error: StoredError, outcome: 'not_applied' | 'unknown', now: number): void {
  db.run(sql`UPDATE outbox SET state = 'failed', last_error = ${JSON.stringify(error)}, last_outcome = ${outcome},
             updated_at = ${now} WHERE id = ${id}`);
}

/** After a crash: what was in flight is pending again (its Idempotency-Key makes the resend safe). */
export function recoverInFlight(db: WriteDb, now: number): number {
  return db.run(sql`UPDATE outbox SET state = 'pending', last_outcome = 'unknown', updated_at = ${now}
                    WHERE state = 'in_flight'`).changes;
}

export function retryFailed(db: WriteDb, id: string, now: number): boolean {
  return db.run(sql`UPDATE outbox SET state = 'pending', next_attempt_at = 0, updated_at = ${now}
                    WHERE id = ${id} AND state = 'failed'`).changes === 1;
}

export function deleteItem(db: WriteDb, id: string): void {
  db.run(sql`DELETE FROM outbox WHERE id = ${id}`);
}

/** Unfinished items waiting for `id`. */
export function dependentsOf(db: ReadDb, id: string): string[] {
  return db
    .all<{ item_id: string }>(sql`SELECT d.item_id FROM outbox_deps d JOIN outbox o ON o.id = d.item_id
                                  WHERE d.depends_on = ${id} AND o.state <> 'done'`)
    .map((r) => r.item_id);
}

export function blockersOf(db: ReadDb, id: string): string[] {
  return db
    .all<{ depends_on: string }>(sql`SELECT d.depends_on FROM outbox_deps d JOIN outbox p ON p.id = d.depends_on
                                     WHERE d.item_id = ${id} AND p.state <> 'done'`)
    .map((r) => r.depends_on);
}

export interface OutboxCounts {
  pending: number;
  in_flight: number;
  failed: number;
}

export function counts(db: ReadDb): OutboxCounts {
  const rows = db.all<{ state: OutboxState; n: number }>(
    sql`SELECT state, COUNT(*) AS n FROM outbox WHERE state <> 'done' GROUP BY state`,
  );
  const out: OutboxCounts = { pending: 0, in_flight: 0, failed: 0 };
  for (const r of rows) if (r.state !== 'done') out[r.state] = r.n;
  return out;
}

export function listItems(db: ReadDb, states: readonly OutboxState[], limit: number, offset: number): { items: OutboxRow[]; total: number } {
  const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM outbox WHERE state IN ${inList(states)}`)?.n ?? 0;
  const items = db
    .all<OutboxRowRaw>(sql`SELECT * FROM outbox WHERE state IN ${inList(states)} ORDER BY seq LIMIT ${limit} OFFSET ${offset}`)
    .map(decode);
  return { items, total };
}

/** Sync state of many records at once (for a list page): the worst state of their open items. */
export function syncStates(db: ReadDb, type: EntityType, ids: readonly string[]): Map<string, { state: 'pending' | 'in_flight' | 'failed'; error: IpcError | null }> {
  const result = new Map<string, { state: 'pending' | 'in_flight' | 'failed'; error: IpcError | null }>();
  if (ids.length === 0) return result;
  const rank = { pending: 1, in_flight: 2, failed: 3 } as const;
  const rows = db.all<{ entity_id: string; state: 'pending' | 'in_flight' | 'failed'; last_error: string | null }>(
    sql`SELECT entity_id, state, last_error FROM outbox WHERE entity_type = ${type} AND state <> 'done' AND entity_id IN ${inList(ids)}`,
  );
  for (const row of rows) {
    const current = result.get(row.entity_id);
    if (current && rank[current.state] >= rank[row.state]) continue;
    let error: IpcError | null = null;
    if (row.state === 'failed' && row.last_error) {
      const parsed = zStoredError.safeParse(JSON.parse(row.last_error));
      if (parsed.success) {
        const { status: _status, ...rest } = parsed.data;
        error = rest;
      }
    }
    result.set(row.entity_id, { state: row.state, error });
  }
  return result;
}

/** Done items older than `before` are history only: pruned to keep the table small. */
export function pruneDone(db: WriteDb, before: number): number {
  return db.run(sql`DELETE FROM outbox WHERE state = 'done' AND done_at < ${before}
                    AND id NOT IN (SELECT depends_on FROM outbox_deps d JOIN outbox o ON o.id = d.item_id WHERE o.state <> 'done')`).changes;
}
