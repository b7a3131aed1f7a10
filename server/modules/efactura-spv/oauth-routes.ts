import { sql } from 'kysely';
import { AnafOAuthError, buildAuthorizeUrl, exchangeCodeForTokens } from '../../anaf/index';
import type { Db } from '../../db/types';
import { defineRoute } from '../../platform/route';
import { ApiError, notFound } from '../../platform/errors';
import { randomBase62 } from '../../platform/ids';
import { zOAuthAuthorization, zOAuthCallback, zOAuthStatus, zOAuthUnlinked, type OAuthStatus } from '../../../shared/schemas/efactura';
import { anafDetail, toApiError } from './anaf-errors';
import { requireAnaf, requireOAuth, tokenColumns } from './token-store';
import './messages';

const tags = ['efactura'];

/** How long an authorize URL may wait for its callback: the certificate prompt, a PIN, a coffee. */
export const OAUTH_STATE_TTL_SECONDS = 15 * 60;

export async function oauthStatus(db: Db, companyId: string): Promise<OAuthStatus> {
  const row = await db.selectFrom('anaf_oauth_tokens').selectAll().where('company_id', '=', companyId).executeTakeFirst();
  if (!row) {
    return {
      object: 'efactura_oauth', status: 'not_linked', linked: false, connected_at: null, access_expires_at: null,
      refresh_expires_at: null, refreshed_at: null, encrypted_at_rest: null,
    };
  }
  return {
    object: 'efactura_oauth',
    status: row.reconsent_required ? 'reconsent_required' : 'linked',
    linked: true,
    connected_at: Number(row.connected_at),
    access_expires_at: Number(row.expires_at),
    refresh_expires_at: row.refresh_expires_at === null ? null : Number(row.refresh_expires_at),
    refreshed_at: row.refreshed_at === null ? null : Number(row.refreshed_at),
    encrypted_at_rest: row.encryption !== 'none',
  };
}

/** Throws `oauth_not_configured` (type configuration_error, 400) when the company has no link with ANAF. */
export async function assertLinked(db: Db, companyId: string): Promise<void> {
  const row = await db.selectFrom('anaf_oauth_tokens').select(['reconsent_required']).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw new ApiError(400, 'configuration_error', 'oauth_not_configured');
  if (row.reconsent_required) throw new ApiError(400, 'configuration_error', 'oauth_reconsent_required');
}

const authorizeUrl = defineRoute({
  method: 'GET',
  path: '/efactura/oauth/authorize-url',
  operationId: 'getEfacturaAuthorizeUrl',
  summary: 'Start linking the company with ANAF (OAuth)',
  description:
    'Our design. Returns ANAF’s authorize URL with a single-use `state` valid 15 minutes. The user opens it in a browser with the company’s qualified certificate; ANAF redirects to the registered callback with `code` and `state`, which are sent to POST /efactura/oauth/callback.',
  tags,
  scope: 'efactura:write',
  response: zOAuthAuthorization,
  errors: { anaf_not_configured: 503 },
  handler: async (ctx) => {
    const oauth = requireOAuth(ctx.services);
    const state = randomBase62(32);
    const expiresAt = ctx.now + OAUTH_STATE_TTL_SECONDS;
    await ctx.db.deleteFrom('anaf_oauth_states').where('expires_at', '<', ctx.now).execute();
    await ctx.db
      .insertInto('anaf_oauth_states')
      .values({ state, company_id: ctx.companyId, key_id: ctx.auth.keyId, created_at: ctx.now, expires_at: expiresAt })
      .execute();
    return { object: 'efactura_oauth_authorization' as const, authorize_url: buildAuthorizeUrl(oauth, { state }), state, expires_at: expiresAt };
  },
});

