import { beforeAll, describe, expect, it } from 'vitest';
import { todayInBucharest } from '../../shared/dates';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { eventually, indicator, screenshot, syncAll } from './support/flows';
import { postOk, seed, startE2eServer, type E2eServer, type Seed } from './support/stack';

/**
 * Expenses as a cashier records them in the browser, through the web host, against the real
 * service: the duplicate the service knows is shown BEFORE anything is saved, a new one is saved,
 * then marked paid; the supplier register; and moving the device to another work point.
 */
let server: E2eServer;
let data: Seed;
let desktop: Desktop;
const today = todayInBucharest();

const post = (path: string, body: unknown) => postOk(server, path, body);

beforeAll(async () => {
  server = await startE2eServer();
  data = await seed(server);
  const supplier = await post('/suppliers', { name: 'Prăjitoria de Cafea SRL', cui: 'RO14399840' });
  await post('/expenses', { supplier_id: supplier.id, reference: 'PC-1043', description: 'Cafea verde 20 kg', date: today, amount: 1850, vat: 21, with_vat: false });
  await post('/supplier-bills', { supplier_id: supplier.id, invoice_number: 'PC-F-88', issue_date: today, due_date: today, tax_exclusive: 400, tax: 84 });
  desktop = await openDevice(server);
}, 180_000);

closeStackAfterAll(() => ({ desktop, server }));

async function remoteExpenses(): Promise<Array<Record<string, unknown> & { reference: string | null; supplier_id: string }>> {
  return (await server.api('GET', '/expenses?per_page=100')).body.data.data;
}

describe('expenses', () => {
  it('shows the duplicate before saving, saves a new expense, then marks it paid', async () => {
    const { page } = desktop;
    await desktop.open('#/expenses');
    await expect.poll(() => page.getByTestId('expense-list').getAttribute('data-total'), { timeout: 15_000 }).toBe('1');

    // The same supplier document again: the service finds it, and nothing is saved.
    await page.getByTestId('expense-new').click();
    await page.getByTestId('expense-form').waitFor();
    await page.getByTestId('expense-supplier').fill('Prăjitoria de Cafea SRL');
    await page.getByTestId('expense-reference').fill('pc-1043');
    await page.getByTestId('expense-amount').fill('2.238,50');
    await page.getByTestId('expense-save').click();
    await page.getByTestId('expense-duplicate').waitFor();
    expect(await page.getByTestId('expense-duplicate').getAttribute('data-match')).toBe('exact');
    const warning = (await page.getByTestId('expense-duplicate').textContent()) ?? '';
    expect(warning).toContain('Același furnizor și același număr de document');
    expect(warning).toContain('PC-1043');
    expect(warning).toContain('1.850,00 lei');
    await screenshot(page, 'expense-duplicate');
    expect(await remoteExpenses()).toHaveLength(1);
    expect((await indicator(page)).pending).toBe(0);

    // Another document: no match, saved at once, sent by the sync.
    await page.getByTestId('expense-reference').fill('PC-1051');
    await page.getByTestId('expense-description').fill('Cafea verde 10 kg');
    await page.getByTestId('expense-amount').fill('1.119,86');
    await page.getByTestId('expense-save').click();
    await page.getByTestId('expense-form').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('expense-list').getAttribute('data-total')).toBe('2');
    await syncAll(desktop);
    const saved = (await remoteExpenses()).find((e) => e.reference === 'PC-1051')!;
    expect(saved).toMatchObject({ description: 'Cafea verde 10 kg', is_paid: false, amount: { total: '1119.86', without_vat: '925.50', vat: '194.36' } });

    // Marked paid by card.
    await desktop.open('#/expenses');
    const row = page.getByTestId('vrow').filter({ hasText: 'PC-1051' });
    await row.getByTestId('expense-pay').click();
    await page.getByTestId('expense-pay-dialog').waitFor();
    await page.getByTestId('expense-payment-type').selectOption('3');
    await page.getByTestId('dialog-confirm').click();
    await page.getByTestId('expense-pay-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => row.textContent()).toContain('Plătită');
    await syncAll(desktop);
    const paid = (await remoteExpenses()).find((e) => e.reference === 'PC-1051')!;
    expect(paid).toMatchObject({ is_paid: true, paid_date: today, payment_type: { id: 3 } });
    await desktop.open('#/expenses');
    await expect.poll(() => page.getByTestId('expense-list').textContent()).toContain('Prăjitoria de Cafea SRL');
  });

  it('a new supplier typed on the form is created with the expense', async () => {
    const { page } = desktop;
    await desktop.open('#/expenses');
    await page.getByTestId('expense-new').click();
    await page.getByTestId('expense-supplier').fill('Electrica Furnizare SA');
    expect(await page.getByTestId('expense-form').textContent()).toContain('Furnizor nou');
    await page.getByTestId('expense-supplier-cui').fill('RO28909028');
    await page.getByTestId('expense-reference').fill('EL-77812');
    await page.getByTestId('expense-amount').fill('412,30');
    await page.getByTestId('expense-save').click();
    await page.getByTestId('expense-form').waitFor({ state: 'detached' });
    await syncAll(desktop);
    const suppliers = (await server.api('GET', '/suppliers?per_page=100')).body.data.data as Array<{ id: string; name: string; cui: string }>;
    const electrica = suppliers.find((s) => s.name === 'Electrica Furnizare SA');
    expect(electrica?.cui).toBe('28909028');
    expect((await remoteExpenses()).find((e) => e.reference === 'EL-77812')?.supplier_id).toBe(electrica?.id);

    await desktop.open('#/suppliers');
    await expect.poll(() => page.getByTestId('supplier-list').getAttribute('data-total'), { timeout: 15_000 }).toBe('2');
    const register = (await page.getByTestId('supplier-list').textContent()) ?? '';
    expect(register).toContain('RO14399840');
    expect(register).toContain('484,00 lei');
    await page.getByTestId('suppliers-search').fill('electrica');
    await expect.poll(() => page.getByTestId('supplier-list').getAttribute('data-total')).toBe('1');
    await page.getByTestId('suppliers-search').fill('');
    await expect.poll(() => page.getByTestId('supplier-list').getAttribute('data-total')).toBe('2');
    await screenshot(page, 'suppliers');
  });
});

