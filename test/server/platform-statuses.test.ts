import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, validateResponsesByDefault } from '../../server/app';
import { allRoutes } from '../../server/modules/index';
import { metaRoutes } from '../../server/modules/meta/routes';
import { createApiKey } from '../../server/platform/api-keys';
import { buildOpenApi } from '../../server/platform/openapi';
import { defineRoute, preSerialized, successStatusOf, type AnyRoute } from '../../server/platform/route';
import { createTestStorage } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';

type Json = Record<string, unknown>;

/** A resource made once per name: the second create of a name is a replay the route recognises itself. */
const made = new Map<string, string>();
const zThing = z.object({ id: z.string(), name: z.string() });
const CATALOG = [{ id: 'c1', name: 'Întâi "citat"' }, { id: 'c2', name: 'Doi' }];

const routes: AnyRoute[] = [
  ...metaRoutes,
  defineRoute({
    method: 'POST', path: '/_test/things', operationId: 'createTestThing', summary: 'create', tags: ['test'], scope: 'any', create: true,
    body: z.object({ name: z.string() }), response: zThing,
    handler: async (ctx) => {
      const known = made.get(ctx.body.name);
      if (known) {
        ctx.replayed();
        return { id: known, name: ctx.body.name };
      }
      const id = `thing_${made.size + 1}`;
      made.set(ctx.body.name, id);
      return { id, name: ctx.body.name };
    },
  }),
  defineRoute({
    method: 'POST', path: '/_test/things/:id/touch', operationId: 'touchTestThing', summary: 'not a create', tags: ['test'], scope: 'any',
    params: z.object({ id: z.string() }), response: zThing,
    handler: async (ctx) => ({ id: ctx.params.id, name: 'touched' }),
  }),
  defineRoute({
    method: 'GET', path: '/_test/catalog', operationId: 'testCatalog', summary: 'a pre-serialized member', tags: ['test'], scope: 'any',
    envelope: 'top', response: z.object({ object: z.literal('list'), entries: z.array(zThing), total: z.number() }),
    handler: async () => ({ object: 'list' as const, entries: preSerialized(CATALOG, JSON.stringify(CATALOG)), total: CATALOG.length }),
  }),
  defineRoute({
    method: 'GET', path: '/_test/catalog/data', operationId: 'testCatalogData', summary: 'the same in data', tags: ['test'], scope: 'any',
    response: z.object({ entries: z.array(zThing) }),
    handler: async () => ({ entries: preSerialized(CATALOG, JSON.stringify(CATALOG)) }),
  }),
  defineRoute({
    method: 'POST', path: '/_test/things/:id/issue', operationId: 'issueTestThing', summary: 'a create that changes what exists', tags: ['test'],
    scope: 'any', create: true, successStatus: 200, params: z.object({ id: z.string() }), response: zThing,
    handler: async (ctx) => ({ id: ctx.params.id, name: 'issued' }),
  }),
];

