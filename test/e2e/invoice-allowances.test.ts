import { beforeAll, describe, expect, it } from 'vitest';
import { toBani } from '../../shared/money';
import { PDF_OPTIONS } from '../../shared/print/pdf-layout';
import { formatBani } from '../../renderer/lib/format';
import { pdfText, squash } from './support/browser';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { cartAtCounter, eventually, screenshot, syncAll } from './support/flows';
import { seed, startE2eServer, type E2eServer } from './support/stack';

/**
 * Issue 14 item 4 on the desktop: a cashier gives a 10% discount on the whole invoice and adds a
 * transport charge, with a delivery note reference, at the counter; the printout lists them; synced,
 * the service's totals are the desktop's to the ban.
 */
let server: E2eServer;
let desktop: Desktop;

beforeAll(async () => {
  server = await startE2eServer();
  await seed(server);
  desktop = await openDevice(server);
}, 180_000);

closeStackAfterAll(() => ({ desktop, server }));

describe('discounts and charges on the whole invoice at the counter', () => {
  it('issues with a 10% discount and a transport charge, prints them, and the service agrees to the ban', async () => {
    const { page } = desktop;
    // Espressor 649,99 (21%) and coffee 89,90 (11%), shelf prices (VAT included), for Client Exemplu SRL.
    await cartAtCounter(desktop, ['espressor', 'cafea'], 'Exemplu');
    const box = page.getByTestId('invoice-details');
    if ((await box.getAttribute('open')) === null) await box.locator('summary').click();

    await page.getByTestId('add-discount').click();
    const discount = page.getByTestId('adjustment-0');
    await discount.getByTestId('adjustment-value').fill('10');
    // 10% of the 21% lines' net (649,99 / 1,21 = 537,18): 53,72 lei without VAT.
    await expect.poll(() => discount.getByTestId('adjustment-amount').textContent()).toContain('-53,72');
    await page.getByTestId('add-charge').click();
    const charge = page.getByTestId('adjustment-1');
    await charge.getByTestId('adjustment-value').fill('25');
    expect(await charge.getByTestId('adjustment-reason-code').inputValue()).toBe('FC');
    await page.getByTestId('reference-despatch').fill('AVZ 0457');
    await page.getByTestId('reference-order').fill('CMD 2026/118');
    await expect.poll(() => page.getByTestId('total-allowances').textContent()).toContain('53,72');
    const shownTotal = (await page.getByTestId('total-grand').textContent()) ?? '';
    await discount.scrollIntoViewIfNeeded();
    await screenshot(page, 'invoice-allowances');

    await page.keyboard.press('F9');
    await page.getByTestId('issued-panel').waitFor();
    const number = (await page.getByTestId('issued-number').textContent()) ?? '';
    expect(number).toMatch(/^TJ-/);

    // The printout (A4) lists the lines' sum, each discount and charge, then the taxable total, and the references.
    await page.keyboard.press('Control+p');
    const html = await eventually('print', async () => {
      const src = await page.getByTestId('print-frame').getAttribute('srcdoc');
      return src?.includes(number) ? src : null;
    });
    const pdfPage = await desktop.context.newPage();
    await pdfPage.setContent(html);
    const text = squash(pdfText(await pdfPage.pdf(PDF_OPTIONS), 'raw'));
    await pdfPage.close();
    expect(text).toContain('Reducere pe factură: Reducere comercială (21%) -53,72 lei');
    expect(text).toContain('Majorare pe factură: Transport (21%) 25,00 lei');
    expect(text).toContain('Aviz de însoțire nr. AVZ 0457');
    expect(text).toContain('Comanda nr. CMD 2026/118');

    await syncAll(desktop);
    const list = await server.api('GET', '/invoices?per_page=100');
    const summary = list.body.data.data.find((i: { full_number: string }) => i.full_number === number);
    const remote = (await server.api('GET', `/invoices/${summary.id}`)).body.data;
    // The lines' net 537,18 + 80,99; less the discount, plus the charge, is the taxable total.
    expect(remote.totals).toMatchObject({ lines_net: 618.17, allowances: 53.72, charges: 25, net: 589.45 });
    expect(toBani(remote.totals.net) + toBani(remote.totals.vat)).toBe(toBani(remote.totals.total));
    expect(remote.allowances_charges.map((a: { reason_code: string; amount: number }) => [a.reason_code, a.amount])).toEqual([['95', 53.72], ['FC', 25]]);
    const lei = (n: number) => `${formatBani(toBani(n), 'ro')} lei`;
    expect(text).toContain(`Valoare linii fără TVA ${lei(remote.totals.lines_net)}`);
    expect(text).toContain(`Total fără TVA ${lei(remote.totals.net)}`);
    expect(text).toContain(`Total de plată ${lei(remote.totals.total)}`);
    expect(remote.references).toMatchObject({ despatch: 'AVZ 0457', order: 'CMD 2026/118' });
    // The counter showed the same total before issuing.
    expect(shownTotal).toContain(formatBani(toBani(remote.totals.total), 'ro'));
  });
});
