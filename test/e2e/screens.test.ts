import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInBucharest } from '../../shared/dates';
import { mulDivRound, toBani } from '../../shared/money';
import { formatBani } from '../../renderer/lib/format';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { eventually, indicator, screenshot, sellAtCounter } from './support/flows';
import { postOk, seed, startE2eServer, type E2eServer, type Seed } from './support/stack';

/**
 * The other screens against a company with history: invoices made on the service over two weeks
 * (pulled by the device), a storno, partial and full payments, expenses from a supplier. Each screen
 * is driven and checked against what the service holds, and photographed for docs/screenshots.
 */
let server: E2eServer;
let data: Seed;
let desktop: Desktop;
const today = todayInBucharest();

interface ServerInvoice {
  id: string;
  full_number: string;
  issue_date: string;
  status: string;
  client_id: string;
  paid_state: string;
  totals: { total: number; vat: number };
}
const history: ServerInvoice[] = [];

const post = (path: string, body: unknown) => postOk(server, path, body);

async function seedHistory(): Promise<void> {
  const catalog = data.products;
  for (let day = 13; day >= 0; day--) {
    const date = addDays(today, -day);
    const count = 1 + ((day * 7) % 3);
    for (let k = 0; k < count; k++) {
      const p1 = catalog[(day + k) % catalog.length]!;
      const p2 = catalog[(day * 3 + k + 1) % catalog.length]!;
      const inv = await post('/invoices', {
        series_id: data.seriesId,
        client_id: data.clients[(day + k) % 2]!.id,
        issue_date: date,
        due_date: addDays(date, 15),
        payment_method: k % 2 ? 'bank_order' : 'card',
        items: [
          { description: p1.name, quantity: 1 + ((day + k) % 4), price: Math.round((p1.price / (1 + p1.vat_rate / 100)) * 100) / 100, vat_rate: p1.vat_rate },
          { description: p2.name, quantity: 1, price: Math.round((p2.price / (1 + p2.vat_rate / 100)) * 100) / 100, vat_rate: p2.vat_rate },
        ],
      });
      history.push(inv as unknown as ServerInvoice);
    }
  }
  // Some paid in full, one partly, one reversed.
  for (const inv of history.filter((_, i) => i % 3 === 0)) await post('/receipts', { invoice_id: inv.id, amount: inv.totals.total });
  await post('/receipts', { invoice_id: history[1]!.id, amount: 20 });
  await post(`/invoices/${history[4]!.id}/storno`, {});
  const supplier = await post('/suppliers', { name: 'Prăjitoria de Cafea SRL', cui: '14399840' });
  for (const [ref, desc, days, amount, paid] of [
    ['PC-1043', 'Cafea verde 20 kg', 12, 1850, true],
    ['PC-1051', 'Cafea verde 10 kg', 5, 925.5, false],
    ['EL-77812', 'Energie electrică noiembrie', 2, 412.3, false],
  ] as const) {
    await post('/expenses', {
      supplier_id: supplier.id, reference: ref, description: desc, date: addDays(today, -days), due_date: addDays(today, 15 - days), amount, vat: 21, with_vat: false,
      ...(paid ? { is_paid: true, paid_date: addDays(today, -days + 1), payment_type: 2 } : {}),
    });
  }
}

beforeAll(async () => {
  server = await startE2eServer();
  data = await seed(server);
  await seedHistory();
  desktop = await openDevice(server);
}, 240_000);

closeStackAfterAll(() => ({ desktop, server }));

async function listTotal(): Promise<number> {
  return Number(await desktop.page.getByTestId('invoice-list').getAttribute('data-total'));
}

async function serverList(): Promise<ServerInvoice[]> {
  const r = await server.api('GET', '/invoices?per_page=100');
  return r.body.data.data;
}

