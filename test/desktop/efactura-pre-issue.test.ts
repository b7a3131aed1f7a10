import { describe, expect, it } from 'vitest';
import { renderInvoiceHtml } from '../../shared/print/invoice-template';
import { invoiceForPrint } from '../../renderer/print/adapters';
import { sellerFor } from '../../shared/print/seller-from-profile';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { cuiControlDigit } from '../../shared/ro/cui';
import { APP_SENDER, createSeries, openDevice, serverBehindProxyForTests } from './support/harness';

/**
 * Offline, the desktop checks an invoice with the service's own e-Factura rules (shared/efactura)
 * before it takes a number: refused at the field in Romanian, and no number spent. An issued
 * invoice keeps the seller as it stood at issue, on the device and on the service, whatever the
 * company profile says later.
 */
const PROFILE = { name: 'Prăvălia Veche SRL', street: 'Str. Memorandumului nr. 28', city: 'Cluj-Napoca', county: 'Cluj', postal_code: '400114', vat_payer: true };
const BUCHAREST_NO_SECTOR = { type: 'company', name: 'Client București SRL', cui: 'RO14186770', address: 'Str. Lipscani 1', city: 'București', county: 'București', country: 'RO' } as const;
const SECTOR_AS_COUNTY = { ...BUCHAREST_NO_SECTOR, name: 'Client Sector 4 SRL', county: 'Sector 4' } as const;

let counter = 0;
/** A company whose CUI has a valid control digit: e-Factura checks it (BR-RO-065 and the CUI rules). */
async function newCompany(server: TestServer): Promise<{ apiKey: string; cui: string }> {
  counter += 1;
  const body = String(3_000_000 + ((process.pid * 97 + counter) % 900_000));
  const cui = `${body}${cuiControlDigit(body)}`;
  const key = await server.key({ cui });
  return { apiKey: key.api_key, cui };
}

