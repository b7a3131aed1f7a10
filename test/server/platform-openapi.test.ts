import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROJECT_ROOT, runCommand, startTestServer, type TestServer } from '../support/server';
import { allRoutes } from '../../server/modules/index';
import { buildOpenApi } from '../../server/platform/openapi';
import { binaryReply, defineRoute, type AnyRoute } from '../../server/platform/route';
import { expandShape, listPageSchema, listQuery } from '../../server/platform/list';

type Json = Record<string, unknown>;

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; message: string; location?: Array<{ pointer?: string }> }>;
}

/** `npx redocly lint` with the project's redocly.yaml, on a document written to a temp file. */
async function lint(doc: unknown): Promise<{ code: number | null; report: LintReport; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const res = await runCommand(
      'npx',
      ['--no-install', 'redocly', 'lint', file, '--config', join(PROJECT_ROOT, 'redocly.yaml'), '--lint-config', 'error', '--format', 'json'],
      { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      90_000,
    );
    const start = res.stdout.indexOf('{');
    const report = JSON.parse(res.stdout.slice(start)) as LintReport;
    return { code: res.code, report, stderr: res.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const describeProblems = (report: LintReport) =>
  report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`).join('\n');

/** Every `$ref` of the document points at something that exists in it. */
function unresolvedRefs(doc: Json): string[] {
  const missing: string[] = [];
  const resolve = (ref: string) =>
    ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), doc);
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node as Json)) {
        if (k === '$ref' && typeof v === 'string' && (!v.startsWith('#/') || resolve(v) === undefined)) missing.push(v);
        else walk(v);
      }
    }
  };
  walk(doc);
  return missing;
}

const zOperation = z.object({
  operationId: z.string().regex(/^[a-z][A-Za-z0-9]+$/),
  summary: z.string().min(1),
  tags: z.array(z.string()).min(1),
  parameters: z.array(z.object({ name: z.string(), in: z.enum(['path', 'query', 'header']), required: z.boolean(), schema: z.record(z.string(), z.unknown()) })).optional(),
  responses: z.record(z.string().regex(/^[1-5]\d\d$/), z.object({ description: z.string().min(1) })),
});

/** The structure we promise beyond what the linter checks. */
function checkStructure(doc: Json, routes: readonly AnyRoute[]) {
  expect(doc.openapi).toBe('3.1.0');
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  const ids = new Set<string>();
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const op = zOperation.parse(paths[path]?.[route.method.toLowerCase()]);
    expect(op.operationId).toBe(route.operationId);
    expect(ids.has(op.operationId), `${op.operationId} is unique`).toBe(false);
    ids.add(op.operationId);
    const statuses = Object.keys(op.responses);
    expect(statuses.some((s) => s.startsWith('2')), `${op.operationId} has a success`).toBe(true);
    for (const s of ['401', '403', '429', '500']) expect(statuses, `${op.operationId} lists ${s}`).toContain(s);
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
    expect(declared.sort()).toEqual(pathParams.sort());
    const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(query).toEqual(expect.arrayContaining(['work_point_id', 'locale']));
    if (route.create) expect((op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key')).toBe(true);
  }
  expect(paths['/openapi.json']?.get).toMatchObject({ security: [] });
  const tags = (doc.tags as Array<{ name: string; description: string }>).map((t) => t.name);
  for (const route of routes) for (const tag of route.tags) expect(tags).toContain(tag);
  expect(unresolvedRefs(doc)).toEqual([]);
}

describe('the OpenAPI document of the service', () => {
  let server: TestServer;
  let doc: Json;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    const res = await server.api(null, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = res.body as Json;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('passes `redocly lint` (recommended rules) with no error and no warning', async () => {
    const { code, report, stderr } = await lint(doc);
    expect(report.totals, describeProblems(report) || stderr).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(code).toBe(0);
  });

  it('describes every route: ids, responses, parameters, tags, and resolvable refs', () => {
    checkStructure(doc, allRoutes);
    const list = (doc.paths as Record<string, Record<string, Json>>)['/work-points']!.get!;
    const params = list.parameters as Array<{ name: string; schema: Json }>;
    expect(params.find((p) => p.name === 'per_page')?.schema).toMatchObject({ default: 50, maximum: 100, minimum: 1 });
    expect(params.map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'per_page', 'search', 'sort', 'order', 'start_date', 'end_date', 'expand[]']));
    const create = (doc.paths as Record<string, Record<string, Json>>)['/work-points']!.post!;
    expect(Object.keys(create.responses as Json)).toEqual(expect.arrayContaining(['201', '400', '409', '413', '415', '422']));
  });

  it('lints the document of every route set a module may bring: transforms, unions, records, nullables, recursion, shared ids', async () => {
    const zMoney = z.number().transform((n) => Math.round(n * 100));
    const zAddress = z.object({ street: z.string(), city: z.string().nullable() }).meta({ id: 'Address', description: 'A postal address.' });
    interface Category { name: string; children: Category[] }
    const zCategory: z.ZodType<Category> = z.object({ name: z.string(), get children() { return z.array(zCategory); } });
    const zThing = z.object({
      id: z.string(),
      object: z.literal('thing'),
      kind: z.discriminatedUnion('type', [z.object({ type: z.literal('a'), a: z.number() }), z.object({ type: z.literal('b'), b: z.string() })]),
      either: z.union([z.string(), z.number(), z.null()]),
      tags: z.record(z.string(), z.string()),
      amounts: z.record(z.enum(['net', 'vat']), z.number()),
      total: z.string().transform((s) => Number(s)),
      address: zAddress.nullable(),
      category: zCategory,
      when: z.date(),
      maybe: z.bigint().optional(),
      pair: z.tuple([z.string(), z.number()]),
      lines: z.array(z.object({ qty: z.number().positive(), price: zMoney })).default([]),
    });
    const routes: AnyRoute[] = [
      defineRoute({
        method: 'GET', path: '/things', operationId: 'listThings', summary: 'List things', tags: ['things'], scope: 'any',
        query: listQuery(['name', 'created_at'], ['lines', 'client']).extend({ status: z.enum(['open', 'closed']).optional(), 'ids[]': z.array(z.string()).optional() }),
        response: listPageSchema(zThing),
        handler: async () => { throw new Error('not called'); },
      }),
      defineRoute({
        method: 'POST', path: '/things', operationId: 'createThing', summary: 'Create a thing', tags: ['things'], scope: 'any', create: true, successStatus: 201,
        body: z.object({ amount: zMoney, address: zAddress, note: z.string().nullish(), meta: z.record(z.string(), z.unknown()).optional() }).strict(),
        response: zThing,
        errors: { thing_exists: 409 },
        handler: async () => { throw new Error('not called'); },
      }),
      defineRoute({
        method: 'PUT', path: '/things/:id/parts/:part', operationId: 'updateThingPart', summary: 'Update part of a thing', tags: ['things', 'parts'], scope: 'any',
        params: z.object({ id: z.string() }), // `part` left undescribed on purpose
        query: z.object(expandShape(['client'])),
        body: z.union([z.object({ a: z.number() }), z.object({ b: z.string() })]),
        response: z.union([zThing, z.object({ deleted: z.literal(true) })]),
        envelope: 'top',
        handler: async () => { throw new Error('not called'); },
      }),
      defineRoute({
        method: 'GET', path: '/things/:id/pdf', operationId: 'getThingPdf', summary: 'A thing as PDF', tags: ['things'], scope: 'any',
        params: z.object({ id: z.string() }), produces: 'application/pdf', response: z.unknown(),
        handler: async () => binaryReply('application/pdf', Buffer.from('%PDF-1.7')),
      }),
      defineRoute({
        method: 'GET', path: '/things/:id/summary', operationId: 'getThingSummary', summary: 'A summary beside success', tags: ['things'], scope: 'any',
        params: z.object({ id: z.string() }), envelope: 'top',
        response: z.object({ totals: z.record(z.string(), z.number()), address: zAddress }),
        handler: async () => { throw new Error('not called'); },
      }),
    ];
    const synthetic = buildOpenApi(routes) as unknown as Json;
    checkStructure(synthetic, routes);
    const schemas = (synthetic.components as { schemas: Record<string, Json> }).schemas;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['Meta', 'ErrorEnvelope', 'Address']));
    const { code, report, stderr } = await lint(synthetic);
    expect(report.totals, describeProblems(report) || stderr).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(code).toBe(0);
  });

  it('refuses two routes with one operationId', () => {
    const a = allRoutes[0]!;
    expect(() => buildOpenApi([a, { ...a, path: '/elsewhere' }])).toThrow(/operationId/);
  });
});
