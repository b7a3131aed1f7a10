import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { toBani } from '../../shared/money';
import { PDF_OPTIONS } from '../../shared/print/pdf-layout';
import { pdfText, squash } from './support/browser';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { eventually, newClientFromCounter, openInvoiceByNumber, screenshot, sellAtCounter, startSaleWith, syncAll } from './support/flows';
import { COMPANY, linkEfactura, seed, startE2eServer, type E2eServer, type Seed } from './support/stack';
import { receivedInvoiceXml } from '../desktop/support/received-bill';

/**
 * Documents and the outside world, with the service wired to the ANAF simulator: the company profile
 * printed as the seller, a new client filled from ANAF's registry by CUI, a proforma turned into a
 * fiscal invoice, a bank payment, and an invoice sent to e-Factura (test environment).
 */
let server: E2eServer;
let data: Seed;
let desktop: Desktop;

beforeAll(async () => {
  server = await startE2eServer({ anaf: true });
  data = await seed(server);
  await linkEfactura(server);
  desktop = await openDevice(server);
}, 180_000);

closeStackAfterAll(() => ({ desktop, server }));

const openInvoice = (number: string) => openInvoiceByNumber(desktop, number);

describe('documents', () => {
  it('prints the company profile kept by the device as the seller block', async () => {
    const { page } = desktop;
    await desktop.open('#/settings');
    await expect.poll(() => page.getByTestId('company-profile').textContent()).toContain('J40/1234/2016');
    // The two print mentions are the service's now: written there, the same on every device.
    await page.getByTestId('profile-edit').click();
    await page.getByTestId('profile-form').waitFor();
    await page.getByTestId('profile-capital').fill('200');
    await page.getByTestId('profile-vat-on-collection').check();
    await page.getByTestId('profile-save').click();
    await page.getByTestId('profile-form').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('company-capital').textContent()).toBe('200,00 lei');
    const remote = await server.api('GET', '/company/profile');
    expect(remote.body.data).toMatchObject({ capital_social_bani: 20_000, vat_on_collection: true, reg_com: 'J40/1234/2016' });
    await screenshot(page, 'settings-profile');
    const number = await sellAtCounter(desktop, { entries: ['cafea'], client: 'Exemplu' });
    await page.keyboard.press('Control+p');
    const html = await eventually('print', async () => {
      const src = await page.getByTestId('print-frame').getAttribute('srcdoc');
      return src?.includes(number) ? src : null;
    });
    const pdfPage = await desktop.context.newPage();
    await pdfPage.setContent(html);
    const pdf = await pdfPage.pdf(PDF_OPTIONS);
    await pdfPage.close();
    const text = squash(pdfText(pdf, 'raw'));
    expect(text).toContain('Tejghea Demo SRL');
    expect(text).toContain('CIF: RO40075649');
    expect(text).toContain('Reg. Com.: J40/1234/2016');
    expect(text).toContain('Capital social: 200,00 lei');
    expect(text).toContain('TVA la încasare');
    expect(text).toContain('Str. Lipscani nr. 12, Sector 3, București');
    expect(text).toContain('RO49 AAAA 1B31 0075 9384 0000');
  });

  it('fills a new client from ANAF by CUI at the counter', async () => {
    const { page } = desktop;
    await startSaleWith(desktop, 'cană');
    await newClientFromCounter(page, 'RO76543210');
    expect(await page.getByTestId('client-cui').inputValue()).toBe('76543210');
    await page.getByTestId('client-lookup').click();
    await expect.poll(() => page.getByTestId('client-name').inputValue()).toBe('EXEMPLU CLIENT SRL');
    expect(await page.getByTestId('client-reg_com').inputValue()).toBe('J12/567/2015');
    expect(await page.getByTestId('client-city').inputValue()).not.toBe('');
    await screenshot(page, 'client-lookup');
    await page.getByTestId('client-save').click();
    await page.getByTestId('counter-client').waitFor();
    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    await syncAll(desktop);
    const clients = await server.api('GET', '/clients?per_page=100');
    const created = clients.body.data.data.find((c: { cui: string }) => c.cui === '76543210');
    expect(created).toMatchObject({ name: 'EXEMPLU CLIENT SRL', reg_com: 'J12/567/2015', vat_payer: true });
  });

  it('turns a proforma into a fiscal invoice numbered on this device', async () => {
    const { page } = desktop;
    const pf = await server.api('POST', '/invoice-series', { name: 'PF', document_type: 'proforma' });
    const proforma = await server.api('POST', '/invoices', {
      document_type: 'proforma', series_id: pf.body.data.id, client_id: data.clients[1]!.id,
      items: [{ description: 'Espressor manual inox', quantity: 2, price: 537.18, vat_rate: 21 }],
    });
    expect(proforma.status).toBeLessThan(300);
    await syncAll(desktop);
    await desktop.open('#/invoices');
    await page.getByTestId('filter-type').selectOption('proforma');
    await expect.poll(() => page.getByTestId('invoice-list').getAttribute('data-total')).toBe('1');
    await page.getByTestId('vrow').first().click();
    await page.getByTestId('detail-convert').click();
    await page.getByTestId('convert-dialog').waitFor();
    await page.getByTestId('dialog-confirm').click();
    await expect.poll(() => page.getByTestId('detail-number').textContent()).toMatch(/^TJ-\d{4}-\d{4}$/);
    const number = (await page.getByTestId('detail-number').textContent()) ?? '';
    await syncAll(desktop);
    const list = await server.api('GET', '/invoices?per_page=100');
    const fiscal = list.body.data.data.find((i: { full_number: string }) => i.full_number === number);
    expect(fiscal.document_type).toBe('fiscal');
    expect(toBani(fiscal.totals.total)).toBe(toBani(proforma.body.data.totals.total));
  });

  it('records a bank transfer that pays an invoice in full', async () => {
    const { page } = desktop;
    const number = await sellAtCounter(desktop, { entries: ['râșniță'], client: 'Cafeneaua', payment: 'bank_order' });
    await openInvoice(number);
    await page.getByTestId('detail-payment').click();
    await page.getByTestId('payment-dialog').waitFor();
    await page.getByTestId('dialog-confirm').click();
    await expect.poll(() => page.getByTestId('detail-payments').textContent()).toContain('Ordin de plată');
    await syncAll(desktop);
    const list = await server.api('GET', '/invoices?per_page=100');
    const inv = list.body.data.data.find((i: { full_number: string }) => i.full_number === number);
    expect(inv.paid_state).toBe('paid');
  });

  it('sends an invoice to e-Factura (test environment) and shows its status', async () => {
    const { page } = desktop;
    const number = await sellAtCounter(desktop, { entries: ['espressor'], client: 'Exemplu', payment: 'bank_order' });
    await syncAll(desktop);
    await openInvoice(number);
    await page.getByTestId('detail-spv').click();
    await page.getByTestId('spv-dialog').waitFor();
    expect(await page.getByTestId('spv-dialog').textContent()).toContain('mediul de test');
    await page.getByTestId('dialog-confirm').click();
    await page.getByTestId('spv-dialog').waitFor({ state: 'detached' });
    const submissions = await server.api('GET', '/efactura/submissions');
    expect(JSON.stringify(submissions.body)).toContain(number);
    // The service polls ANAF; the device pulls the outcome.
    await server.pollEfactura();
    await server.pollEfactura();
    await syncAll(desktop);
    await openInvoice(number);
    await expect.poll(() => page.getByTestId('invoice-detail').textContent(), { timeout: 15_000 }).toMatch(/Acceptată|În prelucrare/);
    await screenshot(page, 'invoice-efactura');
    writeFileSync(join(process.cwd(), 'node_modules', '.cache', 'efactura-status.txt'), (await page.getByTestId('invoice-detail').textContent()) ?? '');
  });

  it('opens ANAF’s PDF of a supplier bill received through e-Factura: the browser downloads it', async () => {
    const { page } = desktop;
    server.sim!.state.addReceivedInvoice({ buyerCif: COMPANY.cui, sellerCif: '12345674', xml: receivedInvoiceXml(COMPANY.cui, 'EF-2001'), env: 'prod' });
    expect((await server.api('POST', '/supplier-bills/sync', {})).body.data.imported).toBe(1);
    await syncAll(desktop);
    await desktop.open('#/supplier-bills');
    await expect.poll(() => page.getByTestId('bill-list').getAttribute('data-total')).toBe('1');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bill-pdf').click()]);
    expect(download.suggestedFilename()).toBe('Factura-furnizor-EF-2001.pdf');
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect.poll(() => page.getByTestId('toast').allTextContents()).toContainEqual(expect.stringContaining('Factura-furnizor-EF-2001.pdf'));
    await screenshot(page, 'supplier-bills');
  });
});
