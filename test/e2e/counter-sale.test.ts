import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { toBani } from '../../shared/money';
import { netUnitPrice } from '../../renderer/counter/cart';
import { computeTotals } from '../../shared/invoice-math';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { cartAtCounter, eventually, indicator, screenshot, syncAll } from './support/flows';
import { seed, startE2eServer, type E2eServer, type Seed } from './support/stack';

/**
 * The counter's sale, end to end at 1366×768: one cart gives at most one document whatever the
 * cashier presses; a refused cart stays, with the reason in Romanian; payment by cash, card or both
 * (the change shown, the card part recorded as a payment, a chitanță for the cash part only); carts
 * put on hold and resumed, kept across leaving the counter and a reload. Checked on the service.
 */
let server: E2eServer;
let data: Seed;
let desktop: Desktop;

type Invoke = (channel: string, payload: unknown) => Promise<unknown>;
const invoke = (page: Page, channel: string, payload: unknown) =>
  page.evaluate(([c, p]) => (window as unknown as { tejghea: { invoke: Invoke } }).tejghea.invoke(c as string, p), [channel, payload] as const);

beforeAll(async () => {
  server = await startE2eServer();
  data = await seed(server);
  // The firm's first chitanță series is its primary one: the service decides (it takes no `is_primary`).
  const receiptSeries = await server.api('POST', '/receipt-series', { prefix: 'CHS', description: 'Casa 1' });
  expect(receiptSeries.status).toBeLessThan(300);
  desktop = await openDevice(server);
  await desktop.page.setViewportSize({ width: 1366, height: 768 });
  // The chitanță series keeps numbers on this device, as the invoice series does (setUpDevice).
  const { page } = desktop;
  await desktop.open('#/sync');
  await page.getByTestId('sync-now').click();
  await eventually('synced', async () => (await indicator(page)).pending === 0);
  await desktop.open('#/series');
  await page.getByTestId('series-row').filter({ hasText: 'CHS' }).click();
  await eventually('CHS panel', async () => (await page.getByTestId('series-panel').textContent())?.includes('CHS'));
  await page.getByTestId('series-shared').click();
  await eventually('chitanță numbers on this device', async () => (await page.getByTestId('series-table').textContent())?.includes('CHS-'));
}, 240_000);

closeStackAfterAll(() => ({ desktop, server }));

const product = (code: string) => {
  const p = data.products.find((x) => x.code === code);
  if (!p) throw new Error(`no product ${code}`);
  return p;
};

/** What the cart of these products (quantity in units) totals, by shared/invoice-math. */
function totalOf(items: { code: string; q: number }[]): number {
  return computeTotals(
    items.map((i) => {
      const p = product(i.code);
      return { quantity_milli: i.q * 1000, unit_price_bani: netUnitPrice({ price_bani: toBani(p.price), price_includes_vat: true, vat_rate: p.vat_rate }), vat_rate_bp: p.vat_rate * 100, discount_bp: 0 };
    }),
  ).total_bani;
}

async function cartWith(_page: Page, entries: string[], client = 'Exemplu'): Promise<void> {
  await cartAtCounter(desktop, entries, client);
}

async function localInvoices(page: Page): Promise<{ id: string; full_number: string | null; status: string; paid_state: string; totals: { total_bani: number } }[]> {
  const r = (await invoke(page, 'invoices.list', { limit: 200, offset: 0 })) as { ok: boolean; value: { items: { id: string; full_number: string | null; status: string; paid_state: string; totals: { total_bani: number } }[] } };
  expect(r.ok).toBe(true);
  return r.value.items;
}

async function serverInvoice(number: string): Promise<{ id: string; full_number: string; total: number; paid_state?: string; amount_paid?: number }> {
  const r = await server.api('GET', '/invoices?per_page=100');
  const found = (r.body.data.data as { id: string; full_number: string; totals: { total: number }; paid_state?: string; amount_paid?: number }[]).filter((i) => i.full_number === number);
  expect(found).toHaveLength(1);
  const inv = found[0]!;
  return { id: inv.id, full_number: inv.full_number, total: inv.totals.total, paid_state: inv.paid_state, amount_paid: inv.amount_paid };
}