const callback = defineRoute({
  method: 'POST',
  path: '/efactura/oauth/callback',
  operationId: 'completeEfacturaOAuth',
  summary: 'Complete the link with ANAF: exchange the code for tokens',
  description:
    'Our design. `code` and `state` are what ANAF appended to the callback URL. The code is exchanged at once (ANAF lets it live about a minute) and the tokens are stored for the company, encrypted at rest when the server has ANAF_TOKEN_KEY. Linking again replaces the previous tokens.',
  tags,
  scope: 'efactura:write',
  body: zOAuthCallback,
  response: zOAuthStatus,
  errors: { oauth_state_invalid: 400, oauth_code_rejected: 400, anaf_not_configured: 503, anaf_unavailable: 502, anaf_timeout: 504 },
  handler: async (ctx) => {
    const anaf = requireAnaf(ctx.services, 'OAuth');
    const oauth = requireOAuth(ctx.services);
    // Single use: the state is consumed before the exchange, so a replayed callback fails even if the exchange is slow.
    const consumed = await ctx.db
      .deleteFrom('anaf_oauth_states')
      .where('state', '=', ctx.body.state)
      .where('company_id', '=', ctx.companyId)
      .where('expires_at', '>=', ctx.now)
      .executeTakeFirst();
    if (Number(consumed.numDeletedRows) !== 1) {
      throw new ApiError(400, 'invalid_request_error', 'oauth_state_invalid', { param: 'state' });
    }
    let tokens;
    try {
      tokens = await exchangeCodeForTokens({ ...oauth, clock: ctx.services.clock }, ctx.body.code);
    } catch (error) {
      if (error instanceof AnafOAuthError && error.code !== 'invalid_client') {
        throw new ApiError(400, 'invalid_request_error', 'oauth_code_rejected', { param: 'code', vars: { detail: anafDetail(error) } });
      }
      throw toApiError(error);
    }
    const columns = tokenColumns(anaf.tokenKey, ctx.companyId, tokens);
    await ctx.db
      .insertInto('anaf_oauth_tokens')
      .values({ company_id: ctx.companyId, ...columns, reconsent_required: 0, connected_at: ctx.now, refreshed_at: null, updated_at: ctx.now })
      .onConflict((oc) =>
        // A new grant is a new version: a refresh claimed on the old one must not spend or mark it.
        oc.column('company_id').doUpdateSet({
          ...columns, reconsent_required: 0, connected_at: ctx.now, refreshed_at: null, updated_at: ctx.now,
          refresh_lease_until: null, token_version: sql<number>`anaf_oauth_tokens.token_version + 1`,
        }),
      )
      .execute();
    return oauthStatus(ctx.db, ctx.companyId);
  },
});

const status = defineRoute({
  method: 'GET',
  path: '/efactura/oauth/status',
  operationId: 'getEfacturaOAuthStatus',
  summary: 'Whether the company is linked with ANAF',
  description: 'Our design. `reconsent_required` when ANAF refused the stored authorization (expired after a year, or revoked).',
  tags,
  scope: 'efactura:read',
  response: zOAuthStatus,
  handler: async (ctx) => oauthStatus(ctx.db, ctx.companyId),
});

const unlink = defineRoute({
  method: 'DELETE',
  path: '/efactura/oauth',
  operationId: 'deleteEfacturaOAuth',
  summary: 'Unlink the company from ANAF',
  description:
    'Our design. Forgets the stored tokens (ANAF offers no revocation endpoint; the grant also lapses after a year). Submissions still waiting for ANAF’s verdict resume when the company links again.',
  tags,
  scope: 'efactura:write',
  response: zOAuthUnlinked,
  envelope: 'top',
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const removed = await ctx.db.deleteFrom('anaf_oauth_tokens').where('company_id', '=', ctx.companyId).executeTakeFirst();
    await ctx.db.deleteFrom('anaf_oauth_states').where('company_id', '=', ctx.companyId).execute();
    if (Number(removed.numDeletedRows) === 0) throw notFound('oauth');
    return { object: 'efactura_oauth' as const, deleted: true as const };
  },
});

export const oauthRoutes = [authorizeUrl, callback, status, unlink];
