import { beforeAll, describe, expect, it } from 'vitest';
import { toUblXml } from '../../server/efactura/index';
import { finish, seller } from '../efactura/fixtures/documents';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { eventually, screenshot, sellAtCounter, syncAll } from './support/flows';
import { COMPANY, linkEfactura, seed, startE2eServer, type E2eServer, type Seed } from './support/stack';

/**
 * A supplier's e-Factura arrives in the ANAF simulator's SPV inbox, the service imports it, and on
 * the desktop the supplier bills screen turns it into a NIR: the lines the service cannot map yet
 * ask for their product once; the NIR is made on the service; the goods are then sold at the
 * counter. The service's NIR, its stock after the reception and after the sale are asserted, and the
 * same supplier's next bill maps itself.
 */
let server: E2eServer;
let data: Seed;
let desktop: Desktop;

const COFFEE = '5941234567890';
const FILTERS = '5941234567913';
const idOf = (code: string) => data.products.find((p) => p.code === code)!.id;

/** A supplier's e-Factura to the company: 12 sacks of coffee at 40 lei and 50 filter sets at 5 lei, without VAT. */
function coffeeBill(number: string): string {
  return toUblXml(finish(
    {
      kind: 'invoice', number, issue_date: '2026-11-20', due_date: '2026-12-20', currency: 'RON', seller,
      buyer: {
        name: 'Tejghea Demo SRL', vat_id: `RO${COMPANY.cui}`, cui: COMPANY.cui,
        address: { street: 'Str. Lipscani nr. 12', city: 'Sector 3', county_code: 'RO-B', country_code: 'RO' },
      },
      payment: { means_code: '30', iban: 'RO49AAAA1B31007593840000' },
    },
    [
      { name: 'Cafea Arabica boabe sac 1kg', quantity_milli: 12_000, unit_price_bani: 4_000, vat_category: 'S', vat_rate_bp: 1100, unit_code: 'H87' },
      { name: 'Filtre hartie nr.4 x100', quantity_milli: 50_000, unit_price_bani: 500, vat_category: 'S', vat_rate_bp: 2100, unit_code: 'H87' },
    ],
  ));
}

beforeAll(async () => {
  server = await startE2eServer({ anaf: true });
  data = await seed(server);
  await linkEfactura(server);
  desktop = await openDevice(server);
  await desktop.page.setViewportSize({ width: 1366, height: 768 });
}, 240_000);

closeStackAfterAll(() => ({ desktop, server }));

async function level(code: string): Promise<{ quantity: number; unit_cost: number; value: number } | undefined> {
  const res = await server.api('GET', `/stock?product_id=${idOf(code)}`);
  expect(res.status).toBe(200);
  return (res.body.data.data as { quantity: number; unit_cost: number; value: number }[])[0];
}

async function importFromSpv(number: string): Promise<void> {
  server.sim!.state.addReceivedInvoice({ buyerCif: COMPANY.cui, sellerCif: '12345674', xml: coffeeBill(number), env: 'prod' });
  expect((await server.api('POST', '/supplier-bills/sync', {})).body.data.imported).toBe(1);
  await syncAll(desktop);
}

