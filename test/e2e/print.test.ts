import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBani } from '../../shared/money';
import { amountInWords } from '../../shared/ro/amount-in-words';
import { formatBani } from '../../renderer/lib/format';
import { renderInvoiceHtml } from '../../shared/print/invoice-template';
import { PDF_OPTIONS } from '../../shared/print/pdf-layout';
import { renderReceiptHtml, splitReceiptNumber } from '../../shared/print/receipt-template';
import { launchChromium, pdfPagePng, pdfPages, pdfText, squash } from './support/browser';
import { makeInvoice, makeReceipt, SELLER, type LineSpec } from './support/documents';

/**
 * The print templates turned into PDFs by Chromium exactly as the app does (page.pdf takes the same
 * options as Electron's printToPDF), then read back with pdftotext: what a buyer or an inspector
 * reads on paper is what is asserted. Sample PDFs go to docs/samples/, PNG previews to a temp folder.
 */
const SAMPLES = join(process.cwd(), 'docs', 'samples');
const PREVIEWS = process.env.PRINT_PREVIEW_DIR ?? join(process.cwd(), 'node_modules', '.cache', 'tejghea-print-previews');

let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SAMPLES, { recursive: true });
  mkdirSync(PREVIEWS, { recursive: true });
  browser = await launchChromium();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
});

async function toPdf(html: string, sample?: string): Promise<{ pdf: Uint8Array; text: string; flat: string }> {
  await page.setContent(html, { waitUntil: 'load' });
  const pdf = await page.pdf(PDF_OPTIONS);
  if (sample) {
    writeFileSync(join(SAMPLES, `${sample}.pdf`), pdf);
    writeFileSync(join(PREVIEWS, `${sample}.png`), pdfPagePng(pdf, 60));
  }
  // A padded box before a comma reads as ' ,' to pdftotext; the reader sees no space there.
  return { pdf, text: pdfText(pdf, 'layout'), flat: squash(pdfText(pdf, 'raw')).replace(/ ,/g, ',') };
}

const lei = (amount: number) => formatBani(toBani(amount), 'ro');

const SHOP_LINES: LineSpec[] = [
  { description: 'Cafea boabe Arabica 1 kg', quantity: 2, price: 89.9, vat_rate: 11 },
  { description: 'Espressor manual inox', quantity: 1, price: 649.99, vat_rate: 21, discount_percent: 10 },
  { description: 'Filtre hârtie (set 100)', quantity: 3, price: 12.35, vat_rate: 21 },
  { description: 'Carte: Istoria cafelei', quantity: 1, price: 59, vat_rate: 0, vat_exemption_reason: 'Scutit cf. art. 292 alin. (2) lit. a) Cod fiscal' },
  { description: 'Zahăr brun 0,5 kg', quantity: 1.5, price: 7.4, vat_rate: 11, unit: 'kg' },
];

