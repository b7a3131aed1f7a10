import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedService } from '../../main/local/embedded-service/service';
import type { PdfRenderer } from '../../server/modules/documents-pdf/pdf-renderer';
import { createApiKey } from '../../server/platform/api-keys';
import { callApi, randomCui } from '../support/server';
import { removeTempDirs, tempDir } from './support/harness';

/**
 * The desktop hands its embedded service Electron's printToPDF (main/electron.ts); here a stand-in
 * renderer proves the hand-over: the service's PDF route prints through it, with the template's HTML.
 */
describe('the embedded service’s PDF renderer', () => {
  const services: EmbeddedService[] = [];
  afterAll(async () => {
    for (const s of services) await s.close();
    removeTempDirs();
  });

  it('prints GET /invoices/{id}/pdf through the renderer the desktop hands it', async () => {
    const printed: string[] = [];
    const renderer: PdfRenderer = {
      render: async (html) => {
        printed.push(html);
        return Buffer.from('%PDF-1.4 electron stand-in');
      },
      close: async () => undefined,
    };
    const embedded = new EmbeddedService({ dir: tempDir(), env: {}, pdfRenderer: renderer });
    services.push(embedded);
    const { port } = await embedded.start({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${port}/v1`;
    const key = (await createApiKey(embedded.db(), { companyName: 'Magazin SRL', cui: randomCui(), now: Math.floor(Date.now() / 1000) })).api_key;
    const series = await callApi(base, key, 'POST', '/invoice-series', { name: 'EMB' });
    const client = await callApi(base, key, 'POST', '/clients', { name: 'Cumpărător SRL', cui: `RO${randomCui()}`, address: 'Str. Lungă 1', city: 'Brașov', county: 'Brașov' });
    expect([series.status, client.status], `${series.text} ${client.text}`).toEqual([201, 201]);
    const invoice = await callApi(base, key, 'POST', '/invoices', {
      client_id: client.body.data.id, series_id: series.body.data.id, items: [{ description: 'Cafea', quantity: 1, price: 10, vat_rate: 21 }],
    });
    expect(invoice.status, invoice.text).toBe(201);
    const res = await fetch(`${base}/invoices/${invoice.body.data.id}/pdf`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).toString('latin1')).toBe('%PDF-1.4 electron stand-in');
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('Cumpărător SRL');
    expect(printed[0]).toContain(invoice.body.data.full_number);
  });
});
