import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from '../../main/db/sql';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { APP_SENDER, createSeries, newCompany, openDevice, serverBehindProxyForTests, type Device, deviceWithReserve } from './support/harness';

/**
 * A 0% line's VAT category (E, Z, K, G) between the device and the real service: kept from a pull,
 * stored and pushed for an invoice made here offline, carried by a local storno, and refused offline
 * exactly where the service refuses it.
 */
const GERMAN_BUYER = { type: 'company', name: 'Musterfirma GmbH', cui: 'DE123456789', country: 'DE', address: 'Hauptstraße 1', city: 'Berlin', county: 'BE' } as const;

function storedCategories(device: Device, localId: string): (string | null)[] {
  return device.services.store.reader
    .all<{ vat_category: string | null }>(sql`SELECT vat_category FROM invoice_lines WHERE invoice_id = ${localId} ORDER BY position`)
    .map((r) => r.vat_category);
}

describe('line VAT category through sync', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('keeps the category of an invoice pulled from the service', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'UE');
    const buyer = await server.api(company.apiKey, 'POST', '/clients', GERMAN_BUYER, { 'idempotency-key': randomUUID() });
    expect(buyer.status).toBeLessThan(300);
    const inv = await server.api(
      company.apiKey,
      'POST',
      '/invoices',
      {
        series_id: seriesId,
        client_id: buyer.body.data.id,
        currency: 'RON',
        items: [
          { description: 'Rulmenți livrați în Germania', quantity: 10, price: 25, vat_rate: 0, vat_category: 'K' },
          { description: 'Carte', quantity: 1, price: 59, vat_rate: 0, vat_exemption_reason: 'art. 292 alin. (2) lit. a)' },
          { description: 'Transport intern', quantity: 1, price: 100, vat_rate: 21 },
        ],
      },
      { 'idempotency-key': randomUUID() },
    );
    expect(inv.status).toBe(201);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const list = await device.call('invoices.list', { limit: 10 });
      expect(list.items).toHaveLength(1);
      const local = await device.call('invoices.get', { id: list.items[0]!.id });
      expect(local.lines.map((l) => [l.description, l.vat_rate, l.vat_category])).toEqual([
        ['Rulmenți livrați în Germania', 0, 'K'],
        ['Carte', 0, 'E'],
        ['Transport intern', 21, null],
      ]);
      // Stored as the service answered it: its `E` for the 0% line that named none, null above 0%.
      expect(storedCategories(device, local.id)).toEqual(['K', 'E', null]);
      // The breakdown keeps one 0% entry per category, as the service split it.
      expect(local.vat_breakdown.map((b) => [b.vat_rate, b.vat_category, b.net_bani])).toEqual([[21, null, 10_000], [0, 'E', 5900], [0, 'K', 25_000]]);
    } finally {
      await device.close();
    }
  });

  it('stores and pushes the category of an invoice issued offline, and its storno carries it', async () => {
    const { company, seriesId, device } = await deviceWithReserve(server, proxy, 'IC');
    try {
      proxy.setDown(true);
      const client = await device.call('clients.create', GERMAN_BUYER);
      const invoice = await device.call('invoices.issue', {
        series_id: seriesId,
        client_id: client.id,
        lines: [
          { description: 'Rulmenți livrați în Germania', quantity: 10, unit_price_bani: 2500, vat_rate: 0, vat_category: 'K' },
          { description: 'Piese exportate în Elveția', quantity: 2, unit_price_bani: 10_000, vat_rate: 0, vat_category: 'G' },
          { description: 'Carte', quantity: 1, unit_price_bani: 5900, vat_rate: 0, vat_exemption_reason: 'art. 292 alin. (2) lit. a)' },
          { description: 'Ambalaj', quantity: 1, unit_price_bani: 1000, vat_rate: 21 },
        ],
      });
      expect(invoice.sync.state).toBe('pending');
      expect(invoice.lines.map((l) => l.vat_category)).toEqual(['K', 'G', 'E', null]);
      expect(storedCategories(device, invoice.id)).toEqual(['K', 'G', null, null]);
      // Offline, the same arithmetic as the service's splits the 0% base by category.
      const BREAKDOWN = [[21, null, 1000], [0, 'E', 5900], [0, 'K', 25_000], [0, 'G', 20_000]];
      expect(invoice.vat_breakdown.map((b) => [b.vat_rate, b.vat_category, b.net_bani])).toEqual(BREAKDOWN);

      proxy.setDown(false);
      const status = await device.call('sync.now');
      expect(status.outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const serverId = (await device.call('invoices.get', { id: invoice.id })).sync.server_id;
      const remote = await server.api(company.apiKey, 'GET', `/invoices/${serverId}?expand[]=lines`);
      expect(remote.status).toBe(200);
      expect(remote.body.data.lines.map((l: { vat_category: string | null }) => l.vat_category)).toEqual(['K', 'G', 'E', null]);
      // The service's reply became the local copy: its `E` is stored now, and its breakdown agrees.
      expect(storedCategories(device, invoice.id)).toEqual(['K', 'G', 'E', null]);
      expect(remote.body.data.vat_breakdown.map((b: { vat_rate: number; vat_category: string | null; net: number }) => [b.vat_rate, b.vat_category, Math.round(b.net * 100)])).toEqual(BREAKDOWN);
      const synced = await device.call('invoices.get', { id: invoice.id });
      expect(synced.vat_breakdown.map((b) => [b.vat_rate, b.vat_category, b.net_bani])).toEqual(BREAKDOWN);

      // A storno made offline repeats the lines with their categories; the service's own storno agrees.
      proxy.setDown(true);
      const storno = await device.call('invoices.storno', { id: invoice.id });
      expect(storno.lines.map((l) => [l.quantity, l.vat_category])).toEqual([[-10, 'K'], [-2, 'G'], [-1, 'E'], [-1, null]]);
      proxy.setDown(false);
      await device.call('sync.now');
      const stornoServerId = (await device.call('invoices.get', { id: storno.id })).sync.server_id;
      const remoteStorno = await server.api(company.apiKey, 'GET', `/invoices/${stornoServerId}?expand[]=lines`);
      expect(remoteStorno.body.data.storno_of).toBe(serverId);
      expect(remoteStorno.body.data.lines.map((l: { vat_category: string | null }) => l.vat_category)).toEqual(['K', 'G', 'E', null]);
    } finally {
      await device.close();
    }
  });

  it('sends a draft edited offline with its new category', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const client = await device.call('clients.create', GERMAN_BUYER);
      const draft = await device.call('invoices.saveDraft', { client_id: client.id, lines: [{ description: 'Mostre', quantity: 1, unit_price_bani: 1000, vat_rate: 0, vat_category: 'Z' }] });
      await device.call('sync.now');
      const serverId = (await device.call('invoices.get', { id: draft.id })).sync.server_id;
      expect((await server.api(company.apiKey, 'GET', `/invoices/${serverId}?expand[]=lines`)).body.data.lines[0].vat_category).toBe('Z');
      proxy.setDown(true);
      await device.call('invoices.saveDraft', { id: draft.id, client_id: client.id, lines: [{ description: 'Mostre', quantity: 1, unit_price_bani: 1000, vat_rate: 0, vat_category: 'K' }] });
      proxy.setDown(false);
      await device.call('sync.now');
      expect((await server.api(company.apiKey, 'GET', `/invoices/${serverId}?expand[]=lines`)).body.data.lines[0].vat_category).toBe('K');
    } finally {
      await device.close();
    }
  });

  it('refuses offline a category on a line with VAT, as the service does, and an unknown one', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      proxy.setDown(true);
      const client = await device.call('clients.create', GERMAN_BUYER);
      const refused = (lines: unknown[]) => device.router.dispatch('invoices.saveDraft', { client_id: client.id, lines }, APP_SENDER);
      const withVat = await refused([
        { description: 'Livrare', quantity: 1, unit_price_bani: 1000, vat_rate: 0, vat_category: 'K' },
        { description: 'Ambalaj', quantity: 1, unit_price_bani: 1000, vat_rate: 21, vat_category: 'K' },
      ]);
      expect(withVat.ok).toBe(false);
      if (!withVat.ok) {
        expect(withVat.error.code).toBe('invalid_payload');
        expect(withVat.error.fields).toEqual({ 'lines.1.vat_category': 'Only a 0% line has a VAT category (E, Z, K or G).|Doar o linie cu 0% are categorie de TVA (E, Z, K sau G).' });
      }
      const unknown = await refused([{ description: 'Livrare', quantity: 1, unit_price_bani: 1000, vat_rate: 0, vat_category: 'AE' }]);
      expect(unknown.ok).toBe(false);
      if (!unknown.ok) expect(Object.keys(unknown.error.fields ?? {})).toEqual(['lines.0.vat_category']);
      // Nothing was written or queued.
      expect((await device.call('invoices.list', { limit: 10 })).total).toBe(0);
    } finally {
      await device.close();
    }
  });
});
