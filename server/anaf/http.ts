import { z } from 'zod';
import { AnafError } from './errors';

/**
 * The one place ANAF requests leave the process: a per-attempt deadline (covering the body too,
 * since a server can stall mid-body), bounded retries with jittered exponential backoff, and the
 * mapping of transport failures to AnafError kinds.
 *
 * What is retried:
 * - idempotent requests (reads): network errors and 5xx;
 * - non-idempotent ones (upload): only failures where ANAF provably did not take the request
 *   (connection refused, 503). A retried upload after a lost answer could file the invoice twice.
 * Timeouts are never retried: the caller configured how long it is willing to wait, and a read
 * that timed out once will usually do so again; the sync loop decides when to try again.
 */
export interface HttpPolicy {
  /** Deadline for one attempt, from sending to the last byte of the body. */
  timeoutMs: number;
  /** Attempts in total, first one included. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const defaultHttpPolicy: HttpPolicy = {
  timeoutMs: 30_000,
  maxAttempts: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
};

export interface HttpDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface AnafRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams;
  idempotent: boolean;
  signal?: AbortSignal;
}

export interface AnafResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  url: string;
  contentType: string;
  attempts: number;
  text(): string;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class AttemptTimeout extends Error {}

/** Error codes under which Node's fetch (undici) reports a connection that never carried the request. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function networkCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs) && secs >= 0) return secs;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function backoffDelay(attempt: number, policy: HttpPolicy, random: () => number, retryAfter?: number): number {
  const exp = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (attempt - 1));
  const jittered = exp / 2 + (random() * exp) / 2;
  if (retryAfter !== undefined) return Math.min(policy.backoffMaxMs, Math.max(jittered, retryAfter * 1000));
  return jittered;
}

async function attemptOnce(req: AnafRequest, policy: HttpPolicy, doFetch: typeof fetch, attempts: number): Promise<AnafResponse> {
  if (req.signal?.aborted) throw req.signal.reason;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), policy.timeoutMs);
  const onCallerAbort = () => controller.abort(req.signal?.reason);
  req.signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const res = await doFetch(req.url, {
      method: req.method,
      headers: req.headers,
      // A copy, typed on a plain ArrayBuffer as fetch's BodyInit wants.
      body: req.body instanceof Uint8Array ? new Uint8Array(req.body) : req.body,
      signal: controller.signal,
      redirect: 'manual',
    });
    const body = new Uint8Array(await res.arrayBuffer());
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return {
      status: res.status,
      headers: res.headers,
      body,
      url: req.url,
      contentType,
      attempts,
      text: () => new TextDecoder('utf-8').decode(body),
    };
  } catch (err) {
    if (controller.signal.aborted && controller.signal.reason instanceof AttemptTimeout) {
      throw new AnafError('timeout', `ANAF did not answer within ${policy.timeoutMs} ms`, {
        url: req.url,
        attempts,
        cause: err,
      });
    }
    if (req.signal?.aborted) throw req.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** Sends `req`, retrying per the policy. Returns every answer below 500; a 5xx that outlives the retries throws `unavailable`. */
export async function sendToAnaf(req: AnafRequest, policy: HttpPolicy = defaultHttpPolicy, deps: HttpDeps = {}): Promise<AnafResponse> {
  const doFetch = deps.fetch ?? fetch;
  const sleep = deps.sleep ?? defaultSleep;
  const random = deps.random ?? Math.random;
  const maxAttempts = Math.max(1, policy.maxAttempts);

  for (let attempt = 1; ; attempt++) {
    let failure: AnafError;
    let retryable: boolean;
    try {
      const res = await attemptOnce(req, policy, doFetch, attempt);
      if (res.status < 500) return res;
      const messages = serverErrorMessages(res);
      failure = new AnafError('unavailable', `ANAF answered HTTP ${res.status}${messages.length ? `: ${messages.join('; ')}` : ''}`, {
        status: res.status,
        anafMessages: messages,
        url: req.url,
        attempts: attempt,
        retryAfterSeconds: parseRetryAfter(res.headers.get('retry-after')),
      });
      retryable = req.idempotent || res.status === 503;
    } catch (err) {
      if (err instanceof AnafError || req.signal?.aborted) throw err;
      const code = networkCode(err);
      failure = new AnafError('unavailable', `network error talking to ANAF${code ? ` (${code})` : ''}`, {
        url: req.url,
        attempts: attempt,
        cause: err,
      });
      retryable = req.idempotent || (code !== undefined && NEVER_SENT.has(code));
    }
    if (!retryable || attempt >= maxAttempts) throw failure;
    await sleep(backoffDelay(attempt, policy, random, failure.retryAfterSeconds));
  }
}

/** Spring's error body, which ANAF's REST services use for 400/404/500 (`CustomErrorMessage` in their swagger). */
export const customErrorMessageSchema = z.object({
  timestamp: z.string().optional(),
  status: z.number().optional(),
  error: z.string().optional(),
  message: z.string().optional(),
  path: z.string().optional(),
});

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function serverErrorMessages(res: AnafResponse): string[] {
  const parsed = customErrorMessageSchema.safeParse(tryJson(res.text()));
  if (parsed.success && (parsed.data.message || parsed.data.error)) return [parsed.data.message ?? parsed.data.error ?? ''];
  return [];
}

/** Turns an answer that is not 200 into the error the callers throw. 5xx never reaches here (sendToAnaf throws). */
export function errorForStatus(res: AnafResponse, what: string): AnafError {
  const text = res.text();
  const custom = customErrorMessageSchema.safeParse(tryJson(text));
  const anafMessage = custom.success ? (custom.data.message ?? custom.data.error) : undefined;
  const messages = anafMessage ? [anafMessage] : [];
  const base = { status: res.status, anafMessages: messages, url: res.url, attempts: res.attempts };
  const suffix = anafMessage ? `: ${anafMessage}` : '';
  if (res.status === 401 || res.status === 403) {
    return new AnafError('auth', `${what}: ANAF refused the credentials (HTTP ${res.status})${suffix}`, base);
  }
  if (res.status === 429 || res.status === 204) {
    // ANAF answers 429 over its global limit; 204 is how some FCTEL services say "daily limit reached".
    return new AnafError('unavailable', `${what}: ANAF rate limit reached (HTTP ${res.status})${suffix}`, {
      ...base,
      retryAfterSeconds: parseRetryAfter(res.headers.get('retry-after')),
    });
  }
  if (res.status === 400) return new AnafError('rejected', `${what}: ANAF rejected the request${suffix || ' (HTTP 400)'}`, base);
  return new AnafError('protocol', `${what}: unexpected HTTP ${res.status}${suffix}`, base);
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
