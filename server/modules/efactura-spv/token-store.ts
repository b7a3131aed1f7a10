import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { AnafTokenManager, type AccessTokenSource, type AnafTokens, type StoredTokens, type TokenStore } from '../../anaf/index';
import type { Db } from '../../db/types';
import { ApiError } from '../../platform/errors';
import type { AnafServices, Services } from '../../platform/services';

/** What the e-Factura code needs of the services: the poller can run with just these. */
export type EfacturaServices = Pick<Services, 'storage' | 'clock' | 'anaf'>;
import type { AnafOauthTokensTable } from './tables';

/**
 * ANAF tokens of each company, in `anaf_oauth_tokens`. With a key they are sealed with AES-256-GCM,
 * the company id as associated data: a row copied to another company does not decrypt. Without a
 * key they are stored in clear (the server warns at start) and the status endpoint says so.
 */
const SEALED_PREFIX = 'v1.';

export function sealToken(key: Buffer | null, companyId: string, token: string): string {
  if (!key) return token;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`anaf:${companyId}`, 'utf8'));
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return `${SEALED_PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
}

export function openToken(key: Buffer | null, companyId: string, stored: string, encryption: AnafOauthTokensTable['encryption']): string {
  if (encryption === 'none') return stored;
  const unreadable = new ApiError(500, 'configuration_error', 'anaf_token_unreadable');
  if (!key || !stored.startsWith(SEALED_PREFIX)) throw unreadable;
  const [iv, tag, body] = stored.slice(SEALED_PREFIX.length).split('.');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAAD(Buffer.from(`anaf:${companyId}`, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body ?? '', 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw unreadable;
  }
}

export function tokenColumns(key: Buffer | null, companyId: string, tokens: AnafTokens) {
  return {
    access_token: sealToken(key, companyId, tokens.access_token),
    refresh_token: sealToken(key, companyId, tokens.refresh_token),
    encryption: key ? ('aes-256-gcm' as const) : ('none' as const),
    expires_at: tokens.expires_at,
    refresh_expires_at: tokens.refresh_expires_at ?? null,
    scope: tokens.scope ?? null,
  };
}

/**
 * Several service processes may share the database: `claimRefresh` is a conditional update, so of
 * the processes that read one version of the tokens exactly one gets to spend its refresh token.
 */
export class DbTokenStore implements TokenStore {
  constructor(
    private readonly db: Db,
    private readonly key: Buffer | null,
    private readonly now: () => number,
  ) {}

  async get(companyId: string): Promise<StoredTokens | null> {
    const row = await this.db.selectFrom('anaf_oauth_tokens').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    if (!row) return null;
    // A dead grant would only be refused again: say so without asking ANAF.
    if (row.reconsent_required) throw new ApiError(400, 'configuration_error', 'oauth_reconsent_required');
    return {
      access_token: openToken(this.key, companyId, row.access_token, row.encryption),
      refresh_token: openToken(this.key, companyId, row.refresh_token, row.encryption),
      expires_at: Number(row.expires_at),
      ...(row.refresh_expires_at !== null ? { refresh_expires_at: Number(row.refresh_expires_at) } : {}),
      token_type: 'Bearer',
      ...(row.scope ? { scope: row.scope } : {}),
      version: Number(row.token_version),
    };
  }

  /**
   * After a refresh. An update, never an insert: a company that unlinked while the refresh was in
   * flight stays unlinked.
   */
  async save(companyId: string, tokens: AnafTokens): Promise<void> {
    const now = this.now();
    await this.db
      .updateTable('anaf_oauth_tokens')
      .set({
        ...tokenColumns(this.key, companyId, tokens),
        reconsent_required: 0,
        refreshed_at: now,
        updated_at: now,
        refresh_lease_until: null,
        token_version: sql<number>`token_version + 1`,
      })
      .where('company_id', '=', companyId)
      .execute();
  }

  async claimRefresh(companyId: string, seenVersion: number, now: number, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('anaf_oauth_tokens')
      .set({ refresh_lease_until: leaseUntil })
      .where('company_id', '=', companyId)
      .where('token_version', '=', seenVersion)
      .where('reconsent_required', '=', 0)
      .where((eb) => eb.or([eb('refresh_lease_until', 'is', null), eb('refresh_lease_until', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async markGrantDead(companyId: string, seenVersion: number): Promise<boolean> {
    const result = await this.db
      .updateTable('anaf_oauth_tokens')
      .set({ reconsent_required: 1, refresh_lease_until: null, updated_at: this.now() })
      .where('company_id', '=', companyId)
      .where('token_version', '=', seenVersion)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async releaseRefresh(companyId: string, seenVersion: number): Promise<void> {
    await this.db
      .updateTable('anaf_oauth_tokens')
      .set({ refresh_lease_until: null })
      .where('company_id', '=', companyId)
      .where('token_version', '=', seenVersion)
      .execute();
  }
}

/** One token source per service instance, so refreshes of a company are single-flight within the process. */
const sources = new WeakMap<EfacturaServices, AccessTokenSource>();

export function requireAnaf(services: EfacturaServices, what: string): AnafServices {
  const anaf = services.anaf;
  if (!anaf) throw new ApiError(503, 'configuration_error', 'anaf_not_configured', { vars: { what } });
  return anaf;
}

export function requireOAuth(services: EfacturaServices) {
  const oauth = requireAnaf(services, 'OAuth').oauth;
  if (!oauth) throw new ApiError(503, 'configuration_error', 'anaf_not_configured', { vars: { what: 'OAuth client' } });
  return oauth;
}

export function tokenSource(services: EfacturaServices): AccessTokenSource {
  let source = sources.get(services);
  if (!source) {
    const anaf = requireAnaf(services, 'OAuth');
    const oauth = requireOAuth(services);
    const now = () => services.clock.now();
    const store = new DbTokenStore(services.storage.db, anaf.tokenKey, now);
    const manager = new AnafTokenManager({ oauth: { ...oauth, clock: services.clock }, store, clock: services.clock });
    // The manager marks a dead grant through the store (markGrantDead), so status and submissions say "consent again".
    source = manager;
    sources.set(services, source);
  }
  return source;
}
