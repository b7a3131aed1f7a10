import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { catalogRoutes } from '../../../server/modules/catalog/routes';
import { messageFor } from '../../../server/platform/messages';

describe.each(DIALECTS)('catalog in the OpenAPI document on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('publishes every catalog route with its summary, description, scope and error codes', async () => {
    const res = await server.api(null, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(catalogRoutes.length).toBe(29); // PUT /languages/{id} included
    for (const route of catalogRoutes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const op = res.body.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      expect(op.operationId).toBe(route.operationId);
      expect(op.summary.length).toBeGreaterThan(5);
      expect(op.description.length, route.operationId).toBeGreaterThan(40);
      expect(op['x-scope']).toBe(route.scope);
      const documented = Object.entries(op.responses as Record<string, { description: string }>)
        .filter(([status]) => Number(status) >= 400)
        .map(([, r]) => r.description)
        .join(' ');
      for (const [code, status] of Object.entries(route.errors ?? {})) {
        expect(op.responses[String(status)], `${route.operationId} ${code}`).toBeDefined();
        expect(documented).toContain(code);
      }
    }
    // The contract's top-level replies are described at top level.
    const currencies = res.body.paths['/currencies'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(currencies.properties).sort()).toEqual(['available', 'data', 'default_code', 'meta', 'object', 'success', 'total']);
    const languageDelete = res.body.paths['/languages/{id}'].delete.responses['200'].content['application/json'].schema;
    expect(Object.keys(languageDelete.properties).sort()).toEqual(['deleted', 'meta', 'object', 'success']);
  });

  it('has an English and a Romanian text for every catalog error code', () => {
    const codes = new Set(catalogRoutes.flatMap((r) => Object.keys(r.errors ?? {})));
    expect([...codes].sort()).toEqual(
      ['already_enabled', 'duplicate_barcode', 'duplicate_code', 'duplicate_iban', 'duplicate_rate', 'in_use', 'is_default', 'is_standard', 'resource_deleted', 'resource_missing'],
    );
    const fallback = { en: messageFor('api_error', 'en'), ro: messageFor('api_error', 'ro') };
    for (const code of codes) {
      expect(messageFor(code, 'en'), code).not.toBe(fallback.en);
      expect(messageFor(code, 'ro'), code).not.toBe(fallback.ro);
      expect(messageFor(code, 'ro'), code).not.toBe(messageFor(code, 'en'));
    }
  });
});
