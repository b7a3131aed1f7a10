import type { Db } from '../../db/types';
import { newId } from '../../platform/ids';
import type { WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from './tables';
import { signature, WEBHOOK_HEADERS } from './signing';
import { DEFAULT_WEBHOOK_SETTINGS, postWebhook, type WebhookSettings } from './sender';

/**
 * Seconds to wait after the 1st, 2nd… failed attempt of a round: 1 min, 5 min, 30 min, 2 h, 12 h.
 * The attempt after the last wait is the round's last: failing it, the delivery is `failed` (a
 * replay starts a new round).
 */
export const RETRY_DELAYS = [60, 5 * 60, 30 * 60, 2 * 3600, 12 * 3600] as const;

/** A worker holds a due delivery this long (longer than any attempt) before another may take it. */
const LEASE_SECONDS = 120;
/** Finished deliveries, and the events nobody needs any more, are kept this long (the delivery log). */
export const KEEP_SECONDS = 30 * 86400;
const BATCH = 100;

/** What the dispatcher needs: the database and how to post. */
export interface WebhookWorkerServices {
  storage: { db: Db };
  webhooks?: WebhookSettings;
}

export interface DispatchReport {
  /** Events fanned out into deliveries. */
  events: number;
  /** Attempts made. */
  attempts: number;
  succeeded: number;
  failed: number;
}

/** The body of every post of one event: the same for each endpoint and each attempt. */
export function eventBody(event: Pick<WebhookEventsTable, 'id' | 'type' | 'data_json' | 'created_at'>): string {
  return `{"id":${JSON.stringify(event.id)},"object":"event","type":${JSON.stringify(event.type)},"created_at":${Number(event.created_at)},"data":${event.data_json}}`;
}

export function endpointEvents(row: Pick<WebhookEndpointsTable, 'events_json'>): string[] {
  return JSON.parse(row.events_json) as string[];
}

const subscribes = (endpoint: WebhookEndpointsTable, type: string) => {
  const events = endpointEvents(endpoint);
  return events.includes('*') || events.includes(type);
};

/** A new pending delivery of `event` to `endpoint`, due at once. */
export function deliveryRow(event: WebhookEventsTable, endpoint: Pick<WebhookEndpointsTable, 'id' | 'company_id'>, now: number): WebhookDeliveriesTable {
  return {
    id: newId('whd'), company_id: endpoint.company_id, endpoint_id: endpoint.id, event_id: event.id, event_type: event.type,
    payload: eventBody(event), status: 'pending', attempts: 0, round_attempts: 0, last_status_code: null, last_error: null,
    last_attempt_at: null, next_attempt_at: now, created_at: now, updated_at: now,
  };
}

/**
 * Turns the events not yet dispatched into one delivery per subscribed, active endpoint of the same
 * firm that existed when the event happened. Each event is claimed by a conditional update in the
 * transaction that writes its deliveries, so two workers never fan one out twice.
 */
async function fanOut(db: Db, now: number): Promise<number> {
  const events = await db.selectFrom('webhook_events').selectAll().where('dispatched', '=', 0).orderBy('created_at').orderBy('seq').limit(BATCH).execute();
  let count = 0;
  for (const event of events) {
    const claimed = await db.transaction().execute(async (trx) => {
      const claim = await trx.updateTable('webhook_events').set({ dispatched: 1 }).where('id', '=', event.id).where('dispatched', '=', 0).executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) return false;
      const endpoints = await trx
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('company_id', '=', event.company_id)
        .where('is_active', '=', 1)
        .where('created_at', '<=', event.created_at)
        .execute();
      const rows = endpoints.filter((e) => subscribes(e, event.type)).map((e) => deliveryRow(event, e, now));
      if (rows.length) await trx.insertInto('webhook_deliveries').values(rows).execute();
      return true;
    });
    if (claimed) count += 1;
  }
  return count;
}

/**
 * One attempt of a delivery: posts its payload, signed now, and records the outcome. A failure is
 * retried after the next delay of {@link RETRY_DELAYS}; past the last one the delivery is `failed`.
 * `final` (a replay, a test ping) makes this the round's only attempt.
 */
