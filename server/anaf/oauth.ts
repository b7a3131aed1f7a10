import { z } from 'zod';
import { systemClock, type Clock } from '../platform/clock';
import { AnafError, AnafOAuthError, toOAuthErrorCode } from './errors';
import { basicAuth, defaultHttpPolicy, joinUrl, sendToAnaf, type HttpDeps, type HttpPolicy } from './http';

/**
 * ANAF's OAuth2 authorization-code flow (logincert.anaf.ro, same host for test and prod).
 * The authorize step needs the user's qualified certificate in a browser; everything after it is
 * headless: the token endpoint takes HTTP Basic client auth, and each refresh rotates the refresh
 * token, so both tokens are saved after every refresh.
 */
export const ANAF_OAUTH_BASE_URL = 'https://logincert.anaf.ro/anaf-oauth2/v1';

export interface AnafOAuthConfig {
  clientId: string;
  clientSecret: string;
  /** Must equal, byte for byte, a callback URL registered on the ANAF OAuth profile. */
  redirectUri: string;
  baseUrl?: string;
  http?: Partial<HttpPolicy>;
  httpDeps?: HttpDeps;
  clock?: Clock;
}

export interface AnafTokens {
  access_token: string;
  refresh_token: string;
  /** Unix seconds. */
  expires_at: number;
  /** Unix seconds, from the refresh JWT when it carries one (ANAF: 365 days). */
  refresh_expires_at?: number;
  token_type: 'Bearer';
  scope?: string;
}

export const anafTokensSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_at: z.number().int(),
  refresh_expires_at: z.number().int().optional(),
  token_type: z.literal('Bearer'),
  scope: z.string().optional(),
});

const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  token_type: z.string().optional(),
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/)]).optional(),
  scope: z.string().optional(),
});

const tokenErrorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});

export function buildAuthorizeUrl(config: AnafOAuthConfig, options: { state?: string } = {}): string {
  const url = new URL(joinUrl(config.baseUrl ?? ANAF_OAUTH_BASE_URL, 'authorize'));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', config.redirectUri);
  url.searchParams.set('token_content_type', 'jwt');
  if (options.state !== undefined) url.searchParams.set('state', options.state);
  return url.toString();
}

/** The `exp` claim of a JWT, without verifying it: we only schedule refreshes with it, ANAF verifies. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const exp = z.object({ exp: z.number() }).safeParse(claims);
    return exp.success ? Math.floor(exp.data.exp) : undefined;
  } catch {
    return undefined;
  }
}

async function postToken(config: AnafOAuthConfig, form: Record<string, string>, previousRefresh?: string): Promise<AnafTokens> {
  const url = joinUrl(config.baseUrl ?? ANAF_OAUTH_BASE_URL, 'token');
  const res = await sendToAnaf(
    {
      method: 'POST',
      url,
      headers: {
        authorization: basicAuth(config.clientId, config.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
      // An authorization code is single use and a refresh rotates the refresh token: never resend blindly.
      idempotent: false,
    },
    { ...defaultHttpPolicy, ...config.http },
    config.httpDeps,
  );
  let json: unknown;
  try {
    json = JSON.parse(res.text());
  } catch {
    json = undefined;
  }
  if (res.status !== 200) {
    const err = tokenErrorSchema.safeParse(json);
    if (err.success) {
      throw new AnafOAuthError(toOAuthErrorCode(err.data.error), err.data.error_description, { status: res.status, url });
    }
    if (res.status === 401 || res.status === 403) {
      throw new AnafOAuthError('invalid_client', `HTTP ${res.status}`, { status: res.status, url });
    }
    throw new AnafError('protocol', `ANAF token endpoint answered HTTP ${res.status}`, { status: res.status, url });
  }
  const parsed = tokenResponseSchema.safeParse(json);
  if (!parsed.success) throw new AnafError('protocol', 'ANAF token endpoint answered an unrecognised body', { status: 200, url });

  const now = (config.clock ?? systemClock).now();
  const body = parsed.data;
  const expiresAt = body.expires_in !== undefined ? now + Number(body.expires_in) : jwtExpiry(body.access_token);
  if (expiresAt === undefined) throw new AnafError('protocol', 'ANAF token answer carries no expiry', { url });
  const refreshToken = body.refresh_token ?? previousRefresh;
  if (!refreshToken) throw new AnafError('protocol', 'ANAF token answer carries no refresh_token', { url });
  const refreshExpiresAt = jwtExpiry(refreshToken);
  return {
    access_token: body.access_token,
    refresh_token: refreshToken,
    expires_at: expiresAt,
    ...(refreshExpiresAt !== undefined ? { refresh_expires_at: refreshExpiresAt } : {}),
    token_type: 'Bearer',
    ...(body.scope ? { scope: body.scope } : {}),
  };
}

/** Step 2: the code from the callback, exchanged within ANAF's 60 s window. */
export function exchangeCodeForTokens(config: AnafOAuthConfig, code: string): Promise<AnafTokens> {
  return postToken(config, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: config.redirectUri,
    token_content_type: 'jwt',
  });
}

