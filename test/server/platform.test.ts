import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sql } from 'kysely';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';
import { defineRoute, type AnyRoute } from '../../server/platform/route';
import { metaRoutes } from '../../server/modules/meta/routes';
import { zErrorEnvelope, zMeta } from '../../shared/api/envelope';

/** Test-only routes that fail the ways our own code can fail. */
const failingRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET', path: '/_test/bad-sql', operationId: 'testBadSql', summary: 'fails in SQL', tags: ['test'], scope: 'any',
    response: z.object({ ok: z.boolean() }),
    handler: async (ctx) => {
      await sql`select secret_column from no_such_table where password = 'hunter2'`.execute(ctx.db);
      return { ok: true };
    },
  }),
  defineRoute({
    method: 'GET', path: '/_test/throw', operationId: 'testThrow', summary: 'throws', tags: ['test'], scope: 'any',
    response: z.object({ ok: z.boolean() }),
    handler: async () => {
      throw new TypeError('Cannot read properties of undefined (reading internalDetail) at /srv/app/secret.ts:12');
    },
  }),
  defineRoute({
    method: 'GET', path: '/_test/bad-response', operationId: 'testBadResponse', summary: 'breaks its schema', tags: ['test'], scope: 'any',
    response: z.object({ ok: z.boolean() }),
    // The handler lies about its type on purpose: the response check must catch it.
    handler: async () => ({ ok: 'yes' }) as unknown as { ok: boolean },
  }),
];

