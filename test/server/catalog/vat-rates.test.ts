import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectIsolated } from '../../support/tenancy';
import { expectError, firm } from './helpers';

const rates = (res: { body: { data: { data: Array<{ rate: number }> } } }) => res.body.data.data.map((r) => r.rate);

describe.each(DIALECTS)('VAT rates on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the standard rates, read-only, as a paginated list', async () => {
    const f = await firm(server);
    const res = await f.ok('GET', '/vat-rates');
    expect(res.body.data).toMatchObject({ object: 'list', total: 6, page: 1, per_page: 50, total_pages: 1, has_more: false });
    expect(rates(res)).toEqual([21, 19, 11, 9, 5, 0]);
    expect(res.body.data.data[0]).toEqual({
      id: 'vat_std_21', object: 'vat_rate', rate: 21, name: 'Standard rate', is_standard: true, is_used: false, created_at: null, updated_at: null,
    });
    const ro = await f.ok('GET', '/vat-rates?locale=ro&order=asc');
    expect(rates(ro)).toEqual([0, 5, 9, 11, 19, 21]);
    expect(ro.body.data.data[0].name).toBe('Scutit sau taxare inversă');
    const one = await f.ok('GET', '/vat-rates/vat_std_11');
    expect(one.body.data).toMatchObject({ rate: 11, is_standard: true, name: 'Reduced rate' });
  });

  it('creates custom rates, mixes them into the list, and pages, searches and filters', async () => {
    const f = await firm(server);
    const created = await f.ok('POST', '/vat-rates', { rate: 9.5 });
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^vat_/), object: 'vat_rate', rate: 9.5, name: 'TVA 9.5%', is_standard: false, is_used: false,
      created_at: server.clock.now(), updated_at: null,
    });
    server.clock.advance(2 * 86_400);
    await f.ok('POST', '/vat-rates', { rate: 12.25, name: 'Cotă specială' });
    const all = await f.ok('GET', '/vat-rates');
    expect(rates(all)).toEqual([21, 19, 12.25, 11, 9.5, 9, 5, 0]);
    const page2 = await f.ok('GET', '/vat-rates?per_page=3&page=2');
    expect(page2.body.data).toMatchObject({ total: 8, page: 2, per_page: 3, total_pages: 3, has_more: true });
    expect(rates(page2)).toEqual([11, 9.5, 9]);
    expect(rates(await f.ok('GET', '/vat-rates?search=turism'))).toEqual([]);
    expect(rates(await f.ok('GET', '/vat-rates?search=SPECIAL%C4%82'))).toEqual([12.25]);
    expect(rates(await f.ok('GET', '/vat-rates?search=9.5'))).toEqual([9.5]);
    expect(rates(await f.ok('GET', '/vat-rates?is_standard=false'))).toEqual([12.25, 9.5]);
    expect(rates(await f.ok('GET', '/vat-rates?is_standard=true')).length).toBe(6);
    // The clock starts on 2026-11-21 (Bucharest): 9.5 that day, 12.25 two days later. Standard rates have no creation day.
    expect(rates(await f.ok('GET', '/vat-rates?start_date=2026-11-21&end_date=2026-11-22'))).toEqual([9.5]);
    expect(rates(await f.ok('GET', '/vat-rates?start_date=2026-11-22'))).toEqual([12.25]);
    expect(rates(await f.ok('GET', '/vat-rates?sort=created_at&order=asc&is_standard=false'))).toEqual([9.5, 12.25]);
  });

  it('validates the rate with fields', async () => {
    const f = await firm(server);
    for (const [body, field] of [
      [{ rate: 0 }, 'rate'],
      [{ rate: 100 }, 'rate'],
      [{ rate: 9.555 }, 'rate'],
      [{}, 'rate'],
      [{ rate: 7, name: '' }, 'name'],
    ] as const) {
      const error = expectError(await f.call('POST', '/vat-rates', body), 422, 'validation_error');
      expect(Object.keys(error.fields ?? {}), JSON.stringify(body)).toEqual([field]);
    }
    const error = expectError(await f.call('POST', '/vat-rates?locale=ro', { rate: 9.555 }), 422, 'validation_error');
    expect(error.fields).toEqual({ rate: 'Cel mult 2 zecimale' });
  });

  it('answers 409 duplicate_rate for a standard rate or a rate the firm has', async () => {
    const f = await firm(server);
    expect(expectError(await f.call('POST', '/vat-rates', { rate: 19 }), 409, 'duplicate_rate').param).toBe('rate');
    const custom = (await f.ok('POST', '/vat-rates', { rate: 7 })).body.data;
    expectError(await f.call('POST', '/vat-rates', { rate: 7.0 }), 409, 'duplicate_rate');
    const other = (await f.ok('POST', '/vat-rates', { rate: 8 })).body.data;
    expectError(await f.call('PUT', `/vat-rates/${other.id}`, { rate: 7 }), 409, 'duplicate_rate');
    expectError(await f.call('PUT', `/vat-rates/${other.id}`, { rate: 21 }), 409, 'duplicate_rate');
    // Another company may have the same custom rate.
    const g = await firm(server);
    await g.ok('POST', '/vat-rates', { rate: 7 });
    expect(custom.rate).toBe(7);
  });

  it('renames and changes a custom rate', async () => {
    const f = await firm(server);
    const custom = (await f.ok('POST', '/vat-rates', { rate: 6 })).body.data;
    server.clock.advance(10);
    const updated = await f.ok('PUT', `/vat-rates/${custom.id}`, { rate: 6.5, name: 'Cotă turism' });
    expect(updated.body.data).toMatchObject({ id: custom.id, rate: 6.5, name: 'Cotă turism', updated_at: server.clock.now() });
    expect((await f.ok('GET', `/vat-rates/${custom.id}`)).body.data).toEqual(updated.body.data);
  });

  it('refuses to change or delete a standard rate (409 is_standard)', async () => {
    const f = await firm(server);
    expect(expectError(await f.call('DELETE', '/vat-rates/vat_std_19'), 409, 'is_standard').param).toBe('id');
    expectError(await f.call('PUT', '/vat-rates/vat_std_21', { name: 'Altceva' }), 409, 'is_standard');
    expect((await f.ok('GET', '/vat-rates/vat_std_19')).body.data.rate).toBe(19);
  });

  it('refuses to delete or re-rate a custom rate a product uses (409 in_use), and deletes it once free', async () => {
    const f = await firm(server);
    const custom = (await f.ok('POST', '/vat-rates', { rate: 9.5 })).body.data;
    const product = (await f.ok('POST', '/products', { name: 'Cazare', price: 200, vat_rate: 9.5 })).body.data;
    expect((await f.ok('GET', `/vat-rates/${custom.id}`)).body.data.is_used).toBe(true);
    expect((await f.ok('GET', '/vat-rates?is_standard=false')).body.data.data[0].is_used).toBe(true);
    expect(expectError(await f.call('DELETE', `/vat-rates/${custom.id}`), 409, 'in_use').param).toBe('id');
    expectError(await f.call('PUT', `/vat-rates/${custom.id}`, { rate: 9.75 }), 409, 'in_use');
    // Renaming a rate in use is harmless.
    expect((await f.ok('PUT', `/vat-rates/${custom.id}`, { name: 'Cazare' })).body.data).toMatchObject({ name: 'Cazare', is_used: true });
    // A standard rate in use shows it too.
    await f.ok('PUT', `/products/${product.id}`, { vat_rate: 11 });
    expect((await f.ok('GET', '/vat-rates/vat_std_11')).body.data.is_used).toBe(true);
    const res = await f.ok('DELETE', `/vat-rates/${custom.id}`);
    expect(res.body).toMatchObject({ success: true, object: 'vat_rate', id: custom.id, deleted: true });
    expectError(await f.call('GET', `/vat-rates/${custom.id}`), 404, 'resource_missing');
    expectError(await f.call('PUT', `/vat-rates/${custom.id}`, { name: 'x' }), 404, 'resource_missing');
    expectError(await f.call('DELETE', `/vat-rates/${custom.id}`), 404, 'resource_missing');
    // The product may no longer take the deleted rate.
    const error = expectError(await f.call('PUT', `/products/${product.id}`, { vat_rate: 9.5 }), 422, 'validation_error');
    expect(Object.keys(error.fields ?? {})).toEqual(['vat_rate']);
  });

  it('keeps each company to its own custom rates', async () => {
    const result = await expectIsolated(server, {
      create: async (key) => (await server.api(key, 'POST', '/vat-rates', { rate: 13 })).body.data.id,
      paths: (id) => [`/vat-rates/${id}`],
      update: { name: 'Intrus' },
      lists: ['/vat-rates'],
    });
    // The other company cannot use the rate on its products either.
    const res = await server.api(result.stranger.api_key, 'POST', '/products', { name: 'X', price: 1, vat_rate: 13 });
    expectError(res, 422, 'validation_error');
  });

  it('needs the vat_rates scopes', async () => {
    const reader = await firm(server, ['vat_rates:read']);
    await reader.ok('GET', '/vat-rates');
    expectError(await reader.call('POST', '/vat-rates', { rate: 7 }), 403, 'insufficient_permissions');
  });
});
