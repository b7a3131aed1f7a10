import { beforeAll, describe, expect, it } from 'vitest';
import { toBani } from '../../shared/money';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { eventually, indicator, openInvoiceByNumber, screenshot, sellAtCounter } from './support/flows';
import { seed, startE2eServer, type E2eServer } from './support/stack';

/**
 * Offline first, for real: the service is stopped (connections refused), the counter keeps issuing
 * final numbers from the device's reserve, the sync indicator and the sync centre say what waits,
 * and when the service is back the engine sends everything on its own. Then a change the server
 * refuses: shown with the server's reason, fixed, retried.
 */
let server: E2eServer;
let desktop: Desktop;

beforeAll(async () => {
  server = await startE2eServer();
  await seed(server);
  desktop = await openDevice(server, { min: 200, max: 500 });
}, 180_000);

closeStackAfterAll(() => ({ desktop, server }));

async function outboxFailures(): Promise<string> {
  return desktop.page.evaluate(async () => JSON.stringify(await (window as unknown as { tejghea: { invoke(c: string, p: unknown): Promise<unknown> } }).tejghea.invoke('outbox.list', {})));
}

describe('offline at the counter', () => {
  it('issues 5 invoices while the server is stopped, then watches them sync when it is back', async () => {
    const { page } = desktop;
    await server.stop();
    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    await eventually('offline', async () => (await indicator(page)).mode === 'offline');

    const sales = [
      { entries: ['cafea'], client: 'Exemplu' },
      { entries: ['2*5941234567920', 'cană'], client: 'Cafeneaua', payment: 'card' as const },
      { entries: ['râșniță'], client: '14399840', payment: 'bank_order' as const },
      { entries: ['3*ceai'], client: 'Exemplu' },
      { entries: ['espressor', 'filtre'], client: 'Cafeneaua' },
    ];
    const numbers: string[] = [];
    for (const sale of sales) numbers.push(await sellAtCounter(desktop, sale));
    // Final, consecutive numbers from this device's reserve, with no server in sight.
    const seq = numbers.map((n) => Number(n.split('-').pop()));
    expect(seq).toEqual([seq[0], seq[0]! + 1, seq[0]! + 2, seq[0]! + 3, seq[0]! + 4]);
    expect(await page.getByTestId('issued-panel').textContent()).toContain('număr din rezerva dispozitivului');
    const waiting = await indicator(page);
    expect(waiting.mode).toBe('offline');
    // Five invoices, the three cash receipts that go with the cash sales, and the card sale's payment.
    expect(waiting.pending).toBe(9);
    await screenshot(page, 'counter-offline');

    await desktop.open('#/invoices');
    await page.getByTestId('filter-unsynced').check();
    await expect.poll(() => page.getByTestId('invoice-list').getAttribute('data-total')).toBe('5');
    await desktop.open('#/sync');
    await expect.poll(() => page.getByTestId('outbox-item').count()).toBe(9);
    await screenshot(page, 'sync-offline');

    // Back online: nobody clicks anything; the engine's reconnect probe finds the service and pushes.
    await server.start();
    await eventually('everything synced', async () => {
      const s = await indicator(page);
      return s.mode === 'online' && s.pending === 0 && s.failed === 0;
    }, 30_000);
    await expect.poll(() => page.getByTestId('outbox-empty').isVisible()).toBe(true);

    const list = await server.api('GET', '/invoices?per_page=100');
    const onServer = new Map<string, { totals: { total: number } }>(list.body.data.data.map((i: { full_number: string; totals: { total: number } }) => [i.full_number, i]));
    for (const n of numbers) expect(onServer.has(n), n).toBe(true);
    // The local copies and the server's agree to the ban.
    await desktop.open('#/invoices');
    for (const n of numbers) {
      await page.getByTestId('invoice-search').fill(n);
      // Wait for this search's result, not the previous one still on screen.
      const row = await eventually(`row ${n}`, async () => {
        const text = await page.getByTestId('vrow').first().textContent();
        return (await page.getByTestId('invoice-list').getAttribute('data-total')) === '1' && text?.startsWith(n) ? text : null;
      });
      expect(row).toContain('Sincronizat');
      const total = toBani(onServer.get(n)!.totals.total);
      expect(row?.replace(/\s/g, ' ')).toContain(`${(total / 100).toFixed(2).replace('.', ',').replace(/\B(?=(\d{3})+(?!\d))/g, '.')} lei`);
    }
  });

  it('discards an invoice that never reached the server: its number becomes a documented gap', async () => {
    const { page } = desktop;
    await server.stop();
    const number = await sellAtCounter(desktop, { entries: ['lapte'], client: 'Exemplu', payment: 'card' });
    await openInvoiceByNumber(desktop, number);
    await page.getByTestId('detail-discard').click();
    await page.getByTestId('dialog-confirm').click();
    await page.getByTestId('invoices-screen').waitFor();
    await server.start();
    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    await eventually('release synced', async () => {
      const s = await indicator(page);
      return s.mode === 'online' && s.pending === 0 && s.failed === 0;
    }, 30_000);
    await desktop.open('#/series');
    await page.getByTestId('series-row').first().click();
    await expect.poll(() => page.getByTestId('gap-register').textContent(), { timeout: 15_000 }).toContain(number);
    expect(await page.getByTestId('gap-register').textContent()).toContain('Eliberat');
    await screenshot(page, 'series');
    const invoices = await server.api('GET', '/invoices?per_page=100');
    expect(invoices.body.data.data.some((i: { full_number: string }) => i.full_number === number)).toBe(false);
  });
});

