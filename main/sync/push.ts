import { z } from 'zod';
import { zClient } from '../../shared/schemas/client';
import { zInvoice } from '../../shared/schemas/invoice';
import { zProduct } from '../../shared/schemas/product';
import { zPayment, zReceipt } from '../../shared/schemas/receipt';
import { zNumberReservation } from '../../shared/schemas/series';
import { zExpense, zExpenseActionReply } from '../../shared/schemas/expense';
import { zSupplier } from '../../shared/schemas/supplier';
import type { ApiClient } from '../api/client';
import { ApiClientError, ApiHttpError } from '../api/errors';
import { zDeleted } from '../api/endpoints';
import { sql } from '../db/sql';
import type { Store, WriteDb } from '../db/store';
import type { Clock, Device } from '../local/context';
import { setPath } from '../local/records';
import { applyClient, applyExpense, applyInvoice, applyPayment, applyProduct, applyReceipt, applySupplier, serverIdOf } from './apply';
import { claim, markDone, markFailed, markRetry, type OutboxKind, type OutboxRow, type StoredError } from './outbox';

export interface PushDeps {
  store: Store;
  api: ApiClient;
  clock: Clock;
  device: Device;
  random?: () => number;
}

export type PushOutcome =
  | { kind: 'done'; item: OutboxRow }
  | { kind: 'retry'; item: OutboxRow; error: StoredError }
  | { kind: 'failed'; item: OutboxRow; error: StoredError }
  /** No reply from the server: stop pushing, the engine goes offline. */
  | { kind: 'offline'; item: OutboxRow; error: StoredError }
  /** The key was refused: stop everything until a new key is set. */
  | { kind: 'auth'; item: OutboxRow; error: StoredError }
  | { kind: 'skipped'; item: OutboxRow };

/** After how many transient failures an item is set aside for the user instead of retried forever. */
export const MAX_TRANSIENT_ATTEMPTS = 25;

const RESPONSE: Record<OutboxKind, { schema: z.ZodType; envelope: 'data' | 'top' }> = {
  'client.create': { schema: zClient, envelope: 'data' },
  'client.update': { schema: zClient, envelope: 'data' },
  'product.create': { schema: zProduct, envelope: 'data' },
  'product.update': { schema: zProduct, envelope: 'data' },
  'invoice.create': { schema: zInvoice, envelope: 'data' },
  'invoice.update': { schema: zInvoice, envelope: 'data' },
  'invoice.issue': { schema: zInvoice, envelope: 'data' },
  'invoice.storno': { schema: zInvoice, envelope: 'data' },
  'invoice.convert': { schema: zInvoice, envelope: 'data' },
  'invoice.delete': { schema: zDeleted, envelope: 'top' },
  'payment.create': { schema: zPayment, envelope: 'data' },
  'receipt.create': { schema: zReceipt, envelope: 'data' },
  'receipt.update': { schema: zReceipt, envelope: 'data' },
  'reservation.release': { schema: zNumberReservation, envelope: 'data' },
  'supplier.create': { schema: zSupplier, envelope: 'data' },
  'expense.create': { schema: zExpense, envelope: 'data' },
  'expense.pay': { schema: zExpenseActionReply, envelope: 'top' },
};

/** Exponential backoff with full jitter for the outbox's own retries (seconds). */
export function outboxBackoff(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(300, 2 * 2 ** Math.max(0, attempts - 1));
  return Math.max(1, Math.round(random() * ceiling));
}

export function toStoredError(error: unknown): StoredError {
  if (error instanceof ApiHttpError) {
    return {
      type: error.type, code: error.code, message: error.message, status: error.status,
      ...(error.fields ? { fields: error.fields } : {}),
    };
  }
  if (error instanceof ApiClientError) {
    const type = error.kind === 'not_configured' ? 'unavailable' : error.kind === 'network' ? 'unavailable' : 'api_error';
    const code = error.kind === 'not_configured' ? 'not_configured' : error.kind === 'network' ? 'offline' : 'invalid_response';
    return { type, code, message: error.message };
  }
  return { type: 'internal_error', code: 'internal_error', message: 'Unexpected error while syncing' };
}

/** Swaps the local ids of an item's refs for server ids; null when one has not reached the server. */
export function resolveRequest(store: Store, item: OutboxRow): { path: string; body: unknown } | { missing: string } {
  const body: unknown = item.request.body === undefined ? undefined : structuredClone(item.request.body);
  let path = item.request.path;
  for (const ref of item.request.refs) {
    const serverId = serverIdOf(store.reader, ref.type, ref.id);
    if (!serverId) return { missing: `${ref.type} ${ref.id}` };
    if (ref.at.startsWith(':')) path = path.replace(ref.at, encodeURIComponent(serverId));
    else setPath(body, ref.at, serverId);
  }
  return { path, body };
}

