import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';
import {
  buildAllowList, ipAllowed, KEY_PATTERN, parseIpRule, revokeApiKey, sameHash, scopeAllows, zScopeName,
} from '../../server/platform/api-keys';

describe('IP allow-lists', () => {
  it('matches single IPv4 addresses and CIDR ranges', () => {
    const list = buildAllowList(['192.0.2.7', '10.0.0.0/8']);
    expect(ipAllowed(list, '192.0.2.7')).toBe(true);
    expect(ipAllowed(list, '192.0.2.8')).toBe(false);
    expect(ipAllowed(list, '10.255.3.4')).toBe(true);
    expect(ipAllowed(list, '11.0.0.1')).toBe(false);
    // A dual-stack socket reports IPv4 clients as IPv4-mapped IPv6.
    expect(ipAllowed(list, '::ffff:10.1.2.3')).toBe(true);
    expect(ipAllowed(list, '::ffff:11.1.2.3')).toBe(false);
  });

  it('matches IPv6 addresses and prefixes in any spelling', () => {
    const list = buildAllowList(['2001:db8::/32', '::1', 'fe80:0:0:0:0:0:0:abcd']);
    expect(ipAllowed(list, '2001:db8:1234::5')).toBe(true);
    expect(ipAllowed(list, '2001:0db8:ffff:ffff:ffff:ffff:ffff:ffff')).toBe(true);
    expect(ipAllowed(list, '2001:db9::1')).toBe(false);
    expect(ipAllowed(list, '0:0:0:0:0:0:0:1')).toBe(true);
    expect(ipAllowed(list, 'fe80::abcd')).toBe(true);
    expect(ipAllowed(list, 'fe80::abce')).toBe(false);
    expect(ipAllowed(list, '127.0.0.1')).toBe(false);
    expect(ipAllowed(list, 'not an ip')).toBe(false);
    expect(ipAllowed(buildAllowList(['2001:db8:abcd:12::/64']), '2001:db8:abcd:12:ffff::1')).toBe(true);
    expect(ipAllowed(buildAllowList(['2001:db8:abcd:12::/64']), '2001:db8:abcd:13::1')).toBe(false);
  });

  it('knows an IPv4 rule never matches an IPv6 client and the reverse', () => {
    expect(ipAllowed(buildAllowList(['127.0.0.1']), '::1')).toBe(false);
    expect(ipAllowed(buildAllowList(['::1']), '127.0.0.1')).toBe(false);
  });

  it('accepts only real addresses and prefixes', () => {
    for (const ok of ['1.2.3.4', '1.2.3.0/24', '0.0.0.0/0', '::1', '2001:db8::/32', '::/0', '2001:db8::1/128']) expect(parseIpRule(ok), ok).not.toBeNull();
    for (const bad of ['1.2.3.4/33', '1.2.3', '256.1.1.1', '::1/129', '2001:db8::/x', '1.2.3.4/8/8', 'localhost', '']) expect(parseIpRule(bad), bad).toBeNull();
  });
});

describe('scopes', () => {
  it('grants by exact scope, resource wildcard, everything, and write implies read', () => {
    expect(scopeAllows(['work_points:read'], 'work_points:read')).toBe(true);
    expect(scopeAllows(['work_points:read'], 'work_points:write')).toBe(false);
    expect(scopeAllows(['work_points:write'], 'work_points:read')).toBe(true);
    expect(scopeAllows(['work_points:*'], 'work_points:write')).toBe(true);
    expect(scopeAllows(['*'], 'expenses:write')).toBe(true);
    expect(scopeAllows(['expenses:read'], 'work_points:read')).toBe(false);
    expect(scopeAllows([], 'work_points:read')).toBe(false);
  });

  it('names only known scopes', () => {
    for (const ok of ['*', 'expenses:read', 'invoices:write', 'work_points:*']) expect(zScopeName.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['expenses', 'expenses:delete', 'nothing:read', '*:read', '']) expect(zScopeName.safeParse(bad).success, bad).toBe(false);
  });

  it('compares hashes in constant time and only equal hashes match', () => {
    const a = createHash('sha256').update('a').digest('hex');
    const b = createHash('sha256').update('b').digest('hex');
    expect(sameHash(a, a)).toBe(true);
    expect(sameHash(a, b)).toBe(false);
    expect(sameHash(a, a.slice(0, 10))).toBe(false);
  });
});

