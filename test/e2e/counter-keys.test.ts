import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { cartAtCounter, eventually, openInvoiceByNumber, screenshot, sellAtCounter, syncAll } from './support/flows';
import { postOk, seed, startE2eServer, type E2eServer } from './support/stack';

/**
 * Every keystroke does the one obvious thing, at 1366×768: exact codes and barcodes win, scale labels
 * add their weight or amount, misread and unknown codes are told in Romanian, a scan in the client box
 * goes to the cart, Enter takes the highlighted row, quantities are checked, the keyboard comes back
 * to the scan box after printing, no screen scrolls sideways and CNPs are masked in lists.
 */
let server: E2eServer;
let desktop: Desktop;

beforeAll(async () => {
  server = await startE2eServer();
  await seed(server);
  // A product whose name contains another product's code: typing that code must not pick it.
  await postOk(server, '/products', { name: 'Pachet promo 5941234567913', price: 3, vat_rate: 21, price_includes_vat: true });
  await postOk(server, '/products', { name: 'Biscuiți cu ovăz', code: 'BISC-OVAZ', barcode: '4006381333931', price: 5.49, vat_rate: 11, price_includes_vat: true });
  // Sold by weight: the scale prints 21 12345 VVVVV C (grams), or 27 22222 VVVVV C (bani).
  await postOk(server, '/products', { name: 'Brânză telemea', code: '2112345', unit: 'kg', unit_code: 'KGM', price: 32, vat_rate: 11, price_includes_vat: true });
  await postOk(server, '/products', { name: 'Măsline negre', code: '2722222', unit: 'kg', unit_code: 'KGM', price: 17.98, vat_rate: 11, price_includes_vat: true });
  await postOk(server, '/clients', { type: 'person', name: 'Ștefan Ionescu', cnp: '1960529460012', country: 'RO' });
  desktop = await openDevice(server);
  await desktop.page.setViewportSize({ width: 1366, height: 768 });
}, 240_000);

closeStackAfterAll(() => ({ desktop, server }));

async function scanFast(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code, { delay: 4 });
  await page.keyboard.press('Enter');
}

async function freshCounter(page: Page): Promise<void> {
  await desktop.open('#/counter');
  await page.getByTestId('product-search').waitFor();
  // Whatever a previous test left on the counter goes.
  while ((await page.getByTestId('cart-line').count()) > 0) {
    await page.keyboard.press('F2');
    await page.keyboard.press('Delete');
    await page.waitForTimeout(50);
  }
}

async function lastToast(page: Page): Promise<string> {
  return eventually('a message', async () => (await page.getByTestId('toast').last().textContent()) ?? null);
}

const lineNames = (page: Page) => page.locator('[data-testid=cart-line] td.desc').allTextContents();

