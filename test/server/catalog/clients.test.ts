import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectIsolated } from '../../support/tenancy';
import { expectError, firm, VALID } from './helpers';

const names = (res: { body: { data: { data: Array<{ name: string }> } } }) => res.body.data.data.map((c) => c.name);

describe.each(DIALECTS)('clients on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a Romanian company, storing the CUI as digits and deriving vat_payer from RO', async () => {
    const f = await firm(server);
    const res = await f.ok('POST', '/clients', {
      name: 'Automobile Dacia SA',
      cui: 'ro 1590082',
      reg_com: 'J03/57/1991',
      address: 'Str. Uzinei 1',
      city: 'Mioveni',
      county: 'Argeș',
      postal_code: '115400',
      email: 'contabilitate@example.ro',
      phone: '+40 248 500 000',
      iban: VALID.ibanBtrl,
      notes: 'Plată la 30 de zile',
    });
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^cli_/),
      object: 'client',
      type: 'company',
      name: 'Automobile Dacia SA',
      cui: VALID.cui,
      vat_payer: true,
      reg_com: 'J03/57/1991',
      cnp: null,
      address: 'Str. Uzinei 1',
      city: 'Mioveni',
      county: 'Argeș',
      country: 'RO',
      postal_code: '115400',
      email: 'contabilitate@example.ro',
      phone: '+40 248 500 000',
      iban: VALID.ibanBtrl,
      bank: 'Banca Transilvania',
      notes: 'Plată la 30 de zile',
      client_local_uuid: null,
      is_deleted: false,
      created_at: server.clock.now(),
      updated_at: null,
    });
    expect((await f.ok('GET', `/clients/${res.body.data.id}`)).body.data).toEqual(res.body.data);
    const plain = await f.ok('POST', '/clients', { name: 'Fără TVA SRL', cui: VALID.cui2 });
    expect(plain.body.data).toMatchObject({ cui: VALID.cui2, vat_payer: false, type: 'company', country: 'RO' });
    // An explicit vat_payer wins over the prefix.
    const explicit = await f.ok('POST', '/clients', { name: 'Explicit SRL', cui: VALID.cui3, vat_payer: true });
    expect(explicit.body.data.vat_payer).toBe(true);
    const notPayer = await f.ok('POST', '/clients', { name: 'Explicit 2 SRL', cui: `RO${VALID.cui3}`, vat_payer: false });
    expect(notPayer.body.data).toMatchObject({ cui: VALID.cui3, vat_payer: false });
  });

  it('refuses a wrong CUI, a missing one and a CNP on a company, with fields', async () => {
    const f = await firm(server);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ name: 'X', cui: '1590083' }, { cui: 'CUI control digit does not match (check for a typo)' }],
      [{ name: 'X', cui: 'RO12A45' }, { cui: 'CUI must be 2 to 10 digits, optionally prefixed by RO' }],
      [{ name: 'X', cui: '01590082' }, { cui: 'CUI must be 2 to 10 digits, optionally prefixed by RO' }],
      [{ name: 'X' }, { cui: 'Required for a Romanian company' }],
      [{ name: 'X', cui: VALID.cui, cnp: VALID.cnp }, { cnp: 'A CNP belongs to a person (type person)' }],
    ];
    for (const [body, fields] of cases) {
      const error = expectError(await f.call('POST', '/clients', body), 422, 'validation_error');
      expect(error.type).toBe('validation_error');
      expect(error.fields, JSON.stringify(body)).toEqual(fields);
    }
    const ro = expectError(await f.call('POST', '/clients', { name: 'X', cui: '1590083' }, { 'accept-language': 'ro' }), 422, 'validation_error');
    expect(ro.fields).toEqual({ cui: 'Cifra de control a CUI-ului nu se potrivește (verificați o greșeală de tastare)' });
    expect(ro.message).toBe('Unele câmpuri ale cererii nu sunt valide.');
  });

  it('creates a foreign company with its VAT number as given', async () => {
    const f = await firm(server);
    const res = await f.ok('POST', '/clients', { name: 'Beispiel GmbH', country: 'de', cui: 'de 123 456 789', iban: VALID.ibanDe, bank: 'Commerzbank' });
    expect(res.body.data).toMatchObject({ country: 'DE', cui: 'DE123456789', vat_payer: true, iban: VALID.ibanDe, bank: 'Commerzbank' });
    const noVat = await f.ok('POST', '/clients', { name: 'Small Ltd', country: 'GB', postal_code: 'sw1a 1aa' });
    expect(noVat.body.data).toMatchObject({ cui: null, vat_payer: false, postal_code: 'SW1A 1AA' });
  });

  it('creates a person (B2C) with or without a CNP, checked', async () => {
    const f = await firm(server);
    const anon = await f.ok('POST', '/clients', { type: 'person', name: 'Ion Popescu' });
    expect(anon.body.data).toMatchObject({ type: 'person', cui: null, cnp: null, vat_payer: false });
    const withCnp = await f.ok('POST', '/clients', { type: 'person', name: 'Maria Ionescu', cnp: VALID.cnp2 });
    expect(withCnp.body.data.cnp).toBe(VALID.cnp2);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ cnp: '1900101400013' }, { cnp: 'CNP control digit does not match (check for a typo)' }],
      [{ cnp: '1901301400019' }, { cnp: 'CNP birth date is not a real date (or is in the future)' }],
      [{ cnp: '190010160001' }, { cnp: 'CNP must be 13 digits, the first one 1 to 9' }],
      [{ cui: VALID.cui }, { cui: 'A CUI belongs to a company (type company)' }],
      [{ vat_payer: true }, { vat_payer: 'A person is not a VAT payer' }],
    ];
    for (const [extra, fields] of cases) {
      const error = expectError(await f.call('POST', '/clients', { type: 'person', name: 'P', ...extra }), 422, 'validation_error');
      expect(error.fields, JSON.stringify(extra)).toEqual(fields);
    }
  });

  it('checks IBAN, postal code and plain members with fields', async () => {
    const f = await firm(server);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ iban: 'RO48BTRL01301202925689XY' }, ['iban']],
      [{ iban: 'DE89370400440532013001' }, ['iban']],
      [{ postal_code: '12345' }, ['postal_code']],
      [{ email: 'not-an-email' }, ['email']],
      [{ country: 'Romania' }, ['country']],
      [{ type: 'firm' }, ['type']],
      [{ name: '' }, ['name']],
      [{ client_local_uuid: 'abc' }, ['client_local_uuid']],
      [{ iban: 'RO48BTRL01301202925689XY', cnp: VALID.cnp }, ['cnp', 'iban']],
    ];
    for (const [extra, fields] of cases) {
      const error = expectError(await f.call('POST', '/clients', { name: 'X SRL', cui: VALID.cui, ...extra }), 422, 'validation_error');
      expect(Object.keys(error.fields ?? {}).sort(), JSON.stringify(extra)).toEqual(fields);
    }
    expectError(await f.call('POST', '/clients', '{"name": '), 400, 'invalid_json');
    // An unknown Romanian bank code leaves the bank unnamed; a foreign IBAN is fine on a Romanian client.
    expect((await f.ok('POST', '/clients', { name: 'A SRL', cui: VALID.cui, iban: VALID.ibanUnknownBank })).body.data.bank).toBeNull();
    expect((await f.ok('POST', '/clients', { name: 'B SRL', cui: VALID.cui, iban: VALID.ibanFr })).body.data.iban).toBe(VALID.ibanFr);
  });

  it('returns the first client for a repeated client_local_uuid (200 instead of 201, same id), whatever the body', async () => {
    const f = await firm(server);
    const uuid = randomUUID();
    const first = await f.ok('POST', '/clients', { name: 'Offline SRL', cui: VALID.cui, client_local_uuid: uuid });
    expect(first.status).toBe(201);
    expect(first.body.data.client_local_uuid).toBe(uuid);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    server.clock.advance(60);
    const again = await f.ok('POST', '/clients', { name: 'Offline SRL (retry)', cui: VALID.cui2, client_local_uuid: uuid }, 200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    // Even an invalid retry body answers the client already made: the first delivery was the one that counted.
    const invalid = await f.ok('POST', '/clients', { name: 'X', cui: '1590083', client_local_uuid: uuid }, 200);
    expect(invalid.body.data.id).toBe(first.body.data.id);
    const list = await f.ok('GET', '/clients');
    expect(list.body.data.total).toBe(1);
    // Concurrent deliveries of one create make one client.
    const uuid2 = randomUUID();
    const racing = await Promise.all(
      [1, 2, 3, 4].map(() => f.call('POST', '/clients', { name: 'Concurent SRL', cui: VALID.cui, client_local_uuid: uuid2 })),
    );
    // One delivery made it (201); the others are replays of it (200, Idempotent-Replayed).
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    for (const r of racing) expect(r.headers.get('idempotent-replayed')).toBe(r.status === 200 ? 'true' : null);
    expect(new Set(racing.map((r) => r.body.data.id)).size).toBe(1);
    expect((await f.ok('GET', '/clients')).body.data.total).toBe(2);
    // The same uuid in another company is another client.
    const g = await firm(server);
    const other = await g.ok('POST', '/clients', { name: 'Alt SRL', cui: VALID.cui, client_local_uuid: uuid });
    expect(other.body.data.id).not.toBe(first.body.data.id);
  });

  it('honours Idempotency-Key on create', async () => {
    const f = await firm(server);
    const body = { name: 'Idem SRL', cui: VALID.cui };
    const a = await f.call('POST', '/clients', body, { 'idempotency-key': 'k-1' });
    const b = await f.call('POST', '/clients', body, { 'idempotency-key': 'k-1' });
    expect(a.status).toBe(201);
    // The stored reply, status included, with the replay header.
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.data.id).toBe(a.body.data.id);
    expect((await f.ok('GET', '/clients')).body.data.total).toBe(1);
  });

  it('updates only the members sent, re-checking identifiers over the result', async () => {
    const f = await firm(server);
    const c = (await f.ok('POST', '/clients', { name: 'Alfa SRL', cui: `RO${VALID.cui}`, city: 'Pitești', iban: VALID.ibanBtrl })).body.data;
    server.clock.advance(10);
    const res = await f.ok('PUT', `/clients/${c.id}`, { city: 'Mioveni', email: 'alfa@example.ro' });
    expect(res.body.data).toEqual({ ...c, city: 'Mioveni', email: 'alfa@example.ro', updated_at: server.clock.now() });
    // null and '' clear optional members.
    const cleared = await f.ok('PUT', `/clients/${c.id}`, { city: null, email: '' });
    expect(cleared.body.data).toMatchObject({ city: null, email: null, vat_payer: true });
    // A new CUI without vat_payer takes its VAT status from its own prefix.
    expect((await f.ok('PUT', `/clients/${c.id}`, { cui: VALID.cui2 })).body.data).toMatchObject({ cui: VALID.cui2, vat_payer: false });
    expect((await f.ok('PUT', `/clients/${c.id}`, { vat_payer: true })).body.data).toMatchObject({ cui: VALID.cui2, vat_payer: true });
    // A new IBAN names its bank.
    expect((await f.ok('PUT', `/clients/${c.id}`, { iban: VALID.ibanBcr })).body.data.bank).toBe('Banca Comercială Română (BCR)');
    let error = expectError(await f.call('PUT', `/clients/${c.id}`, { cui: '1590083' }), 422, 'validation_error');
    expect(Object.keys(error.fields ?? {})).toEqual(['cui']);
    // Becoming a person needs the CUI cleared.
    error = expectError(await f.call('PUT', `/clients/${c.id}`, { type: 'person' }), 422, 'validation_error');
    expect(error.fields).toEqual({ cui: 'A CUI belongs to a company (type company)' });
    const person = await f.ok('PUT', `/clients/${c.id}`, { type: 'person', cui: null, cnp: VALID.cnp });
    expect(person.body.data).toMatchObject({ type: 'person', cui: null, cnp: VALID.cnp, vat_payer: false });
    error = expectError(await f.call('PUT', `/clients/${c.id}`, { name: '' }), 422, 'validation_error');
    expect(Object.keys(error.fields ?? {})).toEqual(['name']);
    // client_local_uuid is not a member of the update: refused by name (422 unknown_parameter), never changed.
    expect(expectError(await f.call('PUT', `/clients/${c.id}`, { client_local_uuid: randomUUID() }), 422, 'unknown_parameter').fields)
      .toHaveProperty('client_local_uuid');
    expect((await f.ok('GET', `/clients/${c.id}`)).body.data.client_local_uuid).toBeNull();
    expectError(await f.call('PUT', '/clients/cli_missing', { name: 'x' }), 404, 'resource_missing');
  });

  it('soft-deletes: gone from the list, readable by id, refusing updates (409 resource_deleted)', async () => {
    const f = await firm(server);
    const uuid = randomUUID();
    const c = (await f.ok('POST', '/clients', { name: 'Șters SRL', cui: VALID.cui, client_local_uuid: uuid })).body.data;
    await f.ok('POST', '/clients', { name: 'Rămâne SRL', cui: VALID.cui2 });
    server.clock.advance(5);
    const res = await f.ok('DELETE', `/clients/${c.id}`);
    expect(res.body).toMatchObject({ success: true, object: 'client', id: c.id, deleted: true });
    const read = await f.ok('GET', `/clients/${c.id}`);
    expect(read.body.data).toMatchObject({ id: c.id, is_deleted: true, updated_at: server.clock.now() });
    expect(names(await f.ok('GET', '/clients'))).toEqual(['Rămâne SRL']);
    expect(names(await f.ok('GET', '/clients?include_deleted=true&sort=name&order=asc'))).toEqual(['Rămâne SRL', 'Șters SRL']);
    const error = expectError(await f.call('PUT', `/clients/${c.id}`, { name: 'Înviat SRL' }), 409, 'resource_deleted');
    expect(error.param).toBe('id');
    // Deleting again is safe; the offline retry of its create answers the deleted client.
    await f.ok('DELETE', `/clients/${c.id}`);
    const replay = await f.ok('POST', '/clients', { name: 'Șters SRL', cui: VALID.cui, client_local_uuid: uuid }, 200);
    expect(replay.body.data).toMatchObject({ id: c.id, is_deleted: true });
    expectError(await f.call('DELETE', '/clients/cli_missing'), 404, 'resource_missing');
  });

  it('lists with search, type, sort, order, paging and creation dates', async () => {
    const f = await firm(server);
    await f.ok('POST', '/clients', { name: 'Beta Construct SRL', cui: VALID.cui, city: 'Cluj-Napoca', email: 'office@beta.ro' });
    server.clock.advance(86_400);
    await f.ok('POST', '/clients', { name: 'Alfa Trans SRL', cui: `RO${VALID.cui2}`, reg_com: 'J40/123/2020' });
    server.clock.advance(86_400);
    await f.ok('POST', '/clients', { type: 'person', name: 'Gheorghe Vasile', cnp: VALID.cnp });
    const all = await f.ok('GET', '/clients');
    expect(all.body.data).toMatchObject({ object: 'list', total: 3, page: 1, per_page: 50, total_pages: 1, has_more: false });
    expect(names(all)).toEqual(['Gheorghe Vasile', 'Alfa Trans SRL', 'Beta Construct SRL']);
    expect(names(await f.ok('GET', '/clients?sort=name&order=asc'))).toEqual(['Alfa Trans SRL', 'Beta Construct SRL', 'Gheorghe Vasile']);
    expect(names(await f.ok('GET', '/clients?sort=created_at&order=asc'))).toEqual(['Beta Construct SRL', 'Alfa Trans SRL', 'Gheorghe Vasile']);
    expect(names(await f.ok('GET', '/clients?search=CONSTRUCT'))).toEqual(['Beta Construct SRL']);
    expect(names(await f.ok('GET', `/clients?search=${VALID.cui2}`))).toEqual(['Alfa Trans SRL']);
    expect(names(await f.ok('GET', `/clients?search=${VALID.cnp}`))).toEqual(['Gheorghe Vasile']);
    expect(names(await f.ok('GET', '/clients?search=cluj'))).toEqual(['Beta Construct SRL']);
    expect(names(await f.ok('GET', '/clients?search=J40%2F123'))).toEqual(['Alfa Trans SRL']);
    expect(names(await f.ok('GET', '/clients?search=%25'))).toEqual([]);
    expect(names(await f.ok('GET', '/clients?type=person'))).toEqual(['Gheorghe Vasile']);
    expect(names(await f.ok('GET', '/clients?type=company&sort=name&order=asc'))).toEqual(['Alfa Trans SRL', 'Beta Construct SRL']);
    const page = await f.ok('GET', '/clients?per_page=2&page=1&sort=name&order=asc');
    expect(page.body.data).toMatchObject({ total: 3, page: 1, per_page: 2, total_pages: 2, has_more: true });
    expect(names(page)).toEqual(['Alfa Trans SRL', 'Beta Construct SRL']);
    expect(names(await f.ok('GET', '/clients?per_page=2&page=2&sort=name&order=asc'))).toEqual(['Gheorghe Vasile']);
    expect(names(await f.ok('GET', '/clients?per_page=2&page=3'))).toEqual([]);
    expect(names(await f.ok('GET', '/clients?start_date=2026-11-22&end_date=2026-11-22'))).toEqual(['Alfa Trans SRL']);
    expect(names(await f.ok('GET', '/clients?start_date=2026-11-23'))).toEqual(['Gheorghe Vasile']);
    const error = expectError(await f.call('GET', '/clients?per_page=500&type=firm'), 422, 'validation_error');
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['per_page', 'type']);
    expectError(await f.call('GET', '/clients?include_deleted=yes'), 422, 'validation_error');
  });

  it('files the creation day in Bucharest time, not UTC', async () => {
    const f = await firm(server);
    // 2026-11-21T22:30:00Z is already 2026-11-22 00:30 in Bucharest (UTC+2 in winter).
    server.clock.set(Math.floor(Date.parse('2026-11-21T22:30:00Z') / 1000));
    await f.ok('POST', '/clients', { name: 'Miezul Nopții SRL', cui: VALID.cui });
    expect(names(await f.ok('GET', '/clients?start_date=2026-11-22&end_date=2026-11-22'))).toEqual(['Miezul Nopții SRL']);
    expect(names(await f.ok('GET', '/clients?end_date=2026-11-21'))).toEqual([]);
  });

  it('keeps each company to its own clients', async () => {
    await expectIsolated(server, {
      create: async (key) => (await server.api(key, 'POST', '/clients', { name: 'Confidențial SRL', cui: VALID.cui })).body.data.id,
      paths: (id) => [`/clients/${id}`],
      update: { name: 'Furat SRL' },
      lists: ['/clients', '/clients?search=confiden', `/clients?search=${VALID.cui}`, '/clients?include_deleted=true'],
    });
  });

  it('needs the clients scopes', async () => {
    const reader = await firm(server, ['clients:read']);
    await reader.ok('GET', '/clients');
    const error = expectError(await reader.call('POST', '/clients', { name: 'X', cui: VALID.cui }), 403, 'insufficient_permissions');
    expect(error.type).toBe('permission_error');
    expectError(await server.api(null, 'GET', '/clients'), 401, 'missing_api_key');
  });
});
