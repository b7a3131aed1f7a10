import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { buildApp, validateResponsesByDefault, type AppOptions } from './app';
import { migrate, openStorage, storageConfigFromEnv, type Storage } from './db/connect';
import { MemoryRateLimitStore, RedisRateLimitStore, CONTRACT_LIMITS, type RateLimits } from './platform/rate-limit';
import { systemClock } from './platform/clock';
import { CONNECTION_LIMIT_ENV, type ConnectionLimits } from './platform/connection-limits';
import { pdfRendererFromEnv } from './modules/documents-pdf/chromium-renderer';
import { anafServicesFromEnv } from './modules/efactura-spv/anaf-services';
import { pollSubmissions } from './modules/efactura-spv/submissions';
import { dispatchWebhooks } from './modules/webhooks/dispatcher';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from './modules/webhooks/sender';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().min(1).default('127.0.0.1'),
  REDIS_URL: z.string().optional(),
  /** Start of the Redis counters' names: processes that share budgets use the same prefix. */
  RATE_LIMIT_PREFIX: z.string().min(1).optional(),
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  RATE_LIMIT_PER_HOUR: z.coerce.number().int().positive().optional(),
  RATE_LIMIT_CREATES_PER_MINUTE: z.coerce.number().int().positive().optional(),
  /** Seconds a looked-up API key is trusted without reading it again (revocation delay). */
  KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).optional(),
  LOG: z.enum(['0', '1']).default('0'),
  /** 1: check every reply against its schema (on under the test runner, off by default in production). */
  VALIDATE_RESPONSES: z.enum(['0', '1']).optional(),
  // Connection timeouts and size limits (server/platform/connection-limits.ts, docs/service-settings.md).
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).optional(),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).optional(),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).optional(),
  IDLE_TIMEOUT_MS: z.coerce.number().int().min(1).optional(),
  TIMEOUT_CHECK_INTERVAL_MS: z.coerce.number().int().min(10).optional(),
  MAX_HEADER_BYTES: z.coerce.number().int().min(1024).optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).optional(),
  MAX_REQUESTS_PER_SOCKET: z.coerce.number().int().min(0).optional(),
  // Webhooks (server/modules/webhooks, docs/service-settings.md).
  /** Seconds between passes of the webhook worker; 0 turns it off. */
  WEBHOOKS_POLL_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  /** Milliseconds one webhook post may take before it counts as failed. */
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(DEFAULT_WEBHOOK_SETTINGS.timeoutMs),
  /** 1: refuse webhook addresses of private, loopback and link-local networks (a hosted service). */
  WEBHOOKS_BLOCK_PRIVATE: z.enum(['0', '1']).default('0'),
});

/** The connection limits the env sets; the rest keep their defaults. */
export function connectionLimitsFromEnv(config: z.output<typeof envSchema>): Partial<ConnectionLimits> {
  const limits: Partial<ConnectionLimits> = {};
  for (const [member, name] of Object.entries(CONNECTION_LIMIT_ENV) as Array<[keyof ConnectionLimits, keyof typeof config]>) {
    const value = config[name];
    if (typeof value === 'number') limits[member] = value;
  }
  return limits;
}

export interface RunningServer {
  app: FastifyInstance;
  storage: Storage;
  url: string;
  close(): Promise<void>;
}

/** Opens storage, migrates, listens. Used by `npm run server` and by tests that want a whole process. */
export async function startServer(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppOptions> = {}): Promise<RunningServer> {
  const config = envSchema.parse(env);
  // ANAF clients from ANAF_* (a caller passing its own in extraServices keeps them).
  const anaf = overrides.extraServices?.anaf ? null : anafServicesFromEnv(env, overrides.clock ?? systemClock);
  const storage = overrides.storage ?? openStorage(storageConfigFromEnv(env));
  try {
    await migrate(storage);
  } catch (error) {
    await storage.close();
    throw error;
  }
  const rateLimits: RateLimits = {
    requestsPerHour: config.RATE_LIMIT_PER_HOUR ?? CONTRACT_LIMITS.requestsPerHour,
    createsPerMinute: config.RATE_LIMIT_CREATES_PER_MINUTE ?? CONTRACT_LIMITS.createsPerMinute,
  };
  const webhookSettings: WebhookSettings = { timeoutMs: config.WEBHOOKS_TIMEOUT_MS, blockPrivateAddresses: config.WEBHOOKS_BLOCK_PRIVATE === '1' };
  const redisStore =
    !overrides.rateLimitStore && config.REDIS_URL
      ? new RedisRateLimitStore(config.REDIS_URL, config.RATE_LIMIT_PREFIX ? { prefix: config.RATE_LIMIT_PREFIX } : {})
      : null;
  const rateLimitStore = overrides.rateLimitStore ?? redisStore ?? new MemoryRateLimitStore();
  const { app, services } = buildApp({
    storage,
    rateLimits,
    trustProxy: config.TRUST_PROXY === '1',
    logger: config.LOG === '1',
    validateResponses: validateResponsesByDefault(env),
    ...(config.KEY_CACHE_SECONDS !== undefined ? { keyCacheSeconds: config.KEY_CACHE_SECONDS } : {}),
    connectionLimits: connectionLimitsFromEnv(config),
    ...overrides,
    extraServices: {
      ...(anaf ? { anaf: anaf.services } : {}),
      webhooks: webhookSettings,
      // CHROMIUM_PATH of this env (not the process's), unless the caller hands its own renderer.
      ...(overrides.extraServices && 'pdf' in overrides.extraServices ? {} : { pdf: pdfRendererFromEnv(env) }),
      ...overrides.extraServices,
    },
    rateLimitStore,
  });
  for (const warning of anaf?.warnings ?? []) app.log.warn(warning);
  if (redisStore) {
    redisStore.useLog(app.log);
    // The first requests count in Redis rather than in memory; an unreachable Redis delays the start by at most this.
    await redisStore.settled(2000);
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  // The e-Factura poller: follows submissions until ANAF's verdict, one pass at a time.
  let polling: Promise<unknown> | null = null;
  const pollSeconds = anaf?.pollSeconds ?? 0;
  const poller =
    pollSeconds > 0
      ? setInterval(() => {
          polling ??= pollSubmissions(services, services.clock.now())
            .catch((error: unknown) => app.log.error({ err: error }, 'e-Factura poll failed'))
            .finally(() => {
              polling = null;
            });
        }, pollSeconds * 1000)
      : null;
  poller?.unref();
  // The webhook worker: fans out the outbox and posts what is due, one pass at a time.
  let dispatching: Promise<unknown> | null = null;
  const dispatcher =
    config.WEBHOOKS_POLL_SECONDS > 0
      ? setInterval(() => {
          dispatching ??= dispatchWebhooks(services, services.clock.now())
            .catch((error: unknown) => app.log.error({ err: error }, 'webhook dispatch failed'))
            .finally(() => {
              dispatching = null;
            });
        }, config.WEBHOOKS_POLL_SECONDS * 1000)
      : null;
  dispatcher?.unref();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  let closing: Promise<void> | null = null;
  return {
    app,
    storage,
    url: `http://${host}:${port}`,
    close: () => {
      // Fastify's close stops accepting, lets in-flight requests finish (their writes included),
      // and only then do the counters and the database close.
      closing ??= (async () => {
        if (poller) clearInterval(poller);
        if (dispatcher) clearInterval(dispatcher);
        await polling;
        await dispatching;
        await app.close();
        await rateLimitStore.close();
        await storage.close();
      })();
      return closing;
    },
  };
}
