import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { PDF_OPTIONS } from '../../shared/print/pdf-layout';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { screenshot, SCREENSHOTS } from './support/flows';
import { pdfPagePng, pdfText, squash } from './support/browser';
import { postOk, seed, startE2eServer, type E2eServer, type Seed } from './support/stack';

/**
 * The Contabilitate screen against the real service: last month's documents, a file asked for and
 * received by the browser (the web host hands over the bytes), and the printed registrul de casă —
 * the service's HTML printed by Chromium as the app prints, read back with pdftotext and photographed.
 */
let server: E2eServer;
let data: Seed;
let desktop: Desktop;

function lastMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getFullYear(), now.getMonth() - 1, 1)).toISOString().slice(0, 7);
}
const MONTH = lastMonth();

beforeAll(async () => {
  server = await startE2eServer();
  data = await seed(server);
  const post = (path: string, body: unknown) => postOk(server, path, body);
  for (const [day, qty] of [['03', 2], ['03', 1], ['10', 5], ['17', 3]] as const) {
    const inv = await post('/invoices', {
      series_id: data.seriesId, client_id: data.clients[0]!.id, issue_date: `${MONTH}-${day}`,
      items: [{ description: data.products[0]!.name, quantity: qty, price: 18.5, vat_rate: 21 }, { description: 'Croissant', quantity: qty, price: 6.3, vat_rate: 11 }],
    });
    await post('/receipts', { invoice_id: inv.id, amount: (inv as unknown as { totals: { total: number } }).totals.total, payment_date: `${MONTH}-${day}` });
  }
  await post('/accounting/cash-movements', { date: `${MONTH}-01`, kind: 'opening', amount: 500, description: 'Sold inițial' });
  await post('/accounting/cash-movements', { date: `${MONTH}-10`, kind: 'bank_deposit', amount: 300, document_number: 'FV 12', description: 'Depunere numerar la BT' });
  desktop = await openDevice(server);
}, 240_000);

closeStackAfterAll(() => ({ desktop, server }));

