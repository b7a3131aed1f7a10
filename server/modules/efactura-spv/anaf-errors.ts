import { AnafError, AnafOAuthError } from '../../anaf/index';
import { ApiError } from '../../platform/errors';
import './messages';

/** A short, caller-safe description of an ANAF failure: ANAF's own words when it gave some. */
export function anafDetail(error: AnafError): string {
  const words = error.anafMessages.map((m) => m.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return (words.length ? words.join('; ') : error.message).slice(0, 500);
}

/**
 * What a caller sees of an ANAF failure. Our own errors pass through; a dead authorization asks for
 * consent again; a slow ANAF is 504, everything else ANAF did wrong is 502. Unknown errors are
 * rethrown unchanged (they become a plain 500).
 */
export function toApiError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof AnafOAuthError) {
    if (error.code === 'invalid_client') {
      return new ApiError(503, 'configuration_error', 'anaf_not_configured', { vars: { what: 'ANAF refused the OAuth client credentials' } });
    }
    return new ApiError(400, 'configuration_error', 'oauth_reconsent_required');
  }
  if (error instanceof AnafError) {
    if (error.kind === 'auth') return new ApiError(400, 'configuration_error', 'oauth_reconsent_required');
    if (error.quota) {
      const q = error.quota;
      return new ApiError(429, 'rate_limit_error', 'anaf_quota_reached', {
        vars: {
          limit: String(q.limit), id: q.id,
          what: q.scope === 'download' ? 'downloads' : 'status checks', what_ro: q.scope === 'download' ? 'descărcări' : 'verificări de stare',
        },
      });
    }
    if (error.kind === 'timeout') return new ApiError(504, 'api_error', 'anaf_timeout', { vars: { detail: anafDetail(error) } });
    return new ApiError(502, 'api_error', 'anaf_unavailable', { vars: { detail: anafDetail(error) } });
  }
  return error;
}

/** Runs an ANAF call, translating its failures for the caller. */
export async function callAnaf<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toApiError(error);
  }
}
