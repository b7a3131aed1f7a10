import type { BlockList } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/types';
import { ApiError } from './errors';
import { buildAllowList, hashKey, ipAllowed, KEY_PATTERN, sameHash } from './api-keys';

export interface AuthContext {
  keyId: string;
  companyId: string;
  workPointId: string;
  scopes: string[];
}

const unauthenticated = (code: string, vars?: Record<string, string>) =>
  new ApiError(401, 'authentication_error', code, vars ? { vars } : {});

/** A key row as the hot path needs it: scopes and allow-list parsed once, not per request. */
interface KnownKey {
  hash: string;
  auth: AuthContext;
  revoked: boolean;
  expiresAt: number | null;
  allowList: BlockList | null;
  /** Service-clock second after which the row must be read again. */
  freshUntil: number;
}

/**
 * Looks keys up by the sha256 of the secret and keeps what it found for `ttlSeconds` of the service
 * clock, so that a busy key costs no query per request. The price: a key revoked by another process
 * (the CLI) keeps working here for at most that long. Expiry is checked on every request against the
 * current time, cached or not. Unknown secrets are never cached, so a made-up key never lingers.
 */
export class KeyStore {
  private cache = new Map<string, KnownKey>();

  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
    private readonly maxEntries = 10_000,
  ) {}

  async find(hash: string, now: number): Promise<KnownKey | null> {
    const cached = this.cache.get(hash);
    if (cached && cached.freshUntil > now) return cached;
    const row = await this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
    if (!row) {
      this.cache.delete(hash);
      return null;
    }
    const known: KnownKey = {
      hash: row.key_hash,
      // Frozen: one object serves many requests, and no handler may widen a key's scopes by accident.
      auth: Object.freeze({
        keyId: row.id,
        companyId: row.company_id,
        workPointId: row.work_point_id,
        scopes: Object.freeze(JSON.parse(row.scopes) as string[]) as string[],
      }),
      revoked: row.revoked_at !== null,
      expiresAt: row.expires_at,
      allowList: row.allow_ips ? buildAllowList(JSON.parse(row.allow_ips) as string[]) : null,
      freshUntil: now + this.ttlSeconds,
    };
    if (this.ttlSeconds > 0) {
      if (this.cache.size >= this.maxEntries) this.cache.clear();
      this.cache.set(hash, known);
    }
    return known;
  }

  /** Drops what is remembered, e.g. after revoking a key in this process. */
  forget(): void {
    this.cache.clear();
  }
}

export async function authenticate(request: FastifyRequest, keys: KeyStore, now: number): Promise<AuthContext> {
  const header = request.headers.authorization;
  if (!header) throw unauthenticated('missing_api_key');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const secret = match?.[1];
  if (!secret || !KEY_PATTERN.test(secret)) throw unauthenticated('invalid_api_key');
  const hash = hashKey(secret);
  const key = await keys.find(hash, now);
  // The lookup already matched on the hash; comparing again in constant time keeps the check itself
  // free of an early-exit string compare, whatever the storage does.
  if (!key || !sameHash(key.hash, hash) || key.revoked) throw unauthenticated('invalid_api_key');
  if (key.expiresAt !== null && key.expiresAt <= now) throw unauthenticated('expired_api_key');
  if (key.allowList && !ipAllowed(key.allowList, request.ip)) throw unauthenticated('ip_restricted', { ip: request.ip });
  return key.auth;
}