describe('success statuses: 201 for creates, 200 for replays and everything else', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { routes });
    key = (await server.key()).api_key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a create 201 and a replay the route recognises 200 with Idempotent-Replayed: true', async () => {
    const first = await server.api(key, 'POST', '/_test/things', { name: 'alfa' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await server.api(key, 'POST', '/_test/things', { name: 'alfa' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
  });

  it('replays an Idempotency-Key with the status first sent, 201 or 200, and the header', async () => {
    const created = await server.api(key, 'POST', '/_test/things', { name: 'beta' }, { 'idempotency-key': 'k-beta' });
    expect(created.status).toBe(201);
    const replay = await server.api(key, 'POST', '/_test/things', { name: 'beta' }, { 'idempotency-key': 'k-beta' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(created.body.data);

    const recognised = await server.api(key, 'POST', '/_test/things', { name: 'beta' }, { 'idempotency-key': 'k-beta-2' });
    expect(recognised.status).toBe(200);
    expect(recognised.headers.get('idempotent-replayed')).toBe('true');
    const stored = await server.api(key, 'POST', '/_test/things', { name: 'beta' }, { 'idempotency-key': 'k-beta-2' });
    expect(stored.status).toBe(200);
    expect(stored.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 200 for a POST that is not a create, and the status a route states', async () => {
    const touched = await server.api(key, 'POST', '/_test/things/thing_1/touch', {});
    expect(touched.status).toBe(200);
    expect(touched.headers.get('idempotent-replayed')).toBeNull();
    const issued = await server.api(key, 'POST', '/_test/things/thing_1/issue', {});
    expect(issued.status).toBe(200);
    expect(issued.headers.get('idempotent-replayed')).toBeNull();
  });

  it('sends a pre-serialized member as the JSON it stands for, in either envelope', async () => {
    const top = await server.api(key, 'GET', '/_test/catalog');
    expect(top.status).toBe(200);
    expect(top.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(top.body).toMatchObject({ success: true, object: 'list', entries: CATALOG, total: 2, meta: { version: 'v1' } });
    expect(Object.keys(top.body)).toEqual(['success', 'object', 'entries', 'total', 'meta']);
    const data = await server.api(key, 'GET', '/_test/catalog/data');
    expect(data.body).toMatchObject({ success: true, data: { entries: CATALOG }, meta: { version: 'v1' } });
  });

  it('documents 201 and 200 for every create of the service, and no 201 elsewhere', () => {
    const doc = buildOpenApi(allRoutes) as unknown as { paths: Record<string, Record<string, { responses: Record<string, Json> }>> };
    const creates = allRoutes.filter((r) => r.create);
    expect(creates.length).toBeGreaterThan(15);
    for (const route of allRoutes) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]![route.method.toLowerCase()]!;
      const statuses = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      if (route.create && successStatusOf(route) === 201) {
        expect(statuses, route.operationId).toEqual(['200', '201']);
        expect(op.responses['200']!.description, route.operationId).toMatch(/^Replay/);
        expect(op.responses['201']!.headers, route.operationId).toHaveProperty(['Idempotent-Replayed']);
        expect(op.responses['201']!.content).toEqual(op.responses['200']!.content);
      } else {
        expect(statuses, route.operationId).toEqual([String(successStatusOf(route))]);
      }
    }
    // Issuing a draft is flagged as a create (Idempotency-Key, creates budget) but makes nothing new: 200.
    expect(successStatusOf(allRoutes.find((r) => r.operationId === 'issueInvoice')!)).toBe(200);
    const creates201 = creates.filter((r) => successStatusOf(r) === 201).map((r) => r.operationId);
    expect(creates201).toEqual(expect.arrayContaining(['createClient', 'createInvoice', 'createExpense', 'createWorkPoint', 'createSupplierBill', 'stornoInvoice']));
  });
});

describe('response validation', () => {
  it('is on under the test runner and with VALIDATE_RESPONSES=1, off by default elsewhere', () => {
    expect(process.env.VITEST).toBeTruthy();
    expect(validateResponsesByDefault({})).toBe(true);
    expect(validateResponsesByDefault({ VALIDATE_RESPONSES: '0' })).toBe(false);
    expect(validateResponsesByDefault({ VALIDATE_RESPONSES: '1' })).toBe(true);
    const runner = process.env.VITEST;
    delete process.env.VITEST;
    try {
      expect(validateResponsesByDefault({})).toBe(false);
      expect(validateResponsesByDefault({ VALIDATE_RESPONSES: '1' })).toBe(true);
    } finally {
      process.env.VITEST = runner;
    }
  });

  it('turns a reply that contradicts its schema into a bare 500 while it is on, and lets it pass when off', async () => {
    const lying = defineRoute({
      method: 'GET', path: '/_test/lie', operationId: 'lie', summary: 'lies', tags: ['test'], scope: 'any',
      response: z.object({ n: z.number() }),
      // A handler bug the type checker cannot see (the value comes from outside, e.g. a database).
      handler: async () => JSON.parse('{"n":"not a number"}') as { n: number },
    });
    for (const validate of [true, false]) {
      const storage = await createTestStorage('sqlite');
      const { app, services } = buildApp({ storage: storage.storage, routes: [...metaRoutes, lying], validateResponses: validate, reportError: () => undefined });
      try {
        expect(services.validateResponses).toBe(validate);
        const created = await createApiKey(storage.storage.db, { companyName: 'Validare SRL', cui: '1590082', now: 1_800_000_000 });
        const res = await app.inject({ method: 'GET', url: '/v1/_test/lie', headers: { authorization: `Bearer ${created.api_key}` } });
        if (validate) {
          expect(res.statusCode).toBe(500);
          expect(res.json().error.code).toBe('api_error');
        } else {
          expect(res.statusCode).toBe(200);
          expect(res.json().data).toEqual({ n: 'not a number' });
        }
      } finally {
        await app.close();
        await storage.drop();
      }
    }
  });
});
