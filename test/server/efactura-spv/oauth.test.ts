import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStorage, storageConfigFromEnv, type Storage } from '../../../server/db/connect';
import { DbTokenStore, tokenSource } from '../../../server/modules/efactura-spv/token-store';
import { DIALECTS } from '../../support/storage';
import { SIM_OAUTH_CLIENT } from '../../support/anaf-simulator';
import { consent, expectError, firm, link, startEnv, TOKEN_KEY, type Env } from './helpers';

describe.each(DIALECTS)('ANAF OAuth link on %s', (dialect) => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('hands out ANAF’s authorize URL with a single-use state, and links the company through the callback', async () => {
    const f = await firm(env, { link: false });
    const before = await f.ok('GET', '/efactura/oauth/status');
    expect(before.body.data).toMatchObject({ object: 'efactura_oauth', status: 'not_linked', linked: false, connected_at: null });

    const started = await f.ok('GET', '/efactura/oauth/authorize-url');
    const url = new URL(started.body.data.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${env.sim.baseUrls.oauth}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: SIM_OAUTH_CLIENT.clientId,
      redirect_uri: SIM_OAUTH_CLIENT.redirectUri,
      token_content_type: 'jwt',
      state: started.body.data.state,
    });
    expect(started.body.data.expires_at).toBe(env.clock.now() + 15 * 60);

    const back = await consent(started.body.data.authorize_url);
    const done = await f.ok('POST', '/efactura/oauth/callback', back);
    expect(done.body.data).toMatchObject({ status: 'linked', linked: true, connected_at: env.clock.now(), encrypted_at_rest: true });
    expect(done.body.data.access_expires_at).toBeGreaterThan(env.clock.now());
    expect(env.sim.state.tokenGrants.at(-1)).toBe('authorization_code');

    // Encrypted at rest: neither token appears in the row, and they are bound to the company.
    const row = await env.server.storage.db.selectFrom('anaf_oauth_tokens').selectAll().where('company_id', '=', f.companyId).executeTakeFirstOrThrow();
    expect(row.encryption).toBe('aes-256-gcm');
    expect(row.access_token.startsWith('v1.')).toBe(true);
    expect(row.access_token).not.toMatch(/^ey/);
    expect(row.refresh_token).not.toContain('.ey');

    // The same state cannot be used twice.
    expectError(await f.call('POST', '/efactura/oauth/callback', back), 400, 'oauth_state_invalid');
  });

  it('refuses a state of another company, an expired state, and a code ANAF does not accept', async () => {
    const a = await firm(env, { link: false });
    const b = await firm(env, { link: false });
    const startedA = await a.ok('GET', '/efactura/oauth/authorize-url');
    const backA = await consent(startedA.body.data.authorize_url);
    const wrong = expectError(await b.call('POST', '/efactura/oauth/callback', backA), 400, 'oauth_state_invalid');
    expect(wrong.param).toBe('state');

    const late = await a.ok('GET', '/efactura/oauth/authorize-url');
    env.clock.advance(15 * 60 + 1);
    expectError(await a.call('POST', '/efactura/oauth/callback', await consent(late.body.data.authorize_url)), 400, 'oauth_state_invalid');

    const fresh = await a.ok('GET', '/efactura/oauth/authorize-url');
    const rejected = expectError(await a.call('POST', '/efactura/oauth/callback', { code: 'not-a-code', state: fresh.body.data.state }), 400, 'oauth_code_rejected');
    expect(rejected.message).toContain('Invalid authorization code');
    expect((await a.ok('GET', '/efactura/oauth/status')).body.data.linked).toBe(false);
    expectError(await a.call('POST', '/efactura/oauth/callback', { code: '', state: 'x' }), 422, 'validation_error');
  });

  it('agrees with the invoicing module’s assertEinvoicingReady: e-invoicing invoices need the link', async () => {
    const f = await firm(env, { link: false });
    await f.ok('POST', '/invoice-series', { name: 'EF', is_primary: true }, 201);
    const body = { efactura_enabled: true, client: { type: 'company', name: 'Exemplu Client SRL', cui: 'RO76543210', country: 'RO', address: 'Str. Exemplului 1', city: 'Cluj-Napoca', county: 'Cluj' }, items: [{ description: 'Abonament', quantity: 1, price: 10, vat_rate: 21 }] };
    expect(expectError(await f.call('POST', '/invoices', body), 400, 'oauth_not_configured').type).toBe('configuration_error');
    await link(env, f);
    expect((await f.call('POST', '/invoices', body)).status).toBe(201);
    await f.ok('DELETE', '/efactura/oauth');
    expectError(await f.call('POST', '/invoices', body), 400, 'oauth_not_configured');
  });

  it('unlinks, and a second unlink is 404', async () => {
    const f = await firm(env);
    expect((await f.ok('GET', '/efactura/oauth/status')).body.data.status).toBe('linked');
    const gone = await f.ok('DELETE', '/efactura/oauth');
    expect(gone.body).toMatchObject({ success: true, object: 'efactura_oauth', deleted: true });
    expect((await f.ok('GET', '/efactura/oauth/status')).body.data.status).toBe('not_linked');
    expect(expectError(await f.call('DELETE', '/efactura/oauth'), 404, 'resource_missing').param).toBe('oauth');
    // Linking again works (replaces nothing: there is nothing left).
    await link(env, f);
    expect((await f.ok('GET', '/efactura/oauth/status')).body.data.status).toBe('linked');
  });

  it('marks a dead grant as reconsent_required when ANAF refuses the refresh', async () => {
    const f = await firm(env);
    env.sim.state.expireAccessTokens();
    env.sim.state.expireRefreshTokens();
    expectError(await f.call('POST', '/supplier-bills/sync', {}), 400, 'oauth_reconsent_required');
    const status = await f.ok('GET', '/efactura/oauth/status');
    expect(status.body.data.status).toBe('reconsent_required');
    // Consent again: the link works once more.
    await link(env, f);
    expect((await f.ok('GET', '/efactura/oauth/status')).body.data.status).toBe('linked');
  });

  it('needs the efactura scopes', async () => {
    const f = await firm(env, { link: false, profile: false, scopes: ['efactura:read'] });
    expect((await f.call('GET', '/efactura/oauth/status')).status).toBe(200);
    expectError(await f.call('GET', '/efactura/oauth/authorize-url'), 403, 'insufficient_permissions');
  });
});