export async function attemptDelivery(
  db: Db,
  settings: WebhookSettings,
  delivery: WebhookDeliveriesTable,
  endpoint: Pick<WebhookEndpointsTable, 'url' | 'secret'>,
  now: number,
  options: { final?: boolean } = {},
): Promise<WebhookDeliveriesTable> {
  const headers = {
    [WEBHOOK_HEADERS.id]: delivery.event_id,
    [WEBHOOK_HEADERS.type]: delivery.event_type,
    [WEBHOOK_HEADERS.timestamp]: String(now),
    [WEBHOOK_HEADERS.signature]: signature(endpoint.secret, now, delivery.payload),
    [WEBHOOK_HEADERS.delivery]: delivery.id,
  };
  const result = await postWebhook(endpoint.url, delivery.payload, headers, settings);
  const roundAttempts = Number(delivery.round_attempts) + 1;
  const ok = result.error === null;
  const delay = RETRY_DELAYS[roundAttempts - 1];
  const retry = !ok && !options.final && delay !== undefined;
  const next: WebhookDeliveriesTable = {
    ...delivery,
    status: ok ? 'succeeded' : retry ? 'pending' : 'failed',
    attempts: Number(delivery.attempts) + 1,
    round_attempts: roundAttempts,
    last_status_code: result.statusCode,
    last_error: result.error,
    last_attempt_at: now,
    next_attempt_at: retry ? now + delay : null,
    updated_at: now,
  };
  const { id: _id, company_id: _c, ...changes } = next;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('webhook_deliveries').set(changes).where('id', '=', delivery.id).execute();
    await trx
      .updateTable('webhook_endpoints')
      .set({ last_delivery_at: now, last_error: result.error })
      .where('id', '=', delivery.endpoint_id)
      .execute();
  });
  return next;
}

/**
 * One pass of the worker: fans out new events, then makes every attempt that is due. Called by the
 * timer of serve.ts and by tests (with the clock they move); safe to run in several processes at once
 * (each delivery is leased by a conditional update before it is posted).
 */
export async function dispatchWebhooks(services: WebhookWorkerServices, now: number): Promise<DispatchReport> {
  const db = services.storage.db;
  const settings = services.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
  const report: DispatchReport = { events: await fanOut(db, now), attempts: 0, succeeded: 0, failed: 0 };
  const due = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .selectAll('webhook_deliveries')
    .select(['webhook_endpoints.url as endpoint_url', 'webhook_endpoints.secret as endpoint_secret'])
    .where('webhook_deliveries.status', '=', 'pending')
    .where('webhook_deliveries.next_attempt_at', '<=', now)
    // A disabled endpoint's deliveries wait, untouched, until it is enabled again.
    .where('webhook_endpoints.is_active', '=', 1)
    .orderBy('webhook_deliveries.next_attempt_at')
    // The events of one moment go out in the order they happened.
    .orderBy('webhook_events.seq')
    .limit(BATCH)
    .execute();
  for (const { endpoint_url, endpoint_secret, ...delivery } of due) {
    const leased = await db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now + LEASE_SECONDS })
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', delivery.next_attempt_at)
      .executeTakeFirst();
    if (Number(leased.numUpdatedRows) !== 1) continue;
    const done = await attemptDelivery(db, settings, delivery, { url: endpoint_url, secret: endpoint_secret }, now);
    report.attempts += 1;
    if (done.status === 'succeeded') report.succeeded += 1;
    else report.failed += 1;
  }
  await prune(db, now);
  return report;
}

let lastPruneAt = Number.NEGATIVE_INFINITY;

/**
 * Forgets finished deliveries older than {@link KEEP_SECONDS}, then the dispatched events no delivery
 * names; at most once an hour of this process (the passes run every few seconds).
 */
async function prune(db: Db, now: number): Promise<void> {
  if (Math.abs(now - lastPruneAt) < 3600) return;
  lastPruneAt = now;
  const before = now - KEEP_SECONDS;
  await db.deleteFrom('webhook_deliveries').where('status', 'in', ['succeeded', 'failed']).where('updated_at', '<', before).execute();
  await db
    .deleteFrom('webhook_events')
    .where('dispatched', '=', 1)
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries').select('webhook_deliveries.id').whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id'))))
    .execute();
}