describe('invoice PDF', () => {
  it('prints every mention of a RON invoice with several VAT rates, a discount and an exempt line', async () => {
    const invoice = makeInvoice(SHOP_LINES, { payment_method: 'bank_order', observations: 'Livrare la sediul clientului.' });
    const { pdf, text, flat } = await toPdf(renderInvoiceHtml(invoice, SELLER), 'factura-ron');
    expect(pdfPages(pdf)).toBe(1);
    // Title, series and number, dates (art. 319 (20) a, b).
    expect(flat).toContain('FACTURĂ');
    expect(flat).toContain('TJ-2026-0042');
    expect(flat).toMatch(/Seria TJ Nr\. 42/);
    expect(flat).toContain('Data emiterii 21.11.2026');
    expect(flat).toContain('Data scadenței 05.12.2026');
    // Seller: name, VAT code with RO, trade register, share capital, address, IBAN and bank.
    expect(flat).toContain('Tejghea Demo SRL');
    expect(flat).toContain('CIF: RO18547290');
    expect(flat).toContain('Reg. Com.: J40/1234/2016');
    expect(flat).toContain('Capital social: 200,00 lei');
    expect(flat).toContain('Str. Lipscani nr. 12, București, Sector 3, București');
    expect(flat).toContain('RO49 AAAA 1B31 0075 9384 0000');
    expect(flat).toContain('Banca Transilvania');
    // Buyer.
    expect(flat).toContain('Client Exemplu SRL');
    expect(flat).toContain('CIF: RO14399840');
    expect(flat).toContain('J12/345/2001');
    // Each line on one row: description, unit, quantity, unit price, value, rate, VAT.
    for (const line of invoice.lines!) {
      const row = text.split('\n').find((l) => l.includes(line.description.slice(0, 20)));
      expect(row, line.description).toBeDefined();
      expect(squash(row!)).toContain(lei(line.net));
      expect(squash(row!)).toContain(lei(line.vat));
    }
    expect(flat).toMatch(/Zahăr brun 0,5 kg kg 1,5 7,40/);
    // Discount shown on the line (10% of 649,99 = 65,00).
    expect(flat).toContain('-65,00');
    // VAT breakdown per rate, each row with base, VAT and total, and it adds up to the totals.
    for (const entry of invoice.vat_breakdown) {
      const label = entry.vat_rate === 0 ? '0% (Scutit de TVA)' : `${entry.vat_rate}%`;
      expect(flat).toContain(`${label} ${lei(entry.net)} ${lei(entry.vat)} ${lei(entry.total)}`);
    }
    const sum = invoice.vat_breakdown.reduce((s, e) => s + toBani(e.vat), 0);
    expect(sum).toBe(toBani(invoice.totals.vat));
    expect(flat).toContain(`Total fără TVA ${lei(invoice.totals.net)} lei`);
    expect(flat).toContain(`Total TVA ${lei(invoice.totals.vat)} lei`);
    expect(flat).toContain(`Total de plată ${lei(invoice.totals.total)} lei`);
    // The exemption's legal ground, and the other mentions.
    expect(flat).toContain('Temeiul scutirii de TVA: 1 Scutit cf. art. 292 alin. (2) lit. a) Cod fiscal');
    expect(flat).toContain('Modalitate de plată Ordin de plată');
    expect(flat).toContain('Observații: Livrare la sediul clientului.');
    expect(flat).toContain('valabilă fără semnătură și ștampilă');
    expect(flat).toContain('Pagina 1 / 1');
    expect(flat).not.toContain('Taxare inversă');
  });

  it('prints a EUR reverse-charge invoice bilingually, with the BNR rate and the VAT in lei', async () => {
    const invoice = makeInvoice(
      [
        { description: 'Servicii de dezvoltare software, noiembrie 2026', quantity: 80, price: 45, vat_rate: 21, unit: 'ore' },
        { description: 'Licență anuală modul raportare', quantity: 1, price: 1200, vat_rate: 21 },
      ],
      {
        currency: 'EUR',
        exchange_rate: 4.9772,
        reverse_charge: true,
        language: 'en',
        buyer: {
          name: 'Musterfirma GmbH', cui: 'DE123456789', vat_payer: true, reg_com: 'HRB 12345', cnp: null,
          address: 'Hauptstraße 1', city: 'Berlin', county: null, country: 'DE', iban: null, bank: null,
        },
      },
    );
    const { flat } = await toPdf(renderInvoiceHtml(invoice, SELLER), 'factura-eur-taxare-inversa');
    expect(flat).toContain('FACTURĂ / Invoice');
    expect(flat).toContain('Musterfirma GmbH');
    expect(flat).toContain('DE123456789');
    expect(flat).toContain('Hauptstraße 1, Berlin, DE');
    expect(flat).toContain('1 EUR = 4,9772 lei');
    expect(flat).toMatch(/Taxare inversă \/ Reverse charge — conform art\. 331 din Codul fiscal/i);
    // Every line carries 0 VAT under reverse charge, marked TI, and the totals are in EUR.
    expect(flat).toContain('80 45,00 3.600,00 TI 0,00');
    expect(flat).toContain('Total de plată / Total due 4.800,00 EUR');
    // Art. 319 (20) j: the VAT in lei (0 here) and the RON equivalent at the invoice's rate.
    expect(flat).toContain('TVA în lei / VAT in RON 0,00 lei');
    expect(flat).toContain(`Echivalent în lei / Equivalent in RON ${formatBani(Math.round(480_000 * 4.9772), 'ro')} lei`);
  });

  it('prints the legal mention of an intra-community supply and of an export, none for a zero-rated line', async () => {
    const K = 'Scutit cu drept de deducere conform art. 294 alin. (2) lit. a) din Codul fiscal';
    const G = 'Scutit cu drept de deducere conform art. 294 alin. (1) lit. a) din Codul fiscal';
    const invoice = makeInvoice([
      { description: 'Rulmenți livrați în Germania', quantity: 10, price: 25, vat_rate: 0, vat_category: 'K', vat_exemption_reason: 'not printed' },
      { description: 'Piese exportate în Elveția', quantity: 2, price: 100, vat_rate: 0, vat_category: 'G' },
      { description: 'Rulmenți, a doua livrare', quantity: 4, price: 25, vat_rate: 0, vat_category: 'K' },
      { description: 'Carte: Istoria cafelei', quantity: 1, price: 59, vat_rate: 0, vat_exemption_reason: 'Scutit cf. art. 292 alin. (2) lit. a) Cod fiscal' },
      { description: 'Ambalaj', quantity: 1, price: 10, vat_rate: 21 },
    ]);
    const html = renderInvoiceHtml(invoice, SELLER);
    expect(html).toContain(K);
    expect(html).not.toContain('not printed');
    const { flat } = await toPdf(html, 'factura-intracomunitar-export');
    // One footnote per ground, in the order the lines first name it; both K lines point to the first.
    expect(flat).toContain(`Temeiul scutirii de TVA: 1 ${K} 2 ${G} 3 Scutit cf. art. 292 alin. (2) lit. a) Cod fiscal`);
    expect(flat).toContain('Rulmenți livrați în Germania buc 10 25,00 250,00 0%1 0,00');
    expect(flat).toContain('Piese exportate în Elveția buc 2 100,00 200,00 0%2 0,00');
    expect(flat).toContain('Rulmenți, a doua livrare buc 4 25,00 100,00 0%1 0,00');
    expect(flat).toContain('Carte: Istoria cafelei buc 1 59,00 59,00 0%3 0,00');
    // Each exemption is its own base in the breakdown (art. 319 (20) l Cod fiscal), in the order E, K, G.
    expect(flat).toContain(
      `21% ${lei(10)} ${lei(2.1)} ${lei(12.1)} 0% (Scutit de TVA) ${lei(59)} 0,00 ${lei(59)} ` +
        `0% (livrare intracomunitară) ${lei(350)} 0,00 ${lei(350)} 0% (export) ${lei(200)} 0,00 ${lei(200)}`,
    );

    // Zero-rated: taxed at 0%, neither exempt nor footnoted.
    const zero = makeInvoice([{ description: 'Mostre gratuite', quantity: 1, price: 40, vat_rate: 0, vat_category: 'Z', vat_exemption_reason: 'not printed' }]);
    const z = await toPdf(renderInvoiceHtml(zero, SELLER));
    expect(z.flat).not.toContain('Temeiul scutirii');
    expect(z.flat).not.toContain('Scutit');
    expect(z.flat).not.toContain('not printed');
    expect(z.flat).toContain(`0% (cotă zero) ${lei(40)} 0,00 ${lei(40)}`);

    // A bilingual invoice adds the English mention beside the Romanian one.
    const en = makeInvoice([{ description: 'Bearings', quantity: 1, price: 25, vat_rate: 0, vat_category: 'K' }], { language: 'en' });
    expect((await toPdf(renderInvoiceHtml(en, SELLER))).flat).toContain(`${K} / Exempt with right of deduction under art. 294 (2) a) of the Romanian Fiscal Code`);
  });

  it('prints VAT in lei for a foreign-currency invoice with VAT', async () => {
    const invoice = makeInvoice([{ description: 'Consultanță', quantity: 1, price: 1000, vat_rate: 21 }], { currency: 'EUR', exchange_rate: 5.0861 });
    const { flat } = await toPdf(renderInvoiceHtml(invoice, SELLER));
    expect(flat).toContain('Total de plată 1.210,00 EUR');
    // 210 EUR * 5.0861 = 1068.081 -> 1.068,08 lei
    expect(flat).toContain('TVA în lei 1.068,08 lei');
  });

  it('prints the delivery date when it is not the issue date (art. 319 (20) d Cod fiscal)', async () => {
    const lines = [{ description: 'Montaj centrală', quantity: 1, price: 500, vat_rate: 21 }];
    const delivered = await toPdf(renderInvoiceHtml(makeInvoice(lines, { delivery_date: '2026-10-30' }), SELLER));
    expect(delivered.flat).toContain('Data emiterii 21.11.2026');
    expect(delivered.flat).toContain('Data livrării 30.10.2026');
    const sameDay = await toPdf(renderInvoiceHtml(makeInvoice(lines, { delivery_date: '2026-11-21' }), SELLER));
    expect(sameDay.flat).not.toContain('Data livrării');
    const bilingual = renderInvoiceHtml(makeInvoice(lines, { delivery_date: '2026-10-30', language: 'en' }), SELLER);
    expect(bilingual).toContain('Delivery date');
  });

  it('prints a storno with negative quantities and the reference to the original', async () => {
    const storno = makeInvoice(
      SHOP_LINES.slice(0, 2).map((l) => ({ ...l, quantity: -l.quantity })),
      { status: 'storno', full_number: 'TJ-2026-0043', number: 43, storno_of: 'inv_test0001' },
    );
    const html = renderInvoiceHtml(storno, SELLER, { related: { storno_of: { full_number: 'TJ-2026-0042', issue_date: '2026-11-21' } } });
    const { flat } = await toPdf(html, 'factura-storno');
    expect(flat).toContain('FACTURĂ STORNO');
    expect(flat).toContain('Stornează factura TJ-2026-0042 din 21.11.2026');
    expect(flat).toMatch(/Cafea boabe Arabica 1 kg buc -2 89,90 -179,80 11% -19,78/);
    expect(flat).toContain(`Total de plată ${lei(storno.totals.total)} lei`);
    expect(storno.totals.total).toBeLessThan(0);
  });

  it('marks a proforma as not fiscal and a draft with a watermark and no number', async () => {
    const proforma = makeInvoice(SHOP_LINES.slice(0, 1), { document_type: 'proforma', series_name: 'PF', full_number: 'PF-2026-0005', number: 5 });
    const p = await toPdf(renderInvoiceHtml(proforma, SELLER), 'factura-proforma');
    expect(p.flat).toContain('FACTURĂ PROFORMĂ');
    expect(p.flat).toContain('Factura proformă nu este document fiscal');
    expect(p.flat).not.toContain('valabilă fără semnătură');

    const draft = makeInvoice(SHOP_LINES.slice(0, 1), { status: 'draft', is_draft: true, full_number: null, number: null, series_name: null });
    const d = await toPdf(renderInvoiceHtml(draft, SELLER));
    expect(d.flat).toContain('Ciornă');
    expect(d.flat).not.toContain('TJ-2026');
  });

  it('repeats the table header on every page and numbers the pages of a long invoice', async () => {
    const many: LineSpec[] = Array.from({ length: 70 }, (_, i) => ({ description: `Articol de test ${i + 1}`, quantity: i + 1, price: 10 + i / 4, vat_rate: i % 3 === 0 ? 11 : 21 }));
    const invoice = makeInvoice(many);
    const { pdf, text, flat } = await toPdf(renderInvoiceHtml(invoice, SELLER), 'factura-lunga');
    const pages = pdfPages(pdf);
    expect(pages).toBeGreaterThanOrEqual(2);
    const perPage = text.split('\f').filter((t) => t.trim() !== '');
    expect(perPage).toHaveLength(pages);
    for (const p of perPage) expect(p).toContain('Denumirea produselor sau a serviciilor');
    expect(flat).toContain(`Pagina ${pages} / ${pages}`);
    expect(flat).toContain('Articol de test 70');
    expect(flat).toContain(`Total de plată ${lei(invoice.totals.total)} lei`);
  });

  it('escapes what the user typed', async () => {
    const invoice = makeInvoice([{ description: '<b>Șurub</b> & "piuliță"', quantity: 1, price: 1, vat_rate: 21 }]);
    const html = renderInvoiceHtml(invoice, SELLER);
    expect(html).not.toContain('<b>Șurub</b>');
    const { flat } = await toPdf(html);
    expect(flat).toContain('<b>Șurub</b> & "piuliță"');
  });

  it('refuses an invoice without its lines', () => {
    const invoice = makeInvoice(SHOP_LINES);
    expect(() => renderInvoiceHtml({ ...invoice, lines: undefined }, SELLER)).toThrow(/lines/);
  });
});