function applyReply(db: WriteDb, item: OutboxRow, reply: unknown, now: number, deviceId: string): string | null {
  const options = { completing: item.id };
  switch (item.kind) {
    case 'client.create':
    case 'client.update': {
      const c = zClient.parse(reply);
      if (item.kind === 'client.create') db.run(sql`UPDATE clients SET server_id = ${c.id} WHERE id = ${item.entity_id} AND server_id IS NULL`);
      applyClient(db, c, now, options);
      return c.id;
    }
    case 'product.create':
    case 'product.update': {
      const p = zProduct.parse(reply);
      if (item.kind === 'product.create') db.run(sql`UPDATE products SET server_id = ${p.id} WHERE id = ${item.entity_id} AND server_id IS NULL`);
      applyProduct(db, p, now, options);
      return p.id;
    }
    case 'invoice.create':
    case 'invoice.update':
    case 'invoice.issue':
    case 'invoice.convert':
    case 'invoice.storno': {
      const inv = zInvoice.parse(reply);
      if (item.kind === 'invoice.create' || item.kind === 'invoice.storno' || item.kind === 'invoice.convert') {
        db.run(sql`UPDATE invoices SET server_id = ${inv.id} WHERE id = ${item.entity_id} AND server_id IS NULL`);
      }
      applyInvoice(db, inv, now, options);
      if (item.kind === 'invoice.storno' && inv.storno_of) {
        // The original is voided on the server by the same request.
        db.run(sql`UPDATE invoices SET status = 'voided', storno_id = ${item.entity_id} WHERE server_id = ${inv.storno_of}`);
      }
      if (item.kind === 'invoice.convert' && inv.converted_from) {
        db.run(sql`UPDATE invoices SET converted_to = ${item.entity_id} WHERE server_id = ${inv.converted_from}`);
      }
      void deviceId;
      return inv.id;
    }
    case 'payment.create': {
      const p = zPayment.parse(reply);
      db.run(sql`UPDATE payments SET server_id = ${p.id} WHERE id = ${item.entity_id} AND server_id IS NULL`);
      applyPayment(db, p, now);
      return p.id;
    }
    case 'invoice.delete': {
      db.run(sql`DELETE FROM invoices WHERE id = ${item.entity_id}`);
      return null;
    }
    case 'receipt.create':
    case 'receipt.update': {
      const r = zReceipt.parse(reply);
      if (item.kind === 'receipt.create') db.run(sql`UPDATE receipts SET server_id = ${r.id} WHERE id = ${item.entity_id} AND server_id IS NULL`);
      applyReceipt(db, r, now, options);
      return r.id;
    }
    case 'reservation.release': {
      db.run(sql`UPDATE reservations SET status = 'released', updated_at = ${now} WHERE token = ${item.entity_id}`);
      return item.entity_id;
    }
    case 'supplier.create': {
      const sup = zSupplier.parse(reply);
      db.run(sql`UPDATE suppliers SET server_id = ${sup.id} WHERE id = ${item.entity_id} AND server_id IS NULL`);
      applySupplier(db, sup, now, options);
      return sup.id;
    }
    case 'expense.create': {
      const e = zExpense.parse(reply);
      db.run(sql`UPDATE expenses SET server_id = ${e.id} WHERE id = ${item.entity_id} AND server_id IS NULL`);
      applyExpense(db, e, options);
      return e.id;
    }
    case 'expense.pay': {
      const { expense } = zExpenseActionReply.parse(reply);
      applyExpense(db, expense, options);
      return expense.id;
    }
  }
}

