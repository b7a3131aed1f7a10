import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeTotals } from '../../shared/invoice-math';
import { toBani } from '../../shared/money';
import { amountInWords } from '../../shared/ro/amount-in-words';
import { formatBani } from '../../renderer/lib/format';
import { PDF_OPTIONS } from '../../shared/print/pdf-layout';
import { pdfText, squash } from './support/browser';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { eventually, fillInvoiceDetails, indicator, newClientFromCounter, openInvoiceByNumber, scan, screenshot, sellAtCounter, startSaleWith } from './support/flows';
import { addDays, todayInBucharest } from '../../shared/dates';
import { formatDate } from '../../renderer/lib/format';
import { postOk, seed, startE2eServer, type E2eServer, type Seed } from './support/stack';

/**
 * The counter against the real service: the renderer in Chromium, the main-process services over a
 * fresh data folder, the Invoicing Service on loopback. Everything is done with the keyboard, the
 * way a cashier works, and checked where it lands: on screen, on paper (the printed HTML turned into
 * a PDF and read back) and on the server after sync.
 */
let server: E2eServer;
let data: Seed;
let desktop: Desktop;

beforeAll(async () => {
  server = await startE2eServer();
  data = await seed(server);
  desktop = await openDevice(server);
}, 180_000);

closeStackAfterAll(() => ({ desktop, server }));

const product = (code: string) => {
  const p = data.products.find((x) => x.code === code);
  if (!p) throw new Error(`no product ${code}`);
  return p;
};

async function syncNow(): Promise<void> {
  await desktop.open('#/sync');
  await desktop.page.getByTestId('sync-now').click();
  await eventually('outbox drained', async () => {
    const s = await indicator(desktop.page);
    return s.mode === 'online' && s.pending === 0 && s.failed === 0;
  }).catch(async (error: unknown) => {
    const outbox = await desktop.page.evaluate(() => (window as unknown as { tejghea: { invoke(c: string, p: unknown): Promise<unknown> } }).tejghea.invoke('outbox.list', {}));
    throw new Error(`${String(error)}\noutbox: ${JSON.stringify(outbox, null, 1)}`);
  });
}

async function serverInvoices(): Promise<{ full_number: string; totals: { net: number; vat: number; total: number }; id: string; client_id: string | null; storno_of: string | null; status: string }[]> {
  const r = await server.api('GET', '/invoices?per_page=100');
  expect(r.status).toBe(200);
  return r.body.data.data;
}

