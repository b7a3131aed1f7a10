import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from '../../main/db/sql';
import { invoiceForPrint } from '../../renderer/print/adapters';
import { renderInvoiceHtml } from '../../shared/print/invoice-template';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { SELLER } from '../e2e/support/documents';
import { createSeries, newCompany, openDevice, serverBehindProxyForTests, type Device, deviceWithReserve } from './support/harness';

/**
 * Goods or service on a line (issue 14 item 3, intra-community services) between the device and the
 * real service: an invoice issued offline takes `is_service` from the product its line names (unless the
 * line says), stores it (desktop migration 0016), prints the art. 278 (2) ground for a K service, pushes it,
 * keeps it through its storno and through a later edit of the product, and pulls it from the service.
 */
const GERMAN_BUYER = { type: 'company', name: 'Musterfirma GmbH', cui: 'DE123456789', country: 'DE', address: 'Hauptstraße 1', city: 'Berlin', county: 'BE' } as const;

function storedFlags(device: Device, localId: string): number[] {
  return device.services.store.reader
    .all<{ is_service: number }>(sql`SELECT is_service FROM invoice_lines WHERE invoice_id = ${localId} ORDER BY position`)
    .map((r) => r.is_service);
}

const flagsOf = (lines: { is_service: boolean }[]) => lines.map((l) => l.is_service);

describe('line is_service through sync', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('an invoice issued offline takes is_service from the product, prints art. 278 (2), pushes it, and its storno carries it', async () => {
    const { company, seriesId, device } = await deviceWithReserve(server, proxy, 'SV');
    try {
      proxy.setDown(true);
      const service = await device.call('products.create', { name: 'Consultanță IT', unit: 'ore', price_bani: 50_000, vat_rate: 21, is_service: true });
      const client = await device.call('clients.create', GERMAN_BUYER);
      const invoice = await device.call('invoices.issue', {
        series_id: seriesId,
        client_id: client.id,
        lines: [
          { product_id: service.id, description: 'Consultanță IT', quantity: 6, unit: 'ore', unit_price_bani: 50_000, vat_rate: 0, vat_category: 'K' },
          { description: 'Rulmenți livrați în Germania', quantity: 10, unit_price_bani: 2500, vat_rate: 0, vat_category: 'K' },
          // The line says goods: that wins over the product.
          { product_id: service.id, description: 'Manual tipărit', quantity: 1, unit_price_bani: 5000, vat_rate: 0, vat_category: 'K', is_service: false },
        ],
      });
      expect(invoice.sync.state).toBe('pending');
      expect(flagsOf(invoice.lines)).toEqual([true, false, false]);
      expect(storedFlags(device, invoice.id)).toEqual([1, 0, 0]);
      // Printed offline: the service names where it is supplied and the reverse charge, the goods their exemption.
      const printed = renderInvoiceHtml(invoiceForPrint(invoice), SELLER).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      expect(printed).toContain('Taxare inversă: prestare de servicii cu locul în statul membru al beneficiarului, conform art. 278 alin. (2) din Codul fiscal');
      expect(printed).toContain('Scutit cu drept de deducere conform art. 294 alin. (2) lit. a) din Codul fiscal');

      proxy.setDown(false);
      const status = await device.call('sync.now');
      expect(status.outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const serverId = (await device.call('invoices.get', { id: invoice.id })).sync.server_id;
      const remote = await server.api(company.apiKey, 'GET', `/invoices/${serverId}?expand[]=lines`);
      expect(remote.status).toBe(200);
      expect(flagsOf(remote.body.data.lines)).toEqual([true, false, false]);
      // The service's reply became the local copy, with the same flags.
      expect(storedFlags(device, invoice.id)).toEqual([1, 0, 0]);
      // The product becomes goods later: the issued invoice keeps what it was.
      await device.call('products.update', { id: service.id, patch: { is_service: false } });
      await device.call('sync.now');
      expect(flagsOf((await device.call('invoices.get', { id: invoice.id })).lines)).toEqual([true, false, false]);
      expect(flagsOf((await server.api(company.apiKey, 'GET', `/invoices/${serverId}?expand[]=lines`)).body.data.lines)).toEqual([true, false, false]);

      // A storno made offline repeats the flags; the service's copy of it agrees.
      proxy.setDown(true);
      const storno = await device.call('invoices.storno', { id: invoice.id });
      expect(storno.lines.map((l) => [l.quantity, l.is_service])).toEqual([[-6, true], [-10, false], [-1, false]]);
      expect(storedFlags(device, storno.id)).toEqual([1, 0, 0]);
      proxy.setDown(false);
      await device.call('sync.now');
      const stornoServerId = (await device.call('invoices.get', { id: storno.id })).sync.server_id;
      const remoteStorno = await server.api(company.apiKey, 'GET', `/invoices/${stornoServerId}?expand[]=lines`);
      expect(remoteStorno.body.data.storno_of).toBe(serverId);
      expect(flagsOf(remoteStorno.body.data.lines)).toEqual([true, false, false]);
    } finally {
      await device.close();
    }
  });

  it('a counter sale offline: the line from a service product is a service, pushed as such', async () => {
    const { company, seriesId, device } = await deviceWithReserve(server, proxy, 'SC');
    try {
      proxy.setDown(true);
      const repair = await device.call('products.create', { name: 'Manoperă reparație', price_bani: 15_000, vat_rate: 21, is_service: true });
      const part = await device.call('products.create', { name: 'Ecran telefon', price_bani: 40_000, vat_rate: 21 });
      const sale = await device.call('counter.sell', {
        cart_id: randomUUID(), series_id: seriesId, walk_in: true, payment_method: 'receipt',
        lines: [
          { product_id: part.id, description: 'Ecran telefon', quantity: 1, unit_price_bani: 40_000, vat_rate: 21 },
          { product_id: repair.id, description: 'Manoperă reparație', quantity: 1, unit_price_bani: 15_000, vat_rate: 21 },
        ],
      });
      expect(flagsOf(sale.invoice.lines)).toEqual([false, true]);
      expect(storedFlags(device, sale.invoice.id)).toEqual([0, 1]);
      proxy.setDown(false);
      await device.call('sync.now');
      const serverId = (await device.call('invoices.get', { id: sale.invoice.id })).sync.server_id;
      expect(flagsOf((await server.api(company.apiKey, 'GET', `/invoices/${serverId}?expand[]=lines`)).body.data.lines)).toEqual([false, true]);
    } finally {
      await device.close();
    }
  });

  it('keeps is_service of an invoice pulled from the service', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'SP');
    const buyer = await server.api(company.apiKey, 'POST', '/clients', GERMAN_BUYER, { 'idempotency-key': randomUUID() });
    const inv = await server.api(company.apiKey, 'POST', '/invoices', {
      series_id: seriesId, client_id: buyer.body.data.id, currency: 'RON',
      items: [
        { description: 'Audit de securitate', quantity: 1, price: 3000, vat_rate: 0, vat_category: 'K', is_service: true },
        { description: 'Licență pe stick USB', quantity: 1, price: 100, vat_rate: 0, vat_category: 'K' },
      ],
    }, { 'idempotency-key': randomUUID() });
    expect(inv.status).toBe(201);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const list = await device.call('invoices.list', { limit: 10 });
      const local = await device.call('invoices.get', { id: list.items[0]!.id });
      expect(flagsOf(local.lines)).toEqual([true, false]);
      expect(storedFlags(device, local.id)).toEqual([1, 0]);
    } finally {
      await device.close();
    }
  });
});
