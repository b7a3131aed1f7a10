import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Storage } from './db/connect';
import { ApiError } from './platform/errors';
import { isDatabaseBusy } from './platform/db-errors';
import { markStart, meta } from './platform/envelope';
import { resolveLocale } from './platform/locale';
import { registerRoute, type AnyRoute } from './platform/route';
import { registerPdfLinkRoute } from './modules/compat/pdf-link';
import { MemoryRateLimitStore, CONTRACT_LIMITS, type RateLimits, type RateLimitStore } from './platform/rate-limit';
import { systemClock, type Clock } from './platform/clock';
import { KeyStore } from './platform/auth';
import { buildOpenApi } from './platform/openapi';
import { clientErrorHandler, registerJsonParser } from './platform/input-guards';
import { DEFAULT_CONNECTION_LIMITS, resolveConnectionLimits, type ConnectionLimits } from './platform/connection-limits';
import type { Services } from './platform/services';
import { allRoutes } from './modules/index';
import { pdfRendererFromEnv } from './modules/documents-pdf/chromium-renderer';
import { readEmptyArrayBodyAsObject } from './modules/compat/empty-body';

export interface AppOptions {
  storage: Storage;
  clock?: Clock;
  rateLimitStore?: RateLimitStore;
  rateLimits?: RateLimits;
  /** Check every reply against its published schema; default {@link validateResponsesByDefault}. */
  validateResponses?: boolean;
  logger?: boolean;
  trustProxy?: boolean;
  /** Extra members of Services (clients of outside systems) a module needs. */
  extraServices?: Partial<Services>;
  routes?: readonly AnyRoute[];
  /** Largest body in bytes; wins over `connectionLimits.bodyLimitBytes`. */
  bodyLimit?: number;
  /** Timeouts and size limits of connections (defaults: DEFAULT_CONNECTION_LIMITS). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** How long (service-clock seconds) a key looked up stays trusted without reading it again; 0 reads every time. */
  keyCacheSeconds?: number;
  /** Where unexpected errors go (with their stack and SQL), instead of the log; tests use it to see them. */
  reportError?: (error: unknown, request: FastifyRequest) => void;
}

export const BODY_LIMIT_BYTES = DEFAULT_CONNECTION_LIMITS.bodyLimitBytes;

/**
 * Whether replies are checked against their schemas when nobody says: yes under the test runner
 * (`VITEST`), where a reply that contradicts the OpenAPI document must fail a test, and with
 * `VALIDATE_RESPONSES=1`; no otherwise. In production the check costs a schema walk of every reply
 * (the whole ISO currency list on `GET /currencies`) and can only turn our own bug into a 500: the
 * tests already run every route with it on.
 */
export function validateResponsesByDefault(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.VALIDATE_RESPONSES !== undefined) return env.VALIDATE_RESPONSES === '1';
  // The runner marks this process, whatever configuration `env` a test hands to startServer.
  return Boolean(process.env.VITEST);
}

export const DEFAULT_KEY_CACHE_SECONDS = 5;

/** The contract's browser rule (Authentication, 6): any origin, exactly these request headers. */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-expose-headers':
    'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed',
} as const;

