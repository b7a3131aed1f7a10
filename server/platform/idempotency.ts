import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/types';
import { ApiError } from './errors';

/** A first request that has not finished after this long is taken to have died with its process. */
const STALE_PENDING_SECONDS = 60;
/** How long a duplicate waits for the first request to finish before answering 409 idempotency_in_progress. */
const WAIT_FOR_FIRST_MS = 5_000;
const POLL_MS = 25;
/** A finished key is remembered this long; after that the same key starts a new request. */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 3600;
const PURGE_EVERY_SECONDS = 600;

/** Members of the query string that change only how the reply is worded, not what the request does. */
const PRESENTATION_QUERY = new Set(['locale']);

/**
 * What makes two requests "the same": method, the path as sent (with its ids, so a key reused on
 * another invoice is a conflict, not a replay), the query string except its presentation members,
 * and the body with its members in any order.
 */
function requestHash(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  const query = Object.fromEntries(
    Object.entries((request.query ?? {}) as Record<string, unknown>).filter(([k]) => !PRESENTATION_QUERY.has(k)),
  );
  return createHash('sha256')
    .update(`${request.method} ${path}\n`)
    .update(canonicalJson(query))
    .update('\n')
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

export interface Outcome {
  status: number;
  payload: unknown;
}

interface StoredBinary {
  $binary: { contentType: string; filename?: string; base64: string };
}

function serialize(payload: unknown): string {
  const p = payload as { binary?: unknown; contentType?: string; filename?: string; body?: Buffer | string };
  if (p && typeof p === 'object' && p.binary === true && p.contentType !== undefined && p.body !== undefined) {
    const stored: StoredBinary = {
      $binary: { contentType: p.contentType, ...(p.filename ? { filename: p.filename } : {}), base64: Buffer.from(p.body).toString('base64') },
    };
    return JSON.stringify(stored);
  }
  return JSON.stringify(payload);
}

function deserialize(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  if (value && typeof value === 'object' && '$binary' in value) {
    const { contentType, filename, base64 } = (value as StoredBinary).$binary;
    return { binary: true, contentType, body: Buffer.from(base64, 'base64'), ...(filename ? { filename } : {}) };
  }
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let lastPurge = 0;

async function purgeOld(db: Db, now: number): Promise<void> {
  if (now - lastPurge < PURGE_EVERY_SECONDS) return;
  lastPurge = now;
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', now - IDEMPOTENCY_RETENTION_SECONDS)
    .where('status_code', 'is not', null)
    .execute();
}

export function checkIdempotencyKey(key: string): void {
  if (key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError(400, 'invalid_request_error', 'invalid_idempotency_key', { param: 'Idempotency-Key' });
  }
}

/**
 * Runs a create at most once per (company, Idempotency-Key). The key is claimed (a row inserted)
 * before the work starts, so of two concurrent duplicates only one runs; the other waits for the
 * first response and replays it. The first response is stored and replayed, with
 * `Idempotent-Replayed: true`, to every later request with the same key and the same request; a
 * different request under the same key is 409 idempotency_conflict. A failed attempt (any error)
 * frees the key, so the caller may correct the body and retry under the same key.
 */
export async function withIdempotency(
  db: Db,
  companyId: string,
  key: string,
  request: FastifyRequest,
  now: number,
  run: () => Promise<Outcome>,
  reply: FastifyReply,
): Promise<Outcome> {
  checkIdempotencyKey(key);
  await purgeOld(db, now);
  const hash = requestHash(request);
  const waitUntil = Date.now() + WAIT_FOR_FIRST_MS;
  const mine = db.selectFrom('idempotency_keys').where('company_id', '=', companyId).where('idem_key', '=', key);
  for (;;) {
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ company_id: companyId, idem_key: key, request_hash: hash, status_code: null, response_body: null, created_at: now })
      .onConflict((oc) => oc.columns(['company_id', 'idem_key']).doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) > 0) break;
    const existing = await mine.selectAll().executeTakeFirst();
    if (!existing) continue; // the first attempt failed and freed the key in between: claim it again
    const finished = existing.status_code !== null && existing.response_body !== null;
    const expired = finished && now - existing.created_at >= IDEMPOTENCY_RETENTION_SECONDS;
    const abandoned = !finished && now - existing.created_at >= STALE_PENDING_SECONDS;
    if (expired || abandoned) {
      // Take the row over only if nobody else did since we read it.
      const taken = await db
        .updateTable('idempotency_keys')
        .set({ request_hash: hash, status_code: null, response_body: null, created_at: now })
        .where('company_id', '=', companyId)
        .where('idem_key', '=', key)
        .where('created_at', '=', existing.created_at)
        .where('request_hash', '=', existing.request_hash)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) > 0) break;
      continue;
    }
    if (existing.request_hash !== hash) {
      throw new ApiError(409, 'invalid_request_error', 'idempotency_conflict', { param: 'Idempotency-Key' });
    }
    if (finished) {
      reply.header('idempotent-replayed', 'true');
      return { status: existing.status_code!, payload: deserialize(existing.response_body!) };
    }
    if (Date.now() >= waitUntil) {
      throw new ApiError(409, 'invalid_request_error', 'idempotency_in_progress', { param: 'Idempotency-Key', headers: { 'retry-after': '1' } });
    }
    await sleep(POLL_MS);
  }
  let outcome: Outcome;
  try {
    outcome = await run();
  } catch (error) {
    await db.deleteFrom('idempotency_keys').where('company_id', '=', companyId).where('idem_key', '=', key).where('request_hash', '=', hash).execute();
    throw error;
  }
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: outcome.status, response_body: serialize(outcome.payload) })
    .where('company_id', '=', companyId)
    .where('idem_key', '=', key)
    .execute();
  return outcome;
}
