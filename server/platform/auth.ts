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

export async function authenticate(request: FastifyRequest, db: Db, now: number): Promise<AuthContext> {
  const header = request.headers.authorization;
  if (!header) throw unauthenticated('missing_api_key');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const secret = match?.[1];
  if (!secret || !KEY_PATTERN.test(secret)) throw unauthenticated('invalid_api_key');
  const hash = hashKey(secret);
  const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst();
  if (!row || !sameHash(row.key_hash, hash) || row.revoked_at !== null) throw unauthenticated('invalid_api_key');
  if (row.expires_at !== null && row.expires_at <= now) throw unauthenticated('expired_api_key');
  if (row.allow_ips) {
    const rules = JSON.parse(row.allow_ips) as string[];
    if (!ipAllowed(buildAllowList(rules), request.ip)) throw unauthenticated('ip_restricted', { ip: request.ip });
  }
  return {
    keyId: row.id,
    companyId: row.company_id,
    workPointId: row.work_point_id,
    scopes: JSON.parse(row.scopes) as string[],
  };
}
