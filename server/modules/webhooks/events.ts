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

export async function emitEvent(
  trx: Db,
  companyId: string,
  types: WebhookEventType | WebhookEventType[],
  data: unknown,
  now: number,
): Promise<void> {
  const listening = await trx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('company_id', '=', companyId)
    .where('is_active', '=', 1)
    .limit(1)
    .executeTakeFirst();
  if (!listening) return;
  const dataJson = JSON.stringify(data);
  const rows = (Array.isArray(types) ? types : [types]).map((type) => ({
    id: newId('evt'), company_id: companyId, type, data_json: dataJson, dispatched: 0, created_at: now, seq: nextSeq(),
  }));
  await trx.insertInto('webhook_events').values(rows).execute();
}
