import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../server/serve';
import { fixedClock } from '../../../server/platform/clock';
import { createApiKey } from '../../../server/platform/api-keys';
import { anafServicesFromEnv, parseTokenKey } from '../../../server/modules/efactura-spv/anaf-services';
import { SIM_OAUTH_CLIENT, startAnafSimulator, type AnafSimulator } from '../../support/anaf-simulator';
import { createTestStorage, type TestStorage } from '../../support/storage';
import { consent, newCui, SELLER_PROFILE, RO_BUYER } from './helpers';

/** serve.ts: the ANAF clients come from ANAF_* variables, and a timer drives the submission poller. */
describe('serve.ts wiring of ANAF', () => {
  let sim: AnafSimulator;
  let storage: TestStorage;
  let running: RunningServer;
  const clock = fixedClock(Math.floor(Date.now() / 1000));

  beforeAll(async () => {
    sim = await startAnafSimulator({ pollsBeforeDone: 0 });
    storage = await createTestStorage('sqlite');
    running = await startServer(
      {
        PORT: '0',
        ANAF_CLIENT_ID: SIM_OAUTH_CLIENT.clientId,
        ANAF_CLIENT_SECRET: SIM_OAUTH_CLIENT.clientSecret,
        ANAF_REDIRECT_URI: SIM_OAUTH_CLIENT.redirectUri,
        ANAF_OAUTH_BASE_URL: sim.baseUrls.oauth,
        ANAF_EFACTURA_TEST_URL: sim.baseUrls.efacturaTest,
        ANAF_EFACTURA_PROD_URL: sim.baseUrls.efacturaProd,
        ANAF_PDF_URL: sim.baseUrls.pdf,
        ANAF_PUBLIC_URL: sim.baseUrls.publicApi,
        ANAF_TOKEN_KEY: 'ab'.repeat(32),
        ANAF_TIMEOUT_MS: '5000',
        ANAF_POLL_SECONDS: '1',
      },
      { storage: storage.storage, clock },
    );
  });
  afterAll(async () => {
    await running?.close();
    await storage?.drop();
    await sim?.close();
  });

  it('links, submits, and lets the timer carry the submission to ANAF’s verdict', async () => {
    const cui = newCui();
    sim.state.spvCifs.add(cui);
    const key = await createApiKey(storage.storage.db, { companyName: 'Serve SRL', cui, now: clock.now() });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${running.url}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key.api_key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as { data: Record<string, string> };
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    expect((await api('GET', '/fiscal/company-lookup?cui=76543210')).name).toBe('EXEMPLU CLIENT SRL');
    await api('PUT', '/company/profile', SELLER_PROFILE);
    const started = await api('GET', '/efactura/oauth/authorize-url');
    expect(started.authorize_url!.startsWith(sim.baseUrls.oauth)).toBe(true);
    expect((await api('POST', '/efactura/oauth/callback', await consent(started.authorize_url!))).encrypted_at_rest).toBe(true);
    await api('POST', '/invoice-series', { name: 'SRV', is_primary: true });
    const inv = await api('POST', '/invoices', { client: RO_BUYER, items: [{ description: 'Abonament', quantity: 1, price: 50, vat_rate: 21 }] });
    const sent = await api('POST', `/invoices/${inv.id}/send-to-spv`, {});
    expect(sent.status).toBe('uploaded');
    // The poller runs every second on the service clock; move that clock past the first check.
    clock.advance(61);
    const deadline = Date.now() + 10_000;
    let status = sent.status;
    while (status !== 'accepted' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await api('GET', `/efactura/submissions/${sent.submission_id}`)).status!;
    }
    expect(status).toBe('accepted');
    expect((await api('GET', `/invoices/${inv.id}`)).efactura_status).toBe('accepted');
  });

  it('refuses half an OAuth configuration and a malformed token key', () => {
    expect(() => anafServicesFromEnv({ ANAF_CLIENT_ID: 'x' }, clock)).toThrow(/all of ANAF_CLIENT_ID, ANAF_CLIENT_SECRET and ANAF_REDIRECT_URI/);
    expect(() => parseTokenKey('short')).toThrow(/32 bytes/);
    expect(parseTokenKey(Buffer.alloc(32, 1).toString('base64'))).toEqual(Buffer.alloc(32, 1));
    const bare = anafServicesFromEnv({}, clock);
    expect(bare.services.oauth).toBeNull();
    expect(bare.warnings).toEqual(['ANAF OAuth is not configured: e-Factura submission and the SPV inbox are off.']);
    expect(bare.pollSeconds).toBe(60);
  });
});
