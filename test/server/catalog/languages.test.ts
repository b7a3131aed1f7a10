import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectIsolated } from '../../support/tenancy';
import { expectError, firm } from './helpers';

describe.each(DIALECTS)('languages on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists Romanian alone at first, at top level, with the others available', async () => {
    const f = await firm(server);
    const res = await f.ok('GET', '/languages');
    expect(res.body).toMatchObject({ success: true, object: 'list', total: 1, default_code: 'ro' });
    expect(res.body.data).toEqual([{ id: expect.any(String), object: 'language', code: 'ro', name: 'Română', is_default: true }]);
    expect(res.body.available).toEqual([
      { code: 'en', name: 'English' },
      { code: 'fr', name: 'Français' },
      { code: 'de', name: 'Deutsch' },
      { code: 'hu', name: 'Magyar' },
      { code: 'it', name: 'Italiano' },
      { code: 'es', name: 'Español' },
    ]);
  });

  it('enables languages, retrieves them and keeps a fixed order', async () => {
    const f = await firm(server);
    const de = await f.ok('POST', '/languages', { code: 'DE' });
    expect(de.body.data).toEqual({ id: expect.stringMatching(/^lang_/), object: 'language', code: 'de', name: 'Deutsch', is_default: false });
    await f.ok('POST', '/languages', { code: 'en' });
    const list = await f.ok('GET', '/languages');
    expect(list.body.total).toBe(3);
    expect(list.body.data.map((l: { code: string }) => l.code)).toEqual(['ro', 'en', 'de']);
    expect(list.body.available.map((l: { code: string }) => l.code)).toEqual(['fr', 'hu', 'it', 'es']);
    expect((await f.ok('GET', `/languages/${de.body.data.id}`)).body.data).toEqual(de.body.data);
    expect((await f.ok('GET', `/languages/${list.body.data[0].id}`)).body.data).toMatchObject({ code: 'ro', is_default: true });
  });

  it('refuses other codes with 422 and fields', async () => {
    const f = await firm(server);
    const error = expectError(await f.call('POST', '/languages', { code: 'pl' }), 422, 'validation_error');
    expect(error.fields).toEqual({ code: 'Must be one of: ro, en, fr, de, hu, it, es.' });
    const ro = expectError(await f.call('POST', '/languages?locale=ro', { code: 'ru' }), 422, 'validation_error');
    expect(ro.fields).toEqual({ code: 'Valoare nepermisă; valori posibile: ro, en, fr, de, hu, it, es.' });
    expectError(await f.call('POST', '/languages', {}), 422, 'validation_error');
  });

  it('answers 409 already_enabled for a language enabled twice, and for ro', async () => {
    const f = await firm(server);
    await f.ok('POST', '/languages', { code: 'fr' });
    expect(expectError(await f.call('POST', '/languages', { code: 'fr' }), 409, 'already_enabled').param).toBe('code');
    expectError(await f.call('POST', '/languages', { code: 'ro' }), 409, 'already_enabled');
  });

  it('disables a language with the contract reply, at top level', async () => {
    const f = await firm(server);
    const hu = (await f.ok('POST', '/languages', { code: 'hu' })).body.data;
    const res = await f.ok('DELETE', `/languages/${hu.id}`);
    expect(res.body).toEqual({ success: true, object: 'language', deleted: true, meta: expect.any(Object) });
    expectError(await f.call('GET', `/languages/${hu.id}`), 404, 'resource_missing');
    expectError(await f.call('DELETE', `/languages/${hu.id}`), 404, 'resource_missing');
    expect((await f.ok('GET', '/languages')).body.total).toBe(1);
  });

  it('refuses to disable ro with 409 is_default, and ro stays', async () => {
    const f = await firm(server);
    const ro = (await f.ok('GET', '/languages')).body.data[0];
    const error = expectError(await f.call('DELETE', `/languages/${ro.id}`), 409, 'is_default');
    expect(error.message).toBe('This is the default and stays enabled.');
    expect((await f.ok('GET', '/languages')).body.data[0]).toEqual(ro);
  });

  it('keeps each company to its own languages', async () => {
    await expectIsolated(server, {
      create: async (key) => (await server.api(key, 'POST', '/languages', { code: 'it' })).body.data.id,
      paths: (id) => [`/languages/${id}`],
      methods: ['GET', 'DELETE'],
    });
  });

  it('needs the languages scopes', async () => {
    const reader = await firm(server, ['languages:read']);
    await reader.ok('GET', '/languages');
    expectError(await reader.call('POST', '/languages', { code: 'en' }), 403, 'insufficient_permissions');
  });
});
