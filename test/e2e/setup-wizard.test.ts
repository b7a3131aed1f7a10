import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { todayInBucharest } from '../../shared/dates';
import { PDF_OPTIONS } from '../../shared/print/pdf-layout';
import { pdfText, squash } from './support/browser';
import { startDesktop, type Desktop } from './support/desktop';
import { closeStackAfterAll } from './support/fixture';
import { eventually, indicator, screenshot, sellAtCounter } from './support/flows';
import { postOk, startE2eServer, tempDataDir, type E2eServer } from './support/stack';

/**
 * A shop's first day (issue 12): a company and its key exist on the service, nothing else. The key is
 * entered, the first sync finds no series, and the setup wizard takes over: every step is done in
 * Chromium, checked on the service, then the first invoice and chitanță are issued and printed on
 * the 80 mm layout chosen in the wizard. Screenshots of every step go to docs/screenshots/setup-*.png.
 */
let server: E2eServer;
let desktop: Desktop;
let removeDir: () => void = () => undefined;
const YEAR = todayInBucharest().slice(0, 4);
const IBAN = 'RO49AAAA1B31007593840000';

beforeAll(async () => {
  server = await startE2eServer();
  await postOk(server, '/products', { name: 'Cafea boabe Arabica 1 kg', code: '5941234567890', price: 89.9, vat_rate: 11, price_includes_vat: true });
  await postOk(server, '/clients', { type: 'company', name: 'Client Exemplu SRL', cui: '14399840', vat_payer: true, reg_com: 'J12/345/2001', address: 'Bd. Eroilor nr. 5', city: 'Cluj-Napoca', county: 'Cluj', country: 'RO' });
  const dir = tempDataDir();
  removeDir = dir.remove;
  desktop = await startDesktop({ apiUrl: server.base, dataDir: dir.dir, viewport: { width: 1366, height: 768 }, engine: { probeDelayMs: { min: 200, max: 400 } } });
}, 180_000);

closeStackAfterAll(() => ({ desktop, server }));
afterAllRemove();

function afterAllRemove(): void {
  // The data folder goes after the desktop closed (closeStackAfterAll's afterAll runs first: registered first).
  import('vitest').then(({ afterAll }) => afterAll(() => removeDir())).catch(() => undefined);
}

async function logoPng(): Promise<Buffer> {
  const svg = readFileSync(join(process.cwd(), 'assets', 'icon.svg'), 'utf8');
  const page = await desktop.context.newPage();
  await page.setViewportSize({ width: 240, height: 120 });
  await page.setContent(`<body style="margin:0;display:flex;align-items:center;gap:8px;font:bold 28px sans-serif;color:#1f3a5f"><div style="width:96px;height:96px">${svg.replace('<svg ', '<svg width="96" height="96" ')}</div>Ardeleana</body>`);
  const png = await page.screenshot({ type: 'png' });
  await page.close();
  return png;
}

