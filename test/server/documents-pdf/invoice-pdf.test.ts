import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startInvoicingServer, newFirm, newClient, newSeries, expectError } from '../invoicing/helpers';
import { startTestServer, type TestServer } from '../../support/server';
import { SELLER_PROFILE } from '../efactura-spv/helpers';
import { ChromiumPdfRenderer } from '../../../server/modules/documents-pdf/chromium-renderer';
import type { PdfRenderer } from '../../../server/modules/documents-pdf/pdf-renderer';
import { pdfText, squeezed } from './pdf-text';
import { firmWithInvoice, LINES, pdfBytes } from './helpers';

describe.each(DIALECTS)('invoice PDF rendered by the service (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(() => server.close());

  const issuedInvoice = () => firmWithInvoice(server);

  it('prints the issued invoice with the desktop template: seller, buyer, number, lines, totals', async () => {
    const { firm, invoice } = await issuedInvoice();
    expect(invoice.full_number).toMatch(/^PDF/);
    const res = await pdfBytes(server, firm, `/invoices/${invoice.id}/pdf`);
    expect(res.status, res.bytes.toString('utf8', 0, 300)).toBe(200);
    expect(res.type).toBe('application/pdf');
    expect(res.disposition).toContain(`${invoice.full_number}.pdf`);
    expect(res.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = squeezed(pdfText(res.bytes));
    // The title is set in capitals by the template's CSS.
    expect(text).toContain('FACTURĂ');
    expect(text).toContain('Seria PDF Nr. 1');
    expect(text).toContain(SELLER_PROFILE.name);
    expect(text).toContain('J12/1234/2020');
    expect(text).toContain('Str. Memorandumului nr. 28');
    expect(text).toContain('Cafeneaua Veche SRL');
    expect(text).toContain(invoice.full_number);
    expect(text).toMatch(/1 Cafea boabe Arabica 1kg buc 4 250,00 1\.000,00 21% 210,00/);
    expect(text).toContain('Cafea boabe Arabica 1kg');
    expect(text).toContain('Filtre hârtie nr. 4');
    expect(text).toContain('1.020,30');
    expect(text).toContain('214,26');
    expect(text).toContain('Total de plată 1.234,56 lei');
    // The footer the desktop prints too (shared/print/pdf-layout).
    expect(text).toContain('Document emis cu Tejghea');
    // Contazen's SDK asks with `mode=download` and `Accept: application/pdf`: the same document.
    const sdk = await pdfBytes(server, firm, `/invoices/${invoice.id}/pdf?mode=download`, { accept: 'application/pdf' });
    expect(sdk.status).toBe(200);
    expect(squeezed(pdfText(sdk.bytes))).toContain('Total de plată 1.234,56 lei');
  });

  it('prints a receipt (chitanță) with its amount in figures and in words', async () => {
    const firm = await newFirm(server);
    await firm.ok('PUT', '/company/profile', SELLER_PROFILE);
    await firm.ok('POST', '/receipt-series', { prefix: 'CHP' });
    const receipt = await firm.ok('POST', '/receipts', { client_name: 'Ion Popescu', amount: 1234.56 });
    const res = await pdfBytes(server, firm, `/receipts/${receipt.id}/pdf`);
    expect(res.status, res.bytes.toString('utf8', 0, 300)).toBe(200);
    expect(res.type).toBe('application/pdf');
    const text = squeezed(pdfText(res.bytes));
    expect(text).toContain('CHITANȚĂ');
    expect(text).toContain(SELLER_PROFILE.name);
    expect(text).toContain('Ion Popescu');
    expect(text).toContain('suma de 1.234,56 lei , adică o mie două sute treizeci și patru lei și cincizeci și șase bani');
    expect(text).toContain('CHP-1');
    // The customer's copy and the stub, as the desktop prints a chitanțier page.
    expect(text).toContain('Exemplarul 1 (client)');
    expect(text).toContain('Exemplarul 2 (cotor)');
    expectError(await (await newFirm(server)).call('GET', `/receipts/${receipt.id}/pdf`), 404, 'resource_missing');
  });

  it('answers 404 in the envelope for another firm’s invoice and an unknown id', async () => {
    const { invoice } = await issuedInvoice();
    const other = await newFirm(server);
    expectError(await other.call('GET', `/invoices/${invoice.id}/pdf`), 404, 'resource_missing');
    expectError(await other.call('GET', '/invoices/inv_nope/pdf'), 404, 'resource_missing');
  });
});

describe('invoice PDF without a renderer', () => {
  it('answers 501 pdf_not_available when PDFs are off, 503 when Chromium will not start; never 500', async () => {
    const off = await startTestServer('sqlite', { extraServices: { pdf: null } });
    const broken = await startTestServer('sqlite', { extraServices: { pdf: new ChromiumPdfRenderer('/nonexistent/chromium') } });
    try {
      for (const [server, status, code] of [[off, 501, 'pdf_not_available'], [broken, 503, 'pdf_renderer_unavailable']] as const) {
        const firm = await newFirm(server);
        const client = await newClient(firm);
        const series = await newSeries(firm);
        const invoice = await firm.ok('POST', '/invoices', { client_id: client.id, series_id: series.id, items: LINES });
        const res = await firm.call('GET', `/invoices/${invoice.id}/pdf`, undefined, { 'accept-language': 'ro' });
        expectError(res, status, code);
        expect(res.body.error.message).toMatch(/PDF/);
        expect(res.body.error.message).toMatch(/nu|motorul/);
      }
    } finally {
      await off.close();
      await broken.close();
    }
  });
});

describe('the PDF renderer’s lifecycle', () => {
  it('is closed with the service, and a closed Chromium renderer starts again on the next document', async () => {
    const calls: string[] = [];
    const chromium = new ChromiumPdfRenderer();
    const recording: PdfRenderer = {
      render: async (html) => {
        calls.push('render');
        return chromium.render(html);
      },
      close: async () => {
        calls.push('close');
        await chromium.close();
      },
    };
    const server = await startTestServer('sqlite', { extraServices: { pdf: recording } });
    const { firm, invoice } = await firmWithInvoice(server);
    expect((await pdfBytes(server, firm, `/invoices/${invoice.id}/pdf`)).status).toBe(200);
    await server.close();
    expect(calls).toEqual(['render', 'close']);
    // Closed, the same renderer launches a new browser when asked again (and is closed again here).
    try {
      const again = await chromium.render('<!doctype html><meta charset="utf-8"><p>Încă o dată</p>');
      expect(pdfText(again)).toContain('Încă o dată');
    } finally {
      await chromium.close();
    }
  });
});