describe.each(DIALECTS)('ANAF token refresh shared by two processes on %s', (dialect) => {
  let env: Env;
  /** The second process's own connection(s) to the same database. */
  let second: Storage;
  beforeAll(async () => {
    env = await startEnv(dialect);
    second = openStorage(storageConfigFromEnv(env.server.env));
  });
  afterAll(async () => {
    await second?.close();
    await env?.close();
  });

  /** What each process builds for itself: its own DbTokenStore and AnafTokenManager on its own connection. */
  const processA = () => tokenSource({ storage: env.server.storage, clock: env.clock, anaf: env.anaf });
  const processB = () => tokenSource({ storage: second, clock: env.clock, anaf: env.anaf });
  const row = (companyId: string) =>
    env.server.storage.db.selectFrom('anaf_oauth_tokens').selectAll().where('company_id', '=', companyId).executeTakeFirstOrThrow();
  const tokenRequests = () => env.sim.state.requestsTo('/anaf-oauth2/v1/token').length;
  const refreshGrants = () => env.sim.state.tokenGrants.filter((g) => g === 'refresh_token').length;

  /** A linked firm whose access token is a minute from expiry: the next use refreshes it. */
  async function expiringFirm() {
    const f = await firm(env);
    await env.server.storage.db.updateTable('anaf_oauth_tokens').set({ expires_at: env.clock.now() + 60 }).where('company_id', '=', f.companyId).execute();
    return { f, before: await row(f.companyId) };
  }

  it('marks a grant dead only on the tokens ANAF refused: tokens saved in between keep it alive', async () => {
    const { f, before } = await expiringFirm();
    const store = new DbTokenStore(env.server.storage.db, TOKEN_KEY, () => env.clock.now());
    const seen = Number(before.token_version);
    // Another process refreshed and saved between this one's refusal and its mark.
    const { version: _version, ...tokens } = (await store.get(f.companyId))!;
    await store.save(f.companyId, tokens);
    expect(await store.markGrantDead(f.companyId, seen)).toBe(false);
    expect(await row(f.companyId)).toMatchObject({ reconsent_required: 0, token_version: seen + 1 });
    expect((await f.ok('GET', '/efactura/oauth/status')).body.data.status).toBe('linked');
    // Refused on the tokens still stored: the company must consent again, and no claim is left behind.
    const now = env.clock.now();
    expect(await store.claimRefresh(f.companyId, seen + 1, now, now + 30)).toBe(true);
    expect(await store.markGrantDead(f.companyId, seen + 1)).toBe(true);
    expect(await row(f.companyId)).toMatchObject({ reconsent_required: 1, refresh_lease_until: null, token_version: seen + 1 });
    expect((await f.ok('GET', '/efactura/oauth/status')).body.data.status).toBe('reconsent_required');
  });

  it('spends the refresh token once when both processes find the access token expiring at the same moment', async () => {
    const { f, before } = await expiringFirm();
    const [requests, grants] = [tokenRequests(), refreshGrants()];
    const [a, b] = await Promise.all([processA().accessToken(f.companyId), processB().accessToken(f.companyId)]);
    expect(tokenRequests() - requests).toBe(1);
    expect(refreshGrants() - grants).toBe(1);
    expect(a).toBe(b);
    expect(env.sim.state.accessTokenValid(a)).toBe(true);
    const after = await row(f.companyId);
    expect(after).toMatchObject({ reconsent_required: 0, refresh_lease_until: null, token_version: Number(before.token_version) + 1 });
    expect(Number(after.expires_at)).toBeGreaterThan(env.clock.now() + 86_400);
    expect((await f.ok('GET', '/efactura/oauth/status')).body.data.status).toBe('linked');
  });

  it('takes over the refresh of a process that died holding the claim, once its lease expires', async () => {
    const { f, before } = await expiringFirm();
    // The dead process: it claimed the refresh and never saved.
    const dead = new DbTokenStore(env.server.storage.db, TOKEN_KEY, () => env.clock.now());
    const now = env.clock.now();
    expect(await dead.claimRefresh(f.companyId, Number(before.token_version), now, now + 30)).toBe(true);
    const requests = tokenRequests();

    const waiting = processB().accessToken(f.companyId);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(tokenRequests()).toBe(requests);
    env.clock.advance(31);
    const token = await waiting;

    expect(tokenRequests() - requests).toBe(1);
    expect(env.sim.state.accessTokenValid(token)).toBe(true);
    expect(await row(f.companyId)).toMatchObject({ reconsent_required: 0, refresh_lease_until: null, token_version: Number(before.token_version) + 1 });
    // The first process, alive after all, simply uses the stored token.
    expect(await processA().accessToken(f.companyId)).toBe(token);
  });

  it('uses the newer token, not reconsent, when its refresh token was already spent by a process that took over', async () => {
    const { f, before } = await expiringFirm();
    const [requests, grants] = [tokenRequests(), refreshGrants()];
    // A's refresh request reaches ANAF only after its lease has expired and B has refreshed.
    env.sim.state.stallNext(800, 1, '/anaf-oauth2/v1/token');
    const slow = processA().accessToken(f.companyId);
    await vi.waitFor(() => expect(tokenRequests()).toBe(requests + 1));
    env.clock.advance(31);
    const fast = await processB().accessToken(f.companyId);
    const late = await slow;

    expect(late).toBe(fast);
    expect(tokenRequests() - requests).toBe(2);
    expect(refreshGrants() - grants).toBe(1);
    expect(await row(f.companyId)).toMatchObject({ reconsent_required: 0, refresh_lease_until: null, token_version: Number(before.token_version) + 1 });
    expect((await f.ok('GET', '/efactura/oauth/status')).body.data.status).toBe('linked');
  });
});