describe('finding things', () => {
  it('lets an exact code or barcode win over names, reads scale labels, and says why a code is refused', async () => {
    const { page } = desktop;
    await freshCounter(page);
    // Typed by hand: the exact code wins over the product whose name contains it.
    await page.keyboard.press('F2');
    await page.keyboard.type('5941234567913');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    expect((await lineNames(page))[0]).toContain('Filtre hârtie');
    // A barcode apart from the code.
    await page.keyboard.press('F2');
    await scanFast(page, '4006381333931');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(2);
    expect((await lineNames(page))[1]).toContain('Biscuiți cu ovăz');
    // Scale labels: 1,250 kg of cheese; 8,99 lei of olives (0,5 kg at 17,98 lei/kg).
    await scanFast(page, '2112345012506');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(3);
    expect(await page.getByTestId('line-quantity').nth(2).inputValue()).toBe('1,25');
    await scanFast(page, '2722222008999');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(4);
    expect(await page.getByTestId('line-quantity').nth(3).inputValue()).toBe('0,5');
    await expect.poll(async () => (await page.getByTestId('cart-line').nth(3).textContent()) ?? '').toContain('8,99');
    // A misread label and an unknown code: told in Romanian, nothing added.
    await scanFast(page, '2112345012501');
    expect(await lastToast(page)).toContain('cifra de control greșită');
    await scanFast(page, '5901234123457');
    await expect.poll(() => lastToast(page)).toContain('nu este în catalog');
    expect(await page.getByTestId('cart-line').count()).toBe(4);

    // A scan while the client box has the focus is a product, never a client's name.
    const clientsBefore = (await server.api('GET', '/clients?per_page=100')).body.data.total as number;
    await page.keyboard.press('F3');
    await scanFast(page, '4006381333931');
    await expect.poll(() => page.getByTestId('line-quantity').nth(1).inputValue()).toBe('2');
    expect(await page.getByTestId('client-search').inputValue()).toBe('');
    expect(await page.getByTestId('client-form').count()).toBe(0);

    // Searches fold diacritics; Enter takes the highlighted client.
    await page.keyboard.press('F3');
    await page.keyboard.type('stefan');
    await page.getByTestId('client-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await page.getByTestId('counter-client').textContent()) ?? '').toContain('Ștefan Ionescu');
    // The CNP is not shown in full at the counter nor in the list.
    expect((await page.locator('body').textContent()) ?? '').not.toContain('1960529460012');

    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    await syncAll(desktop);
    expect((await server.api('GET', '/clients?per_page=100')).body.data.total).toBe(clientsBefore);
    const list = await server.api('GET', '/invoices?per_page=100');
    const invoice = (list.body.data.data as { id: string; full_number: string }[]).find((i) => i.full_number === number)!;
    const full = await server.api('GET', `/invoices/${invoice.id}?expand[]=lines`);
    const quantities = (full.body.data.lines as { description: string; quantity: number }[]).map((l) => [l.description, l.quantity]);
    expect(quantities).toEqual([
      ['Filtre hârtie (set 100)', 1],
      ['Biscuiți cu ovăz', 2],
      ['Brânză telemea', 1.25],
      ['Măsline negre', 0.5],
    ]);
  });

  it('finds a code typed before its product existed once the product is there (no answer asked while typing is reused)', async () => {
    const { page } = desktop;
    await freshCounter(page);
    await page.keyboard.press('F2');
    // Typed by hand (not a scanner's burst): the text stays after the refusal, for a second Enter.
    await page.keyboard.type('5940000000011', { delay: 90 });
    await page.keyboard.press('Enter');
    await expect.poll(() => lastToast(page)).toContain('nu este în catalog');
    expect(await page.getByTestId('cart-line').count()).toBe(0);
    const made = (await page.evaluate(() =>
      (window as unknown as { tejghea: { invoke(c: string, p: unknown): Promise<unknown> } }).tejghea.invoke('products.create', { name: 'Cafea nouă', barcode: '5940000000011', price_bani: 1990, vat_rate: 21, price_includes_vat: true }),
    )) as { ok: boolean };
    expect(made.ok).toBe(true);
    await page.keyboard.press('F2');
    expect(await page.getByTestId('product-search').inputValue()).toBe('5940000000011');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    expect((await lineNames(page))[0]).toContain('Cafea nouă');
  });

  it('takes the highlighted suggestion with Enter', async () => {
    const { page } = desktop;
    await freshCounter(page);
    await page.keyboard.press('F2');
    await page.keyboard.type('ca');
    const rows = page.locator('[data-testid=product-suggestions] [role=option]');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    await page.keyboard.press('ArrowDown');
    const highlighted = (await page.locator('[data-testid=product-suggestions] [aria-selected=true]').textContent()) ?? '';
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    const name = (await lineNames(page))[0] ?? '';
    expect(highlighted.length).toBeGreaterThan(0);
    expect(highlighted).toContain(name.split('\n')[0]!.slice(0, 12));
  });
});

describe('scale labels layout', () => {
  it('reads labels by the layout set in Settings', async () => {
    const { page } = desktop;
    await desktop.open('#/settings');
    await page.getByTestId('scale-labels').waitFor();
    // Prefix 27 no longer carries a price: its labels are unknown codes.
    await page.getByTestId('scale-27').selectOption('');
    await page.getByTestId('scale-save').click();
    await expect.poll(async () => ((await invokeCarts(page)).barcode_rules ?? []).some((r) => r.prefix === '27')).toBe(false);
    await freshCounter(page);
    await scanFast(page, '2722222008999');
    await expect.poll(() => lastToast(page)).toContain('nu este în catalog');
    expect(await page.getByTestId('cart-line').count()).toBe(0);
    await desktop.open('#/settings');
    await page.getByTestId('scale-27').selectOption('price');
    await page.getByTestId('scale-save').click();
    await expect.poll(async () => ((await invokeCarts(page)).barcode_rules ?? []).find((r) => r.prefix === '27')?.kind).toBe('price');
    await freshCounter(page);
    await scanFast(page, '2722222008999');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
  });
});

async function invokeCarts(page: Page): Promise<{ barcode_rules: { prefix: string; kind: string }[] | null }> {
  const r = await page.evaluate(() => (window as unknown as { tejghea: { invoke(c: string, p: unknown): Promise<unknown> } }).tejghea.invoke('counter.carts', undefined));
  return (r as { value: { barcode_rules: { prefix: string; kind: string }[] | null } }).value;
}

describe('quantities', () => {
  it('takes n* and decimal commas, and refuses 0, negative and absurd quantities in Romanian without touching the cart', async () => {
    const { page } = desktop;
    await freshCounter(page);
    await page.keyboard.press('F2');
    await page.keyboard.type('2,5*telemea');
    await page.getByTestId('product-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('line-quantity').first().inputValue()).toBe('2,5');
    for (const [typed, words] of [
      ['0*telemea', 'nu poate fi 0'],
      ['1000000000*telemea', 'prea mare'],
      ['1,2345*telemea', 'cel mult 3 zecimale'],
    ] as const) {
      await page.keyboard.press('F2');
      await page.keyboard.type(typed);
      await page.keyboard.press('Enter');
      await expect.poll(() => lastToast(page)).toContain(words);
      await page.getByTestId('product-search').fill('');
    }
    expect(await page.getByTestId('cart-line').count()).toBe(1);
    expect(await page.getByTestId('line-quantity').first().inputValue()).toBe('2,5');
    // In the line's cell too: the reason under the cell, the line unchanged.
    await page.keyboard.press('F4');
    await page.keyboard.type('0');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await page.getByTestId('line-quantity-error').textContent()) ?? '').toContain('nu poate fi 0');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('line-quantity').first().inputValue()).toBe('2,5');
    // A negative quantity is never turned positive: it is refused, and a return goes through a storno.
    await page.keyboard.press('F4');
    await page.keyboard.type('-2');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await page.getByTestId('line-quantity-error').textContent()) ?? '').toContain('Un retur se face din factura inițială');
    await screenshot(page, 'counter-quantity-refused');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('line-quantity').first().inputValue()).toBe('2,5');
  });
});

