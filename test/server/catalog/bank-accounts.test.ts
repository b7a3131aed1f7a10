import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectIsolated } from '../../support/tenancy';
import { expectError, firm, VALID, type Firm } from './helpers';

async function defaults(f: Firm): Promise<Record<string, string[]>> {
  const res = await f.ok('GET', '/bank-accounts?per_page=100');
  const out: Record<string, string[]> = {};
  for (const a of res.body.data.data as Array<{ iban: string; currency: string; is_default: boolean }>) {
    if (a.is_default) (out[a.currency] ??= []).push(a.iban);
  }
  return out;
}

describe.each(DIALECTS)('bank accounts on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates an account from a Romanian IBAN typed with spaces, naming the bank', async () => {
    const f = await firm(server);
    const spaced = VALID.ibanBtrl.toLowerCase().replace(/(.{4})/g, '$1 ');
    const res = await f.ok('POST', '/bank-accounts', { iban: spaced, name: 'Cont principal' });
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^bank_/),
      object: 'bank_account',
      iban: VALID.ibanBtrl,
      bank: 'Banca Transilvania',
      name: 'Cont principal',
      currency: 'RON',
      is_default: true,
      created_at: server.clock.now(),
      updated_at: null,
    });
    expect((await f.ok('GET', `/bank-accounts/${res.body.data.id}`)).body.data).toEqual(res.body.data);
    // A given bank name wins; an unknown Romanian bank code leaves it empty.
    expect((await f.ok('POST', '/bank-accounts', { iban: VALID.ibanBcr, bank: 'BCR Sucursala Unirii' })).body.data.bank).toBe('BCR Sucursala Unirii');
    expect((await f.ok('POST', '/bank-accounts', { iban: VALID.ibanUnknownBank })).body.data.bank).toBeNull();
  });

  it('accepts foreign IBANs on the generic mod 97 check', async () => {
    const f = await firm(server);
    await f.ok('POST', '/currencies', { code: 'EUR' });
    await f.ok('POST', '/currencies', { code: 'GBP' });
    const de = await f.ok('POST', '/bank-accounts', { iban: VALID.ibanDe, currency: 'EUR', bank: 'Commerzbank' });
    expect(de.body.data).toMatchObject({ iban: VALID.ibanDe, bank: 'Commerzbank', currency: 'EUR', is_default: true });
    const gb = await f.ok('POST', '/bank-accounts', { iban: VALID.ibanGb, currency: 'GBP' });
    expect(gb.body.data).toMatchObject({ bank: null, currency: 'GBP' });
    await f.ok('POST', '/bank-accounts', { iban: VALID.ibanFr, currency: 'EUR' });
  });

  it('refuses invalid IBANs with fields saying why, in both languages', async () => {
    const f = await firm(server);
    const cases: Array<[string, string]> = [
      ['RO48BTRL01301202925689XY', 'IBAN check digits do not match (check for a typo)'],
      ['RO48BTRL0130120292568', 'Wrong IBAN length for its country'],
      ['DE89370400440532013001', 'IBAN check digits do not match (check for a typo)'],
      ['DE8937040044053201300', 'Wrong IBAN length for its country'],
      ['12345', 'Not an IBAN: 2 letters, 2 check digits, then letters and digits'],
      ['RO48-BTRL', 'Not an IBAN: 2 letters, 2 check digits, then letters and digits'],
    ];
    for (const [iban, message] of cases) {
      const error = expectError(await f.call('POST', '/bank-accounts', { iban }), 422, 'validation_error');
      expect(error.fields, iban).toEqual({ iban: message });
    }
    const ro = expectError(await f.call('POST', '/bank-accounts?locale=ro', { iban: 'RO48BTRL01301202925689XY' }), 422, 'validation_error');
    expect(ro.fields).toEqual({ iban: 'Cifrele de control ale IBAN-ului nu se potrivesc (verificați o greșeală de tastare)' });
    expect(expectError(await f.call('POST', '/bank-accounts', {}), 422, 'validation_error').fields).toEqual({ iban: 'Required.' });
    const currency = expectError(await f.call('POST', '/bank-accounts', { iban: VALID.ibanDe, currency: 'EUR' }), 422, 'validation_error');
    expect(Object.keys(currency.fields ?? {})).toEqual(['currency']);
  });

  it('answers 409 duplicate_iban for an IBAN the firm already has, however typed', async () => {
    const f = await firm(server);
    const a = (await f.ok('POST', '/bank-accounts', { iban: VALID.ibanBtrl })).body.data;
    expect(expectError(await f.call('POST', '/bank-accounts', { iban: VALID.ibanBtrl.toLowerCase() }), 409, 'duplicate_iban').param).toBe('iban');
    const b = (await f.ok('POST', '/bank-accounts', { iban: VALID.ibanBcr })).body.data;
    expectError(await f.call('PUT', `/bank-accounts/${b.id}`, { iban: VALID.ibanBtrl }), 409, 'duplicate_iban');
    await f.ok('PUT', `/bank-accounts/${a.id}`, { iban: VALID.ibanBtrl });
    const g = await firm(server);
    await g.ok('POST', '/bank-accounts', { iban: VALID.ibanBtrl });
  });

  it('keeps exactly one default per currency', async () => {
    const f = await firm(server);
    await f.ok('POST', '/currencies', { code: 'EUR' });
    const a = (await f.ok('POST', '/bank-accounts', { iban: VALID.ibanBtrl, is_default: false })).body.data;
    expect(a.is_default).toBe(true); // the first account of a currency is its default
    server.clock.advance(1);
    const b = (await f.ok('POST', '/bank-accounts', { iban: VALID.ibanBcr })).body.data;
    expect(b.is_default).toBe(false);
    server.clock.advance(1);
    const c = (await f.ok('POST', '/bank-accounts', { iban: VALID.ibanIng, is_default: true })).body.data;
    expect(c.is_default).toBe(true);
    const e = (await f.ok('POST', '/bank-accounts', { iban: VALID.ibanDe, currency: 'EUR' })).body.data;
    expect(e.is_default).toBe(true);
    expect(await defaults(f)).toEqual({ RON: [VALID.ibanIng], EUR: [VALID.ibanDe] });

    await f.ok('PUT', `/bank-accounts/${b.id}`, { is_default: true });
    expect(await defaults(f)).toEqual({ RON: [VALID.ibanBcr], EUR: [VALID.ibanDe] });
    // Unmarking the default hands the mark to the oldest other account.
    const unmarked = await f.ok('PUT', `/bank-accounts/${b.id}`, { is_default: false });
    expect(unmarked.body.data.is_default).toBe(false);
    expect(await defaults(f)).toEqual({ RON: [VALID.ibanBtrl], EUR: [VALID.ibanDe] });
    // Deleting the default promotes the oldest remaining one.
    await f.ok('DELETE', `/bank-accounts/${a.id}`);
    expect(await defaults(f)).toEqual({ RON: [VALID.ibanBcr], EUR: [VALID.ibanDe] });
    // The only account of a currency stays its default.
    expect((await f.ok('PUT', `/bank-accounts/${e.id}`, { is_default: false })).body.data.is_default).toBe(true);
    // Moving the RON default to EUR: it joins EUR as a plain account, RON gets a new default.
    await f.ok('PUT', `/bank-accounts/${b.id}`, { currency: 'EUR' });
    expect(await defaults(f)).toEqual({ RON: [VALID.ibanIng], EUR: [VALID.ibanDe] });
    expect(c.id).toBeTruthy();
  });

  it('updates only the members sent, naming the bank of a new IBAN', async () => {
    const f = await firm(server);
    const a = (await f.ok('POST', '/bank-accounts', { iban: VALID.ibanBtrl, name: 'Principal' })).body.data;
    server.clock.advance(5);
    const moved = await f.ok('PUT', `/bank-accounts/${a.id}`, { iban: VALID.ibanBcr });
    expect(moved.body.data).toEqual({ ...a, iban: VALID.ibanBcr, bank: 'Banca Comercială Română (BCR)', updated_at: server.clock.now() });
    const renamed = await f.ok('PUT', `/bank-accounts/${a.id}`, { bank: 'BCR Cluj', name: null });
    expect(renamed.body.data).toMatchObject({ bank: 'BCR Cluj', name: null, iban: VALID.ibanBcr });
    // A cleared bank is named again from the IBAN.
    expect((await f.ok('PUT', `/bank-accounts/${a.id}`, { bank: null })).body.data.bank).toBe('Banca Comercială Română (BCR)');
    const error = expectError(await f.call('PUT', `/bank-accounts/${a.id}`, { iban: 'RO00BTRL' }), 422, 'validation_error');
    expect(Object.keys(error.fields ?? {})).toEqual(['iban']);
    expectError(await f.call('PUT', `/bank-accounts/${a.id}`, { currency: 'CHF' }), 422, 'validation_error');
    expectError(await f.call('PUT', '/bank-accounts/bank_missing', { name: 'x' }), 404, 'resource_missing');
  });

  it('lists with search, currency filter, sort and paging', async () => {
    const f = await firm(server);
    await f.ok('POST', '/currencies', { code: 'EUR' });
    await f.ok('POST', '/bank-accounts', { iban: VALID.ibanBtrl, name: 'Încasări' });
    server.clock.advance(1);
    await f.ok('POST', '/bank-accounts', { iban: VALID.ibanBcr, name: 'Salarii' });
    server.clock.advance(1);
    await f.ok('POST', '/bank-accounts', { iban: VALID.ibanDe, currency: 'EUR', bank: 'Commerzbank' });
    const ibans = (res: { body: { data: { data: Array<{ iban: string }> } } }) => res.body.data.data.map((a) => a.iban);
    const all = await f.ok('GET', '/bank-accounts');
    expect(all.body.data).toMatchObject({ object: 'list', total: 3, has_more: false });
    expect(ibans(all)).toEqual([VALID.ibanDe, VALID.ibanBcr, VALID.ibanBtrl]);
    expect(ibans(await f.ok('GET', '/bank-accounts?search=transilvania'))).toEqual([VALID.ibanBtrl]);
    expect(ibans(await f.ok('GET', '/bank-accounts?search=salarii'))).toEqual([VALID.ibanBcr]);
    expect(ibans(await f.ok('GET', '/bank-accounts?search=rncb'))).toEqual([VALID.ibanBcr]);
    expect(ibans(await f.ok('GET', '/bank-accounts?currency=EUR'))).toEqual([VALID.ibanDe]);
    expect(ibans(await f.ok('GET', '/bank-accounts?sort=iban&order=asc'))).toEqual([VALID.ibanDe, VALID.ibanBcr, VALID.ibanBtrl].sort());
    const page = await f.ok('GET', '/bank-accounts?per_page=2');
    expect(page.body.data).toMatchObject({ total: 3, total_pages: 2, has_more: true });
    expect(ibans(await f.ok('GET', '/bank-accounts?start_date=2026-11-22'))).toEqual([]);
    expect(ibans(await f.ok('GET', '/bank-accounts?end_date=2026-11-21')).length).toBe(3);
  });

  it('deletes an account', async () => {
    const f = await firm(server);
    const a = (await f.ok('POST', '/bank-accounts', { iban: VALID.ibanBtrl })).body.data;
    const res = await f.ok('DELETE', `/bank-accounts/${a.id}`);
    expect(res.body).toMatchObject({ success: true, object: 'bank_account', id: a.id, deleted: true });
    expectError(await f.call('GET', `/bank-accounts/${a.id}`), 404, 'resource_missing');
    expectError(await f.call('DELETE', `/bank-accounts/${a.id}`), 404, 'resource_missing');
  });

  it('keeps each company to its own accounts', async () => {
    await expectIsolated(server, {
      create: async (key) => (await server.api(key, 'POST', '/bank-accounts', { iban: VALID.ibanIng })).body.data.id,
      paths: (id) => [`/bank-accounts/${id}`],
      update: { name: 'Intrus' },
      lists: ['/bank-accounts', '/bank-accounts?search=ING'],
    });
  });

  it('needs the bank_accounts scopes', async () => {
    const reader = await firm(server, ['bank_accounts:read']);
    await reader.ok('GET', '/bank-accounts');
    expectError(await reader.call('POST', '/bank-accounts', { iban: VALID.ibanBtrl }), 403, 'insufficient_permissions');
  });
});
