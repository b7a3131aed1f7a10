import { beforeAll, describe, expect, it } from 'vitest';
import { formatBani } from '../../renderer/lib/format';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { eventually, indicator, screenshot } from './support/flows';
import { seed, startE2eServer, type E2eServer } from './support/stack';

/**
 * Issue 13 items 1 and 2 in Chromium against the real service: a product created in the form is a
 * shelf price by default, the counter bills it at exactly quantity x shelf price, and F9 with no
 * client issues a walk-in sale to "Persoană fizică"; the service then holds exactly that.
 */
let server: E2eServer;
let desktop: Desktop;

beforeAll(async () => {
  server = await startE2eServer();
  await seed(server);
  desktop = await openDevice(server);
}, 180_000);

closeStackAfterAll(() => ({ desktop, server }));

async function syncNow(): Promise<void> {
  await desktop.open('#/sync');
  await desktop.page.getByTestId('sync-now').click();
  await eventually('outbox drained', async () => {
    const s = await indicator(desktop.page);
    return s.mode === 'online' && s.pending === 0 && s.failed === 0;
  });
}

describe('shelf prices and walk-in sales at the counter', () => {
  it('creates a shelf-priced product, sells three of it to a walk-in customer at 3 x the shelf price', async () => {
    const { page } = desktop;
    await desktop.open('#/products');
    await page.getByTestId('products-new').click();
    await page.getByTestId('product-form').waitFor();
    // A new product's price is a shelf price unless the user says otherwise.
    expect(await page.getByTestId('product-price-gross').isChecked()).toBe(true);
    await page.getByTestId('product-name').fill('Covrig cu susan');
    await page.getByTestId('product-code').fill('5940000012344');
    await page.getByTestId('product-price').fill('2,10');
    await expect.poll(() => page.getByTestId('product-price-split').textContent()).toBe('O bucată: 1,74 lei fără TVA + 0,36 lei TVA = 2,10 lei');
    await screenshot(page, 'product-shelf-price');
    await page.getByTestId('product-save').click();
    await page.getByTestId('product-form').waitFor({ state: 'detached' });
    await syncNow();
    const products = await server.api('GET', '/products?search=Covrig');
    expect(products.body.data.data[0]).toMatchObject({ name: 'Covrig cu susan', price: 2.1, price_includes_vat: true, vat_rate: 21 });

    await desktop.open('#/counter');
    await page.getByTestId('product-search').fill('3*5940000012344');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('total-grand').textContent()).toBe(`${formatBani(630, 'ro')} lei`);
    // No client chosen: F9 issues a walk-in sale.
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    await screenshot(page, 'counter-walk-in');
    await syncNow();
    const list = await server.api('GET', '/invoices?per_page=100');
    const onServer = list.body.data.data.find((i: { full_number: string }) => i.full_number === number);
    expect(onServer).toMatchObject({ status: 'issued', client_id: null, buyer: { name: 'Persoană fizică', walk_in: true }, totals: { total: 6.3 } });
  }, 120_000);
});
