import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Storage } from './db/connect';
import { ApiError } from './platform/errors';
import { markStart, meta } from './platform/envelope';
import { resolveLocale } from './platform/locale';
import { registerRoute, type AnyRoute } from './platform/route';
import { MemoryRateLimitStore, CONTRACT_LIMITS, type RateLimits, type RateLimitStore } from './platform/rate-limit';
import { systemClock, type Clock } from './platform/clock';
import { buildOpenApi } from './platform/openapi';
import type { Services } from './platform/services';
import { allRoutes } from './modules/index';

export interface AppOptions {
  storage: Storage;
  clock?: Clock;
  rateLimitStore?: RateLimitStore;
  rateLimits?: RateLimits;
  validateResponses?: boolean;
  logger?: boolean;
  trustProxy?: boolean;
  /** Extra members of Services (clients of outside systems) a module needs. */
  extraServices?: Partial<Services>;
  routes?: readonly AnyRoute[];
  bodyLimit?: number;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

export function buildApp(options: AppOptions): { app: FastifyInstance; services: Services } {
  const services: Services = {
    storage: options.storage,
    clock: options.clock ?? systemClock,
    rateLimitStore: options.rateLimitStore ?? new MemoryRateLimitStore(),
    rateLimits: options.rateLimits ?? CONTRACT_LIMITS,
    validateResponses: options.validateResponses ?? true,
    docBase: 'https://docs.tejghea.ro/api/v1/errors',
    ...options.extraServices,
  };
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit ?? BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    // Fastify's own schema validation stays off: zod validates, with our error shape.
    return503OnClosing: true,
  });

  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, 'invalid_request_error', 'invalid_json'), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    markStart(request);
    reply.header('x-request-id', request.id);
    // The contract's browser rule: any origin, these two request headers.
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-allow-headers', 'Authorization, Content-Type');
    reply.header('access-control-expose-headers', 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After');
  });

  app.options('/*', async (_request, reply) => {
    reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    reply.header('access-control-max-age', '600');
    return reply.code(204).send();
  });

  const routes = options.routes ?? allRoutes;
  for (const route of routes) registerRoute(app, services, route);

  const openapi = buildOpenApi(routes);
  app.get('/v1/openapi.json', async () => openapi);

  app.setNotFoundHandler(async (request, reply) => {
    const locale = resolveLocale((request.query as Record<string, unknown>)?.locale, request.headers['accept-language']);
    const error = new ApiError(404, 'invalid_request_error', 'route_not_found', {
      vars: { method: request.method, url: request.url.split('?')[0] ?? '' },
    });
    return reply.code(404).send({ success: false, error: error.toBody(locale, services.docBase), meta: meta(request) });
  });

  app.setErrorHandler(async (raw: FastifyError | ApiError, request, reply) => {
    const locale = resolveLocale((request.query as Record<string, unknown>)?.locale, request.headers['accept-language']);
    let error: ApiError;
    if (raw instanceof ApiError) error = raw;
    else if (raw.code === 'FST_ERR_CTP_BODY_TOO_LARGE') error = new ApiError(413, 'invalid_request_error', 'body_too_large');
    else if (raw.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') error = new ApiError(415, 'invalid_request_error', 'unsupported_media_type');
    else if (raw.code?.startsWith('FST_ERR_CTP')) error = new ApiError(400, 'invalid_request_error', 'invalid_json');
    else {
      // Only the log sees what went wrong; the client gets the request id to quote.
      request.log.error({ err: raw }, 'unhandled error');
      if (!options.logger) console.error(`[${request.id}]`, raw);
      error = new ApiError(500, 'api_error', 'api_error');
    }
    if (error.options.headers) reply.headers(error.options.headers);
    return reply.code(error.status).send({ success: false, error: error.toBody(locale, services.docBase), meta: meta(request) });
  });

  return { app, services };
}
