import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';

describe.each(DIALECTS)('platform on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers /me in the envelope with meta and rate-limit headers', async () => {
    const key = await server.key();
    const res = await server.api(key.api_key, 'GET', '/me');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.company.id).toBe(key.company_id);
    expect(res.body.meta.version).toBe('v1');
    expect(res.body.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.request_id);
    expect(res.body.meta.response_time).toMatch(/^\d+ms$/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('999');
  });

  it('refuses a missing key with 401 missing_api_key', async () => {
    const res = await server.api(null, 'GET', '/me');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'missing_api_key', status: 401 });
    expect(res.body.success).toBe(false);
  });

  it('answers unknown routes with 404 in the envelope', async () => {
    const res = await server.api(null, 'GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('route_not_found');
  });
});