describe('receipt (chitanță) PDF', () => {
  it('prints the payer, the sum in figures and in words, what it represents and the cashier line, twice', async () => {
    const receipt = makeReceipt();
    const html = renderReceiptHtml(receipt, SELLER, {
      payer: { cui: '14399840', vat_payer: true, address: 'Bd. Eroilor nr. 5', city: 'Cluj-Napoca', county: 'Cluj' },
      cashier: 'Ana Popescu',
    });
    const { pdf, flat } = await toPdf(html, 'chitanta');
    expect(pdfPages(pdf)).toBe(1);
    const words = amountInWords(123_450, { omitDe: true });
    expect(words).toBe('o mie două sute treizeci și patru lei și cincizeci bani');
    const count = (needle: string) => flat.split(needle).length - 1;
    expect(count('CHITANȚĂ')).toBe(2);
    expect(count(words)).toBe(2);
    expect(flat).toContain('Seria CH Nr. 0007');
    expect(flat).toContain('Data: 21.11.2026');
    expect(flat).toContain('Tejghea Demo SRL');
    expect(flat).toContain('CIF: RO18547290');
    expect(flat).toContain('Am primit de la Client Exemplu SRL, CIF/CNP RO14399840, Adresa Bd. Eroilor nr. 5, Cluj-Napoca, Cluj');
    expect(flat).toContain(`suma de 1.234,50 lei, adică ${words}`);
    expect(flat).toContain('reprezentând contravaloarea facturii TJ-2026-0042');
    expect(flat).toContain('Casier: Ana Popescu');
    expect(flat).toContain('Exemplarul 1 (client)');
    expect(flat).toContain('Exemplarul 2 (cotor)');
  });

  it('prints a standalone receipt to a walk-in payer, and the RON equivalent of a EUR one', async () => {
    const walkIn = makeReceipt({ invoice: null, client: { id: null, name: 'Ion Ionescu' }, amount: 21, observations: 'avans comandă mobilier' });
    const a = await toPdf(renderReceiptHtml(walkIn, SELLER, { withStub: false }));
    expect(a.flat).toContain('Am primit de la Ion Ionescu, suma de 21,00 lei, adică douăzeci și unu lei');
    expect(a.flat).toContain('reprezentând avans comandă mobilier');
    expect(a.flat).not.toContain('Exemplarul 2');

    const eur = makeReceipt({ currency: 'EUR', amount: 100, exchange_rate: 4.9772, invoice: null, observations: null });
    const b = await toPdf(renderReceiptHtml(eur, SELLER, { withStub: false }));
    expect(b.flat).toContain('suma de 100,00 EUR (1 EUR = 4,9772 lei)');
    expect(b.flat).toContain(`echivalentul a ${amountInWords(49_772, { omitDe: true })}`);
    expect(b.flat).toContain('încasare fără factură');
  });

  it('splits the receipt number into series and number', () => {
    expect(splitReceiptNumber('CH-0042')).toEqual({ series: 'CH', number: '0042' });
    expect(splitReceiptNumber('CH-2026-17')).toEqual({ series: 'CH-2026', number: '17' });
    expect(splitReceiptNumber('17')).toEqual({ series: null, number: '17' });
  });
});
