import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { INJECTED_422, startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { cartAtCounter, eventually, screenshot } from './support/flows';
import { seed, startE2eServer, type E2eServer, type Seed } from './support/stack';

/**
 * The service refusing a sale made online (409 on the number, 422 on the data): the device has
 * issued it locally already, and the push is not retried. The cashier must learn it at the counter
 * in ONE Romanian message saying what to do; the device keeps exactly one document; the outbox holds
 * that one item failed (and what depends on it waiting); the service holds nothing of it, and after
 * the fix exactly one invoice with the number the customer was given.
 */
let server: E2eServer;
let proxy: FaultProxy;
let data: Seed;
let desktop: Desktop;

type Invoke = (channel: string, payload: unknown) => Promise<unknown>;
async function invoke<T>(page: Page, channel: string, payload: unknown): Promise<T> {
  const r = (await page.evaluate(([c, p]) => (window as unknown as { tejghea: { invoke: Invoke } }).tejghea.invoke(c as string, p), [channel, payload] as const)) as { ok: boolean; value: T; error?: unknown };
  if (!r.ok) throw new Error(`${channel}: ${JSON.stringify(r.error)}`);
  return r.value;
}

interface OutboxItem { id: string; kind: string; entity_id: string; state: string }

beforeAll(async () => {
  server = await startE2eServer();
  data = await seed(server);
  // The device talks to the service through a proxy that can answer in the service's place.
  proxy = await startFaultProxy(new URL(server.base).origin);
  desktop = await openDevice({ ...server, base: proxy.base, apiKey: server.apiKey } as E2eServer);
  await desktop.page.setViewportSize({ width: 1366, height: 768 });
}, 240_000);

closeStackAfterAll(() => ({ desktop, server }));

async function localInvoiceCount(page: Page): Promise<number> {
  return (await invoke<{ total: number }>(page, 'invoices.list', { limit: 1, offset: 0 })).total;
}

async function serverInvoicesNumbered(number: string): Promise<{ id: string }[]> {
  const r = await server.api('GET', '/invoices?per_page=100');
  return (r.body.data.data as { id: string; full_number: string }[]).filter((i) => i.full_number === number);
}

/** A walk-in cart of one product, sold with F9; returns the number in the issued panel. */
async function sellOnline(page: Page, query: string): Promise<string> {
  await cartAtCounter(desktop, [query]);
  await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
  await page.keyboard.press('F9');
  await page.getByTestId('issued-panel').waitFor();
  return (await page.getByTestId('issued-number').textContent()) ?? '';
}

/** The one message at the counter: the refusal banner, and no other error (toast) beside it. */
async function refusalShown(page: Page): Promise<string> {
  await page.getByTestId('sale-refused').waitFor({ timeout: 20_000 });
  expect(await page.getByTestId('sale-refused').count()).toBe(1);
  expect(await page.locator('[data-testid=toast].bad').count()).toBe(0);
  return (await page.getByTestId('sale-refused').textContent()) ?? '';
}

describe('the daily cash ceiling (Legea 70/2015)', () => {
  it('warns at the counter, in Romanian, when the day\'s cash from one legal person would pass 5.000 lei, counting the earlier sale; not when the card takes the excess', async () => {
    const { page } = desktop;
    // 5 × 649,99 = 3.249,95 lei in cash: under the ceiling, no warning.
    await cartAtCounter(desktop, ['5*espressor'], 'Exemplu');
    expect(await page.getByTestId('cash-limit').count()).toBe(0);
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    expect(await page.getByTestId('issued-cash-limit').count()).toBe(0);
    await page.keyboard.press('Escape');
    // 3 more: 1.949,97 alone is under, but the day's cash from this client reaches 5.199,92 lei.
    await cartAtCounter(desktop, ['3*espressor'], 'Exemplu');
    const warning = page.getByTestId('cash-limit');
    await warning.waitFor();
    expect(await warning.textContent()).toBe(
      'Atenție: plafonul zilnic de numerar de la o persoană juridică este 5.000,00 lei (Legea 70/2015); cu această vânzare clientul ajunge azi la 5.199,92 lei. Încasați diferența cu cardul sau prin ordin de plată.',
    );
    // 500 lei of it by card: 4.699,92 lei in cash for the day, under the ceiling.
    await page.getByTestId('tender-card').fill('500');
    await expect.poll(() => warning.count()).toBe(0);
    await page.getByTestId('tender-card').fill('');
    await warning.waitFor();
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    // Still said once the sale is made, beside its chitanță.
    await expect.poll(() => page.getByTestId('issued-cash-limit').textContent()).toContain('5.199,92 lei');
    await page.keyboard.press('Escape');
    // The service holds the two chitanțe of the day for this client: 5.199,92 lei.
    await eventually('both chitanțe on the service', async () => {
      const r = await server.api('GET', '/receipts?per_page=100');
      const mine = (r.body.data.data as { client: { id: string } | null; amount: number }[]).filter((x) => x.client?.id === data.clients[0]!.id);
      return mine.length === 2 && Math.round(mine.reduce((sum, x) => sum + x.amount * 100, 0)) === 519_992;
    }, 20_000);
  });
});

describe('the service refuses a sale made online', () => {
  it('422: one Romanian message at the counter naming the field; one local document; the service holds it once after the fix and retry', async () => {
    const { page } = desktop;
    const before = await localInvoiceCount(page);
    proxy.setFilter((method, path) => method === 'POST' && path === '/v1/invoices');
    proxy.plan(['status422']);
    const number = await sellOnline(page, 'filtre');
    const text = await refusalShown(page);
    expect(text).toContain(`Serviciul a refuzat factura ${number}`);
    expect(text).toContain(`rândul 1`);
    expect(text).toContain(INJECTED_422.message.replace(/\.$/, ''));
    expect(text).toContain('Deschideți Sincronizare');
    expect(text).not.toMatch(/lines\.\d|validation_error|Invalid/);
    expect(proxy.counts.status422).toBe(1);
    // F9 again and the button: nothing new is issued.
    await page.keyboard.press('F9');
    await page.waitForTimeout(300);
    expect(await localInvoiceCount(page)).toBe(before + 1);
    // The outbox: the invoice failed, once; the chitanță waits for it; nothing else is queued for this sale.
    const failed = await invoke<{ items: OutboxItem[] }>(page, 'outbox.list', { states: ['failed'] });
    expect(failed.items.map((i) => i.kind)).toEqual(['invoice.create']);
    const waiting = await invoke<{ items: OutboxItem[] }>(page, 'outbox.list', { states: ['pending', 'in_flight'] });
    expect(waiting.items.map((i) => i.kind)).toEqual(['receipt.create']);
    // The service holds nothing of it.
    expect(await serverInvoicesNumbered(number)).toHaveLength(0);

    // The way out the message names: the sync centre; the retry (the cause fixed) sends it once.
    proxy.setFilter(null);
    await page.getByTestId('sale-refused-open-sync').click();
    await page.getByTestId('screen-title').filter({ hasText: 'Sincronizare' }).waitFor();
    await invoke(page, 'outbox.retry', { id: failed.items[0]!.id });
    await eventually('the sale on the service', async () => (await serverInvoicesNumbered(number)).length === 1, 20_000);
    await eventually('outbox empty', async () => {
      const s = await invoke<{ outbox: { pending: number; in_flight: number; failed: number } }>(page, 'sync.status', undefined);
      return s.outbox.pending === 0 && s.outbox.in_flight === 0 && s.outbox.failed === 0;
    }, 20_000);
    const [onServer] = await serverInvoicesNumbered(number);
    const receipts = await server.api('GET', '/receipts?per_page=100');
    expect((receipts.body.data.data as { invoice: { id: string } | null }[]).filter((r) => r.invoice?.id === onServer!.id)).toHaveLength(1);
    expect(await localInvoiceCount(page)).toBe(before + 1);
  });

  it('409: the number released on the service: one Romanian message saying so and what to do; the service holds nothing of the sale', async () => {
    const { page } = desktop;
    const before = await localInvoiceCount(page);
    const serverBefore = (await server.api('GET', '/invoices?per_page=1')).body.data.total as number;
    // The numbers this till holds are released on the service (as an administrator may, for a till
    // thought lost): the till still uses the lowest of them.
    const pending = await server.api('GET', `/invoice-series/${data.seriesId}/reservations?status=pending&per_page=100`);
    const reservations = pending.body.data.data as { token: string; device_id: string }[];
    expect(reservations.length).toBeGreaterThan(0);
    for (const r of reservations) {
      const released = await server.api('POST', `/invoice-series/reservations/${r.token}/release?device_id=${encodeURIComponent(r.device_id)}`);
      expect(released.status).toBe(200);
    }
    const number = await sellOnline(page, 'lapte');
    const text = await refusalShown(page);
    expect(text).toContain(`Serviciul a refuzat factura ${number}: numărul folosit nu mai este rezervat pentru această casă pe serviciu`);
    expect(text).toContain('nu o emiteți din nou');
    await screenshot(page, 'counter-sale-refused');
    expect(await localInvoiceCount(page)).toBe(before + 1);
    const failed = await invoke<{ items: (OutboxItem & { last_error: { code: string } | null })[] }>(page, 'outbox.list', { states: ['failed'] });
    expect(failed.items.map((i) => [i.kind, i.last_error?.code])).toEqual([['invoice.create', 'reservation_released']]);
    expect(await serverInvoicesNumbered(number)).toHaveLength(0);
    expect((await server.api('GET', '/invoices?per_page=1')).body.data.total).toBe(serverBefore);
  });
});
