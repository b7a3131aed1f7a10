import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';

const HOUR_END = Date.parse('2026-11-21T11:00:00Z') / 1000;

describe('rate limits per key (memory store)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { rateLimits: { requestsPerHour: 10, createsPerMinute: 2 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts every request in a fixed hour window and refuses the one over with 429 and Retry-After', async () => {
    server.clock.set(Date.parse('2026-11-21T10:00:00Z') / 1000);
    const key = await server.key();
    for (let i = 1; i <= 10; i += 1) {
      const res = await server.api(key.api_key, 'GET', '/me');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('10');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(10 - i));
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(HOUR_END));
    }
    server.clock.advance(600);
    const over = await server.api(key.api_key, 'GET', '/me');
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded', status: 429 });
    expect(over.body.error.message).toBe('Too many requests. Try again in 3000 seconds.');
    expect(over.headers.get('retry-after')).toBe('3000');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(over.headers.get('x-ratelimit-reset')).toBe(String(HOUR_END));
    // Another key has its own budget.
    const other = await server.key();
    expect((await server.api(other.api_key, 'GET', '/me')).status).toBe(200);
    // The next hour starts afresh.
    server.clock.set(HOUR_END);
    const fresh = await server.api(key.api_key, 'GET', '/me');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('9');
    expect(fresh.headers.get('x-ratelimit-reset')).toBe(String(HOUR_END + 3600));
  });

  it('limits creates per minute separately, with POST /work-points', async () => {
    server.clock.set(Date.parse('2026-11-21T12:30:15Z') / 1000);
    const key = await server.key();
    expect((await server.api(key.api_key, 'POST', '/work-points', { name: 'A' })).status).toBe(201);
    expect((await server.api(key.api_key, 'POST', '/work-points', { name: 'B' })).status).toBe(201);
    const third = await server.api(key.api_key, 'POST', '/work-points', { name: 'C' });
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('rate_limit_exceeded');
    expect(third.headers.get('retry-after')).toBe('45');
    // Reads still go through: only creates have the per-minute budget.
    expect((await server.api(key.api_key, 'GET', '/work-points')).status).toBe(200);
    server.clock.advance(45);
    expect((await server.api(key.api_key, 'POST', '/work-points', { name: 'C' })).status).toBe(201);
    const list = await server.api(key.api_key, 'GET', '/work-points');
    expect(list.body.data.data.map((w: { name: string }) => w.name)).toEqual(['A', 'B', 'C', 'Sediu']);
  });

  it('puts the rate-limit headers on every authenticated reply, errors included', async () => {
    server.clock.set(Date.parse('2026-11-21T14:00:00Z') / 1000);
    const reader = await server.key({ scopes: ['work_points:read'] });
    const forbidden = await server.api(reader.api_key, 'POST', '/work-points', { name: 'X' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('x-ratelimit-remaining')).toBe('9');
    const invalid = await server.api(reader.api_key, 'GET', '/work-points?per_page=500');
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('8');
    const missing = await server.api(reader.api_key, 'GET', '/work-points/wp_nope');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-ratelimit-limit')).toBe('10');
    // Unauthenticated replies carry none: there is no key to count against.
    expect((await server.api(null, 'GET', '/me')).headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe.each(DIALECTS)('idempotent creates on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (key: string, body: unknown, idem?: string, extra = '') =>
    server.api(key, 'POST', `/work-points${extra}`, body, idem ? { 'idempotency-key': idem } : {});
  const count = async (companyId: string) =>
    Number((await server.storage.db.selectFrom('work_points').select((eb) => eb.fn.countAll<number>().as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow()).n);

  it('replays the first response for the same key and body, with Idempotent-Replayed: true', async () => {
    const key = await server.key();
    const first = await post(key.api_key, { name: 'Chioșc', address: 'Piața Mare' }, 'create-kiosk-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    server.clock.advance(120);
    const again = await post(key.api_key, { address: 'Piața Mare', name: 'Chioșc' }, 'create-kiosk-1', '?locale=ro');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect(again.body.meta.request_id).not.toBe(first.body.meta.request_id);
    expect(await count(key.company_id)).toBe(2);
  });

  it('answers 409 idempotency_conflict for the same key with another body', async () => {
    const key = await server.key();
    expect((await post(key.api_key, { name: 'Unu' }, 'k-conflict')).status).toBe(201);
    const res = await post(key.api_key, { name: 'Doi' }, 'k-conflict');
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_conflict', param: 'Idempotency-Key' });
    const otherQuery = await post(key.api_key, { name: 'Unu' }, 'k-conflict', `?work_point_id=${key.work_point_id}`);
    expect(otherQuery.status).toBe(409);
    expect(await count(key.company_id)).toBe(2);
  });

  it('scopes keys to the company: every key of the company shares them, other companies do not', async () => {
    const a1 = await server.key();
    const cui = (await server.storage.db.selectFrom('companies').select('cui').where('id', '=', a1.company_id).executeTakeFirstOrThrow()).cui;
    const a2 = await server.key({ cui, workPointName: 'Al doilea' });
    const b = await server.key();
    const first = await post(a1.api_key, { name: 'Comun' }, 'shared-key');
    const sameCompany = await post(a2.api_key, { name: 'Comun' }, 'shared-key');
    expect(sameCompany.headers.get('idempotent-replayed')).toBe('true');
    expect(sameCompany.body.data.id).toBe(first.body.data.id);
    const otherCompany = await post(b.api_key, { name: 'Comun' }, 'shared-key');
    expect(otherCompany.status).toBe(201);
    expect(otherCompany.headers.get('idempotent-replayed')).toBeNull();
    expect(otherCompany.body.data.id).not.toBe(first.body.data.id);
    expect(otherCompany.body.data.company_id).toBe(b.company_id);
  });

  it('creates once when duplicates arrive concurrently', async () => {
    const key = await server.key();
    const replies = await Promise.all(Array.from({ length: 12 }, () => post(key.api_key, { name: 'Concurent' }, 'concurrent-1')));
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
    expect(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(11);
    expect(await count(key.company_id)).toBe(2);
  });

  it('frees the key when the create fails, so a corrected request may reuse it', async () => {
    const key = await server.key();
    expect((await post(key.api_key, { name: 'Ocupat' })).status).toBe(201);
    const failed = await post(key.api_key, { name: 'Ocupat' }, 'retry-me');
    expect(failed.status).toBe(409);
    expect(failed.body.error.code).toBe('work_point_exists');
    const fixed = await post(key.api_key, { name: 'Liber' }, 'retry-me');
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key after 24 hours: the same request then runs again', async () => {
    const key = await server.key();
    expect((await post(key.api_key, { name: 'Vechi' }, 'old-key')).status).toBe(201);
    server.clock.advance(24 * 3600);
    const rerun = await post(key.api_key, { name: 'Vechi' }, 'old-key');
    expect(rerun.status).toBe(409);
    expect(rerun.body.error.code).toBe('work_point_exists');
  });

  it('refuses an unusable Idempotency-Key with 400 invalid_idempotency_key', async () => {
    const key = await server.key();
    const res = await post(key.api_key, { name: 'Lung' }, 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_idempotency_key', param: 'Idempotency-Key' });
    expect(await count(key.company_id)).toBe(1);
  });
});