describe('the chitanță offline', () => {
  it('prints a numbered chitanță at once, offline, from a receipt series locked on this device', async () => {
    const { page } = desktop;
    const series = await server.api('POST', '/receipt-series', { prefix: 'CHT', description: 'Casa 1' });
    expect(series.status).toBeLessThan(300);
    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    await eventually('synced', async () => (await indicator(page)).pending === 0);
    await desktop.open('#/series');
    await page.getByTestId('series-row').filter({ hasText: 'CHT' }).click();
    await expect.poll(() => page.getByTestId('series-panel').textContent()).toContain('CHT');
    // A receipt series numbers offline under a lock or from a reserve of numbers: both are offered.
    expect(await page.getByTestId('series-shared').isEnabled()).toBe(true);
    await page.getByTestId('series-exclusive').click();
    await expect.poll(() => page.getByTestId('series-panel').textContent(), { timeout: 15_000 }).toContain('Exclusivă');
    // Receipt numbers never restart: the panel shows no year for them.
    expect(await page.getByTestId('series-panel').textContent()).not.toContain('Anul');

    await server.stop();
    await sellAtCounter(desktop, { entries: ['2*cafea'], client: 'Exemplu' });
    const receiptButton = page.getByTestId('print-receipt');
    expect(await receiptButton.isEnabled()).toBe(true);
    const panel = (await page.getByTestId('issued-panel').textContent()) ?? '';
    const receiptNumber = /chitanța (CHT-\d+)/.exec(panel)?.[1];
    expect(receiptNumber).toBeDefined();
    await receiptButton.click();
    const html = await eventually('printed chitanță', async () => {
      const src = await page.getByTestId('print-frame').getAttribute('srcdoc');
      return src?.includes(receiptNumber!) ? src : null;
    });
    expect(html).toContain('Am primit de la');
    expect(html).toContain('Client Exemplu SRL');
    // 2 x 89,90 = 179,80 lei
    expect(html).toContain('o sută șaptezeci și nouă lei și optzeci bani');
    await server.start();
    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    await eventually('synced', async () => {
      const s = await indicator(page);
      return s.mode === 'online' && s.pending === 0 && s.failed === 0;
    }, 30_000);
    const receipts = await server.api('GET', '/receipts?per_page=100');
    expect(receipts.body.data.data.some((r: { receipt_number: string }) => r.receipt_number === receiptNumber)).toBe(true);
  });
});

describe('a change the server refuses', () => {
  it('is shown with the server reason, fixed through its own form, retried, and synced', async () => {
    const { page } = desktop;
    // Another device registered this barcode a moment ago; this one has not pulled it yet.
    const taken = await server.api('POST', '/products', { name: 'Biscuiți cu unt', code: '5940000099991', price: 6.5, vat_rate: 11, price_includes_vat: true });
    expect(taken.status).toBeLessThan(300);

    await desktop.open('#/products');
    await page.getByTestId('products-new').click();
    await page.getByTestId('product-name').fill('Biscuiți cu cacao');
    await page.getByTestId('product-code').fill('5940000099991');
    await page.getByTestId('product-price').fill('7,20');
    await page.getByTestId('product-save').click();
    await page.getByTestId('product-form').waitFor({ state: 'detached' });

    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    const item = page.getByTestId('outbox-item').filter({ hasText: 'Biscuiți cu cacao' });
    await eventually('the refusal', async () => (await item.getAttribute('data-state')) === 'failed', 20_000).catch(async (e: unknown) => {
      throw new Error(`${String(e)}: ${await outboxFailures()}`);
    });
    expect((await indicator(page)).failed).toBe(1);
    const error = await item.getByTestId('outbox-error').textContent();
    expect(error).toContain('Serverul a răspuns');
    expect(error).toContain('duplicate_code');
    await screenshot(page, 'sync-failed');

    // Fix: the item opens the product; a new code re-queues the change.
    await item.getByTestId('outbox-edit').click();
    await page.getByTestId('product-form').waitFor();
    await page.getByTestId('product-code').fill('5940000099992');
    await page.getByTestId('product-save').click();
    await page.getByTestId('product-form').waitFor({ state: 'detached' });
    await desktop.open('#/sync');
    const retry = page.getByTestId('outbox-item').filter({ hasText: 'Biscuiți' }).getByTestId('outbox-retry');
    if (await retry.isVisible().catch(() => false)) await retry.click();
    else await page.getByTestId('sync-now').click();
    await eventually('synced after the fix', async () => {
      const s = await indicator(page);
      return s.pending === 0 && s.failed === 0;
    }, 20_000);
    const products = await server.api('GET', '/products?per_page=100');
    const fixed = products.body.data.data.find((p: { name: string }) => p.name === 'Biscuiți cu cacao');
    expect(fixed?.code).toBe('5940000099992');
    expect(toBani(fixed.price)).toBe(720);
  });
});