describe('invoices', () => {
  it('lists what the service holds and filters by status, payment, dates, client and series', async () => {
    const { page } = desktop;
    const all = await serverList();
    await desktop.open('#/invoices');
    await expect.poll(listTotal, { timeout: 20_000 }).toBe(all.length);
    await screenshot(page, 'invoices');

    await page.getByTestId('filter-status').selectOption('voided');
    await expect.poll(listTotal).toBe(all.filter((i) => i.status === 'voided').length);
    await page.getByTestId('filter-status').selectOption('storno');
    await expect.poll(listTotal).toBe(1);
    await page.getByTestId('filter-status').selectOption('');

    await page.getByTestId('filter-paid').selectOption('partially_paid');
    await expect.poll(listTotal).toBe(all.filter((i) => i.paid_state === 'partially_paid').length);
    await page.getByTestId('filter-paid').selectOption('');

    const from = addDays(today, -3);
    await page.getByTestId('filter-from').fill(from);
    await page.getByTestId('filter-to').fill(today);
    await expect.poll(listTotal).toBe(all.filter((i) => i.issue_date >= from && i.issue_date <= today).length);
    await page.getByTestId('filter-from').fill('');
    await page.getByTestId('filter-to').fill('');

    await page.getByTestId('filter-client').fill('Cafeneaua');
    await page.getByTestId('filter-client').press('Enter');
    await expect.poll(listTotal).toBe(all.filter((i) => i.client_id === data.clients[1]!.id).length);
    await page.getByRole('button', { name: 'Șterge filtrele' }).click();

    await page.getByTestId('filter-series').selectOption('TJ');
    await expect.poll(listTotal).toBe(all.length);
    await page.getByTestId('invoice-search').fill(history[7]!.full_number);
    await expect.poll(listTotal).toBe(1);

    // Keyboard: arrows select, Enter opens.
    await page.getByTestId('invoice-search').fill('');
    await expect.poll(listTotal).toBe(all.length);
    await page.getByTestId('invoice-list').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('invoice-detail').waitFor();
  });

  it('takes a partial cash payment on an unpaid invoice and shows it as partly paid', async () => {
    const { page } = desktop;
    const target = history.find((inv, i) => i % 3 !== 0 && i !== 1 && i !== 4)!;
    await desktop.open(`#/invoices`);
    await page.getByTestId('invoice-search').fill(target.full_number);
    await expect.poll(listTotal).toBe(1);
    await page.getByTestId('vrow').first().click();
    await page.getByTestId('detail-collect').click();
    await page.getByTestId('collect-amount').fill('10');
    await page.getByTestId('dialog-confirm').click();
    await expect.poll(() => page.getByTestId('detail-receipts').textContent()).toContain('10,00 lei');
    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    await eventually('receipt synced', async () => {
      const s = await indicator(page);
      return s.pending === 0 && s.failed === 0;
    });
    const onServer = await server.api('GET', `/invoices/${target.id}`);
    expect(onServer.body.data.paid_state).toBe('partially_paid');
    expect(toBani(onServer.body.data.amount_paid)).toBe(1000);
  });
});

describe('dashboard', () => {
  it("shows today's sales, VAT per rate, unpaid invoices and the two-week chart", async () => {
    const { page } = desktop;
    await sellAtCounter(desktop, { entries: ['2*cafea', 'filtre'], client: 'Exemplu' });
    await desktop.open('#/dashboard');
    // Today's seeded invoices, the storno made today by the service, and the sale above.
    const seededToday = history.filter((i) => i.issue_date === today).length + 1;
    await expect.poll(() => page.getByTestId('kpi-today').textContent(), { timeout: 15_000 }).toContain(`${seededToday + 1} facturi`);
    await expect.poll(() => page.getByTestId('vat-today').locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    // 30 days of bars; the seeded two weeks make 14 of them non-empty.
    expect(await page.getByTestId('sales-chart').locator('rect').count()).toBe(30);
    const heights = await page.getByTestId('sales-chart').locator('rect').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))));
    expect(heights.filter((h) => h > 0).length).toBe(14);
    await screenshot(page, 'dashboard');
  });
});

