import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMainServices, type RunningServices } from '../../main/app/services';
import { createRouter } from '../../main/ipc/index';
import { FileSecretStore } from '../../main/secrets/file-store';
import { SIM_SELLER_CUI, SIM_UNKNOWN_CUI } from '../support/anaf-sim/public-fixtures';
import { startAnafSimulator, type AnafSimulator } from '../support/anaf-simulator';
import { callApi } from '../support/server';
import { removeTempDirs, tempDir } from './support/harness';

const sender = { host: 'web' as const, url: 'http://x', isMainFrame: true };

function open(dataDir: string, env: NodeJS.ProcessEnv): RunningServices {
  return createMainServices({ dataDir, defaultApiUrl: 'https://api.tejghea.ro/v1', secrets: new FileSecretStore(dataDir), host: { kind: 'web' }, timers: false, embeddedEnv: env, device: { name: 'Casa 1', platform: 'linux' } });
}

describe('the embedded service', () => {
  const opened: RunningServices[] = [];
  let sim: AnafSimulator | undefined;
  afterAll(async () => {
    for (const s of opened) await s.close();
    await sim?.close();
    removeTempDirs();
  });

  it('creates the company from ANAF data in its own SQLite file, syncs to it on loopback, and comes back on the same port after a restart', async () => {
    sim = await startAnafSimulator();
    const env = { ANAF_PUBLIC_URL: sim.baseUrls.publicApi };
    const dataDir = tempDir();
    let services = open(dataDir, env);
    opened.push(services);
    await services.ready();
    let router = createRouter(services, () => true);
    const call = async (channel: string, payload?: unknown) => {
      const reply = await router.dispatch(channel, payload, sender);
      if (!reply.ok) throw new Error(`${channel}: ${JSON.stringify(reply.error)}`);
      return reply.value as never as Record<string, unknown> & { [k: string]: never };
    };
    expect(await call('setup.status')).toMatchObject({ needs_first_run: true, mode: null, embedded: { running: false } });

    expect(await call('setup.lookupCompany', { cui: '12345675' })).toEqual({ status: 'invalid_cui', reason: 'checksum' });
    expect(await call('setup.lookupCompany', { cui: String(SIM_UNKNOWN_CUI) })).toEqual({ status: 'not_found' });
    const found = (await call('setup.lookupCompany', { cui: `RO${SIM_SELLER_CUI}` })) as unknown as { status: string; company: Record<string, string | boolean> };
    expect(found.status).toBe('found');
    expect(found.company).toMatchObject({ name: 'EXEMPLU FURNIZOR SRL', reg_com: 'J40/1234/2020', vat_payer: true });

    const status = (await call('setup.createEmbedded', {
      cui: String(SIM_SELLER_CUI), name: String(found.company.name), reg_com: String(found.company.reg_com), street: String(found.company.street),
      city: String(found.company.city), county: String(found.company.county), postal_code: String(found.company.postal_code), vat_payer: true, vat_on_collection: false,
    })) as unknown as { needs_first_run: boolean; mode: string; embedded: { running: boolean; port: number; network_open: boolean } };
    expect(status).toMatchObject({ needs_first_run: false, mode: 'embedded', embedded: { running: true, network_open: false } });
    expect(existsSync(join(dataDir, 'service', 'tejghea-service.sqlite'))).toBe(true);
    // Loopback only.
    expect(services.embedded.address?.host).toBe('127.0.0.1');
    const base = `http://127.0.0.1:${status.embedded.port}/v1`;
    const settings = (await call('settings.get')) as unknown as { api_url: string; company: { cui: string } };
    expect(settings.api_url).toBe(base);
    expect(settings.company.cui).toBe(String(SIM_SELLER_CUI));

    // The service itself holds the company, with the profile from ANAF, for this desktop's key.
    const key = services.secrets.get('api_key')!;
    const profile = await callApi(base, key, 'GET', '/company/profile');
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({ name: 'EXEMPLU FURNIZOR SRL', cui: String(SIM_SELLER_CUI), reg_com: 'J40/1234/2020', vat_payer: true });

    // A client made on the desktop reaches the service through the outbox, as with any service.
    await call('clients.create', { type: 'person', name: 'Ion Popescu', country: 'RO' });
    await call('sync.now');
    const clients = await callApi(base, key, 'GET', '/clients');
    expect(clients.body.data.data.map((c: { name: string }) => c.name)).toContain('Ion Popescu');

    // Keys for the other counters: made, listed (never the secret), revoked; this desktop's own key cannot be revoked.
    const made = (await call('setup.keys.create', { name: 'Casa 2' })) as unknown as { id: string; api_key: string };
    expect((await callApi(base, made.api_key, 'GET', '/me')).status).toBe(200);
    const listed = (await call('setup.keys.list')) as unknown as { id: string; own: boolean; name: string; status: string }[];
    // Both keys were made within one second: compare them in name order, not in the listing's tie order.
    expect(listed.map((k) => [k.name, k.own, k.status]).sort()).toEqual([['Casa 2', false, 'active'], ['Casa: Casa 1', true, 'active']]);
    expect(JSON.stringify(listed)).not.toContain(made.api_key);
    const own = listed.find((k) => k.own)!;
    expect((await router.dispatch('setup.keys.revoke', { id: own.id }, sender)).ok).toBe(false);
    expect(await call('setup.keys.revoke', { id: made.id })).toEqual({ revoked: true });
    // The service trusts a looked-up key for a few seconds; a fresh one must be refused once that passes.
    await expect.poll(async () => (await callApi(base, made.api_key, 'GET', '/me')).status, { timeout: 10_000, interval: 500 }).toBe(401);

    // Opened to the network: bound to every interface, same port; closed again: loopback.
    const opened1 = (await call('setup.setNetworkOpen', { open: true })) as unknown as { embedded: { network_open: boolean; port: number } };
    expect(opened1.embedded).toMatchObject({ network_open: true, port: status.embedded.port });
    expect(services.embedded.address).toEqual({ host: '0.0.0.0', port: status.embedded.port });
    // (A kept-alive socket to the closed listener may fail once: ask again, as the sync engine does.)
    await expect.poll(async () => (await callApi(base, key, 'GET', '/me').catch(() => ({ status: 0 }))).status).toBe(200);
    await call('setup.setNetworkOpen', { open: false });
    expect(services.embedded.address?.host).toBe('127.0.0.1');

    // A restart: the service comes back on its port by itself, and the data is there.
    await services.close();
    opened.length = 0;
    services = open(dataDir, env);
    opened.push(services);
    await services.ready();
    router = createRouter(services, () => true);
    expect(services.embedded.address?.port).toBe(status.embedded.port);
    await expect.poll(async () => (await callApi(base, key, 'GET', '/me').catch(() => ({ status: 0 }))).status).toBe(200);
    expect((await callApi(base, key, 'GET', '/clients')).body.data.data.map((c: { name: string }) => c.name)).toContain('Ion Popescu');

    // The key cleared: the first-run screen again, and only this computer's firm may be set up on its data.
    await call('settings.clearApiKey');
    expect(await call('setup.status')).toMatchObject({ needs_first_run: true });
    const other = await router.dispatch('setup.createEmbedded', { cui: '40075649', name: 'Alta SRL', vat_payer: false, vat_on_collection: false }, sender);
    expect(other).toMatchObject({ ok: false, error: { code: 'validation_error', fields: { cui: expect.stringContaining('EXEMPLU FURNIZOR SRL') } } });
    await call('setup.createEmbedded', { cui: String(SIM_SELLER_CUI), name: 'EXEMPLU FURNIZOR SRL', vat_payer: true, vat_on_collection: false });
    expect(await call('setup.status')).toMatchObject({ needs_first_run: false, mode: 'embedded' });
    await expect.poll(async () => (await callApi(base, services.secrets.get('api_key'), 'GET', '/me').catch(() => ({ status: 0 }))).status).toBe(200);
    // The cleared key was revoked: one active key of this computer, not two.
    const mine = (await call('setup.keys.list')) as unknown as { own: boolean; status: string; name: string }[];
    expect(mine.filter((k) => k.name === 'Casa: Casa 1').map((k) => [k.own, k.status])).toEqual([[false, 'revoked'], [true, 'active']]);

    // Moved to a hosted service (the address changed in Settings): at the next start this computer no longer serves.
    await call('settings.update', { api_url: 'https://api.example.test/v1' });
    await services.close();
    opened.length = 0;
    services = open(dataDir, env);
    opened.push(services);
    await services.ready();
    expect(services.embedded.running).toBe(false);
    const after = createRouter(services, () => true);
    expect(await after.dispatch('settings.get', undefined, sender)).toMatchObject({ ok: true, value: { api_url: 'https://api.example.test/v1' } });
    expect(await after.dispatch('setup.status', undefined, sender)).toMatchObject({ ok: true, value: { mode: 'remote', needs_first_run: false } });
  }, 60_000);

  it('says so when the system has no keychain for the key, and keeps nothing in clear', async () => {
    const dataDir = tempDir();
    const refusing = { kind: 'safe-storage' as const, get: () => null, set: () => { throw new Error('OS encryption is not available'); }, delete: () => undefined };
    const services = createMainServices({ dataDir, defaultApiUrl: 'https://api.tejghea.ro/v1', secrets: refusing, host: { kind: 'web' }, timers: false, embeddedEnv: {} });
    opened.push(services);
    const router = createRouter(services, () => true);
    const reply = await router.dispatch('setup.createEmbedded', { cui: '40075649', name: 'Tejghea Demo SRL', vat_payer: true, vat_on_collection: false }, sender);
    expect(reply).toMatchObject({ ok: false, error: { type: 'unavailable', code: 'secret_store_unavailable' } });
    expect((reply as { error: { message: string } }).error.message).toContain('keychain');
    expect(await router.dispatch('setup.status', undefined, sender)).toMatchObject({ ok: true, value: { needs_first_run: true, mode: null } });
  }, 30_000);

  it('says ANAF is unreachable instead of waiting forever', async () => {
    const services = open(tempDir(), { ANAF_PUBLIC_URL: 'http://127.0.0.1:9', ANAF_TIMEOUT_MS: '1000' });
    opened.push(services);
    const router = createRouter(services, () => true);
    const reply = await router.dispatch('setup.lookupCompany', { cui: String(SIM_SELLER_CUI) }, sender);
    expect(reply).toEqual({ ok: true, value: { status: 'unreachable' } });
  }, 30_000);
});
