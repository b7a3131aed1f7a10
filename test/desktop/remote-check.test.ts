import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRemoteService } from '../../main/local/embedded-service/remote-check';
import { startTestServer, type TestServer } from '../support/server';

/** "Conectare la un serviciu": each way the check before saving can end, against the real service. */
describe('checking a remote service before saving it', () => {
  let server: TestServer;
  let page: Server;
  let pageUrl = '';
  beforeAll(async () => {
    server = await startTestServer('sqlite');
    // Some other web server (a router's admin page): answers 200 with HTML everywhere.
    page = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Router</body></html>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const address = page.address();
    pageUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => page.close(resolve));
  });

  it('answers ok with the key’s company, and tells each failure apart', async () => {
    const key = await server.key({ companyName: 'Magazin Alfa SRL' });
    const ok = await checkRemoteService({ base_url: `${server.base}/`, api_key: key.api_key, localCompany: null });
    expect(ok).toMatchObject({ ok: true, base_url: server.base, me: { company: { name: 'Magazin Alfa SRL' } } });

    expect(await checkRemoteService({ base_url: 'http://127.0.0.1:9/v1', api_key: key.api_key, localCompany: null, timeoutMs: 2000 })).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(await checkRemoteService({ base_url: server.url, api_key: key.api_key, localCompany: null })).toEqual({
      ok: false, problem: 'missing_v1', base_url: server.url, suggested_url: server.base,
    });
    expect(await checkRemoteService({ base_url: server.base, api_key: 'sk_live_000000000000000000000000', localCompany: null })).toMatchObject({ ok: false, problem: 'wrong_key' });
    expect(await checkRemoteService({ base_url: pageUrl, api_key: key.api_key, localCompany: null })).toMatchObject({ ok: false, problem: 'not_a_service' });

    const fenced = await server.key({ companyName: 'Magazin Gard SRL', allowIps: ['10.9.8.7'] });
    const refused = await checkRemoteService({ base_url: server.base, api_key: fenced.api_key, localCompany: null });
    expect(refused).toMatchObject({ ok: false, problem: 'refused', status: 401 });
    expect((refused as { message: string }).message).toMatch(/10\.9\.8\.7|IP|adres/i);

    expect(await checkRemoteService({ base_url: server.base, api_key: key.api_key, localCompany: { name: 'Magazin Beta SRL', cui: '18547290' } })).toMatchObject({
      ok: false, problem: 'other_company', local_company: 'Magazin Beta SRL (18547290)',
    });
  });
});