describe('work point', () => {
  it('moves the device to another work point: its invoices, series and expenses replace the first one’s', async () => {
    const { page } = desktop;
    const shop = await post('/work-points', { name: 'Magazin Obor', address: 'Str. Ziduri Moși 23' });
    const seriesResp = await server.api('POST', `/invoice-series?work_point_id=${shop.id}`, { name: 'OB', is_primary: true, description: 'Magazin Obor' });
    expect(seriesResp.status).toBe(201);
    const atShop = await server.api('POST', `/invoices?work_point_id=${shop.id}`, {
      series_id: seriesResp.body.data.id, client_id: data.clients[0]!.id, items: [{ description: 'Cafea boabe', quantity: 3, price: 80.99, vat_rate: 11 }],
    });
    expect(atShop.status).toBe(201);
    await syncAll(desktop);
    await desktop.open('#/invoices');
    await expect.poll(() => page.getByTestId('invoice-list').getAttribute('data-total')).toBe('0');

    await desktop.open('#/settings');
    const select = page.getByTestId('settings-work-point');
    await expect.poll(() => select.locator('option').count()).toBe(2);
    await select.selectOption(shop.id);
    await eventually('moved', async () => (await page.getByTestId('toast').allTextContents()).some((t) => t.includes('Magazin Obor')));
    await expect.poll(() => page.locator('.nav .foot').textContent()).toContain('Magazin Obor');
    expect(await select.inputValue()).toBe(shop.id);
    await screenshot(page, 'settings-work-point');
    await syncAll(desktop);
    await desktop.open('#/invoices');
    await expect.poll(() => page.getByTestId('invoice-list').getAttribute('data-total'), { timeout: 15_000 }).toBe('1');
    expect(await page.getByTestId('invoice-list').textContent()).toContain(atShop.body.data.full_number);
    await desktop.open('#/series');
    await expect.poll(() => page.getByTestId('series-table').textContent()).toContain('OB');
    expect(await page.getByTestId('series-table').textContent()).not.toContain('TJ');
    await desktop.open('#/expenses');
    await expect.poll(() => page.getByTestId('expense-list').getAttribute('data-total')).toBe('0');
  });
});