describe('one cart, one document', () => {
  it('issues once however many times F9 is pressed and the button clicked, and the same cart sold again answers the first sale', async () => {
    const { page } = desktop;
    const before = (await localInvoices(page)).length;
    await cartWith(page, ['filtre']);
    // Four presses and a click as fast as the keyboard goes: the first starts the sale, the rest find it running.
    await page.keyboard.press('F9');
    await page.keyboard.press('F9');
    await page.keyboard.press('F9');
    await page.getByTestId('issue').click({ force: true, noWaitAfter: true, timeout: 2000 }).catch(() => undefined);
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    await page.waitForTimeout(500);
    const after = await localInvoices(page);
    expect(after.length).toBe(before + 1);

    // The host's side of the rule: a cart id sold twice gives the first sale back, nothing new.
    const issued = after.find((i) => i.full_number === number)!;
    const series = (await invoke(page, 'series.list', undefined)) as { value: { id: string; kind: string }[] };
    const seriesId = series.value.find((s) => s.kind === 'invoice')!.id;
    const again = (await invoke(page, 'counter.sell', {
      cart_id: issued.id, series_id: seriesId, client_id: data.clients[0]!.id, payment_method: 'receipt',
      lines: [{ description: 'x', quantity: 1, unit_price_bani: 100, vat_rate: 21 }],
    })) as { ok: boolean; value: { replayed: boolean; invoice: { id: string; full_number: string } } };
    expect(again.ok).toBe(true);
    expect(again.value.replayed).toBe(true);
    expect(again.value.invoice.full_number).toBe(number);
    expect((await localInvoices(page)).length).toBe(before + 1);

    await syncAll(desktop);
    const onServer = await serverInvoice(number);
    expect(onServer.total).toBe(product('5941234567913').price);
    const receipts = await server.api('GET', '/receipts?per_page=100');
    expect((receipts.body.data.data as { invoice: { id: string } | null }[]).filter((r) => r.invoice?.id === onServer.id)).toHaveLength(1);
  });

  it('refuses a 0-lei total before issuing, in Romanian, and keeps the cart', async () => {
    const { page } = desktop;
    const before = (await localInvoices(page)).length;
    await cartWith(page, ['ceai']);
    await page.keyboard.press('F6');
    await page.keyboard.type('100');
    await page.keyboard.press('Enter');
    await page.keyboard.press('F9');
    const problems = page.getByTestId('cart-problems');
    await expect.poll(() => problems.textContent()).toContain('Totalul trebuie să fie mai mare de 0 lei');
    expect(await page.getByTestId('cart-line').count()).toBe(1);
    expect((await localInvoices(page)).length).toBe(before);
    // The host refuses it too, with a field message in both languages and nothing issued.
    const series = (await invoke(page, 'series.list', undefined)) as { value: { id: string; kind: string }[] };
    const r = (await invoke(page, 'counter.sell', {
      cart_id: '7d2f2a56-0c0b-4d0f-9a39-6a2b1b1b0001', series_id: series.value.find((s) => s.kind === 'invoice')!.id, client_id: data.clients[0]!.id,
      payment_method: 'receipt', lines: [{ description: 'x', quantity: 1, unit_price_bani: 0, vat_rate: 21 }],
    })) as { ok: boolean; error: { fields: Record<string, string> } };
    expect(r.ok).toBe(false);
    expect(r.error.fields.total).toContain('Totalul trebuie să fie mai mare de 0 lei');
    expect((await localInvoices(page)).length).toBe(before);
    // The body never shows English or an identifier.
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).not.toContain('Invalid input');
    expect(text).not.toMatch(/lines\.\d/);
    // Clean up: the line goes, the cart is empty for the next test.
    await page.keyboard.press('F2');
    await page.keyboard.press('Delete');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(0);
  });
});

