import type { ApiErrorBody, ErrorType } from '../../shared/api/envelope';

/**
 * What a failed call tells the caller. `outcome` is what the sync engine needs most: whether the
 * server surely did nothing (`not_applied`: it answered with an error, so a create may be changed
 * and sent again) or may have done it (`unknown`: no answer arrived).
 */
export abstract class ApiClientError extends Error {
  abstract readonly kind: 'http' | 'network' | 'invalid_response' | 'not_configured';
  abstract readonly outcome: 'not_applied' | 'unknown';
  /** Retried by the client itself, with backoff: network errors, 5xx, 429. Never another 4xx. */
  abstract readonly retryable: boolean;
  /** Worth trying again later unchanged (the outbox keeps it pending): `retryable`, or a duplicate still in progress. */
  get transient(): boolean {
    return this.retryable;
  }
}

/** The server answered with the contract's error envelope (or at least an error status). */
export class ApiHttpError extends ApiClientError {
  readonly kind = 'http' as const;
  readonly outcome = 'not_applied' as const;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | undefined;
  readonly fields: Record<string, string> | undefined;
  constructor(
    readonly status: number,
    body: Pick<ApiErrorBody, 'type' | 'code' | 'message'> & Partial<ApiErrorBody>,
    /** Seconds the server asked to wait (Retry-After, or until X-RateLimit-Reset). */
    readonly retryAfterSeconds: number | null,
    readonly requestId: string | null,
  ) {
    super(body.message);
    this.name = 'ApiHttpError';
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.fields = body.fields;
  }

  /** 5xx and 429 may succeed later; a 4xx would be refused again unchanged. */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429;
  }

  /** `idempotency_in_progress`: the first attempt of the same key is still running on the server. */
  override get transient(): boolean {
    return this.retryable || this.code === 'idempotency_in_progress';
  }
}

/** No reply: refused, reset, DNS, or the time-out expired. The request may or may not have been applied. */
export class ApiNetworkError extends ApiClientError {
  readonly kind = 'network' as const;
  readonly outcome = 'unknown' as const;
  readonly retryable = true;
  constructor(
    message: string,
    readonly reason: 'timeout' | 'connection' | 'aborted',
  ) {
    super(message);
    this.name = 'ApiNetworkError';
  }
}

/** A 2xx reply whose body does not match the shared schema: a version mismatch, never retried blindly. */
export class ApiResponseError extends ApiClientError {
  readonly kind = 'invalid_response' as const;
  readonly outcome = 'unknown' as const;
  readonly retryable = false;
  constructor(
    message: string,
    readonly status: number,
    readonly issues: string,
  ) {
    super(message);
    this.name = 'ApiResponseError';
  }
}

/** No API key stored yet. */
export class ApiNotConfiguredError extends ApiClientError {
  readonly kind = 'not_configured' as const;
  readonly outcome = 'not_applied' as const;
  readonly retryable = false;
  constructor() {
    super('No API key is configured');
    this.name = 'ApiNotConfiguredError';
  }
}