describe.each(DIALECTS)('platform envelope and errors on %s', (dialect) => {
  let server: TestServer;
  const reported: unknown[] = [];
  beforeAll(async () => {
    server = await startTestServer(dialect, { routes: [...metaRoutes, ...failingRoutes], reportError: (error) => reported.push(error) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers /me in the envelope with meta and rate-limit headers', async () => {
    const key = await server.key();
    const res = await server.api(key.api_key, 'GET', '/me');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta', 'success']);
    expect(res.body.success).toBe(true);
    expect(res.body.data.company.id).toBe(key.company_id);
    expect(res.body.data.work_point.id).toBe(key.work_point_id);
    expect(zMeta.strict().parse(res.body.meta)).toEqual(res.body.meta);
    expect(res.body.meta.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.request_id);
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('999');
    // Fixed windows aligned to the hour: the test clock is 10:00:00Z, so the window ends at 11:00:00Z.
    expect(res.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-21T11:00:00Z') / 1000));
    const again = await server.api(key.api_key, 'GET', '/me');
    expect(again.body.meta.request_id).not.toBe(res.body.meta.request_id);
  });

  it('writes every error in the contract envelope with message, type, code, param, doc_url, status', async () => {
    const res = await server.api(null, 'GET', '/me');
    expect(res.status).toBe(401);
    const parsed = zErrorEnvelope.strict().parse(res.body);
    expect(parsed.error).toEqual({
      message: 'No API key provided. Send it as `Authorization: Bearer <API_KEY>`.',
      type: 'authentication_error',
      code: 'missing_api_key',
      doc_url: 'https://docs.tejghea.ro/api/v1/errors#missing_api_key',
      status: 401,
    });
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.request_id);
  });

  it('answers unknown routes with 404 route_not_found in the envelope, before any key check', async () => {
    const res = await server.api(null, 'GET', '/nope?x=1');
    expect(res.status).toBe(404);
    zErrorEnvelope.parse(res.body);
    expect(res.body.error).toMatchObject({ code: 'route_not_found', type: 'invalid_request_error', status: 404, message: 'No such endpoint: GET /v1/nope.' });
    const outside = await fetch(`${server.url}/elsewhere`);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
  });

  it('answers a malformed URL with 400 bad_request in the envelope, and HEAD like GET without a body', async () => {
    const res = await fetch(`${server.base}/me%zz`);
    expect(res.status).toBe(400);
    expect(zErrorEnvelope.parse(await res.json()).error).toMatchObject({ code: 'bad_request', type: 'invalid_request_error' });
    const key = await server.key();
    const head = await fetch(`${server.base}/me`, { method: 'HEAD', headers: { authorization: `Bearer ${key.api_key}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-ratelimit-remaining')).toBe('999');
    expect(await head.text()).toBe('');
    expect((await fetch(`${server.base}/me`, { method: 'HEAD' })).status).toBe(401);
  });

  it('refuses a body that is not JSON with 400 invalid_json', async () => {
    const key = await server.key();
    const res = await server.api(key.api_key, 'POST', '/work-points', '{"name": "Punct", ');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json', status: 400 });
  });

  it('checks the key before reading the body: no key and a broken body is still 401', async () => {
    const res = await server.api(null, 'POST', '/work-points', '{broken');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing_api_key');
  });

  it('names every failing member in `fields` on 422 validation_error', async () => {
    const key = await server.key();
    const res = await server.api(key.api_key, 'POST', '/work-points', { name: '', address: 42 });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'validation_error', code: 'validation_error', status: 422, param: 'name' });
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['address', 'name']);
    expect(res.body.error.fields.name).toBe('Must be at least 1.');
    const empty = await server.api(key.api_key, 'POST', '/work-points');
    expect(empty.status).toBe(422);
    expect(empty.body.error.fields).toEqual({ name: 'Required.' });
  });

  it('validates path and query parameters the same way', async () => {
    const key = await server.key();
    const res = await server.api(key.api_key, 'GET', '/work-points?per_page=0&page=x&order=up&locale=de');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['locale', 'order', 'page', 'per_page']);
    // Path, query and body failures are reported together.
    const all = await server.api(key.api_key, 'PUT', `/work-points/${'x'.repeat(65)}?locale=de`, { name: '' });
    expect(all.status).toBe(422);
    expect(Object.keys(all.body.error.fields).sort()).toEqual(['id', 'locale', 'name']);
  });

  it('refuses a body over 1 MiB with 413 body_too_large and a non-JSON body with 415', async () => {
    const key = await server.key();
    const big = JSON.stringify({ name: 'x', address: 'a'.repeat(1024 * 1024) });
    const tooBig = await server.api(key.api_key, 'POST', '/work-points', big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toMatchObject({ code: 'body_too_large', type: 'invalid_request_error', status: 413 });
    const text = await server.api(key.api_key, 'POST', '/work-points', 'name=x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.error).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    const form = await server.api(key.api_key, 'POST', '/work-points', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    // A body just under the limit is read (and then judged on its members).
    const under = await server.api(key.api_key, 'POST', '/work-points', JSON.stringify({ name: 'x', address: 'a'.repeat(1000), pad: 'p'.repeat(1024 * 1024 - 2000) }));
    expect(under.status).toBe(422);
    // `pad` is no member of a work point: refused by name, beside the address's own failure.
    expect(under.body.error.code).toBe('unknown_parameter');
    expect(under.body.error.fields).toEqual({ pad: 'Unknown member: this endpoint does not accept it.', address: 'Must be at most 300.' });
  });

  it('never lets a stack trace or SQL reach the client; the detail goes to the error report', async () => {
    const key = await server.key();
    for (const path of ['/_test/bad-sql', '/_test/throw', '/_test/bad-response']) {
      reported.length = 0;
      const res = await server.api(key.api_key, 'GET', path, undefined, { 'accept-language': 'ro' });
      expect(res.status).toBe(500);
      zErrorEnvelope.strict().parse(res.body);
      expect(res.body.error).toEqual({
        message: 'A apărut o eroare la noi. Identificatorul cererii ne ajută să o găsim.',
        type: 'api_error',
        code: 'api_error',
        doc_url: 'https://docs.tejghea.ro/api/v1/errors#api_error',
        status: 500,
      });
      for (const leak of ['select', 'no_such_table', 'hunter2', 'secret', 'sqlite', 'SQLITE', 'relation', ' at ', '.ts:', 'TypeError', 'internalDetail', 'does not match']) {
        expect(res.text, `${path} leaks ${leak}`).not.toContain(leak);
      }
      expect(reported, `${path} was reported with its detail`).toHaveLength(1);
      expect(String((reported[0] as Error).message ?? reported[0])).not.toBe('');
    }
  });

  it('sends the contract CORS headers on every reply and answers preflight without a key', async () => {
    const pre = await fetch(`${server.base}/work-points`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    const key = await server.key();
    for (const [k, path] of [[key.api_key, '/me'], [null, '/me'], [null, '/nope'], [null, '/openapi.json']] as const) {
      const res = await server.api(k, 'GET', path, undefined, { origin: 'https://app.example' });
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-allow-headers'), path).toBe('Authorization, Content-Type');
    }
    // A program that names no Origin is no browser: it gets the reply without them (api-decisions.md).
    const plain = await server.api(key.api_key, 'GET', '/me');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(plain.headers.get('x-request-id')).toBeTruthy();
  });

  it('serves /openapi.json without a key', async () => {
    const res = await server.api(null, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
  });
});