describe('returns', () => {
  it('sends a return to the storno of the original sale, which the service holds linked to it', async () => {
    const { page } = desktop;
    await freshCounter(page);
    const number = await sellAtCounter(desktop, { entries: ['2*4006381333931'], client: 'Exemplu' });
    await page.keyboard.press('Escape');
    // The customer brings the goods back: a negative quantity at the counter says where returns are made.
    await page.keyboard.press('F2');
    await page.keyboard.type('4006381333931');
    await page.keyboard.press('Enter');
    // F4 goes to the line once the scan has put it in the cart (the lookup is asynchronous).
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    await page.keyboard.press('F4');
    await page.keyboard.type('-2');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await page.getByTestId('line-quantity-error').textContent()) ?? '').toContain('Storno');
    await syncAll(desktop);
    await openInvoiceByNumber(desktop, number);
    await page.getByTestId('detail-storno').click();
    await page.getByTestId('storno-dialog').waitFor();
    await page.getByTestId('dialog-confirm').click();
    await expect.poll(async () => (await page.getByTestId('detail-number').textContent()) !== number).toBe(true);
    const stornoNumber = (await page.getByTestId('detail-number').textContent()) ?? '';
    await screenshot(page, 'counter-return');
    await syncAll(desktop);
    const list = (await server.api('GET', '/invoices?per_page=100')).body.data.data as { id: string; full_number: string; storno_of: string | null; totals: { total: number } }[];
    const original = list.find((i) => i.full_number === number)!;
    const storno = list.find((i) => i.full_number === stornoNumber)!;
    expect(storno.storno_of).toBe(original.id);
    expect(storno.totals.total).toBe(-original.totals.total);
  });
});

describe('focus', () => {
  it('gives the keyboard back to the scan box after printing, so the next scan lands in the next sale', async () => {
    const { page } = desktop;
    await freshCounter(page);
    await sellAtCounter(desktop, { entries: ['5941234567913'], client: 'Exemplu' });
    await page.keyboard.press('Control+p');
    await eventually('printed', async () => (await page.getByTestId('print-frame').getAttribute('srcdoc'))?.includes('Client Exemplu'));
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('product-search');
    await page.keyboard.press('Escape');
    await scanFast(page, '4006381333931');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    expect((await lineNames(page))[0]).toContain('Biscuiți cu ovăz');
  });
});

