import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app';
import { migrate, openStorage, storageConfigFromEnv, type Storage } from './db/connect';
import { MemoryRateLimitStore, RedisRateLimitStore, CONTRACT_LIMITS, type RateLimits } from './platform/rate-limit';
import { z } from 'zod';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  REDIS_URL: z.string().optional(),
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  RATE_LIMIT_PER_HOUR: z.coerce.number().int().positive().optional(),
  RATE_LIMIT_CREATES_PER_MINUTE: z.coerce.number().int().positive().optional(),
  LOG: z.enum(['0', '1']).default('0'),
});

export interface RunningServer {
  app: FastifyInstance;
  storage: Storage;
  url: string;
  close(): Promise<void>;
}

/** Opens storage, migrates, listens. Used by `npm run server` and by tests that want a whole process. */
export async function startServer(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppOptions> = {}): Promise<RunningServer> {
  const config = envSchema.parse(env);
  const storage = overrides.storage ?? openStorage(storageConfigFromEnv(env));
  await migrate(storage);
  const rateLimits: RateLimits = {
    requestsPerHour: config.RATE_LIMIT_PER_HOUR ?? CONTRACT_LIMITS.requestsPerHour,
    createsPerMinute: config.RATE_LIMIT_CREATES_PER_MINUTE ?? CONTRACT_LIMITS.createsPerMinute,
  };
  const rateLimitStore = config.REDIS_URL ? new RedisRateLimitStore(config.REDIS_URL) : new MemoryRateLimitStore();
  const { app } = buildApp({
    storage,
    rateLimitStore,
    rateLimits,
    trustProxy: config.TRUST_PROXY === '1',
    logger: config.LOG === '1',
    ...overrides,
  });
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  let closing: Promise<void> | null = null;
  return {
    app,
    storage,
    url: `http://${host}:${port}`,
    close: () => {
      // Fastify's close stops accepting, lets in-flight requests finish, then we close storage.
      closing ??= (async () => {
        await app.close();
        await rateLimitStore.close();
        await storage.close();
      })();
      return closing;
    },
  };
}
