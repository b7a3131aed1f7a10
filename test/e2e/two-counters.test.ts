import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { API_KEY_SECRET } from '../../main/local/settings';
import { callApi } from '../support/server';
import { startDesktop, type Desktop } from './support/desktop';
import { captureFailure, eventually, leaveSetupWizard, screenshot } from './support/flows';
import { tempDataDir } from './support/stack';

/**
 * Two counters in one shop on ONE embedded service: counter 1 runs the service ("Pe acest
 * calculator") and opens it to the shop's network from Settings, makes a key for counter 2 there;
 * counter 2 connects to it as to any remote service (over loopback here: tests never use the LAN).
 * Both issue from one shared series online and offline; after sync, no number is used twice and
 * every number the series handed out is an invoice or a registered gap.
 */
const cleanups: (() => Promise<void> | void)[] = [];
let desktops: Desktop[] = [];

afterEach(async (context) => {
  for (const d of desktops) await captureFailure(d.page, { task: { ...context.task, name: `${context.task.name}-${d.dataDir.slice(-6)}` } });
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function fresh(name: string, embeddedEnv: NodeJS.ProcessEnv = {}): Promise<Desktop> {
  const dir = tempDataDir();
  const desktop = await startDesktop({ dataDir: dir.dir, embeddedEnv, deviceName: name, engine: { probeDelayMs: { min: 200, max: 400 } } });
  cleanups.push(async () => {
    await desktop.close();
    dir.remove();
  });
  desktops.push(desktop);
  return desktop;
}

interface Reply {
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}

/** One IPC call through the page's own bridge, as the renderer makes it. */
async function ipc<T = unknown>(d: Desktop, channel: string, payload?: unknown): Promise<T> {
  const reply = await d.page.evaluate(
    ([c, p]) => (window as unknown as { tejghea: { invoke(c: string, p: unknown): Promise<unknown> } }).tejghea.invoke(c as string, p),
    [channel, payload ?? null] as const,
  ) as Reply;
  if (!reply.ok) throw new Error(`${channel}: ${JSON.stringify(reply.error)}`);
  return reply.value as T;
}

async function syncedOut(d: Desktop): Promise<void> {
  await eventually(`outbox of ${d.dataDir} drained`, async () => {
    const status = await ipc<{ mode: string; outbox: { pending: number; failed: number; in_flight: number } }>(d, 'sync.now');
    if (status.outbox.failed > 0) throw new Error(`failed items: ${JSON.stringify(await ipc(d, 'outbox.list', {}))}`);
    return status.mode === 'online' && status.outbox.pending === 0 && status.outbox.in_flight === 0;
  }, 40_000);
}

async function issue(d: Desktop, seriesId: string, clientId: string, what: string): Promise<string> {
  const invoice = await ipc<{ full_number: string | null }>(d, 'invoices.issue', {
    series_id: seriesId,
    client_id: clientId,
    lines: [{ description: what, quantity: 1, unit_price_bani: 1000, vat_rate: 21 }],
  });
  if (!invoice.full_number) throw new Error('issued without a number');
  return invoice.full_number;
}

describe('two counters on one embedded service', () => {
  it('share a series online and offline: no number twice, every gap registered', async () => {
    desktops = [];
    // Counter 1: the service on this computer, created on the first-run screen. ANAF does not answer
    // (nothing listens at its address): the screen says so in Romanian and the firm is typed by hand.
    const one = await fresh('Casa 1', { ANAF_PUBLIC_URL: 'http://127.0.0.1:9', ANAF_TIMEOUT_MS: '1000' });
    await one.page.getByTestId('fr-cui').fill('40075649');
    await one.page.getByTestId('fr-lookup').click();
    await one.page.locator('[data-testid=fr-lookup-note][data-note=unreachable]').waitFor({ timeout: 20_000 });
    expect(await one.page.getByTestId('fr-lookup-note').textContent()).toContain('ANAF nu răspunde acum. Completați datele de mână');
    await screenshot(one.page, 'first-run-anaf-unreachable');
    await one.page.getByTestId('fr-name').fill('Tejghea Demo SRL');
    await one.page.getByTestId('fr-vat-payer').check();
    await one.page.getByTestId('fr-create').click();
    await one.page.getByTestId('setup-later').waitFor({ timeout: 30_000 });
    await leaveSetupWizard(one);
    const port = one.services.embedded.address!.port;
    const base = `http://127.0.0.1:${port}/v1`;
    const ownerKey = one.services.secrets.get(API_KEY_SECRET)!;

    // Settings: open to the shop's network (bound to every interface, same port), make counter 2's key.
    await one.open('#/settings');
    await one.page.getByTestId('embedded-service').waitFor();
    expect(one.services.embedded.address?.host).toBe('127.0.0.1');
    await one.page.getByTestId('embedded-network-open').check();
    await one.page.getByTestId('embedded-addresses').waitFor();
    expect(one.services.embedded.address).toEqual({ host: '0.0.0.0', port });
    const shown = await one.page.getByTestId('embedded-address').allTextContents();
    for (const a of shown) expect(a).toMatch(new RegExp(`^http://\\d+\\.\\d+\\.\\d+\\.\\d+:${port}/v1$`));
    await one.page.getByTestId('embedded-key-name').fill('Casa 2');
    await one.page.getByTestId('embedded-key-create').click();
    const secret = (await one.page.getByTestId('embedded-key-secret').textContent())!.trim();
    expect(secret).toMatch(/^sk_live_[0-9A-Za-z]{24}$/);
    await expect.poll(() => one.page.getByTestId('embedded-key-row').count()).toBe(2);
    await screenshot(one.page, 'settings-embedded-service');

    // Counter 2: a remote service to it (loopback in the test; the printed LAN address in a shop).
    const two = await fresh('Casa 2');
    await two.page.getByTestId('first-run-remote').click();
    await two.page.getByTestId('fr-url').fill(base);
    await two.page.getByTestId('fr-key').fill(secret);
    await two.page.getByTestId('fr-connect').click();
    await leaveSetupWizard(two);
    expect(two.services.embedded.running).toBe(false);

    // One shared series, made through the API; each counter keeps a pool of reserved numbers.
    const created = await callApi(base, ownerKey, 'POST', '/invoice-series', { name: 'TJ', is_primary: true });
    expect(created.status).toBe(201);
    const seriesServerId: string = created.body.data.id;
    const setUp = async (d: Desktop) => {
      await syncedOut(d);
      const list = await ipc<{ id: string; name: string }[]>(d, 'series.list');
      const series = list.find((s) => s.name === 'TJ')!;
      await ipc(d, 'series.setMode', { id: series.id, mode: 'shared', pool_target: 5, low_water: 2 });
      const client = await ipc<{ id: string }>(d, 'clients.create', { type: 'person', name: `Client ${d.dataDir.slice(-4)}`, country: 'RO' });
      return { seriesId: series.id, clientId: client.id };
    };
    const a = await setUp(one);
    const b = await setUp(two);

    // Both online.
    const issued: string[] = [];
    for (let i = 0; i < 2; i++) {
      issued.push(await issue(one, a.seriesId, a.clientId, `online 1.${i}`));
      issued.push(await issue(two, b.seriesId, b.clientId, `online 2.${i}`));
    }
    await syncedOut(one);
    await syncedOut(two);

    // Both offline: the service (inside counter 1) stops; each numbers from its own reserve.
    await one.services.embedded.close();
    for (let i = 0; i < 3; i++) {
      issued.push(await issue(one, a.seriesId, a.clientId, `offline 1.${i}`));
      issued.push(await issue(two, b.seriesId, b.clientId, `offline 2.${i}`));
    }
    // Counter 2 discards one it never sent: its number must become a registered gap.
    const invoices2 = await ipc<{ items: { id: string; full_number: string | null }[] }>(two, 'invoices.list', { limit: 50 });
    const discarded = invoices2.items.find((i) => i.full_number === issued[issued.length - 1])!;
    expect((await ipc<{ released_full_number: string | null }>(two, 'invoices.discard', { id: discarded.id })).released_full_number).toBe(discarded.full_number);
    const kept = issued.filter((n) => n !== discarded.full_number);
    expect(new Set(issued).size).toBe(issued.length);

    // The service comes back on its port (as at the next app start); both sync, then give their reserves up.
    await one.services.ready();
    expect(one.services.embedded.address?.port).toBe(port);
    await syncedOut(one);
    await syncedOut(two);
    await ipc(one, 'series.setMode', { id: a.seriesId, mode: null });
    await ipc(two, 'series.setMode', { id: b.seriesId, mode: null });
    await syncedOut(one);
    await syncedOut(two);

    // On the service: every invoice once, with the number the counter printed; every other number handed out is a gap.
    const onServer = await callApi(base, ownerKey, 'GET', `/invoices?per_page=100`);
    const numbers: { full_number: string; number: number }[] = onServer.body.data.data;
    expect(numbers.map((i) => i.full_number).sort()).toEqual([...kept].sort());
    expect(new Set(numbers.map((i) => i.number)).size).toBe(numbers.length);
    const series = await callApi(base, ownerKey, 'GET', `/invoice-series/${seriesServerId}`);
    const handedOut: number = series.body.data.next_number - 1;
    const gaps = await callApi(base, ownerKey, 'GET', `/invoice-series/${seriesServerId}/gaps?per_page=100`);
    const gapNumbers: number[] = gaps.body.data.data.map((g: { number: number }) => g.number);
    const used = new Set(numbers.map((i) => i.number));
    for (const g of gapNumbers) expect(used.has(g)).toBe(false);
    const all = [...used, ...gapNumbers].sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: handedOut }, (_, i) => i + 1));
    expect(gaps.body.data.data.map((g: { full_number: string }) => g.full_number)).toContain(discarded.full_number);
  }, 240_000);
});
