import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient, retryAfterSeconds } from '../../main/api/client';
import { ApiHttpError, ApiNetworkError, ApiNotConfiguredError, ApiResponseError } from '../../main/api/errors';
import { getMe, zMe } from '../../main/api/endpoints';
import { RatePacer } from '../../main/api/pacer';
import { zClient } from '../../shared/schemas/client';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { newCompany, startServer, type Company } from './support/harness';

describe('API client against the real server', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  let company: Company;
  beforeAll(async () => {
    server = await startServer();
    proxy = await startFaultProxy(server.url);
    company = await newCompany(server);
  });
  beforeEach(() => {
    proxy.plan([]);
    proxy.setRates({});
    proxy.setFilter(null);
    proxy.setDown(false);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  const client = (key: string | null = company.apiKey, timeoutMs = 1000) =>
    new ApiClient({
      baseUrl: proxy.base,
      apiKey: () => key,
      timeoutMs,
      retry: { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 50 },
      pacer: new RatePacer({ createsPerMinute: 10_000 }),
    });

  it('parses replies with the shared schemas', async () => {
    const api = client();
    const me = await getMe(api);
    expect(me.company.id).toBe(company.companyId);
    expect(api.pacer.snapshot().remaining).toBeGreaterThan(0);
  });

  it('turns an error reply into a typed error with the contract type and code, never retried', async () => {
    const api = client('sk_live_000000000000000000000000');
    const error = await api.request({ method: 'GET', path: '/me', schema: zMe }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect(error).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key', retryable: false });
    expect(api.stats.requests).toBe(1);
  });

  it('carries validation fields of a 422 and does not retry it', async () => {
    const api = client();
    const error = await api
      .request({ method: 'POST', path: '/clients', body: { type: 'company', name: 'X', cui: '123', country: 'RO' }, create: true, idempotencyKey: randomUUID(), schema: zClient })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect((error as ApiHttpError).type).toBe('validation_error');
    expect((error as ApiHttpError).fields?.cui).toBeTruthy();
    expect(api.stats.requests).toBe(1);
  });

  it('retries 500, 503, dropped connections and stalls, then succeeds', async () => {
    const api = client(company.apiKey, 300);
    proxy.plan(['status500', 'drop_before', 'stall']);
    expect((await getMeWithRetries(api)).company.id).toBe(company.companyId);
    expect(api.stats.retries).toBe(3);
    expect(api.stats.status5xx).toBe(1);
    expect(api.stats.networkErrors).toBe(2);
  });

  it('waits as long as a 429 asks (Retry-After), then succeeds', async () => {
    const api = new ApiClient({
      baseUrl: proxy.base, apiKey: () => company.apiKey, retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 2000 }, pacer: new RatePacer(),
    });
    proxy.plan(['status429']);
    const started = Date.now();
    await api.request({ method: 'GET', path: '/me', schema: zMe });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(api.stats.status429).toBe(1);
  });

  it('sends the Idempotency-Key on a create: a reply lost after the server acted creates nothing twice', async () => {
    const api = client();
    const uuid = randomUUID();
    proxy.setFilter((method, path) => method === 'POST' && path === '/v1/clients');
    proxy.plan(['drop_after', 'drop_after']);
    const created = await api.request({
      method: 'POST', path: '/clients', body: { type: 'person', name: `Idem ${uuid}`, country: 'RO' }, create: true, idempotencyKey: uuid, schema: zClient,
    });
    expect(proxy.counts.drop_after).toBeGreaterThanOrEqual(2);
    const list = await server.api(company.apiKey, 'GET', `/clients?search=${encodeURIComponent(uuid)}`);
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.data[0].id).toBe(created.id);
  });

  it('refuses a create without an Idempotency-Key', async () => {
    await expect(client().request({ method: 'POST', path: '/clients', body: {}, create: true, schema: zClient })).rejects.toThrow(/Idempotency-Key/);
  });

  it('rejects a 2xx reply that does not match the schema (a version mismatch is not silently accepted)', async () => {
    const error = await client().request({ method: 'GET', path: '/me', schema: z.object({ object: z.literal('client') }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiResponseError);
  });

  it('gives up after the last attempt with a network error, and says the outcome is unknown', async () => {
    proxy.setDown(true);
    const error = await client().request({ method: 'GET', path: '/me', schema: zMe }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect((error as ApiNetworkError).outcome).toBe('unknown');
  });

  it('without a key, fails at once', async () => {
    await expect(client(null).request({ method: 'GET', path: '/me', schema: zMe })).rejects.toBeInstanceOf(ApiNotConfiguredError);
  });

  it('backs off exponentially with full jitter, capped, with a server-given wait as a floor', () => {
    const api = new ApiClient({ baseUrl: 'http://x/v1', apiKey: () => 'k', random: () => 0.999, retry: { baseDelayMs: 100, maxDelayMs: 1000 } });
    const network = new ApiNetworkError('x', 'connection');
    expect([1, 2, 3, 4, 5, 6].map((a) => api.backoff(network, a))).toEqual([99, 199, 399, 799, 999, 999]);
    const low = new ApiClient({ baseUrl: 'http://x/v1', apiKey: () => 'k', random: () => 0 });
    const limited = new ApiHttpError(429, { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'x' }, 12, null);
    expect(low.backoff(limited, 1)).toBe(12_000);
  });

  it('reads the wait of a 429 from Retry-After or X-RateLimit-Reset, of a 503 from Retry-After only', () => {
    const now = 1_000_000_000_000;
    expect(retryAfterSeconds(new Headers({ 'retry-after': '7' }), now)).toBe(7);
    expect(retryAfterSeconds(new Headers({ 'retry-after': new Date(now + 30_000).toUTCString() }), now)).toBe(30);
    expect(retryAfterSeconds(new Headers({ 'x-ratelimit-reset': String(now / 1000 + 600) }), now)).toBe(600);
    expect(retryAfterSeconds(new Headers({ 'x-ratelimit-reset': String(now / 1000 + 600) }), now, false)).toBeNull();
  });

  it('does not sit out a long server-asked pause inside one call (the caller reschedules)', async () => {
    const api = client();
    proxy.setFilter((_m, path) => path === '/v1/me');
    const started = Date.now();
    proxy.plan(['status429']);
    // The proxy asks for 1 s, more than this client's 50 ms cap: the error comes back at once.
    const error = await api.request({ method: 'GET', path: '/me', schema: zMe }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiHttpError);
    expect((error as ApiHttpError).retryAfterSeconds).toBe(1);
    expect(Date.now() - started).toBeLessThan(900);
  });
});

/** getMe tries twice; this test wants the client's full retry policy. */
function getMeWithRetries(api: ApiClient) {
  return api.request({ method: 'GET', path: '/me', schema: zMe });
}
