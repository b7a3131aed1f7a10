import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { addReference } from '../../../server/modules/catalog/references';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectIsolated } from '../../support/tenancy';
import { expectError, firm } from './helpers';

const iso = JSON.parse(readFileSync(new URL('../../../server/modules/catalog/data/iso4217.json', import.meta.url), 'utf8')) as {
  currencies: Array<{ code: string; description: string }>;
};

describe.each(DIALECTS)('currencies on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists RON alone at first, at top level, with the whole ISO 4217 catalog available', async () => {
    const f = await firm(server);
    const res = await f.ok('GET', '/currencies');
    expect(res.body.success).toBe(true);
    expect(res.body.data).toBeInstanceOf(Array);
    expect(res.body).toMatchObject({ object: 'list', total: 1, default_code: 'RON' });
    expect(res.body.meta.version).toBe('v1');
    expect(res.body.data).toEqual([{ id: expect.any(String), code: 'RON', description: 'Romanian Leu', is_used: false, is_default: true }]);
    const codes = res.body.available.map((c: { code: string }) => c.code);
    expect(codes).not.toContain('RON');
    expect(codes.length).toBe(iso.currencies.length - 1);
    expect(codes.length).toBeGreaterThan(170);
    for (const code of ['EUR', 'USD', 'HUF', 'MDL', 'GBP', 'CHF', 'XCG', 'ZWG', 'SLE']) expect(codes).toContain(code);
    // Withdrawn codes stay out: the Bulgarian lev (euro since 2026), the kuna, the old dobra and leone.
    for (const code of ['BGN', 'HRK', 'STD', 'SLL', 'ZWL', 'CNH']) expect(codes).not.toContain(code);
    expect(res.body.available.find((c: { code: string }) => c.code === 'EUR')).toEqual({ code: 'EUR', description: 'Euro' });
  });

  it('enables a currency (case-insensitive), lists it and takes it out of `available`', async () => {
    const f = await firm(server);
    const created = await f.ok('POST', '/currencies', { code: 'eur' });
    expect(created.body.data).toEqual({ id: expect.stringMatching(/^cur_/), code: 'EUR', description: 'Euro', is_used: false, is_default: false });
    await f.ok('POST', '/currencies', { code: 'USD' });
    const list = await f.ok('GET', '/currencies');
    expect(list.body.total).toBe(3);
    expect(list.body.data.map((c: { code: string }) => c.code)).toEqual(['RON', 'EUR', 'USD']);
    expect(list.body.available.some((c: { code: string }) => c.code === 'EUR')).toBe(false);
    const one = await f.ok('GET', `/currencies/${created.body.data.id}`);
    expect(one.body.data).toEqual(created.body.data);
    const ron = await f.ok('GET', `/currencies/${list.body.data[0].id}`);
    expect(ron.body.data).toMatchObject({ code: 'RON', is_default: true });
  });

  it('refuses an unknown code with 422 and fields, a malformed one too', async () => {
    const f = await firm(server);
    let error = expectError(await f.call('POST', '/currencies', { code: 'ABC' }), 422, 'validation_error');
    expect(error.fields).toEqual({ code: 'Not an active ISO 4217 currency code' });
    error = expectError(await f.call('POST', '/currencies?locale=ro', { code: 'BGN' }), 422, 'validation_error');
    expect(error.fields).toEqual({ code: 'Nu este un cod de monedă ISO 4217 în vigoare' });
    error = expectError(await f.call('POST', '/currencies', { code: 'EURO' }), 422, 'validation_error');
    expect(Object.keys(error.fields ?? {})).toEqual(['code']);
    error = expectError(await f.call('POST', '/currencies', {}), 422, 'validation_error');
    expect(error.fields).toEqual({ code: 'Required.' });
  });

  it('answers 409 already_enabled for a currency enabled twice, and for RON', async () => {
    const f = await firm(server);
    await f.ok('POST', '/currencies', { code: 'EUR' });
    expect(expectError(await f.call('POST', '/currencies', { code: 'EUR' }), 409, 'already_enabled').param).toBe('code');
    expectError(await f.call('POST', '/currencies', { code: 'RON' }), 409, 'already_enabled');
    // Another company enables its own EUR freely.
    const g = await firm(server);
    await g.ok('POST', '/currencies', { code: 'EUR' });
  });

  it('disables a currency no row uses, at top level', async () => {
    const f = await firm(server);
    const eur = await f.ok('POST', '/currencies', { code: 'EUR' });
    const res = await f.ok('DELETE', `/currencies/${eur.body.data.id}`);
    expect(res.body).toMatchObject({ success: true, object: 'currency', id: eur.body.data.id, deleted: true });
    expect(res.body.data).toBeUndefined();
    expectError(await f.call('GET', `/currencies/${eur.body.data.id}`), 404, 'resource_missing');
    expectError(await f.call('DELETE', `/currencies/${eur.body.data.id}`), 404, 'resource_missing');
    // It can be enabled again.
    await f.ok('POST', '/currencies', { code: 'EUR' });
  });

  it('marks a currency used by a product or a bank account and refuses to disable it (409 in_use)', async () => {
    const f = await firm(server);
    const eur = (await f.ok('POST', '/currencies', { code: 'EUR' })).body.data;
    const usd = (await f.ok('POST', '/currencies', { code: 'USD' })).body.data;
    const product = await f.ok('POST', '/products', { name: 'Consultanță', price: 100, currency: 'EUR' });
    await f.ok('POST', '/bank-accounts', { iban: 'DE89370400440532013000', currency: 'USD' });
    const list = await f.ok('GET', '/currencies');
    const byCode = Object.fromEntries(list.body.data.map((c: { code: string; is_used: boolean }) => [c.code, c.is_used]));
    expect(byCode).toEqual({ RON: false, EUR: true, USD: true });
    expect((await f.ok('GET', `/currencies/${eur.id}`)).body.data.is_used).toBe(true);
    expect(expectError(await f.call('DELETE', `/currencies/${eur.id}`), 409, 'in_use').param).toBe('id');
    expectError(await f.call('DELETE', `/currencies/${usd.id}`), 409, 'in_use');
    // Once the product moves back to RON, EUR is free again and RON becomes used.
    await f.ok('PUT', `/products/${product.body.data.id}`, { currency: 'RON' });
    const after = await f.ok('GET', '/currencies');
    expect(after.body.data.find((c: { code: string }) => c.code === 'RON').is_used).toBe(true);
    await f.ok('DELETE', `/currencies/${eur.id}`);
  });

  it('counts rows of other modules\' tables that exist (invoices, receipts...) through the reference registry', async () => {
    // A stand-in for a document table of another module: created in this test's database only.
    const db = server.storage.db;
    await sql`create table test_documents (id text primary key, company_id text not null, currency text not null)`.execute(db);
    addReference('currency', { table: 'test_documents', column: 'currency' });
    // A table without company_id cannot be scoped, so it is never consulted.
    await sql`create table test_unscoped (id text primary key, currency text not null)`.execute(db);
    addReference('currency', { table: 'test_unscoped', column: 'currency' });
    await sql`insert into test_unscoped (id, currency) values ('x', 'GBP')`.execute(db);
    const f = await firm(server);
    const gbp = (await f.ok('POST', '/currencies', { code: 'GBP' })).body.data;
    expect(gbp.is_used).toBe(false);
    await sql`insert into test_documents (id, company_id, currency) values (${'doc_' + f.companyId}, ${f.companyId}, 'GBP')`.execute(db);
    expect((await f.ok('GET', `/currencies/${gbp.id}`)).body.data.is_used).toBe(true);
    expectError(await f.call('DELETE', `/currencies/${gbp.id}`), 409, 'in_use');
    // The same code used by another company's document does not count.
    const g = await firm(server);
    const gGbp = (await g.ok('POST', '/currencies', { code: 'GBP' })).body.data;
    expect(gGbp.is_used).toBe(false);
    await g.ok('DELETE', `/currencies/${gGbp.id}`);
  });

  it('refuses to disable RON with 409 is_default', async () => {
    const f = await firm(server);
    const ron = (await f.ok('GET', '/currencies')).body.data[0];
    const error = expectError(await f.call('DELETE', `/currencies/${ron.id}`), 409, 'is_default');
    expect(error.type).toBe('invalid_request_error');
    const ro = expectError(await f.call('DELETE', `/currencies/${ron.id}`, undefined, { 'accept-language': 'ro-RO' }), 409, 'is_default');
    expect(ro.message).toBe('Aceasta este valoarea implicită și rămâne activă.');
  });

  it('keeps each company to its own currencies', async () => {
    await expectIsolated(server, {
      create: async (key) => (await server.api(key, 'POST', '/currencies', { code: 'CHF' })).body.data.id,
      paths: (id) => [`/currencies/${id}`],
      methods: ['GET', 'DELETE'],
    });
    const f = await firm(server);
    await f.ok('POST', '/currencies', { code: 'JPY' });
    const g = await firm(server);
    const list = await g.ok('GET', '/currencies');
    expect(list.body.data.map((c: { code: string }) => c.code)).toEqual(['RON']);
  });

  it('needs the currencies scopes', async () => {
    const reader = await firm(server, ['currencies:read']);
    await reader.ok('GET', '/currencies');
    expectError(await reader.call('POST', '/currencies', { code: 'EUR' }), 403, 'insufficient_permissions');
    const other = await firm(server, ['clients:read']);
    expectError(await other.call('GET', '/currencies'), 403, 'insufficient_permissions');
  });
});
