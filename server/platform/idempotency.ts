import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/types';
import { ApiError } from './errors';

/** A first request that has not finished after this long is taken to have died with its process. */
const STALE_PENDING_SECONDS = 60;

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n`)
    .update(canonicalJson(request.body ?? null))
    .digest('hex');
}

/** JSON with sorted keys: the same body sent with its members in another order is the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Runs a create at most once per (company, Idempotency-Key). The key is claimed before the work starts,
 * so two concurrent retries cannot both create; the first response is stored and replayed after.
 * A failed attempt frees the key, so the caller may correct the body and retry under the same key.
 */
export async function withIdempotency(
  db: Db,
  companyId: string,
  key: string,
  request: FastifyRequest,
  now: number,
  run: () => Promise<{ status: number; payload: unknown }>,
  reply: FastifyReply,
): Promise<{ status: number; payload: unknown }> {
  if (key.length > 255) throw new ApiError(400, 'invalid_request_error', 'validation_error', { param: 'Idempotency-Key', fields: { 'Idempotency-Key': 'At most 255 characters.' } });
  const hash = requestHash(request);
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ company_id: companyId, idem_key: key, request_hash: hash, status_code: null, response_body: null, created_at: now })
    .onConflict((oc) => oc.columns(['company_id', 'idem_key']).doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 0) {
    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('idem_key', '=', key)
      .executeTakeFirstOrThrow();
    if (existing.request_hash !== hash) throw new ApiError(409, 'invalid_request_error', 'idempotency_conflict', { param: 'Idempotency-Key' });
    if (existing.status_code !== null && existing.response_body !== null) {
      reply.header('idempotent-replayed', 'true');
      return { status: existing.status_code, payload: JSON.parse(existing.response_body) as unknown };
    }
    if (now - existing.created_at < STALE_PENDING_SECONDS) {
      throw new ApiError(409, 'invalid_request_error', 'idempotency_in_progress', { param: 'Idempotency-Key', headers: { 'retry-after': '1' } });
    }
    await db
      .updateTable('idempotency_keys')
      .set({ created_at: now })
      .where('company_id', '=', companyId)
      .where('idem_key', '=', key)
      .execute();
  }
  try {
    const outcome = await run();
    await db
      .updateTable('idempotency_keys')
      .set({ status_code: outcome.status, response_body: JSON.stringify(outcome.payload) })
      .where('company_id', '=', companyId)
      .where('idem_key', '=', key)
      .execute();
    return outcome;
  } catch (error) {
    await db.deleteFrom('idempotency_keys').where('company_id', '=', companyId).where('idem_key', '=', key).execute();
    throw error;
  }
}