describe('payment', () => {
  it('takes part by card and part in cash: change shown, card payment recorded, chitanță for the cash part only, invoice paid', async () => {
    const { page } = desktop;
    await cartWith(page, ['2*cafea']);
    const total = totalOf([{ code: '5941234567890', q: 2 }]);
    await page.getByTestId('pay-receipt').click();
    await page.getByTestId('tender-card').fill('100');
    await page.getByTestId('tender-received').fill('100');
    const cash = total - 10_000;
    await expect.poll(() => page.getByTestId('tender-cash').textContent()).toBe(`${(cash / 100).toFixed(2).replace('.', ',')} lei`);
    await expect.poll(() => page.getByTestId('tender-change').textContent()).toBe(`${((10_000 - cash) / 100).toFixed(2).replace('.', ',')} lei`);
    await screenshot(page, 'counter-split-payment');
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    expect(await page.getByTestId('issued-change').textContent()).toContain(`${((10_000 - cash) / 100).toFixed(2).replace('.', ',')} lei`);
    // The chitanță has its final number at once, for the cash part.
    const panel = (await page.getByTestId('issued-panel').textContent()) ?? '';
    expect(panel).toMatch(/chitanța CHS-\d+/);
    expect(await page.getByTestId('print-receipt').isEnabled()).toBe(true);
    const local = (await localInvoices(page)).find((i) => i.full_number === number)!;
    expect(local.paid_state).toBe('paid');

    await syncAll(desktop);
    const onServer = await serverInvoice(number);
    const expanded = await server.api('GET', `/invoices/${onServer.id}?expand[]=payments`);
    const receipts = await server.api('GET', '/receipts?per_page=100');
    const mine = (receipts.body.data.data as { invoice: { id: string } | null; amount: number; receipt_number: string }[]).filter((r) => r.invoice?.id === onServer.id);
    expect(mine).toHaveLength(1);
    expect(toBani(mine[0]!.amount)).toBe(cash);
    expect(panel).toContain(mine[0]!.receipt_number);
    const payments = (expanded.body.data.payments ?? []) as { type: string; amount: number }[];
    expect(payments.filter((p) => p.type === 'card').map((p) => toBani(p.amount))).toEqual([10_000]);
    expect(expanded.body.data.paid_state).toBe('paid');
  });

  it('records a card sale as paid with no chitanță, and the next cart starts from the counter default method', async () => {
    const { page } = desktop;
    await cartWith(page, ['lapte']);
    await page.getByTestId('default-payment').selectOption('receipt');
    await page.getByTestId('pay-card').click();
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    expect((await localInvoices(page)).find((i) => i.full_number === number)!.paid_state).toBe('paid');
    // The next customer's cart: cash, the default, not the last customer's card.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('pay-receipt').getAttribute('aria-checked')).toBe('true');
    await syncAll(desktop);
    const onServer = await serverInvoice(number);
    const receipts = await server.api('GET', '/receipts?per_page=100');
    expect((receipts.body.data.data as { invoice: { id: string } | null }[]).filter((r) => r.invoice?.id === onServer.id)).toHaveLength(0);
    const invoice = await server.api('GET', `/invoices/${onServer.id}`);
    expect(invoice.body.data.paid_state).toBe('paid');
  });
});

describe('carts kept', () => {
  it('keeps the cart when leaving the counter and after a reload, parks it and resumes it', async () => {
    const { page } = desktop;
    await cartWith(page, ['espressor', 'ceramic'], '');
    await desktop.open('#/invoices');
    await desktop.open('#/counter');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(2);
    await page.reload();
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(2);

    await page.getByTestId('park-cart').click();
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(0);
    await expect.poll(() => page.getByTestId('parked-cart').count()).toBe(1);
    expect(await page.getByTestId('parked-cart').textContent()).toContain('2 produse');
    // The next customer is served meanwhile.
    await cartWith(page, ['ceai'], '');
    await expect.poll(() => page.getByTestId('parked-cart').count()).toBe(1);
    await screenshot(page, 'counter-parked-cart');
    await page.getByTestId('resume-cart').click();
    // The parked cart comes back; the one on the counter takes its place on hold.
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(2);
    await expect.poll(() => page.getByTestId('parked-cart').count()).toBe(1);
    expect(await page.getByTestId('parked-cart').textContent()).toContain('1 produs');
    // Kept on this device: the parked list survives a reload.
    await page.reload();
    await expect.poll(() => page.getByTestId('parked-cart').count()).toBe(1);
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(2);
  });
});
