import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnafOAuthError } from '../../server/anaf/errors';
import {
  AnafTokenManager,
  MemoryTokenStore,
  buildAuthorizeUrl,
  exchangeCodeForTokens,
  jwtExpiry,
  refreshAnafTokens,
} from '../../server/anaf/oauth';
import { fixedClock } from '../../server/platform/clock';
import { SIM_OAUTH_CLIENT, startAnafSimulator, type AnafSimulator } from '../support/anaf-simulator';
import { COMPANY, connectedClient, consent, expectAnafError, oauthConfig } from './helpers';

let sim: AnafSimulator;
beforeAll(async () => {
  sim = await startAnafSimulator();
});
afterAll(async () => {
  await sim.close();
});

describe('ANAF OAuth2 authorization-code flow', () => {
  it('builds the authorize URL ANAF documents (response_type, client_id, redirect_uri, token_content_type=jwt, state)', () => {
    const url = new URL(buildAuthorizeUrl({ ...SIM_OAUTH_CLIENT }, { state: 'csrf-123' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://logincert.anaf.ro/anaf-oauth2/v1/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: SIM_OAUTH_CLIENT.clientId,
      redirect_uri: SIM_OAUTH_CLIENT.redirectUri,
      token_content_type: 'jwt',
      state: 'csrf-123',
    });
  });

  it('goes authorize -> callback code -> tokens, with expires_at in Unix seconds from the token answer', async () => {
    const config = oauthConfig(sim);
    const callback = await consent(sim, buildAuthorizeUrl(config, { state: 'st-1' }));
    expect(`${callback.origin}${callback.pathname}`).toBe(SIM_OAUTH_CLIENT.redirectUri);
    expect(callback.searchParams.get('state')).toBe('st-1');
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();

    const before = Math.floor(Date.now() / 1000);
    const tokens = await exchangeCodeForTokens(config, code!);
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.access_token.split('.')).toHaveLength(3);
    // 90 days, as ANAF issues them; the JWT's own exp agrees.
    expect(tokens.expires_at).toBeGreaterThanOrEqual(before + 90 * 86_400);
    expect(tokens.expires_at).toBeLessThanOrEqual(before + 90 * 86_400 + 5);
    expect(Math.abs(jwtExpiry(tokens.access_token)! - tokens.expires_at)).toBeLessThanOrEqual(2);
    expect(tokens.refresh_expires_at! - tokens.expires_at).toBeGreaterThan(270 * 86_400);

    const tokenCall = sim.state.requestsTo('/anaf-oauth2/v1/token').at(-1)!;
    const basic = Buffer.from(`${SIM_OAUTH_CLIENT.clientId}:${SIM_OAUTH_CLIENT.clientSecret}`).toString('base64');
    expect(tokenCall.authorization).toBe(`Basic ${basic}`);
    expect(tokenCall.contentType).toBe('application/x-www-form-urlencoded');

    // A code is single use.
    const reuse = await expectAnafError(exchangeCodeForTokens(config, code!));
    expect(reuse).toBeInstanceOf(AnafOAuthError);
    expect((reuse as AnafOAuthError).code).toBe('invalid_grant');
    expect(reuse.kind).toBe('auth');
  });

  it('refreshes: new access token and a rotated refresh token; the old refresh token is then dead', async () => {
    const config = oauthConfig(sim);
    const first = await exchangeCodeForTokens(config, sim.state.issueCode(SIM_OAUTH_CLIENT.clientId, SIM_OAUTH_CLIENT.redirectUri));
    const second = await refreshAnafTokens(config, first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const again = await expectAnafError(refreshAnafTokens(config, first.refresh_token));
    expect((again as AnafOAuthError).code).toBe('invalid_grant');
  });

  it('types a wrong client secret as invalid_client', async () => {
    const err = await expectAnafError(
      exchangeCodeForTokens({ ...oauthConfig(sim), clientSecret: 'wrong' }, sim.state.issueCode(SIM_OAUTH_CLIENT.clientId, SIM_OAUTH_CLIENT.redirectUri)),
    );
    expect(err).toBeInstanceOf(AnafOAuthError);
    expect((err as AnafOAuthError).code).toBe('invalid_client');
  });

  it('rejects a code exchanged with another redirect_uri', async () => {
    const code = sim.state.issueCode(SIM_OAUTH_CLIENT.clientId, SIM_OAUTH_CLIENT.redirectUri);
    const err = await expectAnafError(exchangeCodeForTokens({ ...oauthConfig(sim), redirectUri: 'https://evil.example/cb' }, code));
    expect((err as AnafOAuthError).code).toBe('invalid_grant');
  });
});

describe('AnafTokenManager', () => {
  it('refreshes shortly before expiry and saves both tokens', async () => {
    const clock = fixedClock(Math.floor(Date.now() / 1000));
    const { tokens, store } = await connectedClient(sim, { clock });
    const initial = (await store.get(COMPANY))!;
    const grantsBefore = sim.state.tokenGrants.length;

    expect(await tokens.accessToken(COMPANY)).toBe(initial.access_token);
    expect(sim.state.tokenGrants.length).toBe(grantsBefore);

    // 9 minutes left: inside the 10-minute window.
    clock.set(initial.expires_at - 540);
    const fresh = await tokens.accessToken(COMPANY);
    expect(fresh).not.toBe(initial.access_token);
    expect(sim.state.tokenGrants.slice(grantsBefore)).toEqual(['refresh_token']);
    const saved = (await store.get(COMPANY))!;
    expect(saved.access_token).toBe(fresh);
    expect(saved.refresh_token).not.toBe(initial.refresh_token);
  });

  it('on a 401 from the API, refreshes once and retries the call with the new token', async () => {
    const { client, store } = await connectedClient(sim);
    const before = (await store.get(COMPANY))!;
    sim.state.addReceivedInvoice({ buyerCif: '76543210', sellerCif: '12345674', xml: '<Invoice/>' });
    sim.state.expireAccessTokens(); // ANAF stops accepting the token although it has not reached its exp
    const grantsBefore = sim.state.tokenGrants.length;
    const listCallsBefore = sim.state.requestsTo('listaMesajeFactura').length;

    const list = await client.listMessages({ days: 1, cif: '76543210' });
    expect(list.messages.length).toBeGreaterThan(0);

    expect(sim.state.tokenGrants.slice(grantsBefore)).toEqual(['refresh_token']);
    const calls = sim.state.requestsTo('listaMesajeFactura').slice(listCallsBefore);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.authorization).toBe(`Bearer ${before.access_token}`);
    const after = (await store.get(COMPANY))!;
    expect(calls[1]!.authorization).toBe(`Bearer ${after.access_token}`);
  });

  it('a token past its lifetime on ANAF\'s clock gets a 401, then one refresh and the call goes through', async () => {
    const shortLived = await startAnafSimulator({ accessTokenTtlSeconds: 3_600 });
    try {
      // The manager refreshes only inside its last 10 minutes; ANAF's clock runs ahead of ours.
      const { client } = await connectedClient(shortLived);
      shortLived.state.addReceivedInvoice({ buyerCif: '12345674', sellerCif: '76543210', xml: '<Invoice/>' });
      shortLived.state.advanceTime(3_601);
      const list = await client.listMessages({ days: 1, cif: '12345674' });
      expect(list.messages).toHaveLength(1);
      const auths = shortLived.state.requestsTo('listaMesajeFactura').map((r) => r.authorization);
      expect(auths).toHaveLength(2);
      expect(auths[1]).not.toBe(auths[0]);
      expect(shortLived.state.tokenGrants).toEqual(['authorization_code', 'refresh_token']);
    } finally {
      await shortLived.close();
    }
  });

  it('concurrent callers share one refresh (rotating refresh tokens survive)', async () => {
    const clock = fixedClock(Math.floor(Date.now() / 1000));
    const { tokens, store } = await connectedClient(sim, { clock });
    clock.advance(90 * 86_400);
    const grantsBefore = sim.state.tokenGrants.length;
    const got = await Promise.all([tokens.accessToken(COMPANY), tokens.accessToken(COMPANY), tokens.accessToken(COMPANY)]);
    expect(new Set(got).size).toBe(1);
    expect(sim.state.tokenGrants.slice(grantsBefore)).toEqual(['refresh_token']);
    expect((await store.get(COMPANY))!.access_token).toBe(got[0]);
  });

  it('surfaces a dead refresh token as auth/invalid_grant (the user must consent again)', async () => {
    const { client } = await connectedClient(sim);
    sim.state.expireAccessTokens();
    sim.state.expireRefreshTokens();
    const err = await expectAnafError(client.listMessages({ days: 1, cif: '12345674' }));
    expect(err.kind).toBe('auth');
    expect(err).toBeInstanceOf(AnafOAuthError);
    expect((err as AnafOAuthError).code).toBe('invalid_grant');
  });

  it('has nothing to hand out before consent', async () => {
    const manager = new AnafTokenManager({ oauth: oauthConfig(sim), store: new MemoryTokenStore() });
    const err = await expectAnafError(manager.accessToken('nobody'));
    expect(err.kind).toBe('auth');
  });
});