describe('Contabilitate', () => {
  it('picks last month and hands over each file the service makes', async () => {
    const { page } = desktop;
    await desktop.open('#/accounting');
    await expect(page.getByTestId('accounting-month').inputValue()).resolves.toBe(MONTH);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('accounting-get-saga_zip').click()]);
    expect(download.suggestedFilename()).toMatch(/^Saga_.*\.zip$/);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const files = unzipSync(new Uint8Array(readFileSync(path)));
    expect(Object.keys(files).some((n) => n.startsWith('IE_'))).toBe(true);
    const [winMentor] = await Promise.all([page.waitForEvent('download'), page.getByTestId('accounting-get-winmentor_zip').click()]);
    expect(winMentor.suggestedFilename()).toMatch(/^WinMentor_.*\.zip$/);
    expect(Object.keys(unzipSync(new Uint8Array(readFileSync(await winMentor.path()))))).toContain('Parteneri.txt');
    await page.getByTestId('accounting-get-saga_zip').waitFor();
    await screenshot(page, 'accounting');
    // A backwards period is said at the field, and nothing can be asked for.
    await page.getByTestId('accounting-end').fill(`${MONTH}-01`);
    await page.getByTestId('accounting-start').fill(`${MONTH}-20`);
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('Data de sfârșit este înaintea datei de început.');
    expect(await page.getByTestId('accounting-get-saga_zip').isDisabled()).toBe(true);
  });

  it('shows the documents written of the total while an export job runs, then saves its file', async () => {
    const { page } = desktop;
    await desktop.open('#/accounting');
    // The month again (the test before left a backwards period): its bounds reset with it.
    await page.getByTestId('accounting-month').fill(MONTH);
    await expect(page.getByTestId('accounting-start').inputValue()).resolves.toBe(`${MONTH}-01`);
    // The job of a few documents ends in a blink: the save is held until the bar has been seen and photographed.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const channels: string[] = [];
    await page.route('**/__tejghea/invoke', async (route) => {
      const channel = (JSON.parse(route.request().postData() ?? '{}') as { channel?: string }).channel ?? '';
      channels.push(channel);
      if (channel === 'accounting.jobSave') await held;
      await route.continue();
    });
    try {
      const downloaded = page.waitForEvent('download', { timeout: 60_000 });
      await page.getByTestId('accounting-get-documents_csv').click();
      const bar = page.getByTestId('accounting-progress-bar');
      await bar.waitFor();
      const total = Number(await bar.getAttribute('data-total'));
      expect(total).toBeGreaterThanOrEqual(8);
      // The job's own count reaches its total (the save is held, so the bar stays).
      await page.getByTestId('accounting-progress-text').getByText('se salvează').waitFor({ timeout: 30_000 });
      expect(Number(await bar.getAttribute('value'))).toBe(total);
      expect(Number(await bar.getAttribute('max'))).toBe(total);
      // Held just before saving: the real count, full, with the saving note.
      await expect(page.getByTestId('accounting-progress-text').textContent()).resolves.toBe(`${total} din ${total} documente (100%) · Fișierul este gata; se salvează…`);
      await screenshot(page, 'accounting-progress');
      release();
      const download = await downloaded;
      expect(download.suggestedFilename()).toMatch(/^Documente_.*\.csv$/);
      const { readFileSync } = await import('node:fs');
      const bytes = readFileSync(await download.path());
      // UTF-8 with a BOM (Excel reads the diacritics then), as the direct export.
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.subarray(3).toString('utf8').trim().split('\r\n');
      expect(lines[0]).toBe('Tip,Număr,Data,Partener,CUI/CNP,Monedă,Curs,Bază (lei),TVA (lei),Total (lei)');
      // One row per document counted by the job: the bar's total is the file's row count.
      expect(lines).toHaveLength(1 + total);
      expect(lines.filter((l) => l.startsWith('Chitanță,')).length).toBeGreaterThanOrEqual(4);
      expect(lines.filter((l) => l.startsWith('Factură,') && l.includes(`,${MONTH}-10,`)).length).toBe(1);
      expect(channels).toEqual(expect.arrayContaining(['accounting.jobStart', 'accounting.jobStatus', 'accounting.jobSave']));
      await page.getByTestId('accounting-progress').waitFor({ state: 'detached' });
    } finally {
      release();
      await page.unroute('**/__tejghea/invoke');
    }
  });

  it('prints the registrul de casă on form 14-4-7A: balances carried day to day', async () => {
    const res = await fetch(`${server.base}/accounting/cash-register/html?start_date=${MONTH}-01&end_date=${MONTH}-31`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const page = await desktop.context.newPage();
    await page.setContent(html);
    const pdf = await page.pdf(PDF_OPTIONS);
    await page.close();
    const text = squash(pdfText(pdf, 'raw'));
    expect(text).toContain('REGISTRU DE CASĂ');
    expect(text).toContain('Cod 14-4-7A');
    expect(text).toContain('Depunere numerar la bancă: Depunere numerar la BT');
    expect(text).toContain('SOLD FINAL');
    mkdirSync(SCREENSHOTS, { recursive: true });
    writeFileSync(join(SCREENSHOTS, 'registru-casa.png'), pdfPagePng(pdf, 80, 2));
    writeFileSync(join(process.cwd(), 'docs', 'samples', 'registru-casa.pdf'), pdf);
  });

  it('prints the jurnal de vânzări with its totals row', async () => {
    const res = await fetch(`${server.base}/accounting/journals/sales/html?start_date=${MONTH}-01&end_date=${MONTH}-31`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const journal = (await server.api('GET', `/accounting/journals/sales?start_date=${MONTH}-01&end_date=${MONTH}-31`)).body.data;
    const page = await desktop.context.newPage();
    await page.setContent(await res.text());
    const pdf = await page.pdf({ ...PDF_OPTIONS, landscape: true });
    await page.close();
    const text = squash(pdfText(pdf, 'raw'));
    expect(text).toContain('Jurnal de vânzări');
    expect(text).toContain(`TOTAL (${journal.document_count} documente)`);
    const total = new Intl.NumberFormat('ro-RO', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(journal.totals.total);
    expect(text).toContain(total);
    writeFileSync(join(SCREENSHOTS, 'jurnal-vanzari.png'), pdfPagePng(pdf, 80, 1));
    writeFileSync(join(process.cwd(), 'docs', 'samples', 'jurnal-vanzari.pdf'), pdf);
  });
});
