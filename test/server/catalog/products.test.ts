import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectIsolated } from '../../support/tenancy';
import { expectError, firm } from './helpers';

const names = (res: { body: { data: { data: Array<{ name: string }> } } }) => res.body.data.data.map((p) => p.name);

describe.each(DIALECTS)('products on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a product with defaults and reads it back', async () => {
    const f = await firm(server);
    const res = await f.ok('POST', '/products', { name: '  Pâine albă ', price: 4.5 });
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^prod_/),
      object: 'product',
      name: 'Pâine albă',
      code: null,
      // Contazen's name of `code`, repeated in every product reply (docs/api-decisions.md, "Member aliases").
      sku: null,
      barcode: null,
      unit: 'buc',
      unit_code: 'H87',
      price: 4.5,
      price_includes_vat: false,
      vat_rate: 21,
      currency: 'RON',
      is_service: false,
      created_at: server.clock.now(),
      updated_at: null,
    });
    expect((await f.ok('GET', `/products/${res.body.data.id}`)).body.data).toEqual(res.body.data);
  });

  it('keeps a barcode apart from the code: unique in the firm, found exactly and by search, cleared with null', async () => {
    const f = await firm(server);
    const a = await f.ok('POST', '/products', { name: 'Mere Golden', code: 'MERE-1', barcode: '5941234000017', price: 6.99 });
    expect(a.body.data).toMatchObject({ code: 'MERE-1', barcode: '5941234000017' });
    // Another product's code may look like a barcode; the barcode itself is taken.
    const dup = await f.call('POST', '/products', { name: 'Pere', barcode: '5941234000017', price: 7 });
    expectError(dup, 409, 'duplicate_barcode');
    await f.ok('POST', '/products', { name: 'Pere 5941234000017', code: 'PERE', price: 7 });
    const exact = await f.ok('GET', '/products?barcode=5941234000017');
    expect(names(exact)).toEqual(['Mere Golden']);
    const search = await f.ok('GET', '/products?search=594123400001');
    expect(names(search).sort()).toEqual(['Mere Golden', 'Pere 5941234000017']);
    const bad = await f.call('POST', '/products', { name: 'X', barcode: 'x'.repeat(65), price: 1 });
    expect(bad.status).toBe(422);
    const cleared = await f.ok('PUT', `/products/${a.body.data.id}`, { barcode: null });
    expect(cleared.body.data.barcode).toBeNull();
    await f.ok('POST', '/products', { name: 'Pere 2', barcode: '5941234000017', price: 7 });
    // Another firm sees none of it.
    const other = await firm(server);
    expect(names(await other.ok('GET', '/products?barcode=5941234000017'))).toEqual([]);
  });

  it('keeps the price to the bani, whatever its size', async () => {
    const f = await firm(server);
    for (const price of [0, 0.01, 0.29, 1234567.89, 999999999999.99]) {
      const res = await f.ok('POST', '/products', { name: `P ${price}`, price });
      expect((await f.ok('GET', `/products/${res.body.data.id}`)).body.data.price).toBe(price);
    }
    const rows = await server.storage.db.selectFrom('products').select(['name', 'price']).where('company_id', '=', f.companyId).execute();
    expect(rows.find((r) => r.name === 'P 0.29')?.price).toBe(29);
    expect(rows.find((r) => r.name === 'P 999999999999.99')?.price).toBe(99999999999999);
  });

  it('takes every member on create', async () => {
    const f = await firm(server);
    await f.ok('POST', '/currencies', { code: 'EUR' });
    await f.ok('POST', '/vat-rates', { rate: 9.5 });
    const res = await f.ok('POST', '/products', {
      name: 'Ulei', code: 'ULEI-1L', unit: 'l', unit_code: 'LTR', price: 12.99, price_includes_vat: true, vat_rate: 9.5, currency: 'EUR', is_service: false,
    });
    expect(res.body.data).toMatchObject({ code: 'ULEI-1L', unit: 'l', unit_code: 'LTR', price: 12.99, price_includes_vat: true, vat_rate: 9.5, currency: 'EUR' });
    const service = await f.ok('POST', '/products', { name: 'Transport', price: 50, is_service: true, vat_rate: 0 });
    expect(service.body.data).toMatchObject({ is_service: true, vat_rate: 0 });
  });

  it('validates members with fields, in both languages', async () => {
    const f = await firm(server);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{}, ['name', 'price']],
      [{ name: '', price: 1 }, ['name']],
      [{ name: 'X', price: -1 }, ['price']],
      [{ name: 'X', price: 1.234 }, ['price']],
      [{ name: 'X', price: '12' }, ['price']],
      [{ name: 'X', price: 1e15 }, ['price']],
      [{ name: 'X', price: 1, currency: 'euro' }, ['currency']],
      [{ name: 'X', price: 1, vat_rate: 101 }, ['vat_rate']],
      [{ name: 'X', price: 1, price_includes_vat: 'yes' }, ['price_includes_vat']],
    ];
    for (const [body, fields] of cases) {
      const error = expectError(await f.call('POST', '/products', body), 422, 'validation_error');
      expect(Object.keys(error.fields ?? {}).sort(), JSON.stringify(body)).toEqual(fields);
    }
    const ro = expectError(await f.call('POST', '/products?locale=ro', { name: 'X', price: -1 }), 422, 'validation_error');
    expect(ro.fields).toEqual({ price: 'Nu poate fi negativ' });
  });

  it('accepts only the firm\'s VAT rates and enabled currencies (422 with fields)', async () => {
    const f = await firm(server);
    let error = expectError(await f.call('POST', '/products', { name: 'X', price: 1, vat_rate: 24 }), 422, 'validation_error');
    expect(error.fields).toEqual({ vat_rate: 'Not a standard VAT rate (21, 19, 11, 9, 5, 0) nor a custom rate of the company' });
    error = expectError(await f.call('POST', '/products', { name: 'X', price: 1, currency: 'EUR', vat_rate: 24 }), 422, 'validation_error');
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['currency', 'vat_rate']);
    error = expectError(await f.call('POST', '/products?locale=ro', { name: 'X', price: 1, currency: 'USD' }), 422, 'validation_error');
    expect(error.fields).toEqual({ currency: 'Moneda nu este activată pentru firmă (POST /currencies)' });
    for (const rate of [21, 19, 11, 9, 5, 0]) await f.ok('POST', '/products', { name: `TVA ${rate}`, price: 1, vat_rate: rate });
    const p = (await f.ok('POST', '/products', { name: 'Y', price: 1 })).body.data;
    expectError(await f.call('PUT', `/products/${p.id}`, { currency: 'USD' }), 422, 'validation_error');
  });

  it('keeps codes unique within a company (409 duplicate_code), free across companies', async () => {
    const f = await firm(server);
    const a = (await f.ok('POST', '/products', { name: 'A', price: 1, code: '5941234567890' })).body.data;
    expect(expectError(await f.call('POST', '/products', { name: 'B', price: 2, code: ' 5941234567890 ' }), 409, 'duplicate_code').param).toBe('code');
    const b = (await f.ok('POST', '/products', { name: 'B', price: 2, code: 'B-1' })).body.data;
    expectError(await f.call('PUT', `/products/${b.id}`, { code: '5941234567890' }), 409, 'duplicate_code');
    // Products without a code never collide; an empty code means none.
    await f.ok('POST', '/products', { name: 'C', price: 1 });
    await f.ok('POST', '/products', { name: 'D', price: 1, code: '' });
    // Re-sending its own code is no conflict.
    await f.ok('PUT', `/products/${a.id}`, { code: '5941234567890', name: 'A2' });
    const g = await firm(server);
    await g.ok('POST', '/products', { name: 'A', price: 1, code: '5941234567890' });
  });

  it('lists with search by name or code, exact code, sort, order, paging and creation dates', async () => {
    const f = await firm(server);
    await f.ok('POST', '/products', { name: 'Cafea boabe', code: 'CAF-01', price: 45 });
    server.clock.advance(86_400);
    await f.ok('POST', '/products', { name: 'Ceai verde', code: 'CEA-01', price: 12.5 });
    server.clock.advance(86_400);
    await f.ok('POST', '/products', { name: 'Zahăr', code: 'ZAH-10', price: 5 });
    const all = await f.ok('GET', '/products');
    expect(all.body.data).toMatchObject({ object: 'list', total: 3, page: 1, per_page: 50, total_pages: 1, has_more: false });
    expect(names(all)).toEqual(['Zahăr', 'Ceai verde', 'Cafea boabe']);
    expect(names(await f.ok('GET', '/products?search=cafea'))).toEqual(['Cafea boabe']);
    expect(names(await f.ok('GET', '/products?search=-01&sort=name&order=asc'))).toEqual(['Cafea boabe', 'Ceai verde']);
    expect(names(await f.ok('GET', '/products?code=ZAH-10'))).toEqual(['Zahăr']);
    expect(names(await f.ok('GET', '/products?code=zah-10'))).toEqual([]);
    expect(names(await f.ok('GET', '/products?sort=price&order=asc'))).toEqual(['Zahăr', 'Ceai verde', 'Cafea boabe']);
    expect(names(await f.ok('GET', '/products?sort=code&order=desc'))).toEqual(['Zahăr', 'Ceai verde', 'Cafea boabe']);
    const page = await f.ok('GET', '/products?per_page=2&page=2&sort=name&order=asc');
    expect(page.body.data).toMatchObject({ total: 3, page: 2, per_page: 2, total_pages: 2, has_more: false });
    expect(names(page)).toEqual(['Zahăr']);
    // Days in Bucharest: 2026-11-21, -22, -23.
    expect(names(await f.ok('GET', '/products?start_date=2026-11-22&end_date=2026-11-22'))).toEqual(['Ceai verde']);
    expect(names(await f.ok('GET', '/products?start_date=2026-11-22&order=asc'))).toEqual(['Ceai verde', 'Zahăr']);
    expect(names(await f.ok('GET', '/products?end_date=2026-11-21'))).toEqual(['Cafea boabe']);
  });

  it('refuses bad list parameters with fields', async () => {
    const f = await firm(server);
    for (const [query, field] of [
      ['per_page=101', 'per_page'],
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      ['sort=secret', 'sort'],
      ['order=up', 'order'],
      ['start_date=2026-02-30', 'start_date'],
      ['end_date=21.11.2026', 'end_date'],
    ]) {
      const error = expectError(await f.call('GET', `/products?${query}`), 422, 'validation_error');
      expect(Object.keys(error.fields ?? {}), query).toEqual([field]);
    }
  });

  it('updates only the members sent', async () => {
    const f = await firm(server);
    const p = (await f.ok('POST', '/products', { name: 'Lapte', code: 'L1', price: 7.2, unit: 'l', unit_code: 'LTR' })).body.data;
    server.clock.advance(30);
    const res = await f.ok('PUT', `/products/${p.id}`, { price: 7.49, price_includes_vat: true, vat_rate: 11 });
    expect(res.body.data).toEqual({ ...p, price: 7.49, price_includes_vat: true, vat_rate: 11, updated_at: server.clock.now() });
    const cleared = await f.ok('PUT', `/products/${p.id}`, { code: null, name: 'Lapte 1,5%' });
    expect(cleared.body.data).toMatchObject({ code: null, name: 'Lapte 1,5%', unit: 'l', price: 7.49 });
    expect((await f.ok('GET', `/products/${p.id}`)).body.data).toEqual(cleared.body.data);
    const error = expectError(await f.call('PUT', `/products/${p.id}`, { name: '' }), 422, 'validation_error');
    expect(Object.keys(error.fields ?? {})).toEqual(['name']);
    expectError(await f.call('PUT', '/products/prod_nope', { name: 'x' }), 404, 'resource_missing');
  });

  it('deletes a product, freeing its code', async () => {
    const f = await firm(server);
    const p = (await f.ok('POST', '/products', { name: 'Vechi', code: 'OLD', price: 1 })).body.data;
    const res = await f.ok('DELETE', `/products/${p.id}`);
    expect(res.body).toMatchObject({ success: true, object: 'product', id: p.id, deleted: true });
    expectError(await f.call('GET', `/products/${p.id}`), 404, 'resource_missing');
    expect(expectError(await f.call('DELETE', `/products/${p.id}`), 404, 'resource_missing').param).toBe('id');
    await f.ok('POST', '/products', { name: 'Nou', code: 'OLD', price: 1 });
  });

  it('answers 409 in_use when another table holds a foreign key to the product', async () => {
    // A stand-in for a table of another module that references products with a foreign key.
    await sql`create table test_product_refs (id text primary key, product_id text not null references products(id))`.execute(server.storage.db);
    const f = await firm(server);
    const p = (await f.ok('POST', '/products', { name: 'Legat', price: 1 })).body.data;
    await sql`insert into test_product_refs (id, product_id) values ('r1', ${p.id})`.execute(server.storage.db);
    expect(expectError(await f.call('DELETE', `/products/${p.id}`), 409, 'in_use').param).toBe('id');
    expect((await f.ok('GET', `/products/${p.id}`)).body.data.id).toBe(p.id);
  });

  it('keeps each company to its own products', async () => {
    await expectIsolated(server, {
      create: async (key) => (await server.api(key, 'POST', '/products', { name: 'Secret', code: 'S-1', price: 10 })).body.data.id,
      paths: (id) => [`/products/${id}`],
      update: { name: 'Furat' },
      lists: ['/products', '/products?search=secret', '/products?code=S-1'],
    });
  });

  it('needs the products scopes', async () => {
    const reader = await firm(server, ['products:read']);
    await reader.ok('GET', '/products');
    expectError(await reader.call('POST', '/products', { name: 'X', price: 1 }), 403, 'insufficient_permissions');
    const writer = await firm(server, ['products:write']);
    await writer.ok('POST', '/products', { name: 'X', price: 1 });
  });
});
