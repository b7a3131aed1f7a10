/**
 * One error type for every ANAF call, so callers branch on `kind` and never on HTTP details:
 * - auth: the token or the client credentials were refused (re-consent may be needed);
 * - rejected: ANAF understood the request and said no (validation, rights, unknown id), with ANAF's words;
 * - unavailable: ANAF or the network failed (5xx, dropped connection, rate limit) after our retries;
 * - timeout: no complete answer within the configured time;
 * - protocol: ANAF answered something we do not recognise (a changed format is a bug to look at, not a retry).
 */
export type AnafErrorKind = 'auth' | 'rejected' | 'unavailable' | 'timeout' | 'protocol';

export interface AnafErrorOptions {
  status?: number;
  /** ANAF's own messages (errorMessage attributes, `eroare`, `Messages[].message`, ...), verbatim. */
  anafMessages?: string[];
  url?: string;
  attempts?: number;
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AnafError extends Error {
  readonly kind: AnafErrorKind;
  readonly status: number | undefined;
  readonly anafMessages: string[];
  readonly url: string | undefined;
  readonly attempts: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** Set when ANAF's daily limit for a message is spent (server/anaf/daily-quota.ts): wait for tomorrow. */
  quota?: { scope: 'status' | 'download'; id: string; limit: number; day: string };
  /** ANAF's clock when it answered (its Date header, ms), where a refusal depends on it: the 60-day edge of a list. */
  anafNow?: number;

  constructor(kind: AnafErrorKind, message: string, options: AnafErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AnafError';
    this.kind = kind;
    this.status = options.status;
    this.anafMessages = options.anafMessages ?? [];
    this.url = options.url;
    this.attempts = options.attempts;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** RFC 6749 §5.2 codes, plus `unknown` for anything else the token endpoint says. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unknown';

const OAUTH_CODES: readonly OAuthErrorCode[] = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
];

export function toOAuthErrorCode(raw: string | undefined): OAuthErrorCode {
  return OAUTH_CODES.find((c) => c === raw) ?? 'unknown';
}

/** A refusal from the token endpoint. `invalid_grant` means the grant is dead: the user must consent again. */
export class AnafOAuthError extends AnafError {
  readonly code: OAuthErrorCode;
  readonly description: string | undefined;

  constructor(code: OAuthErrorCode, description: string | undefined, options: AnafErrorOptions = {}) {
    super('auth', description ? `${code}: ${description}` : code, {
      ...options,
      anafMessages: description ? [description] : [],
    });
    this.name = 'AnafOAuthError';
    this.code = code;
    this.description = description;
  }
}

export const isAnafError = (e: unknown): e is AnafError => e instanceof AnafError;
