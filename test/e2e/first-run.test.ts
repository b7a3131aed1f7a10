import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { API_KEY_SECRET } from '../../main/local/settings';
import { SIM_SELLER_CUI } from '../support/anaf-sim/public-fixtures';
import { startAnafSimulator, type AnafSimulator } from '../support/anaf-simulator';
import { callApi, startTestServer, type TestServer } from '../support/server';
import { startDesktop, type Desktop } from './support/desktop';
import { captureFailure, eventually, leaveSetupWizard, screenshot } from './support/flows';
import { tempDataDir } from './support/stack';

/**
 * A shop's first start, from an EMPTY data folder, in Chromium through the web host: the first-run
 * screen, then either the service inside the app ("Pe acest calculator") or a service started apart
 * ("Conectare la un serviciu"), each failure named in Romanian at its field, until the counter.
 */
const cleanups: (() => Promise<void> | void)[] = [];
let current: Desktop | undefined;

afterEach(async (context) => {
  await captureFailure(current?.page, context);
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function freshDesktop(embeddedEnv: NodeJS.ProcessEnv = {}): Promise<Desktop> {
  const dir = tempDataDir();
  const desktop = await startDesktop({ dataDir: dir.dir, embeddedEnv, engine: { probeDelayMs: { min: 200, max: 400 } } });
  cleanups.push(async () => {
    await desktop.close();
    dir.remove();
  });
  current = desktop;
  return desktop;
}

describe('Pe acest calculator', () => {
  let sim: AnafSimulator;

  it('creates the firm from its CUI in the embedded service and reaches the counter', async () => {
    sim = await startAnafSimulator();
    cleanups.push(() => sim.close());
    const desktop = await freshDesktop({ ANAF_PUBLIC_URL: sim.baseUrls.publicApi });
    const { page } = desktop;
    await page.getByTestId('first-run-title').waitFor();
    expect(await page.getByTestId('first-run-embedded').getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'first-run');

    // A typo in the CUI is caught at the field, before anything is asked of ANAF.
    await page.getByTestId('fr-cui').fill('12345675');
    await page.getByTestId('fr-lookup').click();
    await expect.poll(() => page.getByTestId('first-run-embedded-form').textContent()).toContain('Cifra de control a CUI nu se potrivește');
    expect(await page.getByTestId('fr-lookup-note').count()).toBe(0);

    await page.getByTestId('fr-cui').fill(`RO${SIM_SELLER_CUI}`);
    await page.getByTestId('fr-lookup').click();
    await page.locator('[data-testid=fr-lookup-note][data-note=found]').waitFor();
    expect(await page.getByTestId('fr-name').inputValue()).toBe('EXEMPLU FURNIZOR SRL');
    expect(await page.getByTestId('fr-reg-com').inputValue()).toBe('J40/1234/2020');
    expect(await page.getByTestId('fr-vat-payer').isChecked()).toBe(true);
    await screenshot(page, 'first-run-embedded');

    await page.getByTestId('fr-create').click();
    // A firm made this minute has no series: the setup wizard comes next; this test leaves it for later.
    await page.getByTestId('setup-later').waitFor({ timeout: 30_000 });
    await leaveSetupWizard(desktop);
    expect(await page.getByTestId('screen-title').textContent()).toBe('La tejghea');

    // The firm exists in the service inside the app, which listens on loopback, reached with the key kept in the secret store.
    const { services } = desktop;
    expect(services.embedded.address?.host).toBe('127.0.0.1');
    const key = services.secrets.get(API_KEY_SECRET);
    expect(key).toMatch(/^sk_live_/);
    const base = services.embedded.loopbackBase!;
    const me = await callApi(base, key, 'GET', '/me');
    expect(me.status).toBe(200);
    expect(me.body.data.company).toMatchObject({ name: 'EXEMPLU FURNIZOR SRL', cui: String(SIM_SELLER_CUI) });
    const profile = await callApi(base, key, 'GET', '/company/profile');
    expect(profile.body.data).toMatchObject({ name: 'EXEMPLU FURNIZOR SRL', reg_com: 'J40/1234/2020', vat_payer: true, city: expect.any(String) });
    // Rows in the service's own database: one company, its work point, this counter's key (hashed).
    const db = services.embedded.db();
    expect(await db.selectFrom('companies').select(['cui', 'name']).execute()).toEqual([{ cui: String(SIM_SELLER_CUI), name: 'EXEMPLU FURNIZOR SRL' }]);
    const keys = await db.selectFrom('api_keys').select(['key_hash', 'name']).execute();
    expect(keys).toHaveLength(1);
    expect(keys[0]!.key_hash).not.toContain(key!.slice(8));
    // And the desktop syncs to it: the company shows in the shell and the sync indicator says online.
    await eventually('online', async () => (await page.getByTestId('sync-indicator').getAttribute('data-mode')) === 'online');
    await screenshot(page, 'first-run-done-counter');
  }, 120_000);
});

describe('Conectare la un serviciu', () => {
  let server: TestServer;

  it('checks address and key before saving, says what is wrong in Romanian, and reaches the counter', async () => {
    server = await startTestServer('sqlite');
    cleanups.push(() => server.close());
    const firmA = await server.key({ companyName: 'Magazin Alfa SRL' });
    const firmB = await server.key({ companyName: 'Magazin Beta SRL' });
    const desktop = await freshDesktop();
    const { page } = desktop;
    await page.getByTestId('first-run-remote').click();
    const url = page.getByTestId('fr-url');
    const key = page.getByTestId('fr-key');
    const connect = () => page.getByTestId('fr-connect').click();

    // Typed wrong on the page: no call at all.
    await url.fill('server fara schema');
    await key.fill('cheia');
    await connect();
    expect(await page.getByTestId('fr-url-error').textContent()).toContain('începe cu http:// sau https://');
    expect(await page.getByTestId('fr-key-error').textContent()).toContain('sk_live_');

    // Unreachable.
    await url.fill('http://127.0.0.1:9/v1');
    await key.fill(firmA.api_key);
    await connect();
    await expect.poll(() => page.getByTestId('fr-url-error').textContent(), { timeout: 15_000 }).toContain('nu răspunde');
    await screenshot(page, 'first-run-remote-unreachable');

    // The /v1 left out: said, and offered.
    await url.fill(server.url);
    await connect();
    await expect.poll(() => page.getByTestId('fr-url-error').textContent()).toContain('trebuie să se termine cu /v1');
    expect(await page.getByTestId('fr-use-suggested').textContent()).toContain(`${server.url}/v1`);

    // A key the service does not know.
    await url.fill(server.base);
    await key.fill('sk_live_000000000000000000000000');
    await connect();
    await expect.poll(() => page.getByTestId('fr-key-error').textContent()).toContain('nu recunoaște această cheie');
    // Nothing was saved by any of the failures.
    expect(desktop.services.secrets.get(API_KEY_SECRET)).toBeNull();

    // The right key, through the offered address.
    await key.fill(firmA.api_key);
    await url.fill(server.url);
    await connect();
    await page.getByTestId('fr-use-suggested').click();
    await leaveSetupWizard(desktop);
    expect(desktop.services.secrets.get(API_KEY_SECRET)).toBe(firmA.api_key);
    await eventually('firm A on the shell', async () => (await page.locator('nav').textContent())?.includes('Magazin Alfa SRL'));

    // The key is gone (cleared in Settings): the first screen again, and a key of ANOTHER firm is refused,
    // because the data on this computer is firm A's.
    desktop.services.secrets.delete(API_KEY_SECRET);
    await page.reload();
    await page.getByTestId('first-run-remote').click();
    await page.getByTestId('fr-url').fill(server.base);
    await page.getByTestId('fr-key').fill(firmB.api_key);
    await page.getByTestId('fr-connect').click();
    await expect.poll(() => page.getByTestId('fr-key-error').textContent()).toContain('Cheia este a firmei Magazin Beta SRL');
    await screenshot(page, 'first-run-remote-other-firm');
    expect(desktop.services.secrets.get(API_KEY_SECRET)).toBeNull();
    await page.getByTestId('fr-key').fill(firmA.api_key);
    await page.getByTestId('fr-connect').click();
    await leaveSetupWizard(desktop);
    expect((await callApi(server.base, firmA.api_key, 'GET', '/me')).body.data.company.name).toBe('Magazin Alfa SRL');
  }, 120_000);
});
