import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ReadDb } from '../../../main/db/store';
import { readSetup } from '../../../main/local/setup';
import type { Desktop } from './desktop';
import type { E2eServer } from './stack';

export const SCREENSHOTS = join(process.cwd(), 'docs', 'screenshots');

/** Saves a screenshot of the main screens for docs/screenshots (what the README shows). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Let fonts settle and toasts fade so the picture shows the screen, not a transition.
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Waits until `fn` returns a truthy value (polling), with a readable failure. */
export async function eventually<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Reads the sync indicator's counters (data attributes the indicator exposes). */
export async function indicator(page: Page): Promise<{ mode: string; pending: number; failed: number }> {
  const el = page.getByTestId('sync-indicator');
  return {
    mode: (await el.getAttribute('data-mode')) ?? '',
    pending: Number((await el.getAttribute('data-pending')) ?? 'NaN'),
    failed: Number((await el.getAttribute('data-failed')) ?? 'NaN'),
  };
}

/**
 * First start, as a cashier does it: the API key typed once in Settings (never shown again), a
 * sync, then the series set to keep a reserve of numbers on this device.
 */
export async function setUpDevice(desktop: Desktop, server: E2eServer, mode: 'shared' | 'exclusive' = 'shared'): Promise<void> {
  const { page } = desktop;
  await desktop.open('#/settings');
  await page.getByTestId('settings-api-key').fill(server.apiKey);
  await page.getByTestId('settings-api-key-save').click();
  await page.getByTestId('settings-key-set').waitFor();
  // The key is write-only: once saved, nothing on the page holds it.
  if ((await page.content()).includes(server.apiKey)) throw new Error('the API key is still on the page after saving');
  await eventually('company shown', async () => (await page.getByTestId('settings-company').textContent())?.includes('Tejghea Demo SRL'));
  await desktop.open('#/sync');
  await page.getByTestId('sync-now').click();
  await eventually('online', async () => (await indicator(page)).mode === 'online');
  await desktop.open('#/series');
  await page.getByTestId('series-row').first().click();
  await page.getByTestId(mode === 'shared' ? 'series-shared' : 'series-exclusive').click();
  await eventually('a number available offline', async () => {
    const text = await page.getByTestId('series-table').textContent();
    return text?.includes('TJ-') ?? false;
  });
}

/** Types like a barcode scanner: digits a few milliseconds apart, then Enter, with no input focused. */
export async function scan(page: Page, code: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.type(code, { delay: 4 });
  await page.keyboard.press('Enter');
}

export interface CounterSale {
  /** What to type in the product box, one entry per Enter ('cafea', '3*5941234567913'). */
  entries?: string[];
  /** Codes sent as a scanner would, with the focus outside the search box. */
  scans?: string[];
  /** Text to search in the client box (name or CUI); the first match is taken with Enter. */
  client: string;
  payment?: 'receipt' | 'card' | 'bank_order' | 'fiscal_receipt' | 'other';
  /** Filled under "Detalii factură" before issuing. */
  details?: { due_date?: string; delivery_date?: string; observations?: string };
}

/** One sale at the counter with the keyboard only; returns the number printed in the issued panel. */
export async function sellAtCounter(desktop: Desktop, sale: CounterSale): Promise<string> {
  const { page } = desktop;
  await desktop.open('#/counter');
  await page.getByTestId('product-search').waitFor();
  await page.keyboard.press('F2');
  for (const entry of sale.entries ?? []) {
    const before = await page.getByTestId('cart-line').count();
    await page.keyboard.type(entry);
    await page.getByTestId('product-suggestions').waitFor().catch(() => undefined);
    await page.keyboard.press('Enter');
    await eventually(`line for ${entry}`, async () => (await page.getByTestId('cart-line').count()) > before || (await page.getByTestId('product-search').inputValue()) === '');
  }
  for (const code of sale.scans ?? []) await scan(page, code);
  await page.keyboard.press('F3');
  await page.keyboard.type(sale.client);
  await page.getByTestId('client-suggestions').waitFor();
  await page.keyboard.press('Enter');
  await page.getByTestId('counter-client').waitFor();
  if (sale.payment) await page.getByTestId(`pay-${sale.payment}`).click();
  if (sale.details) await fillInvoiceDetails(page, sale.details);
  await page.keyboard.press('F9');
  await page.getByTestId('issued-panel').waitFor();
  return (await page.getByTestId('issued-number').textContent()) ?? '';
}

/**
 * Opens the counter and fills a cart: each entry typed in the product box (F2) and taken with Enter,
 * then, when `client` is given, the first client its search offers (F3, Enter). Nothing is issued.
 */