export function refreshAnafTokens(config: AnafOAuthConfig, refreshToken: string): Promise<AnafTokens> {
  return postToken(
    config,
    { grant_type: 'refresh_token', refresh_token: refreshToken, token_content_type: 'jwt' },
    refreshToken,
  );
}

/** Tokens as stored, with the store's version of them: it changes on every save. */
export type StoredTokens = AnafTokens & { version: number };

/** Where each company's ANAF tokens live (the database in production, memory in tests). */
export interface TokenStore {
  get(companyId: string): Promise<StoredTokens | null>;
  /** Saves new tokens, moves the version on and ends any refresh claim. */
  save(companyId: string, tokens: AnafTokens): Promise<void>;
  /**
   * Claims the refresh of the tokens at `seenVersion` until `leaseUntil` (Unix seconds). False when
   * another holder's claim is still live at `now`, or the version moved (someone already refreshed):
   * several processes sharing a store must not spend the same single-use refresh token.
   */
  claimRefresh(companyId: string, seenVersion: number, now: number, leaseUntil: number): Promise<boolean>;
  /** Gives a claim back after a failed refresh, so the next attempt need not wait for it to expire. */
  releaseRefresh(companyId: string, seenVersion: number): Promise<void>;
  /**
   * ANAF refused the refresh token of `seenVersion` (invalid_grant): marks the grant dead (the company
   * must consent again) and ends the claim, unless the tokens moved past that version meanwhile —
   * then another process refreshed and the grant lives. True when marked.
   */
  markGrantDead(companyId: string, seenVersion: number): Promise<boolean>;
}

/** One process only: the manager's in-process single-flight is all the exclusion it needs. */
export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, StoredTokens>();
  async get(companyId: string) {
    const stored = this.tokens.get(companyId);
    return stored ? { ...stored } : null;
  }
  async save(companyId: string, tokens: AnafTokens) {
    const version = (this.tokens.get(companyId)?.version ?? 0) + 1;
    this.tokens.set(companyId, { ...tokens, version });
  }
  async claimRefresh() {
    return true;
  }
  async releaseRefresh() {}
  async markGrantDead() {
    // Nothing to remember in memory: the next refresh is refused again.
    return true;
  }
}

/** What the e-Factura client needs to authenticate; AnafTokenManager is the real one. */
export interface AccessTokenSource {
  accessToken(companyId: string): Promise<string>;
  /** Called once after a 401 with the token that was refused; returns a token worth one more try. */
  accessTokenAfterRejection(companyId: string, rejected: string): Promise<string>;
}

export interface AnafTokenManagerOptions {
  oauth: AnafOAuthConfig;
  store: TokenStore;
  clock?: Clock;
  /** Refresh when the access token has less than this left. */
  refreshBeforeSeconds?: number;
  /** How long a refresh claim in the store lasts; a holder that died is taken over after it. */
  refreshLeaseSeconds?: number;
  /** How long to wait (real milliseconds) for another process's refresh before giving up. */
  refreshWaitMs?: number;
  /** How often to look at the store while waiting. */
  refreshPollMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Hands out a valid access token per company: refreshes shortly before expiry, and once more when
 * ANAF refuses a token early (revoked, clock skew). Refreshes of one company are single-flight:
 * with rotating refresh tokens, two concurrent refreshes would leave one of them holding a dead token.
 * Within the process through `inflight`; across processes sharing the store through its refresh
 * claim: the process holding it refreshes, the others wait for the version it saves.
 */
export class AnafTokenManager implements AccessTokenSource {
  private readonly inflight = new Map<string, Promise<AnafTokens>>();
  private readonly clock: Clock;
  private readonly skew: number;
  private readonly leaseSeconds: number;
  private readonly waitMs: number;
  private readonly pollMs: number;