describe('a supplier e-Factura from the SPV inbox received into stock on the desktop', () => {
  it('asks the unmapped lines once, makes the NIR on the service, and the goods sell at the counter', async () => {
    const { page } = desktop;
    await importFromSpv('EF-3001');
    await desktop.open('#/supplier-bills');
    const row = page.getByTestId('vrow').filter({ hasText: 'EF-3001' });
    await row.waitFor();
    // The bill's buttons stay inside a 1280×720 window.
    await page.setViewportSize({ width: 1280, height: 720 });
    const button = (await row.getByTestId('bill-nir').boundingBox())!;
    expect(button.x + button.width).toBeLessThanOrEqual(1280);
    // Nor cut by their own cells (a cell hides what overflows it).
    const clipped = await row.evaluate((el) => [...el.children].filter((cell) => cell.scrollWidth > cell.clientWidth + 1 && cell.querySelector('button')).length);
    expect(clipped).toBe(0);
    await page.setViewportSize({ width: 1366, height: 768 });
    await row.getByTestId('bill-nir').click();
    await page.getByTestId('bill-nir-lines').waitFor();
    expect(await page.getByTestId('bill-nir-line').count()).toBe(2);

    // First press: the service knows neither item of this supplier, and each line asks for its product.
    await page.getByTestId('bill-nir-save').click();
    await page.getByTestId('bill-nir-ask-1').waitFor();
    expect(await page.getByTestId('bill-nir-ask-0').textContent()).toBe('Linia „Cafea Arabica boabe sac 1kg” nu are încă un produs asociat: alegeți-l o dată și va fi reținut.');
    expect(await page.getByTestId('bill-nir-error').textContent()).toContain('alegeți produsul pentru fiecare');
    expect((await server.api('GET', '/nirs')).body.data.data).toHaveLength(0);

    for (const [i, search] of [[0, 'cafea'], [1, 'filtre']] as const) {
      await page.getByTestId(`bill-nir-product-${i}`).click();
      await page.getByTestId(`bill-nir-product-${i}`).fill(search);
      await page.getByTestId(`bill-nir-product-suggestions-${i}`).waitFor();
      await page.keyboard.press('Enter');
      await page.getByTestId(`bill-nir-ask-${i}`).waitFor({ state: 'detached' });
    }
    expect(await page.getByTestId('bill-nir-error').count()).toBe(0);
    // One sack arrived torn: 11 received of 12 invoiced.
    await page.getByTestId('bill-nir-received-0').fill('11');
    await screenshot(page, 'bill-nir');
    await page.getByTestId('bill-nir-save').click();
    await page.getByTestId('bill-nir-saved').waitFor();
    expect(await page.getByTestId('bill-nir-saved').textContent()).toBe('Recepția NIR1 a fost înregistrată; stocul a crescut.');
    const mapped = (await page.getByTestId('bill-nir-mapped').textContent()) ?? '';
    expect(mapped).toContain('Cafea Arabica boabe sac 1kg → Cafea boabe Arabica 1 kg');
    expect(mapped).toContain('Filtre hartie nr.4 x100 → Filtre hârtie (set 100)');

    // On the service: the NIR of that bill, its lines mapped, and the stock it brought in.
    const bills = (await server.api('GET', '/supplier-bills?per_page=10')).body.data.data as { id: string; invoice_number: string }[];
    const bill = bills.find((b) => b.invoice_number === 'EF-3001')!;
    const nirs = (await server.api('GET', '/nirs')).body.data.data as { id: string; supplier_bill_id: string | null; total_cost: number; full_number: string }[];
    expect(nirs).toHaveLength(1);
    expect(nirs[0]).toMatchObject({ supplier_bill_id: bill.id, full_number: 'NIR1', total_cost: 690 });
    const nir = (await server.api('GET', `/nirs/${nirs[0]!.id}`)).body.data as { lines: Record<string, unknown>[] };
    expect(nir.lines).toEqual([
      expect.objectContaining({ product_id: idOf(COFFEE), quantity_invoiced: 12, quantity_received: 11, difference: -1, unit_cost: 40, value: 440 }),
      expect.objectContaining({ product_id: idOf(FILTERS), quantity_invoiced: 50, quantity_received: 50, difference: 0, unit_cost: 5, value: 250 }),
    ]);
    expect(await level(COFFEE)).toMatchObject({ quantity: 11, unit_cost: 40, value: 440 });
    expect(await level(FILTERS)).toMatchObject({ quantity: 50, unit_cost: 5, value: 250 });

    // The same bill again: the dialog says it was received and offers no second NIR.
    await page.getByTestId('bill-nir-dialog').locator('button.close').click();
    await page.getByTestId('bill-nir-dialog').waitFor({ state: 'detached' });
    await row.getByTestId('bill-nir').click();
    await expect.poll(() => page.getByTestId('bill-nir-already').textContent()).toBe('Factura a fost deja recepționată: NIR1.');
    expect(await page.getByTestId('bill-nir-save').isDisabled()).toBe(true);
    await page.getByTestId('bill-nir-dialog').locator('button.close').click();

    // Sold at the counter: the service's stock goes down by the sale.
    await syncAll(desktop);
    await sellAtCounter(desktop, { entries: ['3*cafea'], client: 'Exemplu' });
    await syncAll(desktop);
    expect(await level(COFFEE)).toMatchObject({ quantity: 8, unit_cost: 40, value: 320 });
    const moves = (await server.api('GET', `/stock/movements?product_id=${idOf(COFFEE)}`)).body.data.data as { document_type: string; quantity: number }[];
    // Same day: the ledger's order between the two is by id, not by time.
    expect(moves.map((m) => [m.document_type, m.quantity]).sort()).toEqual([['invoice', -3], ['nir', 11]]);
  });

  it('maps the same supplier\'s next bill by itself: no line asks again', async () => {
    const { page } = desktop;
    await importFromSpv('EF-3002');
    await desktop.open('#/supplier-bills');
    const row = page.getByTestId('vrow').filter({ hasText: 'EF-3002' });
    await row.waitFor();
    await row.getByTestId('bill-nir').click();
    await page.getByTestId('bill-nir-lines').waitFor();
    await page.getByTestId('bill-nir-save').click();
    await page.getByTestId('bill-nir-saved').waitFor();
    expect(await page.getByTestId('bill-nir-saved').textContent()).toBe('Recepția NIR2 a fost înregistrată; stocul a crescut.');
    expect(await level(COFFEE)).toMatchObject({ quantity: 20 });
    expect(await level(FILTERS)).toMatchObject({ quantity: 100 });
    // The print of that NIR names the bill.
    await page.getByTestId('bill-nir-print').click();
    const html = await eventually('printed', async () => {
      const doc = await page.getByTestId('print-frame').getAttribute('srcdoc');
      return doc?.includes('EF-3002') ? doc : null;
    });
    expect(html).toContain('Cafea boabe Arabica 1 kg');
  });
});
