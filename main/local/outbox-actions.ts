import type { OutboxItem } from '../../shared/ipc/contract';
import { sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { AppError, invalidState, notFound } from '../errors';
import {
  blockersOf, counts, deleteItem, dependentsOf, getItem, isMutable, listItems, retryFailed,
  type OutboxCounts, type OutboxRow, type OutboxState,
} from '../sync/outbox';
import type { LocalContext } from './context';
import { discardInvoiceIn } from './invoices';
import { discardReceiptIn } from './receipts';
import { discardPaymentIn } from './payments';
import { discardExpenseIn } from './expenses';

const EDITABLE_KINDS = new Set(['client.create', 'client.update', 'product.create', 'product.update', 'invoice.create', 'invoice.update', 'receipt.create', 'receipt.update']);

export function outboxItemView(db: ReadDb, item: OutboxRow): OutboxItem {
  const dependents = item.state === 'done' ? [] : dependentsOf(db, item.id);
  const { status: _status, ...lastError } = item.last_error ?? { status: undefined };
  return {
    id: item.id,
    seq: item.seq,
    kind: item.kind,
    entity_type: item.entity_type,
    entity_id: item.entity_id,
    label: item.request.label,
    state: item.state,
    attempts: item.attempts,
    next_attempt_at: item.state === 'pending' && item.next_attempt_at > 0 ? item.next_attempt_at : null,
    last_error: item.last_error ? (lastError as OutboxItem['last_error']) : null,
    blocked_by: item.state === 'done' ? [] : blockersOf(db, item.id),
    created_at: item.created_at,
    updated_at: item.updated_at,
    can_retry: item.state === 'failed',
    can_discard: item.kind !== 'reservation.release' && isMutable(item) && dependents.length === 0,
    can_edit: item.state === 'failed' && EDITABLE_KINDS.has(item.kind) && isMutable(item),
  };
}

export function listOutbox(ctx: LocalContext, input: { states?: OutboxState[] | undefined; limit: number; offset: number }): { items: OutboxItem[]; total: number; counts: OutboxCounts } {
  return ctx.store.snapshot((db) => {
    const page = listItems(db, input.states ?? ['pending', 'in_flight', 'failed'], input.limit, input.offset);
    return { items: page.items.map((i) => outboxItemView(db, i)), total: page.total, counts: counts(db) };
  });
}

export function retryItem(ctx: LocalContext, id: string): OutboxItem {
  return ctx.store.write((db) => {
    const item = getItem(db, id);
    if (!item) throw notFound('Outbox item');
    if (item.state !== 'failed') throw invalidState('Only a failed item can be retried');
    retryFailed(db, id, ctx.clock.now());
    return outboxItemView(db, getItem(db, id)!);
  });
}

function refreshLater(db: WriteDb, item: OutboxRow): void {
  db.run(sql`INSERT OR IGNORE INTO refresh_queue (entity_type, entity_id) VALUES (${item.entity_type}, ${item.entity_id})`);
}

/**
 * Drops an item that has not reached the server and undoes what it described locally. Refused while
 * it may be on the server (in flight, or its last attempt got no answer) or while others wait for it.
 */
export function discardItem(ctx: LocalContext, id: string): { discarded: string[] } {
  return ctx.store.write((db) => {
    const item = getItem(db, id);
    if (!item) throw notFound('Outbox item');
    if (item.kind === 'reservation.release') throw invalidState('A released number cannot be taken back');
    if (!isMutable(item)) throw invalidState('This change may already be on the server; wait for the sync to finish');
    const waiting = dependentsOf(db, id);
    if (waiting.length) throw new AppError('conflict', 'has_dependents', 'Other changes wait for this one: discard them first');
    const before = new Set(db.all<{ id: string }>(sql`SELECT id FROM outbox WHERE state <> 'done'`).map((r) => r.id));
    switch (item.kind) {
      case 'client.create':
        deleteItem(db, id);
        db.run(sql`DELETE FROM clients WHERE id = ${item.entity_id}`);
        break;
      case 'product.create':
        deleteItem(db, id);
        db.run(sql`DELETE FROM products WHERE id = ${item.entity_id}`);
        break;
      case 'receipt.create':
        discardReceiptIn(db, ctx, item.entity_id, id);
        deleteItem(db, id);
        break;
      case 'invoice.create':
      case 'invoice.storno':
      case 'invoice.convert':
      case 'invoice.issue':
        discardInvoiceIn(db, ctx, item.entity_id);
        break;
      case 'payment.create':
        deleteItem(db, id);
        discardPaymentIn(db, ctx, item.entity_id);
        break;
      case 'invoice.delete':
        deleteItem(db, id);
        db.run(sql`UPDATE invoices SET is_deleted = 0 WHERE id = ${item.entity_id}`);
        refreshLater(db, item);
        break;
      case 'supplier.create':
      case 'expense.create':
      case 'expense.pay':
        deleteItem(db, id);
        discardExpenseIn(db, item.kind, item.entity_id);
        break;
      case 'client.update':
      case 'product.update':
      case 'invoice.update':
      case 'receipt.update':
        deleteItem(db, id);
        refreshLater(db, item);
        break;
    }
    const after = new Set(db.all<{ id: string }>(sql`SELECT id FROM outbox WHERE state <> 'done'`).map((r) => r.id));
    return { discarded: [...before].filter((x) => !after.has(x)) };
  });
}
