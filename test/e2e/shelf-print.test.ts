import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zInvoice } from '../../shared/schemas/invoice';
import { renderInvoiceHtml } from '../../shared/print/invoice-template';
import { PDF_OPTIONS } from '../../shared/print/pdf-layout';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';
import { launchChromium, pdfPagePng, pdfText, squash } from './support/browser';
import { SELLER } from './support/documents';

/**
 * The printed invoice of shelf-priced sales, from the service's own JSON: the total the customer pays
 * is the shelf total to the ban, the unit price column says the net price (as the XML does) with the
 * shelf price under it, and a walk-in sale is printed to "Persoană fizică" without the 13 zeros.
 */
let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
});

const PREVIEWS = process.env.PRINT_PREVIEW_DIR ?? join(tmpdir(), 'tejghea-print-previews');

async function printedText(invoice: unknown, sample?: string): Promise<string> {
  await page.setContent(renderInvoiceHtml(zInvoice.parse(invoice), SELLER), { waitUntil: 'load' });
  const pdf = await page.pdf(PDF_OPTIONS);
  if (sample) {
    writeFileSync(join(process.cwd(), 'docs', 'samples', `${sample}.pdf`), pdf);
    mkdirSync(PREVIEWS, { recursive: true });
    writeFileSync(join(PREVIEWS, `${sample}.png`), pdfPagePng(pdf, 60));
  }
  return squash(pdfText(pdf, 'raw')).replace(/ ,/g, ',');
}

describe.each(DIALECTS)('printed shelf-price invoices from the service on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let seriesId: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    key = (await server.key({ cui: '14399840' })).api_key;
    const series = await server.api(key, 'POST', '/invoice-series', { name: 'TJP', document_type: 'fiscal', is_primary: true });
    seriesId = series.body.data.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('prints the shelf total to the ban, the net unit price and the shelf price, to a walk-in buyer', async () => {
    const res = await server.api(key, 'POST', '/invoices', {
      series_id: seriesId, walk_in: true, payment_method: 'receipt',
      items: [
        { description: 'Pâine albă', quantity: 1, price: 2.1, price_includes_vat: true, vat_rate: 21 },
        { description: 'Cafea boabe', quantity: 3, price: 11.2, price_includes_vat: true, vat_rate: 21 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.totals.total).toBe(35.7);
    const text = await printedText(res.body.data, dialect === 'sqlite' ? 'factura-pret-raft' : undefined);
    // 2,10 + 33,60 = 35,70: before the fix the loaf alone printed 2,11.
    expect(text).toContain('35,70');
    expect(text).not.toContain('35,71');
    // Net unit prices as the XML states them, each shelf price under it. The rate's net, 29,50, is
    // shared out: 173,55 and 2776,86 round to 174 + 2777 = 29,51, and the loaf, rounded up the most, gives the ban back.
    expect(res.body.data.lines.map((l: { net: number }) => l.net)).toEqual([1.73, 27.77]);
    expect(text).toContain('1,73');
    expect(text).toContain('9,257');
    expect(text).toContain('cu TVA: 2,10');
    expect(text).toContain('cu TVA: 11,20');
    // VAT 21%: 35,70 / 1,21 = 29,50 net, 6,20 VAT.
    expect(text).toContain('29,50');
    expect(text).toContain('6,20');
    expect(text).toContain('Persoană fizică');
    expect(text).not.toContain('0000000000000');
  }, 60_000);
});
