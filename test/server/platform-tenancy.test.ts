import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';
import { expectIsolated } from '../support/tenancy';
import { defineRoute, type AnyRoute } from '../../server/platform/route';
import { listPageSchema, listQuery, paginate } from '../../server/platform/list';
import { notFound } from '../../server/platform/errors';
import { metaRoutes } from '../../server/modules/meta/routes';
import { zWorkPoint } from '../../shared/schemas/work-point';

const createWorkPoint = (server: TestServer, name: string) => async (key: string) => {
  const res = await server.api(key, 'POST', '/work-points', { name, address: 'Str. Mare 1, Cluj' });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
};

describe.each(DIALECTS)('tenancy and work points on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates, reads, renames and deletes a work point', async () => {
    const key = await server.key();
    const created = await server.api(key.api_key, 'POST', '/work-points', { name: '  Magazin Centru ', address: 'Bd. Eroilor 5' });
    expect(created.status).toBe(201);
    const wp = zWorkPoint.strict().parse(created.body.data);
    expect(wp).toMatchObject({ object: 'work_point', company_id: key.company_id, name: 'Magazin Centru', address: 'Bd. Eroilor 5', created_at: server.clock.now(), updated_at: null });
    expect(wp.id).toMatch(/^wp_[0-9A-Za-z]{20}$/);
    const got = await server.api(key.api_key, 'GET', `/work-points/${wp.id}`);
    expect(got.body.data).toEqual(wp);
    const expanded = await server.api(key.api_key, 'GET', `/work-points/${wp.id}?expand[]=company`);
    expect(expanded.body.data.company).toMatchObject({ id: key.company_id, object: 'company' });

    server.clock.advance(30);
    const renamed = await server.api(key.api_key, 'PUT', `/work-points/${wp.id}`, { name: 'Magazin Nord' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Magazin Nord', address: 'Bd. Eroilor 5', updated_at: server.clock.now() });
    const cleared = await server.api(key.api_key, 'PUT', `/work-points/${wp.id}`, { address: null });
    expect(cleared.body.data).toMatchObject({ name: 'Magazin Nord', address: null });
    const nothing = await server.api(key.api_key, 'PUT', `/work-points/${wp.id}`, {});
    expect(nothing.status).toBe(422);

    const deleted = await server.api(key.api_key, 'DELETE', `/work-points/${wp.id}`);
    expect(deleted.body.data).toEqual({ id: wp.id, object: 'work_point', deleted: true });
    const gone = await server.api(key.api_key, 'GET', `/work-points/${wp.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: 'resource_missing', param: 'id', type: 'invalid_request_error' });
  });

  it('keeps names unique within a company, not across companies', async () => {
    const a = await server.key();
    const b = await server.key();
    expect((await server.api(a.api_key, 'POST', '/work-points', { name: 'Depozit' })).status).toBe(201);
    const dup = await server.api(a.api_key, 'POST', '/work-points', { name: 'Depozit' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'work_point_exists', param: 'name' });
    expect((await server.api(b.api_key, 'POST', '/work-points', { name: 'Depozit' })).status).toBe(201);
    const other = await server.api(a.api_key, 'POST', '/work-points', { name: 'Atelier' });
    const clash = await server.api(a.api_key, 'PUT', `/work-points/${other.body.data.id}`, { name: 'Depozit' });
    expect(clash.status).toBe(409);
  });

  it('refuses to delete a work point an API key belongs to', async () => {
    const key = await server.key();
    const res = await server.api(key.api_key, 'DELETE', `/work-points/${key.work_point_id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('work_point_in_use');
    expect((await server.api(key.api_key, 'GET', `/work-points/${key.work_point_id}`)).status).toBe(200);
  });

  it('lets a key reach every work point of its company and select one with work_point_id', async () => {
    const first = await server.key({ workPointName: 'Sediu' });
    const company = await server.storage.db.selectFrom('companies').select('cui').where('id', '=', first.company_id).executeTakeFirstOrThrow();
    const second = await server.key({ cui: company.cui, workPointName: 'Punct Sibiu' });
    expect(second.company_id).toBe(first.company_id);
    expect(second.work_point_id).not.toBe(first.work_point_id);

    const own = await server.api(first.api_key, 'GET', '/me');
    expect(own.body.data.work_point.id).toBe(first.work_point_id);
    expect(own.body.data.work_points.map((w: { id: string }) => w.id).sort()).toEqual([first.work_point_id, second.work_point_id].sort());
    const selected = await server.api(first.api_key, 'GET', `/me?work_point_id=${second.work_point_id}`);
    expect(selected.status).toBe(200);
    expect(selected.body.data.work_point).toEqual({ id: second.work_point_id, name: 'Punct Sibiu' });
    const listA = await server.api(first.api_key, 'GET', '/work-points');
    const listB = await server.api(second.api_key, 'GET', '/work-points');
    expect(listA.body.data).toEqual(listB.body.data);
    expect(listA.body.data.total).toBe(2);
  });

  it('answers 404 resource_missing param work_point_id for another company’s work point or an unknown one', async () => {
    const mine = await server.key();
    const theirs = await server.key();
    for (const id of [theirs.work_point_id, 'wp_doesnotexist000000000']) {
      for (const path of [`/me?work_point_id=${id}`, `/work-points?work_point_id=${id}`]) {
        const res = await server.api(mine.api_key, 'GET', path);
        expect(res.status, path).toBe(404);
        expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', param: 'work_point_id', status: 404 });
      }
    }
    const a = await server.api(mine.api_key, 'GET', `/me?work_point_id=${theirs.work_point_id}`);
    const b = await server.api(mine.api_key, 'GET', '/me?work_point_id=wp_doesnotexist000000000');
    expect(a.body.error).toEqual(b.body.error);
  });

  it('isolates work points between companies (expectIsolated)', async () => {
    const { id, owner } = await expectIsolated(server, {
      create: createWorkPoint(server, 'Punct izolat'),
      paths: (wpId) => [`/work-points/${wpId}`],
      update: { name: 'Redenumit de altcineva' },
      lists: ['/work-points', '/work-points?search=izolat'],
    });
    const still = await server.api(owner.api_key, 'GET', `/work-points/${id}`);
    expect(still.body.data.name).toBe('Punct izolat');
  });
});

describe('expectIsolated catches a leak', () => {
  // A resource whose routes forget the company filter: the helper must fail on it.
  const leakyRoutes: AnyRoute[] = [
    defineRoute({
      method: 'GET', path: '/_test/leaky/:id', operationId: 'leakyGet', summary: 'leaks', tags: ['test'], scope: 'any',
      params: z.object({ id: z.string() }), response: zWorkPoint,
      handler: async (ctx) => {
        const row = await ctx.db.selectFrom('work_points').selectAll().where('id', '=', ctx.params.id).executeTakeFirst();
        if (!row) throw notFound('id');
        return { ...row, object: 'work_point' as const };
      },
    }),
    defineRoute({
      method: 'GET', path: '/_test/leaky', operationId: 'leakyList', summary: 'leaks', tags: ['test'], scope: 'any',
      query: listQuery(['name']), response: listPageSchema(z.object({ id: z.string() })),
      handler: async (ctx) => paginate(ctx.db.selectFrom('work_points').select('id'), ctx.query, { sortColumns: { name: 'name' }, defaultSort: 'name', tieBreaker: 'id' }),
    }),
  ];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { routes: [...metaRoutes, ...leakyRoutes] });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('fails when another company can read the resource', async () => {
    await expect(
      expectIsolated(server, { create: createWorkPoint(server, 'Scurgere'), paths: (id) => [`/_test/leaky/${id}`], methods: ['GET'] }),
    ).rejects.toThrow(/another company's key/);
  });

  it('fails when another company sees the resource in a list', async () => {
    await expect(
      expectIsolated(server, { create: createWorkPoint(server, 'Scurgere 2'), paths: (id) => [`/work-points/${id}`], methods: ['GET'], lists: ['/_test/leaky'] }),
    ).rejects.toThrow(/never sees/);
  });
});
