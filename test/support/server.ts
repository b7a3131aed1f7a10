import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app';
import type { Dialect } from '../../server/db/types';
import { createApiKey, type CreateKeyInput, type CreatedKey } from '../../server/platform/api-keys';
import { fixedClock } from '../../server/platform/clock';
import { createTestStorage, type TestStorage } from './storage';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  base: string;
  dialect: Dialect;
  storage: TestStorage['storage'];
  clock: ReturnType<typeof fixedClock>;
  /** A new key (and company/work point when new); defaults to a fresh company each call. */
  key(input?: Partial<Omit<CreateKeyInput, 'now'>>): Promise<CreatedKey>;
  /** fetch against /v1 with the key as Bearer; JSON bodies are serialized. */
  api(key: string | null, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiReply>;
  close(): Promise<void>;
}

export interface ApiReply {
  status: number;
  headers: Headers;
  // Replies are checked by each test against what it expects; their shape varies by route.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test convenience over arbitrary JSON
  body: any;
  text: string;
}

let companyCounter = 0;

/** The real service on loopback, over a fresh database, with a clock the test can move. */
export async function startTestServer(dialect: Dialect, options: Partial<AppOptions> = {}): Promise<TestServer> {
  const testStorage = await createTestStorage(dialect);
  const clock = fixedClock(Math.floor(Date.parse('2026-11-21T10:00:00Z') / 1000));
  const { app } = buildApp({ storage: testStorage.storage, clock, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const base = `${url}/v1`;
  const api: TestServer['api'] = async (key, method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    const h = init.headers as Record<string, string>;
    if (key) h.authorization = `Bearer ${key}`;
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(`${base}${path}`, init);
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    app,
    url,
    base,
    dialect,
    storage: testStorage.storage,
    clock,
    key: (input = {}) => {
      companyCounter += 1;
      return createApiKey(testStorage.storage.db, {
        companyName: input.companyName ?? `Test SRL ${companyCounter}`,
        cui: input.cui ?? String(10_000_000 + Math.floor(Math.random() * 89_999_999)),
        ...input,
        now: clock.now(),
      });
    },
    api,
    close: async () => {
      await app.close();
      await testStorage.drop();
    },
  };
}
