import { z } from 'zod';
import { zErrorEnvelope, zMeta } from '../../shared/api/envelope';
import { ApiClientError, ApiHttpError, ApiNetworkError, ApiNotConfiguredError, ApiResponseError } from './errors';
import { RatePacer, type Priority } from './pacer';

export interface RetryPolicy {
  /** Attempts in total for a retryable failure (network, 5xx, 429). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

export interface ApiClientOptions {
  /** e.g. `https://api.tejghea.ro/v1` (contains the version segment). */
  baseUrl: string;
  /** Read at every request, so a key entered in the settings applies at once. */
  apiKey: () => string | null | Promise<string | null>;
  pacer?: RatePacer;
  retry?: Partial<RetryPolicy>;
  /** Per attempt: a server that stalls longer is treated as a dropped connection. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** [0, 1): jitter source (tests pass a seeded one). */
  random?: () => number;
  locale?: 'ro' | 'en';
  /**
   * The work point every request acts on (`work_point_id` in the query string), read at every
   * request so a change applies at once; null: the key's own.
   */
  workPointId?: () => string | null;
  /** Every reply (and every failure without one), for the online/offline state and statistics. */
  onOutcome?: (outcome: { ok: boolean; status: number | null; reached: boolean }) => void;
}

export interface RequestSpec<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  body?: unknown;
  /** Counts against the creates budget; sends `Idempotency-Key` (required then). */
  create?: boolean;
  idempotencyKey?: string;
  /** Schema of `data` (envelope `data`, the default) or of the whole reply beside `success` (`top`). */
  schema: S;
  envelope?: 'data' | 'top';
  priority?: Priority;
  /** false: do not add the selected work point (a key check asks about the key itself). */
  workPoint?: false;
  /** Overrides the client's retry policy (a probe tries once). */
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
}

export interface DownloadedFile {
  bytes: Uint8Array;
  contentType: string;
  /** From Content-Disposition, when the server named the file. */
  fileName: string | null;
}

export interface ApiStats {
  requests: number;
  replies: number;
  status429: number;
  status5xx: number;
  networkErrors: number;
  retries: number;
}

const zSuccessHead = z.object({ success: z.literal(true), meta: zMeta }).loose();

/**
 * Seconds to wait from a 429/503: `Retry-After` (seconds or HTTP date); for a 429 without it, until
 * `X-RateLimit-Reset` (the hourly window's end: on a 503 that header says nothing about the outage).
 */
export function retryAfterSeconds(headers: Headers, nowMs: number, useReset = true): number | null {
  const header = headers.get('retry-after');
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds)) return Math.max(0, seconds);
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - nowMs) / 1000));
  }
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (useReset && headers.has('x-ratelimit-reset') && Number.isFinite(reset)) return Math.max(0, Math.ceil(reset - nowMs / 1000));
  return null;
}

/**
 * The Invoicing Service client. Every reply is parsed with the shared zod schemas; every failure is a
 * typed `ApiClientError` carrying the contract's `type` and `code`. Network errors, 5xx and 429 are
 * retried with exponential backoff and full jitter (honouring Retry-After / X-RateLimit-Reset), 4xx
 * never; the pacer keeps the client inside the rate limits.
 */
export class ApiClient {
  readonly pacer: RatePacer;
  readonly stats: ApiStats = { requests: 0, replies: 0, status429: 0, status5xx: 0, networkErrors: 0, retries: 0 };
  private readonly retry: RetryPolicy;
  private readonly fetchImpl: typeof fetch;
  private readonly random: () => number;
  private readonly timeoutMs: number;

  constructor(private readonly options: ApiClientOptions) {
    this.pacer = options.pacer ?? new RatePacer();
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? 20_000;
  }

  get baseUrl(): string {
    return this.options.baseUrl.replace(/\/+$/, '');
  }

