import type { Db } from '../../db/types';
import { newId } from '../../platform/ids';
import type { WebhookEventType } from '../../../shared/schemas/webhook';

/**
 * The outbox hook, called by the module that makes a change, with the transaction of that change:
 * the event row commits with it or not at all, so an event is never lost on a crash and never sent
 * for a change that was rolled back. Nothing is posted here; the dispatcher does that later.
 *
 * A firm without an active endpoint stores nothing (one indexed read instead of a write on every
 * sale). Several types at once (an invoice created already issued) share one `data`.
 */
let lastSeq = 0;

/** Microseconds of the wall clock, strictly increasing in this process. */
export function nextSeq(): number {
  lastSeq = Math.max(lastSeq + 1, Date.now() * 1000);
  return lastSeq;
}

/** Whether the firm has an active endpoint, i.e. whether {@link emitEvent} stores anything. */
export async function webhooksListening(trx: Db, companyId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('company_id', '=', companyId)
    .where('is_active', '=', 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * `listening`: what {@link webhooksListening} answered earlier in the same transaction, for a caller
 * that must not spend a statement here (an issue emits while it holds its series row lock).
 */
export async function emitEvent(
  trx: Db,
  companyId: string,
  types: WebhookEventType | WebhookEventType[],
  data: unknown,
  now: number,
  listening?: boolean,
): Promise<void> {
  if (!(listening ?? (await webhooksListening(trx, companyId)))) return;
  const dataJson = JSON.stringify(data);
  const rows = (Array.isArray(types) ? types : [types]).map((type) => ({
    id: newId('evt'), company_id: companyId, type, data_json: dataJson, dispatched: 0, created_at: now, seq: nextSeq(),
  }));
  await trx.insertInto('webhook_events').values(rows).execute();
}
