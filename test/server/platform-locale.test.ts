import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { resolveLocale } from '../../server/platform/locale';
import { allMessageCodes, messageFor, messageTexts } from '../../server/platform/messages';
// Every module registers its messages when its routes are imported.
import '../../server/modules/index';

describe('locale', () => {
  it('takes the locale parameter, then Accept-Language by weight, else English', () => {
    expect(resolveLocale('ro', 'en')).toBe('ro');
    expect(resolveLocale('en', 'ro')).toBe('en');
    expect(resolveLocale(undefined, 'ro-RO,ro;q=0.9,en;q=0.8')).toBe('ro');
    expect(resolveLocale(undefined, 'de-DE, ro;q=0.5, en;q=0.4')).toBe('ro');
    expect(resolveLocale(undefined, 'en-GB, ro;q=0.9')).toBe('en');
    expect(resolveLocale(undefined, 'ro;q=0, en;q=0.1')).toBe('en');
    expect(resolveLocale(undefined, 'fr')).toBe('en');
    expect(resolveLocale('fr', undefined)).toBe('en');
    expect(resolveLocale(undefined, undefined)).toBe('en');
  });

  it('has every error message in English and Romanian, different, with the same placeholders', () => {
    const codes = allMessageCodes();
    expect(codes.length).toBeGreaterThan(15);
    for (const code of codes) {
      const text = messageTexts(code)!;
      expect(text.en.trim(), `${code} in English`).not.toBe('');
      expect(text.ro.trim(), `${code} in Romanian`).not.toBe('');
      expect(text.ro, `${code} is translated`).not.toBe(text.en);
      const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(placeholders(text.ro), `${code} placeholders`).toEqual(placeholders(text.en));
    }
    expect(messageFor('ip_restricted', 'ro', { ip: '10.1.1.1' })).toBe('Această cheie API nu poate fi folosită de la adresa 10.1.1.1.');
  });

  describe('over HTTP', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer('sqlite');
    });
    afterAll(async () => {
      await server?.close();
    });

    it('answers errors in the language asked, English by default', async () => {
      const en = await server.api(null, 'GET', '/me');
      expect(en.body.error.message).toBe('No API key provided. Send it as `Authorization: Bearer <API_KEY>`.');
      const ro = await server.api(null, 'GET', '/me?locale=ro');
      expect(ro.body.error.message).toBe('Lipsește cheia API. Trimiteți-o ca `Authorization: Bearer <API_KEY>`.');
      const header = await server.api(null, 'GET', '/me', undefined, { 'accept-language': 'ro-RO,ro;q=0.9' });
      expect(header.body.error.message).toBe(ro.body.error.message);
      const paramWins = await server.api(null, 'GET', '/me?locale=en', undefined, { 'accept-language': 'ro' });
      expect(paramWins.body.error.message).toBe(en.body.error.message);
      const notFound = await server.api(null, 'GET', '/nicaieri?locale=ro');
      expect(notFound.body.error.message).toBe('Acest endpoint nu există: GET /v1/nicaieri.');
    });

    it('words validation fields in the language asked', async () => {
      const key = await server.key();
      const ro = await server.api(key.api_key, 'POST', '/work-points?locale=ro', { address: 5 });
      expect(ro.status).toBe(422);
      expect(ro.body.error.message).toBe('Unele câmpuri ale cererii nu sunt valide.');
      expect(ro.body.error.fields).toEqual({ name: 'Câmp obligatoriu.', address: 'Tip greșit: se aștepta string.' });
      const en = await server.api(key.api_key, 'POST', '/work-points', { address: 5 });
      expect(en.body.error.fields).toEqual({ name: 'Required.', address: 'Expected string.' });
    });

    it('words a format rule with its own `English|Română` message, and one without it generically', async () => {
      const key = await server.key();
      const en = await server.api(key.api_key, 'POST', '/receipt-series', { prefix: 'C H' });
      expect(en.status, en.text).toBe(422);
      expect(en.body.error.fields).toEqual({ prefix: 'Letters and digits' });
      const ro = await server.api(key.api_key, 'POST', '/receipt-series', { prefix: 'C H' }, { 'accept-language': 'ro' });
      expect(ro.body.error.fields).toEqual({ prefix: 'Litere și cifre' });
      expect((await server.api(key.api_key, 'GET', '/receipt-series')).body.data.total).toBe(0);
      // GET /expenses checks `currency` with a bare regex: zod's own text is not shown.
      const bare = await server.api(key.api_key, 'GET', '/expenses?currency=EURO');
      expect(bare.status, bare.text).toBe(422);
      expect(bare.body.error.fields).toEqual({ currency: 'Invalid format (regex).' });
      const bareRo = await server.api(key.api_key, 'GET', '/expenses?currency=EURO&locale=ro');
      expect(bareRo.body.error.fields).toEqual({ currency: 'Format nevalid (regex).' });
    });
  });
});
