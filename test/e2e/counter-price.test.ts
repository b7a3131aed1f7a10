import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeTotals } from '../../shared/invoice-math';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { cartAtCounter, eventually, indicator, screenshot, syncAll } from './support/flows';
import { postOk, seed, startE2eServer, type E2eServer } from './support/stack';

/**
 * A unit price with up to 4 decimals typed on a cart line at the counter (issue 14, point 4), at
 * 1366×768: F5 or a click on the price, Enter confirms and gives the keyboard back to the scan box,
 * Escape cancels, a refused price says why at the cell in Romanian and nothing is issued. The cart
 * keeps the price when left, parked and reloaded; F9 issues it online and offline, and the SERVICE
 * holds the 4-decimal price with the line and invoice totals of shared/invoice-math.
 */
let server: E2eServer;
let desktop: Desktop;

type Invoke = (channel: string, payload: unknown) => Promise<unknown>;
const invoke = (page: Page, channel: string, payload: unknown) =>
  page.evaluate(([c, p]) => (window as unknown as { tejghea: { invoke: Invoke } }).tejghea.invoke(c as string, p), [channel, payload] as const);

beforeAll(async () => {
  server = await startE2eServer();
  await seed(server);
  // A net price (B2B, VAT added on top), beside the seed's shelf prices (VAT included).
  await postOk(server, '/products', { name: 'Montaj filtru', code: 'MONTAJ-F', unit: 'ora', unit_code: 'HUR', price: 100, vat_rate: 21, price_includes_vat: false });
  desktop = await openDevice(server);
  await desktop.page.setViewportSize({ width: 1366, height: 768 });
}, 240_000);

closeStackAfterAll(() => ({ desktop, server }));

interface ServerLine { description: string; quantity: number; price: number; price_includes_vat: boolean; net: number; vat: number; total: number }
interface ServerInvoice { id: string; full_number: string; totals: { net: number; vat: number; total: number }; lines: ServerLine[] }

/** The invoice as the service holds it, with its lines. */
async function onService(number: string): Promise<ServerInvoice> {
  const list = await server.api('GET', '/invoices?per_page=100');
  const found = (list.body.data.data as { id: string; full_number: string }[]).filter((i) => i.full_number === number);
  expect(found).toHaveLength(1);
  const one = await server.api('GET', `/invoices/${found[0]!.id}?expand[]=lines`);
  expect(one.status).toBe(200);
  return one.body.data as ServerInvoice;
}

async function localCount(page: Page): Promise<number> {
  const r = (await invoke(page, 'invoices.list', { limit: 200, offset: 0 })) as { ok: boolean; value: { total: number; items: unknown[] } };
  expect(r.ok).toBe(true);
  return r.value.items.length;
}

async function emptyCounter(page: Page): Promise<void> {
  await desktop.open('#/counter');
  await page.getByTestId('product-search').waitFor();
  while ((await page.getByTestId('cart-line').count()) > 0) {
    await page.keyboard.press('F2');
    await page.keyboard.press('Delete');
    await page.waitForTimeout(50);
  }
}

const focused = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null);