  async request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    return this.withRetries(spec, () => this.once(spec, 'json') as Promise<z.output<S>>);
  }

  /**
   * A reply that is a file (a PDF), not JSON: the same key, pacing, retries and typed errors (an
   * error reply is still the JSON envelope), the body returned as bytes.
   */
  async download(spec: Omit<RequestSpec<z.ZodUnknown>, 'schema' | 'envelope' | 'body' | 'create' | 'idempotencyKey'>): Promise<DownloadedFile> {
    const full = { ...spec, schema: z.unknown() };
    return this.withRetries(full, () => this.once(full, 'bytes') as Promise<DownloadedFile>);
  }

  private async withRetries<T>(spec: RequestSpec<z.ZodType>, attempt: () => Promise<T>): Promise<T> {
    if (spec.create && !spec.idempotencyKey) throw new Error(`create ${spec.method} ${spec.path} needs an Idempotency-Key`);
    const policy = { ...this.retry, ...spec.retry };
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof ApiClientError) || !error.retryable || n >= policy.maxAttempts || spec.signal?.aborted) throw error;
        const delay = this.backoff(error, n, policy);
        // A server asking for a long pause (a spent hourly budget) is not waited out inside one call:
        // the caller reschedules (the outbox item's next attempt) and the pacer holds everything else.
        if (delay > policy.maxDelayMs) throw error;
        this.stats.retries += 1;
        await this.pacer.clock.sleep(delay, spec.signal);
      }
    }
  }

  /** Full jitter: uniform in [0, min(cap, base * 2^(attempt-1))]; a server-given wait is a floor. */
  backoff(error: ApiClientError, attempt: number, policy: RetryPolicy = this.retry): number {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    const jittered = Math.floor(this.random() * ceiling);
    if (error instanceof ApiHttpError && error.retryAfterSeconds !== null) {
      return Math.max(jittered, error.retryAfterSeconds * 1000);
    }
    return jittered;
  }

  private async once<S extends z.ZodType>(spec: RequestSpec<S>, read: 'json' | 'bytes'): Promise<z.output<S> | DownloadedFile> {
    const key = await this.options.apiKey();
    if (!key) throw new ApiNotConfiguredError();
    const ticket = await this.pacer.acquire(spec.create === true, spec.priority ?? 'interactive', spec.signal);
    const url = new URL(`${this.baseUrl}${spec.path}`);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(name, String(v));
      else url.searchParams.set(name, String(value));
    }
    if (spec.workPoint !== false && !url.searchParams.has('work_point_id')) {
      const workPoint = this.options.workPointId?.() ?? null;
      if (workPoint) url.searchParams.set('work_point_id', workPoint);
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      accept: 'application/json',
    };
    if (this.options.locale) headers['accept-language'] = this.options.locale;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.idempotencyKey) headers['idempotency-key'] = spec.idempotencyKey;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.timeoutMs);
    const onAbort = () => timeout.abort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    this.stats.requests += 1;
    let response: Response;
    let raw: Uint8Array;
    try {
      response = await this.fetchImpl(url, {
        method: spec.method,
        headers,
        ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
        signal: timeout.signal,
      });
      // The body is read under the same time-out: a server that stalls mid-reply is a dropped connection.
      raw = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      ticket.abandon();
      this.stats.networkErrors += 1;
      this.options.onOutcome?.({ ok: false, status: null, reached: false });
      const reason = spec.signal?.aborted ? 'aborted' : timeout.signal.aborted ? 'timeout' : 'connection';
      throw new ApiNetworkError(`${spec.method} ${spec.path}: ${reason} (${(error as Error).message})`, reason);
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
    }
    ticket.observe(response.headers);
    this.stats.replies += 1;
    if (read === 'bytes' && response.ok) {
      this.options.onOutcome?.({ ok: true, status: response.status, reached: true });
      const disposition = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
      return { bytes: raw, contentType: response.headers.get('content-type') ?? 'application/octet-stream', fileName: disposition?.[1] ?? null };
    }
    const text = new TextDecoder().decode(raw);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok) {
      if (response.status === 429) this.stats.status429 += 1;
      if (response.status >= 500) this.stats.status5xx += 1;
      const wait = response.status === 429 || response.status === 503
        ? retryAfterSeconds(response.headers, this.pacer.clock.now(), response.status === 429)
        : null;
      if (response.status === 429) this.pacer.pauseFor((wait ?? 1) * 1000);
      this.options.onOutcome?.({ ok: false, status: response.status, reached: true });
      const parsed = zErrorEnvelope.safeParse(json);
      const body = parsed.success
        ? parsed.data.error
        : { type: 'api_error' as const, code: `http_${response.status}`, message: `HTTP ${response.status} without an error envelope` };
      throw new ApiHttpError(response.status, body, wait, response.headers.get('x-request-id'));
    }
    this.options.onOutcome?.({ ok: true, status: response.status, reached: true });
    const head = zSuccessHead.safeParse(json);
    if (!head.success) throw new ApiResponseError(`${spec.method} ${spec.path}: not a success envelope`, response.status, head.error.message);
    const payload = spec.envelope === 'top' ? json : (json as { data?: unknown }).data;
    const parsed = spec.schema.safeParse(payload);
    if (!parsed.success) {
      throw new ApiResponseError(`${spec.method} ${spec.path}: reply does not match the schema`, response.status, parsed.error.message);
    }
    return parsed.data;
  }
}