export async function cartAtCounter(desktop: Desktop, entries: string[], client = ''): Promise<void> {
  const { page } = desktop;
  await desktop.open('#/counter');
  await page.getByTestId('product-search').waitFor();
  for (const entry of entries) {
    const before = await page.getByTestId('cart-line').count();
    await page.keyboard.press('F2');
    await page.keyboard.type(entry);
    await page.getByTestId('product-suggestions').waitFor().catch(() => undefined);
    await page.keyboard.press('Enter');
    await eventually(`line for ${entry}`, async () => (await page.getByTestId('cart-line').count()) > before || (await page.getByTestId('line-quantity').count()) > 0);
  }
  if (client) {
    await page.keyboard.press('F3');
    await page.keyboard.type(client);
    await page.getByTestId('client-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('counter-client').waitFor();
  }
}

/** Opens "Detalii factură" at the counter and fills what is given. */
export async function fillInvoiceDetails(page: Page, details: NonNullable<CounterSale['details']>): Promise<void> {
  const box = page.getByTestId('invoice-details');
  if ((await box.getAttribute('open')) === null) await box.locator('summary').click();
  if (details.due_date !== undefined) await page.getByTestId('due-date').fill(details.due_date);
  if (details.delivery_date !== undefined) await page.getByTestId('delivery-date').fill(details.delivery_date);
  if (details.observations !== undefined) await page.getByTestId('observations').fill(details.observations);
}

/** Opens the counter and puts the first product the search offers for `query` in the cart. */
export async function startSaleWith(desktop: Desktop, query: string): Promise<void> {
  const { page } = desktop;
  await desktop.open('#/counter');
  await page.keyboard.press('F2');
  await page.keyboard.type(query);
  await page.getByTestId('product-suggestions').waitFor();
  await page.keyboard.press('Enter');
}

/** Types `text` in the counter's client box and opens the new-client form from it (F7). */
export async function newClientFromCounter(page: Page, text: string): Promise<void> {
  await page.keyboard.press('F3');
  await page.keyboard.type(text);
  await page.keyboard.press('F7');
  await page.getByTestId('client-form').waitFor();
}

/**
 * Opens one invoice's detail from the list, found by its number. Clicks only once the search has
 * narrowed the list to it: before that the list may still re-render under the click (the newest
 * invoice is often first even unfiltered), and a click on a row being replaced opens nothing.
 */
export async function openInvoiceByNumber(desktop: Desktop, number: string): Promise<void> {
  const { page } = desktop;
  await desktop.open('#/invoices');
  await page.getByTestId('invoice-search').fill(number);
  await eventually(`the list narrowed to ${number}`, async () => (await page.getByTestId('invoice-list').getAttribute('data-total')) === '1');
  await eventually(`row ${number}`, async () => (await page.getByTestId('vrow').first().textContent())?.startsWith(number));
  await page.getByTestId('vrow').first().click();
  await page.getByTestId('invoice-detail').waitFor();
}

/** Presses "sync now" in the sync centre and waits until the outbox is empty with nothing failed. */
export async function syncAll(desktop: Desktop): Promise<void> {
  await desktop.open('#/sync');
  await desktop.page.getByTestId('sync-now').click();
  await eventually('synced', async () => {
    const s = await indicator(desktop.page);
    return s.mode === 'online' && s.pending === 0 && s.failed === 0;
  }, 30_000);
}

/**
 * For an afterEach hook: when the test failed, keep a picture of the screen it failed on (in
 * node_modules/.cache/e2e-failures, out of the repository) to see what the cashier would have seen.
 */
export async function captureFailure(page: Page | undefined, context: { task: { name: string; result?: { state?: string } } }): Promise<void> {
  if (!page || context.task.result?.state !== 'fail') return;
  const dir = join(process.cwd(), 'node_modules', '.cache', 'e2e-failures');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${context.task.name.replace(/[^\w]+/g, '-').slice(0, 80)}.png`);
  await page.screenshot({ path: file }).catch(() => undefined);
  console.error(`[e2e] screen at failure: ${file}`);
}

/**
 * After a first run the setup wizard follows for a firm with nothing to sell from yet (shown at once
 * for a firm just made here, after the first sync for a firm on a service). Tests about something else
 * let that sync settle and leave the wizard for later, as an owner may, to reach the counter.
 */
export async function leaveSetupWizard(
  desktop: { page: Page; services: { engine: { syncNow(): Promise<unknown> }; store: { reader: ReadDb } } },
): Promise<void> {
  await desktop.services.engine.syncNow();
  const later = desktop.page.getByTestId('setup-later');
  const shell = desktop.page.getByTestId('screen-title');
  // Done when the main process says the wizard is done with (inferred after this sync, or left for
  // later) and the screen shows the counter. The screen may still show the counter for a moment
  // before it asks again and the wizard comes; a click may land as the wizard re-renders: so the
  // wizard is left whenever it is seen, until both agree.
  await eventually('the counter, the setup wizard left for later', async () => {
    if (await later.isVisible()) {
      await later.click().catch(() => undefined);
      return false;
    }
    return readSetup(desktop.services.store.reader, true).onboarding_done && (await shell.isVisible());
  }, 45_000);
}
