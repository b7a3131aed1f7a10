import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { todayInBucharest } from '../../shared/dates';
import { PDF_OPTIONS } from '../../shared/print/pdf-layout';
import { API_KEY_SECRET } from '../../main/local/settings';
import { SIM_SELLER_CUI } from '../support/anaf-sim/public-fixtures';
import { startAnafSimulator } from '../support/anaf-simulator';
import { callApi, startTestServer, type ApiReply } from '../support/server';
import { pdfText, squash } from './support/browser';
import { startDesktop, type Desktop } from './support/desktop';
import { captureFailure, eventually, indicator } from './support/flows';
import { tempDataDir } from './support/stack';

/**
 * A shop's whole first day with no terminal and no second program (issue 12): an EMPTY data folder,
 * the first-run screen's "Pe acest calculator" (the firm from its CUI at ANAF, made in the service
 * inside the app), the setup wizard's series, then the first cash sale at the counter to a walk-in
 * customer: the invoice and its chitanță printed, and both held by the embedded service.
 */
const cleanups: (() => Promise<void> | void)[] = [];
let desktop: Desktop | undefined;
const YEAR = todayInBucharest().slice(0, 4);

afterEach(async (context) => {
  await captureFailure(desktop?.page, context);
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('a shop\'s first day on this computer', () => {
  it('goes from an empty data folder through the first run and the wizard to a printed invoice and chitanță', async () => {
    const sim = await startAnafSimulator();
    cleanups.push(() => sim.close());
    const dir = tempDataDir();
    desktop = await startDesktop({
      dataDir: dir.dir, embeddedEnv: { ANAF_PUBLIC_URL: sim.baseUrls.publicApi }, viewport: { width: 1366, height: 768 },
      engine: { probeDelayMs: { min: 200, max: 400 } },
    });
    const d = desktop;
    cleanups.push(async () => {
      await d.close();
      dir.remove();
    });
    const { page } = d;

    // First run: the firm from its CUI, made in the service inside the app.
    await page.getByTestId('first-run-title').waitFor();
    await page.getByTestId('fr-cui').fill(`RO${SIM_SELLER_CUI}`);
    await page.getByTestId('fr-lookup').click();
    await page.locator('[data-testid=fr-lookup-note][data-note=found]').waitFor();
    await page.getByTestId('fr-create').click();

    await wizardToFirstSale(d, (method, path, body) => {
      const base = `http://127.0.0.1:${d.services.embedded.address!.port}/v1`;
      return callApi(base, d.services.secrets.get(API_KEY_SECRET)!, method, path, body);
    });
  }, 180_000);

  it('does the same through "Conectare la un serviciu" to a service started apart', async () => {
    const server = await startTestServer('sqlite');
    cleanups.push(() => server.close());
    const firm = await server.key({ companyName: 'Magazin Gamma SRL' });
    const dir = tempDataDir();
    desktop = await startDesktop({ dataDir: dir.dir, viewport: { width: 1366, height: 768 }, engine: { probeDelayMs: { min: 200, max: 400 } } });
    const d = desktop;
    cleanups.push(async () => {
      await d.close();
      dir.remove();
    });
    const { page } = d;
    await page.getByTestId('first-run-title').waitFor();
    await page.getByTestId('first-run-remote').click();
    await page.getByTestId('fr-url').fill(server.base);
    await page.getByTestId('fr-key').fill(firm.api_key);
    await page.getByTestId('fr-connect').click();
    // The first sync finds a firm with no series: the wizard takes over.
    await wizardToFirstSale(d, (method, path, body) => callApi(server.base, firm.api_key, method, path, body));
  }, 180_000);
});

/**
 * From the wizard's first step to the first sale: no bank yet, the share capital as proposed, no logo,
 * the two series, this counter holding both, A4; one product on the service; a walk-in cash sale printed
 * with its chitanță; then what the service holds. `api` reaches the firm's service with its key.
 */
async function wizardToFirstSale(d: Desktop, api: (method: string, path: string, body?: unknown) => Promise<ApiReply>): Promise<void> {
  const { page } = d;
  // The wizard: no bank yet, the share capital as proposed, no logo, then the two series.
  await page.getByTestId('setup-step-bank').waitFor({ timeout: 30_000 });
  await page.getByTestId('setup-skip').click();
  await page.getByTestId('setup-step-capital').waitFor();
  await page.getByTestId('setup-next').click();
  await page.getByTestId('setup-step-logo').waitFor();
  await page.getByTestId(await page.getByTestId('setup-skip').isVisible() ? 'setup-skip' : 'setup-next').click();
  await page.getByTestId('setup-step-invoice-series').waitFor();
  await page.getByTestId('setup-series-name').fill('MAG');
  await expect.poll(() => page.getByTestId('setup-series-preview').textContent()).toContain(`MAG-${YEAR}-0001`);
  await page.getByTestId('setup-next').click();
  await page.getByTestId('setup-step-receipt-series').waitFor();
  await page.getByTestId('setup-series-name').fill('MAGCH');
  await page.getByTestId('setup-next').click();
  await page.getByTestId('setup-step-counter').waitFor();
  await page.getByTestId('setup-mode-invoice-exclusive').check();
  await page.getByTestId('setup-mode-receipt-exclusive').check();
  await page.getByTestId('setup-next').click();
  await page.getByTestId('setup-step-printer').waitFor();
  await page.getByTestId('setup-next').click();
  await page.getByTestId('product-search').waitFor();

  // The shelf: one product, put on the service the app runs (as an import or the products screen would).
  const product = await api('POST', '/products', { name: 'Pâine albă 500 g', code: '5940000000017', price: 4.5, vat_rate: 11, price_includes_vat: true });
  expect(product.status).toBe(201);
  await page.evaluate(() => (window as unknown as { tejghea: { invoke(c: string, p: unknown): Promise<unknown> } }).tejghea.invoke('sync.now', {}));

  // The first customer: two loaves, no name given, cash. F9 issues to "Persoană fizică".
  await d.open('#/counter');
  await page.getByTestId('product-search').waitFor();
  await page.keyboard.press('F2');
  await page.keyboard.type('2*5940000000017');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1);
  await page.keyboard.press('F9');
  await page.getByTestId('issued-panel').waitFor();
  const number = (await page.getByTestId('issued-number').textContent())?.trim();
  expect(number).toBe(`MAG-${YEAR}-0001`);

  // Printed: the invoice, with the shelf total to the ban.
  await page.keyboard.press('Control+p');
  const html = await eventually('printed invoice', async () => {
    const src = await page.getByTestId('print-frame').getAttribute('srcdoc').catch(() => null);
    return src?.includes(number!) ? src : null;
  });
  const printPage = await d.context.newPage();
  await printPage.setContent(html);
  const text = squash(pdfText(await printPage.pdf(PDF_OPTIONS), 'raw'));
  expect(text).toContain(number!);
  expect(text).toContain('Persoană fizică');
  expect(text).toMatch(/Total de plată 9,00 lei/);

  // Synced: the service inside the app holds the invoice, paid by its chitanță, both numbered here.
  await eventually('synced', async () => {
    await page.evaluate(() => (window as unknown as { tejghea: { invoke(c: string, p: unknown): Promise<unknown> } }).tejghea.invoke('sync.now', {}));
    const s = await indicator(page);
    return s.mode === 'online' && s.pending === 0 && s.failed === 0;
  }, 30_000);
  const invoices = (await api('GET', '/invoices')).body.data.data as { full_number: string; totals: { total: number }; amount_due: number; paid_state: string; buyer: { name: string } }[];
  expect(invoices).toEqual([expect.objectContaining({ full_number: number, totals: expect.objectContaining({ total: 9 }), amount_due: 0, paid_state: 'paid', buyer: expect.objectContaining({ name: 'Persoană fizică', walk_in: true }) })]);
  const receipts = (await api('GET', '/receipts')).body.data.data as { receipt_number: string; amount: number }[];
  expect(receipts).toEqual([expect.objectContaining({ receipt_number: 'MAGCH-1', amount: 9 })]);

  // And the chitanță prints from the invoice's page.
  await d.open('#/invoices');
  await page.getByTestId('vrow').first().click();
  await expect.poll(() => page.getByTestId('detail-receipts').textContent()).toContain('MAGCH-1');
  await page.getByTestId('detail-receipts').getByRole('button').first().click();
  const receiptHtml = await eventually('printed receipt', async () => {
    const src = await page.getByTestId('print-frame').getAttribute('srcdoc');
    return src?.includes('MAGCH-1') ? src : null;
  });
  await printPage.setContent(receiptHtml);
  const receiptText = squash(pdfText(await printPage.pdf(PDF_OPTIONS), 'raw'));
  await printPage.close();
  expect(receiptText).toContain('CHITANȚĂ');
  expect(receiptText).toContain('suma de 9,00 lei');
}
