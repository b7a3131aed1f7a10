/**
 * How long and how much the service waits for a client, so that a slow or stalled one is dropped
 * instead of holding a connection forever. Each is a setting of `npm run server` (docs/service-settings.md).
 */
export interface ConnectionLimits {
  /** Time to receive the complete request headers (Node `headersTimeout`). */
  headersTimeoutMs: number;
  /** Time to receive the whole request, headers and body (Node `requestTimeout`). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests (Node `keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** A socket with no traffic at all for this long is closed, whatever its state (Fastify `connectionTimeout`). */
  idleTimeoutMs: number;
  /** How often Node checks the header and request deadlines; a deadline is enforced within this much. */
  timeoutCheckIntervalMs: number;
  /** Largest request head (request line and headers) in bytes; more is 431. */
  maxHeaderBytes: number;
  /** Largest request body in bytes; more is 413, answered from Content-Length before reading. */
  bodyLimitBytes: number;
  /** Requests one keep-alive connection may carry before the service closes it (0: no limit). */
  maxRequestsPerSocket: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  timeoutCheckIntervalMs: 1_000,
  maxHeaderBytes: 16 * 1024,
  bodyLimitBytes: 1024 * 1024,
  maxRequestsPerSocket: 0,
};

/** The env variable of each limit (see docs/service-settings.md). */
export const CONNECTION_LIMIT_ENV: Record<keyof ConnectionLimits, string> = {
  headersTimeoutMs: 'HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'REQUEST_TIMEOUT_MS',
  keepAliveTimeoutMs: 'KEEP_ALIVE_TIMEOUT_MS',
  idleTimeoutMs: 'IDLE_TIMEOUT_MS',
  timeoutCheckIntervalMs: 'TIMEOUT_CHECK_INTERVAL_MS',
  maxHeaderBytes: 'MAX_HEADER_BYTES',
  bodyLimitBytes: 'BODY_LIMIT_BYTES',
  maxRequestsPerSocket: 'MAX_REQUESTS_PER_SOCKET',
};

/**
 * Node refuses a headersTimeout above requestTimeout, and a keep-alive connection must be dropped by
 * its idle timeout no sooner than by keepAliveTimeout; the limits are brought into that order.
 */
export function resolveConnectionLimits(given: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...given };
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs) limits.headersTimeoutMs = limits.requestTimeoutMs;
  return limits;
}