/** The server's refusal also changes the local record, where the contract implies it. */
function applyRefusal(db: WriteDb, item: OutboxRow, error: ApiHttpError, now: number): 'done' | 'failed' {
  if (item.kind === 'invoice.delete' && error.status === 404) {
    // Already gone: what the user asked for is true.
    db.run(sql`DELETE FROM invoices WHERE id = ${item.entity_id}`);
    return 'done';
  }
  if (item.kind === 'receipt.update' && error.code === 'resource_deleted') {
    // Soft-deleted on the server (contract: PUT /receipts answers 409 resource_deleted): say so locally.
    db.run(sql`UPDATE receipts SET is_deleted = 1, updated_at = ${now} WHERE id = ${item.entity_id}`);
    return 'failed';
  }
  if (item.kind === 'expense.pay' && error.code === 'expense_already_paid') {
    // Paid already (elsewhere, or by a first attempt whose reply was lost): what the user asked for is true.
    return 'done';
  }
  if (item.kind === 'reservation.release' && error.code === 'reservation_consumed') {
    db.run(sql`UPDATE reservations SET status = 'consumed', updated_at = ${now} WHERE token = ${item.entity_id}`);
    return 'failed';
  }
  if (error.status === 404 && (item.kind.endsWith('.update') || item.kind === 'invoice.issue')) {
    // The record no longer exists on the server: the local copy is marked, the item waits for the user's discard.
    const table = item.entity_type;
    if (table === 'client') db.run(sql`UPDATE clients SET is_deleted = 1 WHERE id = ${item.entity_id}`);
    if (table === 'product') db.run(sql`UPDATE products SET is_deleted = 1 WHERE id = ${item.entity_id}`);
  }
  return 'failed';
}

/**
 * Sends one outbox item. Important: the claim, the request and the result are three separate steps:
 * no transaction is open while the request is on the wire. A crash after the claim leaves the item
 * `in_flight`; at the next start it is pending again and resent with the same Idempotency-Key, which
 * the server answers with the first reply instead of doing it twice.
 */
export async function pushItem(deps: PushDeps, item: OutboxRow): Promise<PushOutcome> {
  const resolved = resolveRequest(deps.store, item);
  const now = () => deps.clock.now();
  if ('missing' in resolved) {
    const error: StoredError = {
      type: 'conflict', code: 'reference_missing',
      message: `This change refers to a ${resolved.missing} that is not on the server (was it discarded?)`,
    };
    deps.store.write((db) => markFailed(db, item.id, error, 'not_applied', now()));
    return { kind: 'failed', item, error };
  }
  if (!deps.store.write((db) => claim(db, item.id, now()))) return { kind: 'skipped', item };
  const response = RESPONSE[item.kind];
  let reply: unknown;
  try {
    reply = await deps.api.request({
      method: item.request.method,
      path: resolved.path,
      body: item.kind === 'reservation.release' ? { device_id: deps.device.id } : resolved.body,
      create: item.request.create,
      ...(item.request.create ? { idempotencyKey: item.id } : {}),
      // Where the change was made, whatever work point the device has moved to since.
      ...(item.request.work_point_id === undefined ? {} : item.request.work_point_id === null ? { workPoint: false as const } : { query: { work_point_id: item.request.work_point_id } }),
      schema: z.unknown(),
      envelope: response.envelope,
      priority: 'bulk',
    });
    const checked = response.schema.safeParse(reply);
    if (!checked.success) throw new Error(`reply of ${item.kind} does not match its schema`);
  } catch (error) {
    const stored = toStoredError(error);
    const attempts = item.attempts + 1;
    const at = now();
    if (error instanceof ApiHttpError && error.status === 401) {
      deps.store.write((db) => markRetry(db, item.id, stored, 'not_applied', at, at));
      return { kind: 'auth', item, error: stored };
    }
    if (error instanceof ApiClientError && error.transient) {
      // 5xx may come from a gateway after the server acted: only a 429 or an in-progress duplicate is surely not applied.
      const outcome = error instanceof ApiHttpError && error.status < 500 ? 'not_applied' : 'unknown';
      const offline = error.kind === 'network';
      if (attempts >= MAX_TRANSIENT_ATTEMPTS) {
        deps.store.write((db) => markFailed(db, item.id, stored, outcome, at));
        return { kind: 'failed', item, error: stored };
      }
      const asked = error instanceof ApiHttpError && error.retryAfterSeconds !== null ? error.retryAfterSeconds : 0;
      deps.store.write((db) => markRetry(db, item.id, stored, outcome, at + Math.max(asked, outboxBackoff(attempts, deps.random)), at));
      return offline ? { kind: 'offline', item, error: stored } : { kind: 'retry', item, error: stored };
    }
    if (error instanceof ApiHttpError) {
      const verdict = deps.store.write((db) => {
        const v = applyRefusal(db, item, error, at);
        if (v === 'done') markDone(db, item.id, null, at);
        else markFailed(db, item.id, stored, 'not_applied', at);
        return v;
      });
      return verdict === 'done' ? { kind: 'done', item } : { kind: 'failed', item, error: stored };
    }
    deps.store.write((db) => markFailed(db, item.id, stored, 'unknown', at));
    return { kind: 'failed', item, error: stored };
  }
  deps.store.write((db) => {
    const resultId = applyReply(db, item, reply, now(), deps.device.id);
    markDone(db, item.id, resultId, now());
  });
  return { kind: 'done', item };
}
