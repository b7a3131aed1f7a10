import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectError, firm } from './helpers';

describe.each(DIALECTS)('suppliers on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a supplier, storing the CUI without its RO prefix', async () => {
    const f = await firm(server);
    const res = await f.ok(
      'POST',
      '/suppliers',
      { name: '  Alfa Distribuție SRL ', cui: 'ro 159 0082', reg_com: 'J40/1234/2020', address: 'Str. Lungă 1, București', email: 'office@alfa.ro', phone: '0721000000', iban: 'ro49 aaaa 1b31 0075 9384 0000' },
      201,
    );
    expect(res.body.success).toBe(true);
    expect(res.body.meta.version).toBe('v1');
    expect(res.body.data).toMatchObject({
      object: 'supplier',
      name: 'Alfa Distribuție SRL',
      cui: '1590082',
      vat_payer: true,
      vat_id: 'RO1590082',
      reg_com: 'J40/1234/2020',
      email: 'office@alfa.ro',
      iban: 'RO49AAAA1B31007593840000',
      created_at: server.clock.now(),
      updated_at: null,
    });
    expect(res.body.data.id).toMatch(/^sup_/);
    const stored = await server.storage.db.selectFrom('suppliers').select(['cui', 'company_id']).where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ cui: '1590082', company_id: f.companyId });
  });

  it('takes a CUI without RO as a non-VAT payer, unless told otherwise', async () => {
    const f = await firm(server);
    const plain = await f.ok('POST', '/suppliers', { name: 'Beta PFA', cui: '14399840' }, 201);
    expect(plain.body.data).toMatchObject({ cui: '14399840', vat_payer: false, vat_id: '14399840' });
    const told = await f.ok('POST', '/suppliers', { name: 'Gama SRL', cui: '18547290', vat_payer: true }, 201);
    expect(told.body.data).toMatchObject({ cui: '18547290', vat_payer: true, vat_id: 'RO18547290' });
    const none = await f.ok('POST', '/suppliers', { name: 'Fără CUI' }, 201);
    expect(none.body.data).toMatchObject({ cui: null, vat_payer: false, vat_id: null, iban: null });
    const foreign = await f.ok('POST', '/suppliers', { name: 'Deutsche GmbH', iban: 'DE89 3704 0044 0532 0130 00' }, 201);
    expect(foreign.body.data.iban).toBe('DE89370400440532013000');
  });

  it('refuses invalid members with 422 validation_error and a message per member', async () => {
    const f = await firm(server);
    const res = await f.call('POST', '/suppliers', { cui: 'RO1590083', email: 'not-an-email', iban: 'RO49AAAA1B31007593840001' });
    const error = expectError(res, 422, 'validation_error', 'validation_error');
    expect(Object.keys(error.fields!).sort()).toEqual(['cui', 'email', 'iban', 'name']);
    expect(error.fields!.cui).toMatch(/control digit/);
    expect(error.fields!.name).toBe('Required.');
    const ro = await f.call('POST', '/suppliers?locale=ro', { name: 'X', cui: 'RO12' });
    expect(expectError(ro, 422, 'validation_error').fields!.cui).toMatch(/^Cifra de control a CUI/);
  });

  it('answers 409 supplier_exists for a CUI already used in the company, however it is written', async () => {
    const f = await firm(server);
    const first = await f.supplier({ cui: '13548146' });
    const again = expectError(await f.call('POST', '/suppliers', { name: 'Alt nume', cui: 'RO 13548146' }), 409, 'supplier_exists', 'invalid_request_error');
    expect(again.param).toBe('cui');
    expect(again.message).toContain(first);
    const other = await f.supplier({ cui: '6859662' });
    expectError(await f.call('PUT', `/suppliers/${other}`, { cui: '13548146' }), 409, 'supplier_exists');
  });

  it('retrieves a supplier, and answers 404 resource_missing with param id for an unknown one', async () => {
    const f = await firm(server);
    const id = await f.supplier({ cui: '1590082' });
    const res = await f.ok('GET', `/suppliers/${id}`, undefined);
    expect(res.body.data).toMatchObject({ id, cui: '1590082' });
    const missing = expectError(await f.call('GET', '/suppliers/sup_nope'), 404, 'resource_missing', 'invalid_request_error');
    expect(missing.param).toBe('id');
  });

  it('lists with the common list parameters', async () => {
    const f = await firm(server);
    for (const name of ['Delta SRL', 'Alfa SRL', 'Charlie SA', 'Bravo SRL', 'Echo IF']) await f.supplier({ name });
    const page1 = await f.ok('GET', '/suppliers?per_page=2', undefined);
    expect(page1.body.data).toMatchObject({ object: 'list', total: 5, page: 1, per_page: 2, total_pages: 3, has_more: true });
    expect(page1.body.data.data.map((s: { name: string }) => s.name)).toEqual(['Alfa SRL', 'Bravo SRL']);
    const page3 = await f.ok('GET', '/suppliers?per_page=2&page=3', undefined);
    expect(page3.body.data.has_more).toBe(false);
    expect(page3.body.data.data.map((s: { name: string }) => s.name)).toEqual(['Echo IF']);
    const desc = await f.ok('GET', '/suppliers?sort=name&order=desc&per_page=1', undefined);
    expect(desc.body.data.data[0].name).toBe('Echo IF');
    const search = await f.ok('GET', '/suppliers?search=srl', undefined);
    expect(search.body.data.total).toBe(3);
    expectError(await f.call('GET', '/suppliers?per_page=101'), 422, 'validation_error');
    expectError(await f.call('GET', '/suppliers?sort=cui'), 422, 'validation_error');
  });

  it('updates only the members sent; null clears; a new CUI sets vat_payer from its prefix', async () => {
    const f = await firm(server);
    const id = await f.supplier({ name: 'Vechi SRL', cui: '14399840', phone: '0700', address: 'Str. A' });
    server.clock.advance(60);
    const res = await f.ok('PUT', `/suppliers/${id}`, { name: 'Nou SRL', phone: null, cui: 'RO1590082' });
    expect(res.body.data).toMatchObject({ name: 'Nou SRL', phone: null, address: 'Str. A', cui: '1590082', vat_payer: true, updated_at: server.clock.now() });
    const kept = await f.ok('PUT', `/suppliers/${id}`, { email: 'a@b.ro' });
    expect(kept.body.data).toMatchObject({ name: 'Nou SRL', cui: '1590082', vat_payer: true, email: 'a@b.ro' });
    expectError(await f.call('PUT', '/suppliers/sup_nope', { name: 'x' }), 404, 'resource_missing');
    expectError(await f.call('PUT', `/suppliers/${id}`, { name: '' }), 422, 'validation_error');
  });

  it('deletes a supplier without expenses, and refuses one with expenses (409 supplier_in_use)', async () => {
    const f = await firm(server);
    const unused = await f.supplier();
    const res = await f.ok('DELETE', `/suppliers/${unused}`, undefined);
    expect(res.body).toMatchObject({ success: true, id: unused, object: 'supplier', deleted: true });
    expectError(await f.call('GET', `/suppliers/${unused}`), 404, 'resource_missing');
    const used = await f.supplier();
    await f.expense({ supplier_id: used, amount: 10, vat: 21 });
    expectError(await f.call('DELETE', `/suppliers/${used}`), 409, 'supplier_in_use');
    await f.ok('GET', `/suppliers/${used}`, undefined);
  });

  it('needs the suppliers scopes: 401 without a key, 403 without the permission', async () => {
    expectError(await server.api(null, 'GET', '/suppliers'), 401, 'missing_api_key', 'authentication_error');
    const reader = await firm(server, { scopes: ['suppliers:read'] });
    await reader.ok('GET', '/suppliers', undefined);
    expectError(await reader.call('POST', '/suppliers', { name: 'X' }), 403, 'insufficient_permissions', 'permission_error');
    const expensesOnly = await firm(server, { scopes: ['expenses:write'] });
    expectError(await expensesOnly.call('GET', '/suppliers'), 403, 'insufficient_permissions');
  });
});
