import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Desktop } from './support/desktop';
import { closeStackAfterAll, openDevice } from './support/fixture';
import { screenshot } from './support/flows';
import { seed, startE2eServer, type E2eServer } from './support/stack';

/**
 * The catalogue and clients import as a shop moving from another program does it, in Chromium
 * through the web host against the real service: an XLSX of products whose code column repeats a
 * code (the bad row is shown, the mapping is changed to take the barcode instead, then imported),
 * and a CSV of clients from the clients screen. What the service holds afterwards is checked.
 */
let server: E2eServer;
let desktop: Desktop;

beforeAll(async () => {
  server = await startE2eServer();
  // A series to sell from (the device's setup needs one) and the usual seed catalogue beside the import.
  await seed(server);
  desktop = await openDevice(server);
}, 180_000);

closeStackAfterAll(() => ({ desktop, server }));

async function productsXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Produse');
  sheet.addRow(['Denumire', 'Cod', 'Cod de bare', 'UM', 'Preț cu TVA', 'Cota TVA']);
  sheet.addRow(['Cafea măcinată 250 g', 'CAF', '5940000000011', 'buc', 24.9, 0.11]);
  sheet.addRow(['Zahăr brun 1 kg', 'ZAH', '5940000000028', 'kg', 8.49, 0.11]);
  sheet.addRow(['Cafea boabe 1 kg', 'CAF', '5940000000035', 'buc', 89.9, 0.11]);
  sheet.addRow(['Ibric inox', 'IBR', '5940000000042', 'buc', '1.299,00', '21%']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('import from a file', () => {
  it('imports an XLSX of products: shows the bad row, fixes the mapping, imports, the service holds them', async () => {
    const { page } = desktop;
    await desktop.open('#/products');
    await page.getByTestId('products-import').click();
    await page.getByTestId('imports-screen').waitFor();
    expect(await page.getByTestId('imports-kind-products').isChecked()).toBe(true);
    await page.getByTestId('imports-file').setInputFiles({
      name: 'produse-smartbill.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await productsXlsx(),
    });
    await page.getByTestId('imports-preview').waitFor();
    // The proposed mapping: every column recognised by its Romanian header.
    expect(await page.getByTestId('imports-map-name').inputValue()).toBe('0');
    expect(await page.getByTestId('imports-map-code').inputValue()).toBe('1');
    expect(await page.getByTestId('imports-map-barcode').inputValue()).toBe('2');
    expect(await page.getByTestId('imports-map-price_with_vat').inputValue()).toBe('4');
    // The repeated code is named with its row and reason; nothing can be imported yet.
    const errors = page.getByTestId('imports-error-row');
    await expect.poll(() => errors.count()).toBe(1);
    expect(await errors.first().textContent()).toBe('4CodCodul „CAF” apare deja pe rândul 2');
    expect(await page.getByTestId('imports-commit').isDisabled()).toBe(true);
    expect(await page.getByTestId('imports-summary').textContent()).toBe('4 rânduri: 3 noi, 0 existente, 1 cu probleme.');
    const rows = page.getByTestId('imports-preview-row');
    expect(await rows.nth(3).textContent()).toContain('1.299,00 lei');
    // Tall enough to show the mapping, the preview and the bad row in one picture.
    await page.setViewportSize({ width: 1366, height: 1180 });
    await screenshot(page, 'import-mapping');
    await page.setViewportSize({ width: 1366, height: 820 });

    // The barcode column becomes the code: no more problem.
    await page.getByTestId('imports-map-code').selectOption('');
    await expect.poll(() => errors.count()).toBe(0);
    expect(await page.getByTestId('imports-summary').textContent()).toBe('4 rânduri: 4 noi, 0 existente, 0 cu probleme.');
    await page.getByTestId('imports-commit').click();
    await page.getByTestId('imports-result').waitFor();
    expect(await page.getByTestId('imports-result').textContent()).toBe('Import încheiat: 4 adăugate, 0 actualizate, 0 identice, 0 sărite (existau deja).');

    const all = (await server.api('GET', '/products?per_page=100&sort=code&order=asc')).body.data.data as Array<Record<string, unknown>>;
    const held = all.filter((p) => String(p.code).startsWith('5940000'));
    expect(held.map((p) => [p.code, p.name, p.price, p.price_includes_vat, p.vat_rate, p.unit, p.unit_code])).toEqual([
      ['5940000000011', 'Cafea măcinată 250 g', 24.9, true, 11, 'buc', 'H87'],
      ['5940000000028', 'Zahăr brun 1 kg', 8.49, true, 11, 'kg', 'KGM'],
      ['5940000000035', 'Cafea boabe 1 kg', 89.9, true, 11, 'buc', 'H87'],
      ['5940000000042', 'Ibric inox', 1299, true, 21, 'buc', 'H87'],
    ]);
    // Pulled into the local cache at once: the products screen lists them.
    await page.getByText('Vezi produsele').click();
    await page.getByTestId('products-screen').waitFor();
    await expect.poll(() => page.getByTestId('product-list').getByText('Ibric inox').count(), { timeout: 15_000 }).toBe(1);
  });

  it('imports a CSV of clients from the clients screen', async () => {
    const { page } = desktop;
    await desktop.open('#/clients');
    await page.getByTestId('clients-import').click();
    await page.getByTestId('imports-screen').waitFor();
    expect(await page.getByTestId('imports-kind-clients').isChecked()).toBe(true);
    const file = [
      'Denumire;CUI;Reg. Com.;Adresa;Localitate;Județ;IBAN;Email',
      'Brutăria Dulce SRL;RO30300832;J12/345/2001;Str. Morii 4;Cluj-Napoca;Cluj;RO48BTRL01301202925689XX;comenzi@brutaria.ro',
      'Ioana Mureșan;;;;Turda;Cluj;;',
    ].join('\r\n');
    await page.getByTestId('imports-file').setInputFiles({ name: 'clienti.csv', mimeType: 'text/csv', buffer: Buffer.from(file, 'utf8') });
    await page.getByTestId('imports-preview').waitFor();
    expect(await page.getByTestId('imports-facts').textContent()).toContain('separator „;”');
    expect(await page.getByTestId('imports-summary').textContent()).toBe('2 rânduri: 2 noi, 0 existente, 0 cu probleme.');
    await page.getByTestId('imports-commit').click();
    await page.getByTestId('imports-result').waitFor();
    expect(await page.getByTestId('imports-result').textContent()).toContain('2 adăugate');
    const all = (await server.api('GET', '/clients?per_page=100&sort=name&order=asc')).body.data.data as Array<Record<string, unknown>>;
    const held = all.filter((c) => c.name === 'Brutăria Dulce SRL' || c.name === 'Ioana Mureșan');
    expect(held.map((c) => [c.name, c.type, c.cui, c.vat_payer, c.city, c.bank])).toEqual([
      ['Brutăria Dulce SRL', 'company', '30300832', true, 'Cluj-Napoca', 'Banca Transilvania'],
      ['Ioana Mureșan', 'person', null, false, 'Turda', null],
    ]);

    // The same file again: recognised, matched by CUI and by name, nothing duplicated.
    await page.getByText('Alt import').click();
    await page.getByTestId('imports-file').setInputFiles({ name: 'clienti.csv', mimeType: 'text/csv', buffer: Buffer.from(file, 'utf8') });
    await page.getByTestId('imports-previously').waitFor();
    expect(await page.getByTestId('imports-previously').textContent()).toMatch(/^Acest fișier a fost deja importat pe \d\d\.\d\d\.\d{4} \d\d:\d\d\./);
    expect(await page.getByTestId('imports-summary').textContent()).toBe('2 rânduri: 0 noi, 2 existente, 0 cu probleme.');
    await page.getByTestId('imports-commit').click();
    await page.getByTestId('imports-result').waitFor();
    expect(await page.getByTestId('imports-result').textContent()).toBe('Import încheiat: 0 adăugate, 0 actualizate, 2 identice, 0 sărite (existau deja).');
    const again = (await server.api('GET', '/clients?per_page=100')).body.data.data as Array<{ name: string }>;
    expect(again.filter((c) => c.name === 'Brutăria Dulce SRL' || c.name === 'Ioana Mureșan')).toHaveLength(2);
  });

  it('refuses a 50 MB file on the spot, in Romanian, without sending it', async () => {
    const { page } = desktop;
    await desktop.open('#/import/products');
    // Playwright hands files over 50 MB by path only: a sparse file of exactly 50 MiB.
    const dir = mkdtempSync(join(tmpdir(), 'tejghea-import-'));
    try {
      const path = join(dir, 'mare.csv');
      writeFileSync(path, 'Denumire;Preț\n');
      truncateSync(path, 50 * 1024 * 1024);
      await page.getByTestId('imports-file').setInputFiles(path);
      await expect.poll(() => page.getByTestId('imports-screen').textContent()).toContain('Fișierul „mare.csv” are 50 MB; un import primește cel mult 20 MB.');
      expect(await page.getByTestId('imports-preview').count()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says in Romanian that an import needs the service when it cannot be reached', async () => {
    const { page } = desktop;
    await desktop.open('#/import/clients');
    await server.stop();
    try {
      await page.getByTestId('imports-file').setInputFiles({ name: 'clienti.csv', mimeType: 'text/csv', buffer: Buffer.from('Denumire;Localitate\r\nAna;Arad\r\n') });
      await expect
        .poll(() => page.getByTestId('imports-screen').textContent(), { timeout: 60_000 })
        .toContain('Importul are nevoie de conexiunea cu serviciul. Conectați-vă și reîncercați; nu s-a importat nimic.');
      expect(await page.getByTestId('imports-preview').count()).toBe(0);
    } finally {
      await server.start();
    }
  }, 90_000);
});
