import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectError, firm } from './helpers';

describe.each(DIALECTS)('expense categories on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates categories with integer ids', async () => {
    const f = await firm(server);
    const a = await f.ok('POST', '/expense-categories', { name: 'Combustibil' }, 201);
    const b = await f.ok('POST', '/expense-categories', { name: ' Chirie ' }, 201);
    expect(a.body.data).toMatchObject({ object: 'expense_category', name: 'Combustibil', created_at: server.clock.now(), updated_at: null });
    expect(Number.isInteger(a.body.data.id)).toBe(true);
    expect(b.body.data.id).toBeGreaterThan(a.body.data.id);
    expect(b.body.data.name).toBe('Chirie');
  });

  it('keeps names unique within a company regardless of case (409 expense_category_exists)', async () => {
    const f = await firm(server);
    const id = await f.category('Utilități');
    const error = expectError(await f.call('POST', '/expense-categories', { name: 'UTILITĂȚI' }), 409, 'expense_category_exists');
    expect(error.param).toBe('name');
    expect(error.message).toContain(String(id));
    const other = await f.category('Telefonie');
    expectError(await f.call('PUT', `/expense-categories/${other}`, { name: 'utilități' }), 409, 'expense_category_exists');
    // Another company may use the same name.
    const g = await firm(server);
    await g.ok('POST', '/expense-categories', { name: 'Utilități' }, 201);
  });

  it('retrieves, renames and answers 404 for unknown or non-integer ids', async () => {
    const f = await firm(server);
    const id = await f.category('Protocol');
    expect((await f.ok('GET', `/expense-categories/${id}`, undefined)).body.data).toMatchObject({ id, name: 'Protocol' });
    server.clock.advance(5);
    const renamed = await f.ok('PUT', `/expense-categories/${id}`, { name: 'Protocol și reprezentare' }, 200);
    expect(renamed.body.data).toMatchObject({ id, name: 'Protocol și reprezentare', updated_at: server.clock.now() });
    for (const bad of ['abc', '0', '99999999', '1.5']) {
      expect(expectError(await f.call('GET', `/expense-categories/${bad}`), 404, 'resource_missing').param).toBe('id');
    }
    expectError(await f.call('PUT', `/expense-categories/${id}`, { name: '' }), 422, 'validation_error');
    expectError(await f.call('POST', '/expense-categories', {}), 422, 'validation_error');
  });

  it('lists with search, sort and pages', async () => {
    const f = await firm(server);
    for (const name of ['Marfă', 'Birotică', 'Transport', 'Bancă']) await f.category(name);
    const all = await f.ok('GET', '/expense-categories', undefined);
    expect(all.body.data.data.map((c: { name: string }) => c.name)).toEqual(['Bancă', 'Birotică', 'Marfă', 'Transport']);
    const page = await f.ok('GET', '/expense-categories?per_page=3&page=2', undefined);
    expect(page.body.data).toMatchObject({ total: 4, page: 2, per_page: 3, total_pages: 2, has_more: false });
    const search = await f.ok('GET', '/expense-categories?search=b', undefined);
    expect(search.body.data.total).toBe(2);
    const byId = await f.ok('GET', '/expense-categories?sort=id&order=asc', undefined);
    expect(byId.body.data.data[0].name).toBe('Marfă');
  });

  it('deletes an unused category and refuses one with expenses (409 expense_category_in_use)', async () => {
    const f = await firm(server);
    const unused = await f.category();
    expect((await f.ok('DELETE', `/expense-categories/${unused}`, undefined)).body).toMatchObject({ success: true, id: unused, object: 'expense_category', deleted: true });
    expectError(await f.call('GET', `/expense-categories/${unused}`), 404, 'resource_missing');
    const used = await f.category();
    await f.expense({ supplier_id: await f.supplier(), category_id: used, amount: 5, vat: 9 });
    expectError(await f.call('DELETE', `/expense-categories/${used}`), 409, 'expense_category_in_use');
  });

  it('needs the expense_categories scopes', async () => {
    const reader = await firm(server, { scopes: ['expense_categories:read'] });
    await reader.ok('GET', '/expense-categories', undefined);
    expectError(await reader.call('POST', '/expense-categories', { name: 'X' }), 403, 'insufficient_permissions');
    expectError(await server.api(null, 'POST', '/expense-categories', { name: 'X' }), 401, 'missing_api_key');
  });
});
