import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBani } from '../../shared/money';
import { amountInWords } from '../../shared/ro/amount-in-words';
import { PDF_OPTIONS } from '../../shared/print/pdf-layout';
import { formatBani } from '../../renderer/lib/format';
import { renderThermalInvoiceHtml } from '../../shared/print/thermal-invoice-template';
import { renderThermalReceiptHtml } from '../../shared/print/thermal-receipt-template';
import { launchChromium, pdfPagePng, pdfPages, pdfText, squash } from './support/browser';
import { makeInvoice, makeReceipt, SELLER, type LineSpec } from './support/documents';

/**
 * The 80 mm roll layouts (issue 12), printed by Chromium with the app's PDF options and read back with
 * pdftotext: the legal content of the A4 documents, on a page 80 mm wide. Samples in docs/samples/.
 */
const SAMPLES = join(process.cwd(), 'docs', 'samples');

let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SAMPLES, { recursive: true });
  browser = await launchChromium();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
});

async function toPdf(html: string, sample: string): Promise<{ pdf: Uint8Array; flat: string }> {
  await page.setContent(html, { waitUntil: 'load' });
  const pdf = await page.pdf(PDF_OPTIONS);
  writeFileSync(join(SAMPLES, `${sample}.pdf`), pdf);
  writeFileSync(join(SAMPLES, `${sample}.png`), pdfPagePng(pdf, 110));
  return { pdf, flat: squash(pdfText(pdf, 'raw')) };
}

/** Page width in millimetres, from pdfinfo's points. */
function pageWidthMm(pdf: Uint8Array): number {
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-pdf-'));
  try {
    writeFileSync(join(dir, 'd.pdf'), pdf);
    const info = execFileSync('pdfinfo', [join(dir, 'd.pdf')], { encoding: 'utf8' });
    const match = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
    return match ? (Number(match[1]) * 25.4) / 72 : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const lei = (amount: number) => formatBani(toBani(amount), 'ro');

const SHOP_LINES: LineSpec[] = [
  { description: 'Cafea boabe Arabica 1 kg', quantity: 2, price: 89.9, vat_rate: 11 },
  { description: 'Espressor manual inox', quantity: 1, price: 649.99, vat_rate: 21, discount_percent: 10 },
  { description: 'Carte: Istoria cafelei', quantity: 1, price: 59, vat_rate: 0, vat_exemption_reason: 'Scutit cf. art. 292 alin. (2) lit. a) Cod fiscal' },
];

describe('80 mm thermal layouts', () => {
  it('the invoice keeps every legal mention on a roll 80 mm wide', async () => {
    const invoice = makeInvoice(SHOP_LINES, { payment_method: 'card' });
    const { pdf, flat } = await toPdf(renderThermalInvoiceHtml(invoice, SELLER), 'factura-80mm');
    expect(Math.round(pageWidthMm(pdf))).toBe(80);
    expect(pdfPages(pdf)).toBe(1);
    // Seller.
    expect(flat).toContain('Tejghea Demo SRL');
    expect(flat).toContain('CIF: RO18547290');
    expect(flat).toContain('Reg. Com.: J40/1234/2016');
    expect(flat).toContain('Capital social: 200,00 lei');
    expect(flat).toContain('RO49 AAAA 1B31 0075 9384 0000');
    // Title, series and number, date.
    expect(flat).toContain('FACTURĂ');
    expect(flat).toContain('TJ-2026-0042');
    expect(flat).toMatch(/Seria TJ Nr\. 42/);
    expect(flat).toMatch(/Data emiterii 21\.11\.2026/);
    // Buyer.
    expect(flat).toContain('Client Exemplu SRL');
    expect(flat).toContain('CIF: RO14399840');
    // Lines: description, quantity × price, value, rate, VAT.
    const coffee = invoice.lines![0]!;
    expect(flat).toContain('1. Cafea boabe Arabica 1 kg');
    expect(flat).toContain(`2 buc × ${lei(coffee.price)} ${lei(coffee.net)}`);
    expect(flat).toContain(`Cota TVA 11% TVA ${lei(coffee.vat)}`);
    expect(flat).toMatch(/Reducere 10%/);
    // VAT per rate, each rate once, and the exemption ground.
    for (const b of invoice.vat_breakdown) expect(flat).toContain(`${lei(b.net)} ${lei(b.vat)}`);
    expect(flat).toContain('Scutit cf. art. 292 alin. (2) lit. a) Cod fiscal');
    // Totals.
    expect(flat).toContain(`Total fără TVA ${lei(invoice.totals.net)} lei`);
    expect(flat).toContain(`Total TVA ${lei(invoice.totals.vat)} lei`);
    expect(flat).toContain(`Total de plată ${lei(invoice.totals.total)} lei`);
  });

  it('the chitanță: issuer, number, date, payer, sum in figures and in words, on 80 mm', async () => {
    const receipt = makeReceipt();
    const html = renderThermalReceiptHtml(receipt, SELLER, { payer: { cui: '14399840', vat_payer: true, address: 'Bd. Eroilor nr. 5', city: 'Cluj-Napoca' } });
    const { pdf, flat } = await toPdf(html, 'chitanta-80mm');
    expect(Math.round(pageWidthMm(pdf))).toBe(80);
    expect(pdfPages(pdf)).toBe(1);
    expect(flat).toContain('Tejghea Demo SRL');
    expect(flat).toContain('CIF: RO18547290');
    expect(flat).toContain('CHITANȚĂ');
    expect(flat).toContain('CH-0007');
    expect(flat).toMatch(/Seria CH Nr\. 0007/);
    expect(flat).toContain('Data 21.11.2026');
    expect(flat).toContain('Am primit de la Client Exemplu SRL');
    expect(flat).toContain('CIF/CNP: RO14399840');
    expect(flat).toContain(`suma de ${lei(receipt.amount)} lei`);
    expect(flat).toContain(amountInWords(toBani(receipt.amount), { omitDe: true }));
    expect(flat).toContain('contravaloarea facturii TJ-2026-0042');
  });
});