describe.each(DIALECTS)('API keys on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  const expectAuthError = (res: { status: number; body: { error?: unknown } }, status: number, type: string, code: string) => {
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ type, code, status });
  };

  it('makes sk_live_/sk_test_ keys of 24 characters and stores only their sha256', async () => {
    const live = await server.key();
    const test = await server.key({ mode: 'test' });
    expect(live.api_key).toMatch(/^sk_live_[0-9A-Za-z]{24}$/);
    expect(test.api_key).toMatch(/^sk_test_[0-9A-Za-z]{24}$/);
    expect(KEY_PATTERN.test(live.api_key)).toBe(true);
    const row = await server.storage.db.selectFrom('api_keys').selectAll().where('id', '=', live.key_id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(live.api_key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(live.api_key.slice(8));
    expect(row.key_hint.length).toBeLessThan(live.api_key.length);
    expect((await server.api(test.api_key, 'GET', '/me')).status).toBe(200);
  });

  it('401 missing_api_key without an Authorization header', async () => {
    expectAuthError(await server.api(null, 'GET', '/work-points'), 401, 'authentication_error', 'missing_api_key');
  });

  it('401 invalid_api_key for a malformed header, a malformed key and a well-formed unknown key', async () => {
    const key = await server.key();
    for (const authorization of [`Basic ${key.api_key}`, 'Bearer', 'Bearer sk_live_short', `Bearer ${key.api_key}x`, 'Bearer sk_live_AAAAAAAAAAAAAAAAAAAAAAAA', `Bearer ${key.api_key.replace('sk_live_', 'sk_test_')}`]) {
      const res = await server.api(null, 'GET', '/me', undefined, { authorization });
      expectAuthError(res, 401, 'authentication_error', 'invalid_api_key');
    }
  });

  it('401 expired_api_key once the expiry passes, even for a key it has just accepted', async () => {
    const key = await server.key({ expiresAt: server.clock.now() + 60 });
    expect((await server.api(key.api_key, 'GET', '/me')).status).toBe(200);
    server.clock.advance(60);
    expectAuthError(await server.api(key.api_key, 'GET', '/me'), 401, 'authentication_error', 'expired_api_key');
  });

  it('401 invalid_api_key for a revoked key: at once when unseen, within the cache time when just used', async () => {
    const unseen = await server.key();
    expect(await revokeApiKey(server.storage.db, unseen.key_id, server.clock.now())).toBe(true);
    expectAuthError(await server.api(unseen.api_key, 'GET', '/me'), 401, 'authentication_error', 'invalid_api_key');

    const used = await server.key();
    expect((await server.api(used.api_key, 'GET', '/me')).status).toBe(200);
    await revokeApiKey(server.storage.db, used.key_id, server.clock.now());
    // The documented revocation delay: at most KEY_CACHE_SECONDS (5 s by default) of the service clock.
    server.clock.advance(5);
    expectAuthError(await server.api(used.api_key, 'GET', '/me'), 401, 'authentication_error', 'invalid_api_key');
    expect(await revokeApiKey(server.storage.db, used.key_id, server.clock.now())).toBe(false);
  });

  it('401 ip_restricted from an address outside the allow-list; single IPs and CIDR both work', async () => {
    const cases: Array<[string[], number]> = [
      [['127.0.0.1'], 200],
      [['127.0.0.0/8'], 200],
      [['10.0.0.0/8', '127.0.0.1/32'], 200],
      [['10.0.0.0/8'], 401],
      [['::1'], 401],
      [['192.0.2.1', '2001:db8::/32'], 401],
    ];
    for (const [allowIps, status] of cases) {
      const key = await server.key({ allowIps });
      const res = await server.api(key.api_key, 'GET', '/me');
      expect(res.status, allowIps.join(',')).toBe(status);
      if (status === 401) {
        expectAuthError(res, 401, 'authentication_error', 'ip_restricted');
        expect(res.body.error.message).toContain('127.0.0.1');
      }
    }
  });

  it('403 insufficient_permissions (type permission_error) when the key lacks the route scope', async () => {
    const reader = await server.key({ scopes: ['work_points:read'] });
    expect((await server.api(reader.api_key, 'GET', '/work-points')).status).toBe(200);
    const res = await server.api(reader.api_key, 'POST', '/work-points', { name: 'Depozit' });
    expectAuthError(res, 403, 'permission_error', 'insufficient_permissions');
    expect(res.body.error.message).toContain('work_points:write');
    const other = await server.key({ scopes: ['expenses:read'] });
    expectAuthError(await server.api(other.api_key, 'GET', '/work-points'), 403, 'permission_error', 'insufficient_permissions');
    // Routes for any valid key, and write that implies read.
    expect((await server.api(other.api_key, 'GET', '/me')).status).toBe(200);
    const writer = await server.key({ scopes: ['work_points:write'] });
    expect((await server.api(writer.api_key, 'GET', '/work-points')).status).toBe(200);
    expect((await server.api(writer.api_key, 'POST', '/work-points', { name: 'Depozit' })).status).toBe(201);
  });

  it('refuses to make a key with an unknown scope or a bad IP rule', async () => {
    await expect(server.key({ scopes: ['work_points:delete'] })).rejects.toThrow(/unknown scope/);
    await expect(server.key({ allowIps: ['10.0.0.0/40'] })).rejects.toThrow(/not an IP/);
  });
});

describe('API keys over IPv6 loopback', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { host: '::1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('matches an IPv6 client against IPv6 rules', async () => {
    const cases: Array<[string[], number]> = [
      [['::1'], 200],
      [['::1/128'], 200],
      [['0:0:0:0:0:0:0:1'], 200],
      [['::/0'], 200],
      [['2001:db8::/32'], 401],
      [['127.0.0.1'], 401],
    ];
    for (const [allowIps, status] of cases) {
      const key = await server.key({ allowIps });
      const res = await server.api(key.api_key, 'GET', '/me');
      expect(res.status, allowIps.join(',')).toBe(status);
      if (status === 401) expect(res.body.error.code).toBe('ip_restricted');
    }
  });
});