describe('setup wizard, from a company with nothing to the first printed sale', () => {
  it('goes through every step, saves each on the service, and sells with what it set up', async () => {
    const { page } = desktop;
    // The key, as the owner types it once; the first sync finds a company without series.
    await desktop.open('#/settings');
    await page.getByTestId('settings-api-key').fill(server.apiKey);
    await page.getByTestId('settings-api-key-save').click();
    // A stored key starts a full sync at once; when it finds no series, the wizard replaces the app.
    await page.getByTestId('setup-wizard').waitFor({ timeout: 30_000 });

    // 1. Bank: a mistyped IBAN is refused at the field, nothing is made on the service.
    await page.getByTestId('setup-step-bank').waitFor();
    await page.getByTestId('setup-iban').fill('RO49 AAAA 1B31 0075 9384 0001');
    await page.getByTestId('setup-next').click();
    await expect.poll(() => page.getByTestId('setup-step-bank').textContent()).toContain('Cifrele de control nu se potrivesc');
    await screenshot(page, 'setup-bank-error');
    expect((await server.api('GET', '/bank-accounts')).body.data.data).toEqual([]);
    await page.getByTestId('setup-iban').fill('RO49 AAAA 1B31 0075 9384 0000');
    await expect.poll(() => page.getByTestId('setup-step-bank').textContent()).not.toContain('Cifrele de control');
    await page.getByTestId('setup-bank-name').fill('Banca Transilvania');
    await screenshot(page, 'setup-bank');
    await page.getByTestId('setup-next').click();

    // 2. Share capital.
    await page.getByTestId('setup-step-capital').waitFor();
    await page.getByTestId('setup-capital').fill('1.000,50');
    await screenshot(page, 'setup-capital');
    await page.getByTestId('setup-next').click();

    // 3. Logo: too large refused with its size, then a real one.
    await page.getByTestId('setup-step-logo').waitFor();
    await page.getByTestId('setup-logo-file').setInputFiles({ name: 'mare.png', mimeType: 'image/png', buffer: Buffer.alloc(300 * 1024, 1) });
    await expect.poll(() => page.getByTestId('setup-logo-error').textContent()).toContain('Imaginea are 300 KB');
    await page.getByTestId('setup-logo-file').setInputFiles({ name: 'sigla.png', mimeType: 'image/png', buffer: await logoPng() });
    await page.getByTestId('setup-logo-preview').locator('img').waitFor();
    await screenshot(page, 'setup-logo');
    await page.getByTestId('setup-next').click();
    await page.getByTestId('setup-step-invoice-series').waitFor();

    // Left and resumed: a reload opens the wizard at the first step not done.
    await page.reload();
    await page.getByTestId('setup-step-invoice-series').waitFor();
    expect(await page.getByTestId('setup-nav-bank').textContent()).toContain('✓');

    // 4. Invoice series: a name another series has is refused at the field (409 duplicate_series).
    await postOk(server, '/invoice-series', { name: 'VECHE' });
    await page.getByTestId('setup-series-name').fill('veche');
    await page.getByTestId('setup-next').click();
    await expect.poll(() => page.getByTestId('setup-step-invoice-series').textContent()).toContain('Numele este folosit deja de altă serie a firmei');
    await screenshot(page, 'setup-invoice-series-error');
    await page.getByTestId('setup-series-name').fill('ARD');
    await page.getByTestId('setup-series-start').fill('1235');
    await expect.poll(() => page.getByTestId('setup-series-preview').textContent()).toContain(`ARD-${YEAR}-1235`);
    await screenshot(page, 'setup-invoice-series');
    await page.getByTestId('setup-next').click();

    // 5. Receipt series.
    await page.getByTestId('setup-step-receipt-series').waitFor();
    await page.getByTestId('setup-series-name').fill('ARDCH');
    await page.getByTestId('setup-series-start').fill('501');
    await expect.poll(() => page.getByTestId('setup-series-preview').textContent()).toContain('ARDCH-501');
    await screenshot(page, 'setup-receipt-series');
    await page.getByTestId('setup-next').click();

    // 6. This counter: its name; invoices exclusive here, receipts too.
    await page.getByTestId('setup-step-counter').waitFor();
    await page.getByTestId('setup-device-name').fill('Casa 1 Ardeleana');
    await page.getByTestId('setup-mode-invoice-exclusive').check();
    await page.getByTestId('setup-mode-receipt-exclusive').check();
    await screenshot(page, 'setup-counter');
    await page.getByTestId('setup-next').click();

    // 7. Printer: the 80 mm roll. Finishing opens the counter.
    await page.getByTestId('setup-step-printer').waitFor();
    await page.getByTestId('setup-layout-80mm').check();
    await screenshot(page, 'setup-printer');
    await page.getByTestId('setup-next').click();
    await page.getByTestId('screen-title').waitFor();
    await page.getByTestId('product-search').waitFor();

    // What the service now holds.
    const accounts = (await server.api('GET', '/bank-accounts')).body.data.data as { iban: string; is_default: boolean }[];
    expect(accounts).toEqual([expect.objectContaining({ iban: IBAN, bank: 'Banca Transilvania', is_default: true })]);
    const profile = (await server.api('GET', '/company/profile')).body.data;
    expect(profile).toMatchObject({ iban: IBAN, capital_social_bani: 100_050 });
    const invoiceSeries = ((await server.api('GET', '/invoice-series')).body.data.data as { name: string; start_number: number; next_number: number; is_primary: boolean; lock: { device_name: string } | null }[])
      .find((s) => s.name === 'ARD');
    expect(invoiceSeries).toMatchObject({ start_number: 1235, next_number: 1235, is_primary: true, lock: { device_name: 'Casa 1 Ardeleana' } });
    const receiptSeries = ((await server.api('GET', '/receipt-series')).body.data.data as { prefix: string; start_number: number; next_number: number; lock: unknown }[])
      .find((s) => s.prefix === 'ARDCH');
    expect(receiptSeries).toMatchObject({ start_number: 501, next_number: 501, lock: expect.objectContaining({ device_name: 'Casa 1 Ardeleana' }) });

    // The first sale, cash: the invoice continues the old numbering and prints on 80 mm.
    const number = await sellAtCounter(desktop, { entries: ['cafea'], client: 'Exemplu', payment: 'receipt' });
    expect(number).toBe(`ARD-${YEAR}-1235`);
    await page.keyboard.press('Control+p');
    const html = await eventually('printed invoice', async () => {
      const src = await page.getByTestId('print-frame').getAttribute('srcdoc').catch(() => null);
      return src?.includes(number) ? src : null;
    });
    expect(html).toContain('size: 80mm');
    expect(html).toContain('data:image/png;base64,');
    const printPage = await desktop.context.newPage();
    await printPage.setContent(html);
    const text = squash(pdfText(await printPage.pdf(PDF_OPTIONS), 'raw'));
    expect(text).toContain(number);
    expect(text).toContain('Client Exemplu SRL');
    expect(text).toContain('Capital social: 1.000,50 lei');
    expect(text).toContain('RO49 AAAA 1B31 0075 9384 0000');
    expect(text).toMatch(/Total de plată 89,90 lei/);

    // The chitanță of the cash payment: numbered here at once from the receipt series, printed on 80 mm.
    await eventually('synced', async () => {
      await page.evaluate(() => (window as unknown as { tejghea: { invoke(c: string, p: unknown): Promise<unknown> } }).tejghea.invoke('sync.now', {}));
      const s = await indicator(page);
      return s.mode === 'online' && s.pending === 0 && s.failed === 0;
    }, 30_000);
    const receipts = (await server.api('GET', '/receipts?per_page=10')).body.data.data as { receipt_number: string; amount: number }[];
    expect(receipts.map((r) => r.receipt_number)).toEqual(['ARDCH-501']);
    await desktop.open('#/invoices');
    await page.getByTestId('vrow').first().click();
    await page.getByTestId('invoice-detail').waitFor();
    await expect.poll(() => page.getByTestId('detail-receipts').textContent()).toContain('ARDCH-501');
    await page.getByTestId('detail-receipts').getByRole('button').first().click();
    const receiptHtml = await eventually('printed receipt', async () => {
      const src = await page.getByTestId('print-frame').getAttribute('srcdoc');
      return src?.includes('ARDCH-501') ? src : null;
    });
    expect(receiptHtml).toContain('size: 80mm');
    await printPage.setContent(receiptHtml);
    const receiptText = squash(pdfText(await printPage.pdf(PDF_OPTIONS), 'raw'));
    await printPage.close();
    expect(receiptText).toContain('CHITANȚĂ');
    expect(receiptText).toContain('Am primit de la Client Exemplu SRL');
    expect(receiptText).toContain('suma de 89,90 lei');
    expect(receiptText).toContain(`contravaloarea facturii ${number}`);

    // The series screen: example numbers, never a format string.
    await desktop.open('#/series');
    const seriesText = (await page.getByTestId('series-screen').textContent()) ?? '';
    expect(seriesText).not.toContain('{number');
    expect(seriesText).toContain(`ARD-${YEAR}-1236`);
    await screenshot(page, 'setup-series-after');

    // A second series from the series screen: a used name is refused at the field, then a new one is made default.
    await page.getByTestId('series-new').click();
    await page.getByTestId('series-new-name').fill('ard');
    await page.getByTestId('series-new-save').click();
    await expect.poll(() => page.getByTestId('series-new-form').textContent()).toContain('Numele este folosit deja');
    await page.getByTestId('series-new-name').fill('B2');
    await page.getByTestId('series-new-start').fill('10');
    await expect.poll(() => page.getByTestId('series-new-preview').textContent()).toContain(`B2-${YEAR}-0010`);
    await screenshot(page, 'series-new');
    await page.getByTestId('series-new-save').click();
    await page.getByTestId('series-set-primary').click();
    await eventually('B2 is the default on the service', async () => {
      const list = (await server.api('GET', '/invoice-series')).body.data.data as { name: string; is_primary: boolean; start_number: number }[];
      return list.find((s) => s.name === 'B2')?.is_primary && list.find((s) => s.name === 'B2')?.start_number === 10;
    });

    // The series made by hand before, used from here with reserved numbers: the stock's size in words and numbers.
    await page.getByTestId('series-row').filter({ hasText: 'VECHE' }).click();
    await page.getByTestId('series-shared').click();
    await page.getByTestId('series-pool-settings').waitFor();
    await page.getByTestId('series-pool-target').fill('6');
    await page.getByTestId('series-pool-low').fill('6');
    await expect.poll(() => page.getByTestId('series-pool-settings').textContent()).toContain('Scrieți un număr mai mic');
    await page.getByTestId('series-pool-low').fill('2');
    await page.getByTestId('series-pool-settings').getByRole('button').click();
    await expect.poll(() => page.getByTestId('series-mode-explain').textContent()).toContain('rezerva se completează până la 6');
    await screenshot(page, 'series-pool');
  });
});