describe.each(DIALECTS)('company profile on %s', (dialect) => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('starts empty, says what e-Factura still needs, and stores counties as ISO codes', async () => {
    const f = await firm(env, { profile: false, link: false });
    const empty = await f.ok('GET', '/company/profile');
    expect(empty.body.data).toMatchObject({
      object: 'company_profile', cui: f.cui, vat_payer: true, vat_id: `RO${f.cui}`, street: null, country_code: 'RO',
      missing_for_efactura: ['street', 'city', 'county'], updated_at: null,
    });
    const put = await f.ok('PUT', '/company/profile', { street: 'Calea Victoriei 10', city: 'Sector 3', county: 'Municipiul București', iban: 'ro49 aaaa 1b31 0075 9384 0000' });
    expect(put.body.data).toMatchObject({ county_code: 'RO-B', iban: 'RO49AAAA1B31007593840000', missing_for_efactura: [], updated_at: env.clock.now() });
    const partial = await f.ok('PUT', '/company/profile', { county: 'CJ', vat_payer: false, reg_com: null });
    expect(partial.body.data).toMatchObject({ county_code: 'RO-CJ', street: 'Calea Victoriei 10', vat_payer: false, vat_id: null });
    const bad = expectError(await f.call('PUT', '/company/profile', { county: 'Atlantida', iban: 'RO00XXXX' }), 422, 'validation_error');
    expect(Object.keys(bad.fields as object).sort()).toEqual(['county', 'iban']);
  });
});

describe('without ANAF configured', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv('sqlite', { oauth: false });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('answers 503 anaf_not_configured for the OAuth link', async () => {
    const f = await firm(env, { link: false });
    const error = expectError(await f.call('GET', '/efactura/oauth/authorize-url'), 503, 'anaf_not_configured');
    expect(error.type).toBe('configuration_error');
  });

  it('stores tokens in clear without a key, and says so', async () => {
    const clear = await startEnv('sqlite', { tokenKey: null });
    try {
      const f = await firm(clear);
      expect((await f.ok('GET', '/efactura/oauth/status')).body.data.encrypted_at_rest).toBe(false);
      const row = await clear.server.storage.db.selectFrom('anaf_oauth_tokens').selectAll().executeTakeFirstOrThrow();
      expect(row.encryption).toBe('none');
      expect(row.access_token).toMatch(/^ey/);
    } finally {
      await clear.close();
    }
  });
});