export function buildApp(options: AppOptions): { app: FastifyInstance; services: Services } {
  const services: Services = {
    storage: options.storage,
    clock: options.clock ?? systemClock,
    rateLimitStore: options.rateLimitStore ?? new MemoryRateLimitStore(),
    rateLimits: options.rateLimits ?? CONTRACT_LIMITS,
    keys: new KeyStore(options.storage.db, options.keyCacheSeconds ?? DEFAULT_KEY_CACHE_SECONDS),
    validateResponses: options.validateResponses ?? validateResponsesByDefault(),
    docBase: 'https://docs.tejghea.ro/api/v1/errors',
    // Chromium from CHROMIUM_PATH unless the caller brings its own (or null: PDFs off); launched on first use.
    pdf: options.extraServices && 'pdf' in options.extraServices ? options.extraServices.pdf : pdfRendererFromEnv(process.env),
    ...options.extraServices,
  };
  const limits = resolveConnectionLimits(options.connectionLimits);
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit ?? limits.bodyLimitBytes,
    // A client that sends nothing, or sends slowly, is dropped: no connection is held forever.
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    maxRequestsPerSocket: limits.maxRequestsPerSocket,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    },
    genReqId: () => randomUUID(),
    // Requests Node's parser refuses (oversized headers, garbage) still answer in the envelope.
    clientErrorHandler: clientErrorHandler(services.docBase, CORS_HEADERS),
    // Fastify's own 503 while closing has its own body; ours (below) keeps the envelope.
    return503OnClosing: false,
    // Errors Fastify meets before routing (a malformed URL) still answer in the envelope.
    frameworkErrors: (error, request, reply) => {
      const locale = resolveLocale(undefined, request.headers['accept-language']);
      const apiError = new ApiError(400, 'invalid_request_error', 'bad_request');
      // The framework types this reply with its generic schema parameters; ours is a plain JSON reply.
      void (reply as unknown as FastifyReply)
        .code(400)
        // No hook ran: the request id the envelope carries goes in its header here.
        .header('x-request-id', request.id)
        .headers(CORS_HEADERS)
        .send({ success: false, error: apiError.toBody(locale, services.docBase), meta: meta(request) });
      request.log.info({ err: error }, 'rejected before routing');
    },
  });

  const report =
    options.reportError ??
    ((error: unknown, request: FastifyRequest) => {
      request.log.error({ err: error }, 'unhandled error');
      if (!options.logger) console.error(`[${request.id}]`, error);
    });

  // JSON in UTF-8 is the only body the contract speaks; anything else (text/plain, forms) is 415.
  registerJsonParser(app);

  // Per-request state lives in declared request members, not WeakMaps: V8 keeps one object shape and
  // the collector has no ephemeron table to walk on every cycle.
  app.decorateRequest('tejgheaStart', 0);
  app.decorateRequest('tejgheaAdmitted', null);
  app.decorateRequest('tejgheaWarnings', null);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // The browser that prints PDFs ends with the service (after the requests in flight): no process is left behind.
  app.addHook('onClose', async () => {
    await services.pdf?.close();
  });

  // Callback style: no promise per request for a hook that never waits.
  app.addHook('onRequest', (request, reply, done) => {
    markStart(request);
    reply.header('x-request-id', request.id);
    // Only a browser reads CORS headers, and a browser's cross-origin request always names its Origin:
    // a program calling the API (the desktop, an accountant's script) is spared three headers a reply.
    if (request.headers.origin !== undefined) reply.headers(CORS_HEADERS);
    if (closing) {
      // A request that reached a kept-alive connection after shutdown began: the caller retries
      // elsewhere. Requests already running are left to finish.
      reply.header('connection', 'close');
      done(new ApiError(503, 'api_error', 'service_unavailable', { headers: { 'retry-after': '1' } }));
      return;
    }
    done();
  });

  // A request that was running when shutdown began finishes, and then its connection closes too.
  // (Callback style: no promise per request for what is almost always a no-op.)
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // Preflight: no key needed, nothing else to check.
  app.options('/*', async (_request, reply) => {
    reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    reply.header('access-control-max-age', '600');
    return reply.code(204).send();
  });

  readEmptyArrayBodyAsObject(app);
  const routes = options.routes ?? allRoutes;
  for (const route of routes) registerRoute(app, services, route);
  // The one route outside the key check: a signed, short-lived PDF link (issue 18, compat/pdf-link.ts).
  registerPdfLinkRoute(app, services);

  // Built once, at start: a route whose schema cannot be published fails the start, not a request.
  const openapi = JSON.stringify(buildOpenApi(routes));
  app.get('/v1/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(openapi));

  app.setNotFoundHandler(async (request, reply) => {
    const locale = resolveLocale((request.query as Record<string, unknown>)?.locale, request.headers['accept-language']);
    const error = new ApiError(404, 'invalid_request_error', 'route_not_found', {
      vars: { method: request.method, url: request.url.split('?')[0] ?? '' },
    });
    return reply.code(404).send({ success: false, error: error.toBody(locale, services.docBase), meta: meta(request) });
  });

  app.setErrorHandler(async (raw: FastifyError | ApiError, request, reply) => {
    const locale = resolveLocale((request.query as Record<string, unknown>)?.locale, request.headers['accept-language']);
    const error = toApiError(raw);
    if (error === null) report(raw, request);
    const shown = error ?? new ApiError(500, 'api_error', 'api_error');
    if (shown.options.headers) reply.headers(shown.options.headers);
    return reply.code(shown.status).send({ success: false, error: shown.toBody(locale, services.docBase), meta: meta(request) });
  });

  return { app, services };
}

/** What the caller may learn of an error; null for our own failures, which show nothing. */
function toApiError(raw: FastifyError | ApiError): ApiError | null {
  if (raw instanceof ApiError) return raw;
  // Overload, not a fault: the transaction rolled back whole, so the caller is told to retry.
  if (isDatabaseBusy(raw)) return new ApiError(503, 'api_error', 'service_busy', { headers: { 'retry-after': '1' } });
  switch (raw.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'invalid_request_error', 'body_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'invalid_request_error', 'unsupported_media_type');
    default:
      break;
  }
  if (raw.code?.startsWith('FST_ERR_CTP')) return new ApiError(400, 'invalid_request_error', 'invalid_json');
  // The client went away (or was dropped by a timeout) while its body was being read: nobody is left
  // to answer, and it is no failure of ours to report.
  if (raw.code === 'ECONNRESET' || raw.message === 'aborted') return new ApiError(400, 'invalid_request_error', 'bad_request');
  // Other framework refusals of the request itself (a bad content length, an aborted body).
  if (raw.code?.startsWith('FST_') && typeof raw.statusCode === 'number' && raw.statusCode >= 400 && raw.statusCode < 500) {
    return new ApiError(raw.statusCode, 'invalid_request_error', 'bad_request');
  }
  return null;
}