describe('e-Factura rules offline, before numbering', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('refuses offline, at the field and in Romanian, what ANAF would refuse, and spends no number', async () => {
    const company = await newCompany(server);
    expect((await server.api(company.apiKey, 'PUT', '/company/profile', PROFILE)).status).toBe(200);
    const seriesId = await createSeries(server, company.apiKey, 'EF');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 3, low_water: 1 });
      proxy.setDown(true);
      const noSector = await device.call('clients.create', BUCHAREST_NO_SECTOR);
      const refused = await device.router.dispatch('invoices.issue', {
        series_id: seriesId, client_id: noSector.id, lines: [{ description: 'Marfă', quantity: 1, unit_price_bani: 1000, vat_rate: 21 }],
      }, APP_SENDER);
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('invalid_payload');
        expect(refused.error.fields?.['buyer.address.city']).toContain('În București e-Factura cere sectorul');
      }
      const sector4 = await device.call('clients.create', SECTOR_AS_COUNTY);
      const zeroNoReason = await device.router.dispatch('invoices.issue', {
        series_id: seriesId, client_id: sector4.id, lines: [{ description: 'Serviciu', quantity: 1, unit_price_bani: 1000, vat_rate: 0 }],
      }, APP_SENDER);
      expect(zeroNoReason.ok).toBe(false);
      if (!zeroNoReason.ok) expect(Object.keys(zeroNoReason.error.fields ?? {})).toEqual(['items.0.vat_exemption_reason']);

      // "Sector 4" written as the county is Bucharest, sector 4: issued, and it takes the series' first number.
      const issued = await device.call('invoices.issue', {
        series_id: seriesId, client_id: sector4.id, lines: [{ description: 'Marfă', quantity: 1, unit_price_bani: 1000, vat_rate: 21 }],
      });
      expect(issued.number).toBe(1);
      expect(issued.seller).toMatchObject({ name: PROFILE.name, street: PROFILE.street, county_code: 'RO-CJ' });
      proxy.setDown(false);
      const status = await device.call('sync.now');
      expect(status.outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const serverId = (await device.call('invoices.get', { id: issued.id })).sync.server_id;
      const xml = await fetch(`${server.base}/invoices/${serverId}/efactura-xml`, { headers: { authorization: `Bearer ${company.apiKey}` } });
      expect(xml.status).toBe(200);
      expect(await xml.text()).toContain('<cbc:CityName>SECTOR4</cbc:CityName>');
    } finally {
      await device.close();
    }
  });

  it('keeps the seller of an issued invoice when the company profile changes: JSON, XML and printout', async () => {
    const company = await newCompany(server);
    expect((await server.api(company.apiKey, 'PUT', '/company/profile', PROFILE)).status).toBe(200);
    const seriesId = await createSeries(server, company.apiKey, 'FZ');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 3, low_water: 1 });
      const client = await device.call('clients.create', { ...SECTOR_AS_COUNTY, county: 'Sector 2' });
      const issued = await device.call('invoices.issue', {
        series_id: seriesId, client_id: client.id, lines: [{ description: 'Marfă', quantity: 2, unit_price_bani: 1500, vat_rate: 21 }],
      });
      await device.call('sync.now');
      const serverId = (await device.call('invoices.get', { id: issued.id })).sync.server_id!;
      const xmlBefore = await (await fetch(`${server.base}/invoices/${serverId}/efactura-xml`, { headers: { authorization: `Bearer ${company.apiKey}` } })).text();

      const moved = { name: 'Prăvălia Nouă SRL', street: 'Bd. Eroilor 1', city: 'Brașov', county: 'Brașov', vat_on_collection: true, iban: 'RO49AAAA1B31007593840000' };
      expect((await server.api(company.apiKey, 'PUT', '/company/profile', moved)).status).toBe(200);
      await device.call('sync.now');

      const remote = await server.api(company.apiKey, 'GET', `/invoices/${serverId}`);
      expect(remote.body.data.seller).toMatchObject({ name: PROFILE.name, street: PROFILE.street, vat_on_collection: false, iban: null });
      const xmlAfter = await (await fetch(`${server.base}/invoices/${serverId}/efactura-xml`, { headers: { authorization: `Bearer ${company.apiKey}` } })).text();
      expect(xmlAfter).toBe(xmlBefore);
      expect(xmlAfter).toContain(PROFILE.name);
      expect(xmlAfter).not.toContain('TVA la încasare');

      const local = await device.call('invoices.get', { id: issued.id });
      expect(local.seller).toMatchObject({ name: PROFILE.name, city: PROFILE.city });
      const html = renderInvoiceHtml(invoiceForPrint(local), sellerFor(local.seller, undefined));
      expect(html).toContain('Prăvălia Veche SRL');
      expect(html).not.toContain('Prăvălia Nouă SRL');
      expect(html).not.toContain('Bd. Eroilor');

      // A new invoice takes the new profile, with the VAT-on-collection code and mention.
      const next = await device.call('invoices.issue', {
        series_id: seriesId, client_id: client.id, lines: [{ description: 'Marfă', quantity: 1, unit_price_bani: 1500, vat_rate: 21 }],
      });
      expect(next.seller).toMatchObject({ name: 'Prăvălia Nouă SRL', vat_on_collection: true });
      await device.call('sync.now');
      const nextId = (await device.call('invoices.get', { id: next.id })).sync.server_id!;
      const nextXml = await (await fetch(`${server.base}/invoices/${nextId}/efactura-xml`, { headers: { authorization: `Bearer ${company.apiKey}` } })).text();
      expect(nextXml).toContain('<cbc:DescriptionCode>432</cbc:DescriptionCode>');
      expect(nextXml).toContain('TVA la încasare');
      expect(renderInvoiceHtml(invoiceForPrint(await device.call('invoices.get', { id: next.id })), sellerFor(next.seller, undefined))).toContain('TVA la încasare');
    } finally {
      await device.close();
    }
  });
});