  constructor(private readonly options: AnafTokenManagerOptions) {
    this.clock = options.clock ?? options.oauth.clock ?? systemClock;
    this.skew = options.refreshBeforeSeconds ?? 600;
    this.leaseSeconds = options.refreshLeaseSeconds ?? 30;
    this.waitMs = options.refreshWaitMs ?? 5_000;
    this.pollMs = options.refreshPollMs ?? 150;
  }

  /** Completes the consent: exchanges the callback's code and stores the tokens. */
  async connect(companyId: string, code: string): Promise<AnafTokens> {
    const tokens = await exchangeCodeForTokens({ ...this.options.oauth, clock: this.clock }, code);
    await this.options.store.save(companyId, tokens);
    return tokens;
  }

  async accessToken(companyId: string): Promise<string> {
    const tokens = await this.stored(companyId);
    if (tokens.expires_at - this.clock.now() > this.skew) return tokens.access_token;
    return (await this.refresh(companyId, tokens)).access_token;
  }

  async accessTokenAfterRejection(companyId: string, rejected: string): Promise<string> {
    const tokens = await this.stored(companyId);
    // Someone refreshed while our request was in flight: their token is the one to try.
    if (tokens.access_token !== rejected) return tokens.access_token;
    return (await this.refresh(companyId, tokens)).access_token;
  }

  private async stored(companyId: string): Promise<StoredTokens> {
    const tokens = await this.options.store.get(companyId);
    if (!tokens) throw new AnafError('auth', `no ANAF authorization stored for company ${companyId}`);
    return tokens;
  }

  private refresh(companyId: string, current: StoredTokens): Promise<AnafTokens> {
    const running = this.inflight.get(companyId);
    if (running) return running;
    const job = this.refreshOnce(companyId, current).finally(() => this.inflight.delete(companyId));
    this.inflight.set(companyId, job);
    return job;
  }

  /** Refreshes if this process wins the claim, else waits for the winner's tokens (or its claim to expire). */
  private async refreshOnce(companyId: string, current: StoredTokens): Promise<AnafTokens> {
    const { store } = this.options;
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const now = this.clock.now();
      if (await store.claimRefresh(companyId, current.version, now, now + this.leaseSeconds)) return this.refreshClaimed(companyId, current);
      const latest = await this.stored(companyId);
      if (latest.version !== current.version) return latest;
      if (Date.now() >= deadline) {
        throw new AnafError('unavailable', `the ANAF token refresh of company ${companyId} is held by another process`);
      }
      await sleep(this.pollMs);
    }
  }

  private async refreshClaimed(companyId: string, current: StoredTokens): Promise<AnafTokens> {
    const { store } = this.options;
    try {
      const next = await refreshAnafTokens({ ...this.options.oauth, clock: this.clock }, current.refresh_token);
      await store.save(companyId, next);
      return next;
    } catch (error) {
      if (error instanceof AnafOAuthError && error.code === 'invalid_grant') {
        // A holder whose claim we took over after it expired may have spent the token and saved its
        // tokens since: then the grant is alive and the newer tokens are the ones to use. The mark is
        // conditional on the version we refreshed from, so it fails exactly in that case.
        if (!(await store.markGrantDead(companyId, current.version))) {
          const saved = await store.get(companyId);
          if (saved && saved.version !== current.version) return saved;
        }
        throw error;
      }
      // The claim would expire anyway: the refresh's own error is the one worth reporting.
      await store.releaseRefresh(companyId, current.version).catch(() => undefined);
      throw error;
    }
  }
}