describe('fits the screen', () => {
  for (const size of [{ width: 1366, height: 768 }, { width: 1280, height: 720 }]) {
    it(`shows every screen without sideways scrolling at ${size.width}×${size.height}, side menu included, CNPs masked in lists`, async () => {
      const { page } = desktop;
      await page.setViewportSize(size);
      const routes = ['#/counter', '#/dashboard', '#/invoices', '#/receipts', '#/clients', '#/products', '#/expenses', '#/supplier-bills', '#/suppliers', '#/stock', '#/nir', '#/nirs', '#/stock-count', '#/stock-transfer', '#/series', '#/sync', '#/settings'];
      const wide: string[] = [];
      for (const route of routes) {
        await desktop.open(route);
        await page.waitForTimeout(200);
        const overflow = await page.evaluate(() => {
          const out: string[] = [];
          const root = document.scrollingElement!;
          if (root.scrollWidth > root.clientWidth + 1) out.push(`page ${root.scrollWidth}>${root.clientWidth}`);
          const nav = document.querySelector('.nav');
          if (nav && nav.scrollWidth > nav.clientWidth + 1) out.push(`menu ${nav.scrollWidth}>${nav.clientWidth}`);
          return out;
        });
        if (overflow.length) wide.push(`${route}: ${overflow.join(', ')}`);
        if (route === '#/clients') {
          await expect.poll(async () => (await page.getByTestId('client-list').textContent()) ?? '').toContain('Ștefan Ionescu');
          const text = (await page.getByTestId('client-list').textContent()) ?? '';
          expect(text).not.toContain('1960529460012');
          expect(text).toContain('1•••••••••012');
        }
      }
      expect(wide).toEqual([]);
      await page.setViewportSize({ width: 1366, height: 768 });
    });
  }
});

describe('CNPs masked', () => {
  const CNP = '1960529460012';
  const MASKED = '1•••••••••012';

  /** Everything a screen shows: its text, and the values and tooltips of its elements. */
  const shownText = (page: Page) =>
    page.evaluate(() => {
      const parts = [document.body.innerText];
      for (const el of document.querySelectorAll('input, textarea, select, [title], [aria-label], [placeholder]')) {
        for (const a of ['title', 'aria-label', 'placeholder']) parts.push(el.getAttribute(a) ?? '');
        if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) parts.push(el.value);
      }
      return parts.join('\n');
    });

  it('shows no full CNP on any screen or list of a sale to a person, masked where shown; the printed invoice carries it in full', async () => {
    const { page } = desktop;
    await freshCounter(page);
    await cartAtCounter(desktop, ['5941234567913']);
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    // The client search's suggestions: the person with her CNP masked.
    await page.keyboard.press('F3');
    await page.keyboard.type('Ionescu');
    const suggestions = page.getByTestId('client-suggestions');
    await expect.poll(async () => (await suggestions.textContent()) ?? '').toContain(MASKED);
    expect(await shownText(page)).not.toContain(CNP);
    await page.keyboard.press('Enter');
    await page.getByTestId('counter-client').waitFor();
    expect(await shownText(page)).not.toContain(CNP);
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    expect(await shownText(page)).not.toContain(CNP);
    // The document needs it: the printed invoice names the buyer by her full CNP.
    await page.keyboard.press('Control+p');
    await eventually('printed', async () => (await page.getByTestId('print-frame').getAttribute('srcdoc'))?.includes('Ștefan Ionescu'));
    expect(await page.getByTestId('print-frame').getAttribute('srcdoc')).toContain(CNP);
    await syncAll(desktop);

    const seen: string[] = [];
    const routes = ['#/counter', '#/dashboard', '#/invoices', '#/receipts', '#/clients', '#/products', '#/expenses', '#/supplier-bills', '#/suppliers', '#/series', '#/sync', '#/settings', '#/accounting'];
    for (const route of routes) {
      await desktop.open(route);
      await page.waitForTimeout(250);
      if ((await shownText(page)).includes(CNP)) seen.push(route);
    }
    // The invoice's own page: the buyer's CNP, masked.
    await openInvoiceByNumber(desktop, number);
    await expect.poll(async () => (await page.getByTestId('buyer-cnp').textContent()) ?? '').toBe(MASKED);
    if ((await shownText(page)).includes(CNP)) seen.push('invoice detail');
    // The receipts list searched by the client's name.
    await desktop.open('#/receipts');
    await page.getByRole('searchbox').or(page.locator('input[type=search]')).first().fill('Ionescu').catch(() => undefined);
    await page.waitForTimeout(300);
    if ((await shownText(page)).includes(CNP)) seen.push('receipts search');
    expect(seen).toEqual([]);
  });
});