describe('the counter', () => {
  it('sells with the keyboard only: search, scanner, quantity prefix, inline quantity and discount, client, cash, issue, print, sync', async () => {
    const { page } = desktop;
    await desktop.open('#/counter');
    await page.getByTestId('product-search').waitFor();
    // Search by name, Enter takes the suggestion.
    await page.keyboard.press('F2');
    await page.keyboard.type('cafea');
    await page.getByTestId('product-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    // A scanner types the barcode with the focus elsewhere.
    await scan(page, '5941234567913');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(2);
    // Quantity prefix in the search box.
    await page.keyboard.press('F2');
    await page.keyboard.type('3*5941234567920');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(3);
    // The same code scanned again adds to its line.
    await scan(page, '5941234567913');
    await expect.poll(() => page.getByTestId('line-quantity').nth(1).inputValue()).toBe('2');
    // F4 edits the selected line's quantity, F6 its discount; Enter returns to the search box.
    await page.keyboard.press('F4');
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    await page.keyboard.press('F6');
    await page.keyboard.type('10');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('line-quantity').nth(1).inputValue()).toBe('4');
    await expect.poll(() => page.getByTestId('line-discount').nth(1).inputValue()).toBe('10');
    // Focus returns as the edit is committed, a render after the value shows.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('product-search');

    // The totals on screen are shared/invoice-math's, to the ban.
    const lines = [
      { p: product('5941234567890'), q: 1000, d: 0 },
      { p: product('5941234567913'), q: 4000, d: 1000 },
      { p: product('5941234567920'), q: 3000, d: 0 },
    ];
    const expected = computeTotals(
      lines.map((l) => ({
        quantity_milli: l.q,
        // Shelf prices: the line costs its shelf price exactly, the VAT extracted (docs/shelf-prices.md).
        unit_price_bani: toBani(l.p.price),
        price_includes_vat: true,
        vat_rate_bp: l.p.vat_rate * 100,
        discount_bp: l.d,
      })),
    );
    await expect.poll(() => page.getByTestId('total-grand').textContent()).toBe(`${formatBani(expected.total_bani, 'ro')} lei`);
    expect(await page.getByTestId('total-vat').textContent()).toBe(formatBani(expected.vat_bani, 'ro'));
    expect(await page.getByTestId('vat-row').count()).toBe(2);

    // Client by name with F3, cash is the default payment, F9 issues.
    await page.keyboard.press('F3');
    await page.keyboard.type('Exemplu');
    await page.getByTestId('client-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('counter-client').waitFor();
    await screenshot(page, 'counter');
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    expect(number).toMatch(/^TJ-\d{4}-0001$/);
    await screenshot(page, 'counter-issued');

    // Ctrl+P prints: the document sent to the printer carries the number, the buyer and the totals.
    await page.keyboard.press('Control+p');
    const html = await eventually('printed document', async () => {
      const src = await page.getByTestId('print-frame').getAttribute('srcdoc').catch(() => null);
      return src?.includes(number) ? src : null;
    });
    // The frame really rendered it (the host's CSP lets the print document in).
    await expect.poll(() => page.frameLocator('[data-testid=print-frame]').locator('body').textContent()).toContain(number);
    const printPage = await desktop.context.newPage();
    await printPage.setContent(html);
    const pdf = await printPage.pdf(PDF_OPTIONS);
    await printPage.close();
    writeFileSync(join(process.cwd(), 'docs', 'samples', 'factura-tejghea.pdf'), pdf);
    const text = squash(pdfText(pdf, 'raw'));
    expect(text).toContain(number);
    expect(text).toContain('Client Exemplu SRL');
    expect(text).toContain('RO14399840');
    expect(text).toContain(`Total de plată ${formatBani(expected.total_bani, 'ro')} lei`);
    expect(text).toContain('Modalitate de plată Numerar (chitanță)');

    // After sync the service holds the same invoice, to the ban, and the cash receipt paying it.
    await syncNow();
    const onServer = (await serverInvoices()).find((i) => i.full_number === number);
    expect(onServer).toBeDefined();
    expect(toBani(onServer!.totals.total)).toBe(expected.total_bani);
    expect(toBani(onServer!.totals.vat)).toBe(expected.vat_bani);
    expect(onServer!.client_id).toBe(data.clients[0]!.id);
    const receipts = await server.api('GET', '/receipts?per_page=100');
    const receipt = receipts.body.data.data.find((r: { invoice: { id: string } | null }) => r.invoice?.id === onServer!.id);
    expect(receipt).toBeDefined();
    expect(toBani(receipt.amount)).toBe(expected.total_bani);

    // The chitanță, once numbered by the server, prints with the sum in words.
    await desktop.open('#/invoices');
    await page.getByTestId('vrow').first().click();
    await page.getByTestId('invoice-detail').waitFor();
    await expect.poll(() => page.getByTestId('detail-receipts').textContent()).toContain(receipt.receipt_number);
    await screenshot(page, 'invoice-detail');
    await page.getByTestId('detail-receipts').getByRole('button').first().click();
    const receiptHtml = await eventually('printed receipt', async () => {
      const src = await page.getByTestId('print-frame').getAttribute('srcdoc');
      return src?.includes(receipt.receipt_number) ? src : null;
    });
    expect(receiptHtml).toContain(amountInWords(expected.total_bani, { omitDe: true }));
    expect(receiptHtml).toContain(`contravaloarea facturii ${number}`);
  });

  it('creates a private person on the spot (F7) and invoices them', async () => {
    const { page } = desktop;
    await startSaleWith(desktop, 'ceai');
    await newClientFromCounter(page, 'Maria Ionescu');
    // A typed name without SRL/SA opens as a private person, name filled in: Enter saves.
    expect(await page.getByTestId('client-name').inputValue()).toBe('Maria Ionescu');
    await screenshot(page, 'counter-new-client');
    await page.getByTestId('client-name').press('Enter');
    await page.getByTestId('counter-client').waitFor();
    expect(await page.getByTestId('counter-client').textContent()).toContain('Maria Ionescu');
    await page.getByTestId('pay-card').click();
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    await syncNow();
    const onServer = (await serverInvoices()).find((i) => i.full_number === number);
    expect(onServer).toBeDefined();
    const client = await server.api('GET', `/clients/${onServer!.client_id}`);
    expect(client.body.data).toMatchObject({ name: 'Maria Ionescu', type: 'person' });
  });

  it('refuses a company client with a wrong CUI before saving it', async () => {
    const { page } = desktop;
    await desktop.open('#/counter');
    await page.keyboard.press('F7');
    await page.getByTestId('client-form').waitFor();
    await page.getByTestId('client-cui').fill('RO14399841');
    await page.getByTestId('client-name').fill('Firma Greșită SRL');
    await page.getByTestId('client-save').click();
    await expect.poll(() => page.getByTestId('client-form').textContent()).toContain('cifra de control');
    await page.keyboard.press('Escape');
  });

  it('saves a draft with Ctrl+S (no number), finishes it at the counter and issues it', async () => {
    const { page } = desktop;
    await startSaleWith(desktop, 'cană');
    await page.keyboard.press('Control+s');
    await page.getByTestId('invoice-detail').waitFor();
    expect(await page.getByTestId('detail-number').textContent()).toBe('Ciornă');
    // A draft without a buyer cannot be issued as is; it goes back to the counter.
    expect(await page.getByTestId('detail-issue').isDisabled()).toBe(true);
    await page.getByTestId('detail-continue').click();
    await page.getByTestId('editing-draft').waitFor();
    // The draft's lines come from the cache a moment after the banner: under a loaded CI machine more
    // than expect.poll's default second.
    await expect.poll(() => page.getByTestId('cart-line').count(), { timeout: 10_000 }).toBe(1);
    await page.keyboard.press('F2');
    await page.keyboard.type('2*cană');
    await page.getByTestId('product-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('line-quantity').first().inputValue()).toBe('3');
    await page.keyboard.press('F3');
    await page.keyboard.type('14399840');
    await page.getByTestId('client-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('counter-client').waitFor();
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    expect(number).toMatch(/^TJ-\d{4}-\d{4}$/);
    await syncNow();
    const onServer = (await serverInvoices()).find((i) => i.full_number === number);
    expect(onServer?.status).toBe('issued');
    const cup = product('5941234567937');
    const line = computeTotals([{ quantity_milli: 3000, unit_price_bani: toBani(cup.price), price_includes_vat: true, vat_rate_bp: 2100 }]);
    expect(toBani(onServer!.totals.total)).toBe(line.total_bani);
    // Three cups at the shelf price, to the ban.
    expect(line.total_bani).toBe(3 * toBani(cup.price));
  });

  it('reverses an invoice with a storno that references it, and prints the reference', async () => {
    const { page } = desktop;
    const number = await sellAtCounter(desktop, { entries: ['espressor'], client: 'Cafeneaua', payment: 'bank_order' });
    await syncNow();
    await openInvoiceByNumber(desktop, number);
    await page.getByTestId('detail-storno').click();
    await page.getByTestId('storno-dialog').waitFor();
    await page.getByTestId('dialog-confirm').click();
    await expect.poll(async () => (await page.getByTestId('detail-number').textContent()) !== number).toBe(true);
    const stornoNumber = (await page.getByTestId('detail-number').textContent()) ?? '';
    await page.getByTestId('detail-print').click();
    const html = await eventually('storno print', async () => {
      const src = await page.getByTestId('print-frame').getAttribute('srcdoc');
      return src?.includes(stornoNumber) ? src : null;
    });
    expect(html).toContain('Factură storno');
    expect(html).toContain(`Stornează factura ${number}`);
    await syncNow();
    const all = await serverInvoices();
    const original = all.find((i) => i.full_number === number)!;
    const storno = all.find((i) => i.full_number === stornoNumber)!;
    expect(storno.storno_of).toBe(original.id);
    expect(toBani(storno.totals.total)).toBe(-toBani(original.totals.total));
  });

  it('sells a 0% article as an intra-community supply (K): no exemption reason, the art. 294 mention printed and sent', async () => {
    const { page } = desktop;
    const K_MENTION = 'Scutit cu drept de deducere conform art. 294 alin. (2) lit. a) din Codul fiscal';
    await postOk(server, '/products', { name: 'Rulmenți 6204 (livrare UE)', code: '5941234567968', price: 25, vat_rate: 0, price_includes_vat: true });
    // The region is what e-Factura wants on the delivery address (BR-RO-211); the counter asks for it too.
    await postOk(server, '/clients', { type: 'company', name: 'Musterfirma GmbH', cui: 'DE123456789', country: 'DE', address: 'Hauptstraße 1', city: 'Berlin', county: 'Berlin' });
    await syncNow();
    await desktop.open('#/counter');
    await page.getByTestId('product-search').waitFor();
    await scan(page, '5941234567968');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    // A 0% line starts exempt (E), asking for its reason; a line with VAT has no category at all.
    const category = page.getByTestId('line-vat-category');
    expect(await category.inputValue()).toBe('E');
    expect(await category.locator('option').allTextContents()).toEqual(['Scutit (E)', 'Cotă zero (Z)', 'Livrare intracomunitară (K)', 'Export (G)']);
    expect(await page.getByTestId('line-exemption').count()).toBe(1);
    await scan(page, '5941234567913');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(2);
    expect(await category.count()).toBe(1);
    // A reason typed while the line was exempt is not sent once it is K: the category is its ground.
    await page.getByTestId('line-exemption').fill('art. 292 alin. (2)');
    await category.selectOption('K');
    expect(await page.getByTestId('line-exemption').count()).toBe(0);
    // Without a buyer in another member state F9 issues nothing and says what the supply needs.
    await page.keyboard.press('F9');
    await expect.poll(() => page.getByTestId('cart-problems').textContent()).toContain('O livrare intracomunitară (K) se face către un client din alt stat membru UE');
    expect(await page.getByTestId('cart-problems').isVisible()).toBe(true);
    expect(await page.getByTestId('issued-panel').count()).toBe(0);
    await page.keyboard.press('F3');
    await page.keyboard.type('Musterfirma');
    await page.getByTestId('client-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('counter-client').waitFor();
    // A foreign buyer's VAT number as given, not with an RO in front of its own prefix.
    expect(await page.getByTestId('counter-client').textContent()).toContain('CUI: DE123456789');
    expect(await page.getByTestId('cart-problems').count()).toBe(0);
    await page.getByTestId('pay-bank_order').click();
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';

    await page.keyboard.press('Control+p');
    const html = await eventually('printed K invoice', async () => {
      const src = await page.getByTestId('print-frame').getAttribute('srcdoc').catch(() => null);
      return src?.includes(number) ? src : null;
    });
    expect(html).toContain(K_MENTION);

    await syncNow();
    const onServer = (await serverInvoices()).find((i) => i.full_number === number)!;
    const remote = await server.api('GET', `/invoices/${onServer.id}?expand[]=lines`);
    type RemoteLine = { vat_rate: number; vat_category: string | null; vat_exemption_reason: string | null };
    expect(remote.body.data.lines.map((l: RemoteLine) => [l.vat_rate, l.vat_category, l.vat_exemption_reason])).toEqual([[0, 'K', null], [21, null, null]]);

    await openInvoiceByNumber(desktop, number);
    await expect.poll(() => page.getByTestId('detail-line-vat-category').textContent()).toBe('Livrare intracomunitară (K)');
  });

  it('tells the cashier what an intra-community buyer lacks, and completes the client without leaving the sale', async () => {
    const { page } = desktop;
    await postOk(server, '/products', { name: 'Lagăre industriale (livrare UE)', code: '5941234568002', price: 40, vat_rate: 0, price_includes_vat: true });
    const client = await postOk(server, '/clients', { type: 'company', name: 'Handelshaus Nord GmbH', cui: 'DE811569869', country: 'DE', address: 'Jungfernstieg 7', city: 'Hamburg' });
    await syncNow();
    await desktop.open('#/counter');
    await page.getByTestId('product-search').waitFor();
    await scan(page, '5941234568002');
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
    await page.getByTestId('line-vat-category').selectOption('K');
    await page.keyboard.press('F3');
    await page.keyboard.type('Handelshaus');
    await page.getByTestId('client-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('counter-client').waitFor();
    // The client has no region: the service would refuse the invoice at e-Factura, so F9 refuses it now.
    await page.keyboard.press('F9');
    await expect.poll(() => page.getByTestId('cart-problems').textContent()).toBe('O livrare intracomunitară (K) cere regiunea din adresa clientului, în câmpul Județul (de ex. „Bayern”): modificați clientul (✎).');
    expect(await page.getByTestId('issued-panel').count()).toBe(0);
    await page.getByTestId('client-edit').click();
    await page.getByTestId('client-form').waitFor();
    expect(await page.getByTestId('client-name').inputValue()).toBe('Handelshaus Nord GmbH');
    await page.getByTestId('client-county').fill('Hamburg');
    await page.getByTestId('client-save').click();
    await page.getByTestId('client-form').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('cart-problems').count()).toBe(0);
    await page.getByTestId('pay-bank_order').click();
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    await syncNow();
    const remote = await server.api('GET', `/clients/${client.id}`);
    expect(remote.body.data).toMatchObject({ county: 'Hamburg', country: 'DE' });
    expect((await serverInvoices()).find((i) => i.full_number === number)?.client_id).toBe(client.id);
  });

  it('issues a B2B invoice with a due date, an earlier delivery date and observations; the invoice detail and the service have them', async () => {
    const { page } = desktop;
    const today = todayInBucharest();
    const [due, delivered] = [addDays(today, 14), addDays(today, -5)];
    // A due date before today (the invoice's date) stops F9 with a reason, before a number is spent.
    await startSaleWith(desktop, 'cafea');
    await page.keyboard.press('F3');
    await page.keyboard.type('Exemplu');
    await page.getByTestId('client-suggestions').waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('counter-client').waitFor();
    await fillInvoiceDetails(page, { due_date: addDays(today, -1) });
    await page.keyboard.press('F9');
    await expect.poll(() => page.getByTestId('cart-problems').textContent()).toContain('Scadența este înaintea datei de azi');
    expect(await page.getByTestId('issued-panel').count()).toBe(0);
    await page.getByTestId('pay-bank_order').click();
    await fillInvoiceDetails(page, { due_date: due, delivery_date: delivered, observations: 'Livrat cu avizul 123' });
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    // The next sale starts with the details folded and empty.
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('invoice-details').getAttribute('open')).toBeNull();

    await openInvoiceByNumber(desktop, number);
    expect(await page.getByTestId('detail-delivery-date').textContent()).toBe(formatDate(delivered));
    await syncNow();
    const remote = (await serverInvoices()).find((i) => i.full_number === number)!;
    const full = await server.api('GET', `/invoices/${remote.id}`);
    expect(full.body.data).toMatchObject({ due_date: due, delivery_date: delivered, observations: 'Livrat cu avizul 123', payment_method: 'bank_order' });
  });

  it('keeps every line\'s total and remove button on a 1280×800 screen, with a long name, a 0% line and a discount', async () => {
    const { page } = desktop;
    await postOk(server, '/products', { name: 'Set cadou cafea de specialitate Etiopia Yirgacheffe boabe 1 kg cu râșniță manuală ceramică și două căni', code: '5941234567982', price: 349.9, vat_rate: 21, price_includes_vat: true });
    await postOk(server, '/products', { name: 'Manual de barista (carte, scutit)', code: '5941234567999', price: 79, vat_rate: 0, price_includes_vat: true });
    await syncNow();
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      await desktop.open('#/counter');
      await page.getByTestId('product-search').waitFor();
      for (const [i, code] of ['5941234567999', '5941234567982', '5941234567913'].entries()) {
        await scan(page, code);
        await expect.poll(() => page.getByTestId('cart-line').count()).toBe(i + 1);
      }
      await page.getByTestId('line-quantity').nth(1).fill('40');
      await page.getByTestId('line-quantity').nth(1).press('Enter');
      await page.keyboard.press('F6');
      await page.keyboard.type('15');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('line-discount').nth(2).inputValue()).toBe('15');
      await page.getByTestId('line-exemption').fill('art. 292 alin. (2) lit. a) pct. 14');

      const container = page.locator('.lines-card .scroll');
      const box = (await container.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(1280);
      // Nothing to scroll sideways: the table is as wide as its card.
      expect(await container.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      const inside = async (what: string, locator: Locator) => {
        const b = await locator.boundingBox();
        expect(b, what).not.toBeNull();
        expect(b!.x, what).toBeGreaterThanOrEqual(box.x);
        expect(b!.x + b!.width, `${what}: right edge ${b!.x + b!.width} past ${box.x + box.width}`).toBeLessThanOrEqual(box.x + box.width);
      };
      const lines = page.getByTestId('cart-line');
      for (let i = 0; i < 3; i++) {
        await inside(`line ${i + 1} total`, lines.nth(i).getByTestId('line-total'));
        await inside(`line ${i + 1} remove`, lines.nth(i).getByTestId('line-remove'));
      }
      // The 0% line's own row: its category and reason stay usable inside the card.
      await inside('VAT category', page.getByTestId('line-vat-category'));
      await inside('exemption reason', page.getByTestId('line-exemption'));
      expect(await page.getByTestId('line-exemption').inputValue()).toBe('art. 292 alin. (2) lit. a) pct. 14');
      // A long name takes two lines at most, the whole of it in the tooltip.
      const name = lines.nth(1).locator('.desc .name');
      expect(await name.getAttribute('title')).toContain('două căni');
      expect(await name.evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))).toBeLessThanOrEqual(2.05);
    } finally {
      await page.setViewportSize({ width: 1366, height: 820 });
    }
  });
});