describe('receipts, expenses, supplier bills, clients, products', () => {
  it('lists receipts and writes a standalone one to a walk-in payer', async () => {
    const { page } = desktop;
    await desktop.open('#/receipts');
    await expect.poll(async () => Number(await page.getByTestId('receipt-list').getAttribute('data-total'))).toBeGreaterThan(3);
    await page.getByTestId('receipt-new').click();
    await page.getByTestId('receipt-payer').fill('Ion Ionescu');
    await page.getByTestId('receipt-amount').fill('150');
    await page.getByTestId('receipt-observations').fill('avans comandă boabe');
    await page.getByTestId('receipt-save').click();
    await page.getByTestId('receipt-form').waitFor({ state: 'detached' });
    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    await eventually('receipt synced', async () => (await indicator(page)).pending === 0);
    const receipts = await server.api('GET', '/receipts?per_page=100');
    const standalone = receipts.body.data.data.find((r: { client: { name: string } }) => r.client.name === 'Ion Ionescu');
    expect(toBani(standalone.amount)).toBe(15_000);
    await desktop.open('#/receipts');
    await expect.poll(() => page.getByTestId('receipt-list').textContent()).toContain(standalone.receipt_number);
    await screenshot(page, 'receipts');
  });

  it('lists expenses with their status, and supplier bills', async () => {
    const { page } = desktop;
    await desktop.open('#/expenses');
    await expect.poll(() => page.getByTestId('expense-list').getAttribute('data-total'), { timeout: 15_000 }).toBe('3');
    const text = await page.getByTestId('expense-list').textContent();
    expect(text).toContain('PC-1043');
    expect(text).toContain(`${formatBani(92_550 + mulDivRound(92_550, 2100, 10_000), 'ro')} lei`);
    await screenshot(page, 'expenses');
    await desktop.open('#/supplier-bills');
    await page.getByTestId('bill-list').waitFor();
  });

  it('finds a client by CUI and edits it; lists products with their codes', async () => {
    const { page } = desktop;
    await desktop.open('#/clients');
    await page.getByTestId('clients-search').fill('RO14399840');
    await expect.poll(() => page.getByTestId('client-list').getAttribute('data-total')).toBe('1');
    await page.getByTestId('vrow').first().click();
    await page.getByTestId('client-form').waitFor();
    await page.getByTestId('client-phone').fill('0264 123 456');
    await page.getByTestId('client-save').click();
    await page.getByTestId('client-form').waitFor({ state: 'detached' });
    await page.getByTestId('clients-search').fill('');
    await screenshot(page, 'clients');
    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    await eventually('client synced', async () => (await indicator(page)).pending === 0);
    const client = await server.api('GET', `/clients/${data.clients[0]!.id}`);
    expect(client.body.data.phone).toBe('0264 123 456');
    await desktop.open('#/products');
    await expect.poll(() => page.getByTestId('product-list').getAttribute('data-total')).toBe(String(data.products.length));
    expect(await page.getByTestId('product-list').textContent()).toContain('5941234567890');
    await screenshot(page, 'products');
  });
});

describe('series and settings', () => {
  it('takes the series exclusively on this device: numbers then come from its lock', async () => {
    const { page } = desktop;
    await desktop.open('#/series');
    await page.getByTestId('series-row').first().click();
    await page.getByTestId('series-exclusive').click();
    await expect.poll(() => page.getByTestId('series-panel').textContent(), { timeout: 15_000 }).toContain('Exclusivă');
    expect(await page.getByTestId('series-panel').textContent()).toContain('Casa 1');
    const number = await sellAtCounter(desktop, { entries: ['lapte'], client: 'Exemplu', payment: 'card' });
    expect(await page.getByTestId('issued-panel').textContent()).toContain('seria exclusivă');
    await desktop.open('#/sync');
    await page.getByTestId('sync-now').click();
    await eventually('synced', async () => {
      const s = await indicator(page);
      return s.pending === 0 && s.failed === 0;
    });
    expect((await serverList()).some((i) => i.full_number === number)).toBe(true);
    const series = await server.api('GET', `/invoice-series/${data.seriesId}`);
    expect(series.body.data.is_locked).toBe(true);
  });

  it('asks for an explicit confirmation before e-Factura goes live, and switches the language', async () => {
    const { page } = desktop;
    await desktop.open('#/settings');
    await page.getByTestId('efactura-live').click();
    await page.getByTestId('efactura-confirm').waitFor();
    expect(await page.getByTestId('efactura-confirm').textContent()).toContain('NU mai poate fi anulată');
    expect(await page.getByTestId('dialog-confirm').isDisabled()).toBe(true);
    await page.getByTestId('efactura-confirm-input').fill('PRODUCTIE');
    await page.getByTestId('dialog-confirm').click();
    await expect.poll(() => page.getByTestId('settings-efactura').textContent()).toContain('Mediu de PRODUCȚIE');
    await screenshot(page, 'settings');
    await page.getByTestId('efactura-test').click();

    await page.getByTestId('lang-en').click();
    await expect.poll(() => page.getByTestId('nav-invoices').textContent()).toContain('Invoices');
    await desktop.open('#/counter');
    expect(await page.getByTestId('screen-title').textContent()).toBe('Counter');
    await screenshot(page, 'counter-english');
    await desktop.open('#/settings');
    await page.getByTestId('lang-ro').click();
    await expect.poll(() => page.getByTestId('nav-invoices').textContent()).toContain('Facturi');
  });
});