/** F5 on the selected line, the price typed as a cashier types it, Enter. */
async function typePrice(page: Page, text: string): Promise<void> {
  await page.keyboard.press('F5');
  await expect.poll(() => focused(page)).toBe('line-price-input');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** 3 × 1,2345 lei with VAT (a shelf price): 3,7035, paid 3,70 lei exactly, by shared/invoice-math. */
const SHELF = computeTotals([{ quantity_milli: 3000, unit_price_bani: 123, unit_price_e4: 12_345, vat_rate_bp: 2100, price_includes_vat: true }]);

describe('a unit price typed on a cart line', () => {
  it('takes 1,2345 on a line of 3 with F5 and Enter, totals it from shared/, keeps it when left, parked and reloaded, and the service holds it after F9', async () => {
    const { page } = desktop;
    expect(SHELF.total_bani).toBe(370);
    await emptyCounter(page);
    await cartAtCounter(desktop, ['3*filtre'], 'Exemplu');
    await expect.poll(() => page.getByTestId('line-price-input').inputValue()).toBe('12,35');
    expect(await page.getByTestId('line-price-kind').textContent()).toBe('cu TVA');

    // Escape cancels what was typed and gives the keyboard back to the scan box.
    await page.keyboard.press('F5');
    await page.keyboard.type('99');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('product-search');
    expect(await page.getByTestId('line-price-input').inputValue()).toBe('12,35');

    await typePrice(page, '1,2345');
    // Enter confirms and the scan box has the keyboard again.
    await expect.poll(() => focused(page)).toBe('product-search');
    await expect.poll(() => page.getByTestId('line-price-input').inputValue()).toBe('1,2345');
    await expect.poll(() => page.getByTestId('line-total').textContent()).toBe('3,70');
    expect(await page.getByTestId('total-grand').textContent()).toBe('3,70 lei');
    await screenshot(page, 'counter-price-edit');
    // F5 has its place in the key help, which stays one line above the cart at 1366×768.
    expect(await page.locator('.keys-help').textContent()).toContain('F5 preț');
    expect((await page.locator('.keys-help').boundingBox())!.height).toBeLessThan(30);

    // Kept: leaving the counter, a reload, parked and resumed.
    await desktop.open('#/invoices');
    await desktop.open('#/counter');
    await expect.poll(() => page.getByTestId('line-price-input').inputValue()).toBe('1,2345');
    await page.reload();
    await expect.poll(() => page.getByTestId('line-price-input').inputValue()).toBe('1,2345');
    await page.getByTestId('park-cart').click();
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(0);
    await page.getByTestId('resume-cart').click();
    await expect.poll(() => page.getByTestId('line-price-input').inputValue()).toBe('1,2345');
    expect(await page.getByTestId('line-total').textContent()).toBe('3,70');
    // The client went with the parked cart; the scan box has the keyboard for F9.
    await expect.poll(() => page.getByTestId('counter-client').textContent()).toContain('Exemplu');

    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    expect(number).toMatch(/^TJ-/);
    await syncAll(desktop);
    const invoice = await onService(number);
    expect(invoice.lines).toHaveLength(1);
    expect(invoice.lines[0]).toMatchObject({ quantity: 3, price: 1.2345, price_includes_vat: true, total: 3.7 });
    expect(Math.round(invoice.totals.total * 100)).toBe(SHELF.total_bani);
    expect(Math.round(invoice.totals.vat * 100)).toBe(SHELF.vat_bani);
    expect(Math.round(invoice.lines[0]!.net * 100)).toBe(SHELF.lines[0]!.net_bani);
  });

  it('types a net price on a net product: the service adds the VAT to 1,2345 × 3', async () => {
    const { page } = desktop;
    await emptyCounter(page);
    await cartAtCounter(desktop, ['3*MONTAJ-F'], 'Exemplu');
    await expect.poll(() => page.getByTestId('line-price-kind').textContent()).toBe('fără TVA');
    // The price cell is a control of its own: a click opens it as F5 does.
    await page.getByTestId('line-price-input').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1.2345');
    await page.keyboard.press('Enter');
    const expected = computeTotals([{ quantity_milli: 3000, unit_price_bani: 123, unit_price_e4: 12_345, vat_rate_bp: 2100, price_includes_vat: false }]);
    expect([expected.net_bani, expected.vat_bani, expected.total_bani]).toEqual([370, 78, 448]);
    await expect.poll(() => page.getByTestId('line-total').textContent()).toBe('4,48');
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    await syncAll(desktop);
    const invoice = await onService(number);
    expect(invoice.lines[0]).toMatchObject({ quantity: 3, price: 1.2345, price_includes_vat: false, net: 3.7, vat: 0.78, total: 4.48 });
    expect(invoice.totals.total).toBe(4.48);
  });

  it('refuses 1,23456 with one Romanian message at the cell, and F9 then issues nothing', async () => {
    const { page } = desktop;
    await emptyCounter(page);
    await cartAtCounter(desktop, ['3*filtre'], 'Exemplu');
    const before = await localCount(page);
    await typePrice(page, '1,23456');
    const error = page.getByTestId('line-price-input-error');
    await expect.poll(() => error.textContent()).toBe('Prețul are cel mult 4 zecimale, de exemplu 12,3456.');
    expect(await error.count()).toBe(1);
    expect(await page.getByTestId('line-price-input').getAttribute('aria-invalid')).toBe('true');
    // The cell keeps the keyboard and the text, for the cashier to fix.
    expect(await focused(page)).toBe('line-price-input');
    // F9 with the refused text in the cell: nothing is issued, the message stays.
    await page.keyboard.press('F9');
    await page.waitForTimeout(600);
    expect(await page.getByTestId('issued-panel').count()).toBe(0);
    expect(await localCount(page)).toBe(before);
    await expect.poll(() => error.textContent()).toContain('cel mult 4 zecimale');
    // No second copy of the message elsewhere (a toast).
    expect(await page.getByTestId('toast').filter({ hasText: 'zecimale' }).count()).toBe(0);
    await screenshot(page, 'counter-price-refused');
    // With the mouse: leaving the cell keeps the refused text and its reason, and "Emite" issues
    // nothing (the cart still has 12,35, which the cashier did not mean to sell): back to the cell.
    await page.getByTestId('issue').click();
    await page.waitForTimeout(600);
    expect(await page.getByTestId('issued-panel').count()).toBe(0);
    expect(await localCount(page)).toBe(before);
    expect(await page.getByTestId('line-price-input').inputValue()).toBe('1,23456');
    expect(await error.textContent()).toBe('Prețul are cel mult 4 zecimale, de exemplu 12,3456.');
    await expect.poll(() => focused(page)).toBe('line-price-input');
    // The other refusals, one reason each.
    for (const [typed, words] of [['-1', 'nu poate fi negativ'], ['0', 'nu poate fi 0'], ['5941234567890', 'prea mare'], ['abc', 'nu este un număr']] as const) {
      await page.getByTestId('line-price-input').fill(typed);
      await page.keyboard.press('Enter');
      await expect.poll(() => error.textContent()).toContain(words);
    }
    // Escape puts the product's price back; the cart never changed.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('line-price-input').inputValue()).toBe('12,35');
    expect(await error.count()).toBe(0);
    expect(await page.getByTestId('line-total').textContent()).toBe('37,05');
    const kept = (await invoke(page, 'counter.carts', undefined)) as { value: { current: { lines: { unit_price_bani: number; unit_price_e4?: number }[] } } };
    expect(kept.value.current.lines).toMatchObject([{ unit_price_bani: 1235 }]);
    expect(kept.value.current.lines[0]!.unit_price_e4).toBeUndefined();
    await syncAll(desktop);
    expect(await localCount(page)).toBe(before);
  });

  it('issues a typed price offline with a number from the device, and the service holds it once synced', async () => {
    const { page } = desktop;
    await emptyCounter(page);
    await server.stop();
    try {
      await desktop.open('#/sync');
      await page.getByTestId('sync-now').click();
      await eventually('offline', async () => (await indicator(page)).mode === 'offline');
      await cartAtCounter(desktop, ['3*filtre'], 'Exemplu');
      // F9 straight from the cell, the price typed but not confirmed with Enter: the sale takes it.
      await page.keyboard.press('F5');
      await expect.poll(() => focused(page)).toBe('line-price-input');
      await page.keyboard.type('1,2345');
      expect(await page.getByTestId('line-total').textContent()).toBe('37,05');
      await page.keyboard.press('F9');
      await page.getByTestId('issued-panel').waitFor();
      const number = (await page.getByTestId('issued-number').textContent()) ?? '';
      expect(await page.getByTestId('issued-panel').textContent()).toContain('număr din rezerva dispozitivului');
      expect((await indicator(page)).mode).toBe('offline');
      const list = (await invoke(page, 'invoices.list', { limit: 200, offset: 0 })) as { value: { items: { id: string; full_number: string | null }[] } };
      const local = (await invoke(page, 'invoices.get', { id: list.value.items.find((i) => i.full_number === number)!.id })) as { value: { lines: { unit_price_e4: number; total_bani: number }[]; totals: { total_bani: number } } };
      expect(local.value.lines.map((l) => [l.unit_price_e4, l.total_bani])).toEqual([[12_345, 370]]);
      expect(local.value.totals.total_bani).toBe(SHELF.total_bani);

      await server.start();
      await eventually('synced', async () => {
        const s = await indicator(page);
        return s.mode === 'online' && s.pending === 0 && s.failed === 0;
      }, 30_000);
      const invoice = await onService(number);
      expect(invoice.lines[0]).toMatchObject({ quantity: 3, price: 1.2345, price_includes_vat: true, total: 3.7 });
      expect(Math.round(invoice.totals.total * 100)).toBe(SHELF.total_bani);
    } finally {
      await server.start();
    }
  });
});
