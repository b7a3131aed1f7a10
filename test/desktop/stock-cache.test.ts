import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import type { FaultProxy } from '../support/fault-proxy';
import { createSeries, newCompany, openDevice, serverBehindProxyForTests, type Device } from './support/harness';

/**
 * Stock on the desktop (issue 15): the levels pulled from the service, this device's sales taken off
 * at once (online and offline), and after the sync the service's level and the device's agree, with
 * no sale counted twice or forgotten in between.
 */

async function serverLevel(server: TestServer, apiKey: string, productServerId: string): Promise<number> {
  const res = await server.api(apiKey, 'GET', `/stock?product_id=${productServerId}`);
  expect(res.status).toBe(200);
  return (res.body.data.data as { quantity: number }[]).reduce((s, l) => s + l.quantity, 0);
}

async function deviceStock(device: Device, search: string): Promise<number | null | undefined> {
  const list = await device.call('products.list', { search, limit: 5, offset: 0 });
  return list.items[0]?.stock;
}

describe('stock cached on the desktop', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('shows the service level less unsynced sales, online and offline, and agrees with the service after sync', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'ST');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 10, low_water: 2 });
      const product = await device.call('products.create', { name: 'Cafea boabe 1kg', code: 'CAF-1', price_bani: 6999, vat_rate: 21, price_includes_vat: true });
      const service = await device.call('products.create', { name: 'Montaj', price_bani: 5000, vat_rate: 21, is_service: true });
      // Nothing known yet: no figure rather than a false zero.
      expect(await deviceStock(device, 'CAF-1')).toBeNull();
      await device.call('sync.now');
      const serverId = (await device.call('products.get', { id: product.id })).sync.server_id!;

      // Goods received on the desktop through the service's NIR: the levels are pulled at once.
      const nir = await device.call('stock.createNir', {
        request_id: randomUUID(), supplier_name: 'Furnizor Cafea SRL', supplier_cui: 'RO14399840', document_number: 'FC-1001',
        lines: [{ product_id: product.id, quantity_invoiced: 10, unit_cost: 30.5 }],
      });
      expect(nir.nir.full_number).toMatch(/^NIR/);
      expect(nir.nir.total_cost).toBe(305);
      expect(await deviceStock(device, 'CAF-1')).toBe(10);
      expect(await serverLevel(server, company.apiKey, serverId)).toBe(10);
      expect((await device.call('products.get', { id: service.id })).stock).toBeNull();

      // Online sale: the figure drops before the push, and the pull after it does not take it off twice.
      await device.call('invoices.issue', { series_id: seriesId, walk_in: true, lines: [{ product_id: product.id, description: 'Cafea boabe 1kg', quantity: 2, unit_price_bani: 6999, vat_rate: 21 }] });
      expect(await deviceStock(device, 'CAF-1')).toBe(8);
      await device.call('sync.now');
      expect(await serverLevel(server, company.apiKey, serverId)).toBe(8);
      expect(await deviceStock(device, 'CAF-1')).toBe(8);

      // Offline: two sales and one given back before it synced.
      proxy.setDown(true);
      await device.call('invoices.issue', { series_id: seriesId, walk_in: true, lines: [{ product_id: product.id, description: 'Cafea boabe 1kg', quantity: 3, unit_price_bani: 6999, vat_rate: 21 }] });
      const dropped = await device.call('invoices.issue', { series_id: seriesId, walk_in: true, lines: [{ product_id: product.id, description: 'Cafea boabe 1kg', quantity: 1, unit_price_bani: 6999, vat_rate: 21 }] });
      expect(await deviceStock(device, 'CAF-1')).toBe(4);
      await device.call('invoices.discard', { id: dropped.id });
      expect(await deviceStock(device, 'CAF-1')).toBe(5);
      const levels = await device.call('stock.levels', { search: 'cafea', limit: 10, offset: 0 });
      expect(levels.items).toHaveLength(1);
      expect(levels.items[0]).toMatchObject({ product_id: product.id, quantity: 5, unsynced: 3 });
      expect(await serverLevel(server, company.apiKey, serverId)).toBe(8);
      // A NIR needs the service: refused offline with the app's "cannot reach the server" error.
      await expect(device.call('stock.createNir', {
        request_id: randomUUID(), supplier_name: 'Furnizor Cafea SRL', document_number: 'FC-1002', lines: [{ product_id: product.id, quantity_invoiced: 1, unit_cost: 30 }],
      })).rejects.toMatchObject({ ipc: { code: 'offline' } });

      proxy.setDown(false);
      await device.call('sync.now');
      expect(await serverLevel(server, company.apiKey, serverId)).toBe(5);
      expect(await deviceStock(device, 'CAF-1')).toBe(5);
      expect((await device.call('stock.levels', { limit: 10, offset: 0 })).items[0]).toMatchObject({ quantity: 5, unsynced: 0 });

      // A sale made elsewhere (another counter) reaches this one through the pull.
      const client = await server.api(company.apiKey, 'POST', '/clients', { type: 'person', name: 'Ion Vecinul', country: 'RO' });
      const elsewhere = await server.api(company.apiKey, 'POST', '/invoices', {
        series_id: seriesId, client_id: client.body.data.id, items: [{ product_id: serverId, description: 'Cafea', quantity: 1, price: 69.99, vat_rate: 21 }],
      });
      expect(elsewhere.status).toBe(201);
      expect(await serverLevel(server, company.apiKey, serverId)).toBe(4);
      await device.call('sync.now');
      expect(await deviceStock(device, 'CAF-1')).toBe(4);

      // Movements of the product, with the numbers of the documents this device holds.
      const moves = await device.call('stock.movements', { product_id: product.id, page: 1 });
      // One day's movements come in the service's order of ids: compared as a set.
      expect(moves.items.map((m) => `${m.document_type} ${m.quantity}`).sort()).toEqual(['invoice -1', 'invoice -2', 'invoice -3', 'nir 10']);
      expect(moves.items.filter((m) => m.document_label?.startsWith('ST-'))).toHaveLength(3);
      expect(moves.items.reduce((s, m) => s + m.quantity, 0)).toBe(4);
    } finally {
      await device.close();
    }
  });

  it('a sale the service refuses (the last unit sold elsewhere, selling below zero blocked) stays subtracted until it is discarded', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'SB');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      expect((await server.api(company.apiKey, 'PUT', '/stock/settings', { negative_stock: 'block' })).status).toBe(200);
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 5, low_water: 1 });
      const product = await device.call('products.create', { name: 'Ultimul borcan', code: 'BOR-1', price_bani: 1500, vat_rate: 11, price_includes_vat: true });
      await device.call('sync.now');
      const serverId = (await device.call('products.get', { id: product.id })).sync.server_id!;
      await device.call('stock.createNir', {
        request_id: randomUUID(), supplier_name: 'Borcane SRL', document_number: 'B-1', lines: [{ product_id: product.id, quantity_invoiced: 1, unit_cost: 8 }],
      });
      expect(await deviceStock(device, 'BOR-1')).toBe(1);

      proxy.setDown(true);
      const client = await server.api(company.apiKey, 'POST', '/clients', { type: 'person', name: 'Alt client', country: 'RO' });
      const other = await server.api(company.apiKey, 'POST', '/invoices', { series_id: seriesId, client_id: client.body.data.id, items: [{ product_id: serverId, description: 'Ultimul borcan', quantity: 1, price: 15, vat_rate: 11 }] });
      expect(other.status).toBe(201);
      const mine = await device.call('invoices.issue', { series_id: seriesId, walk_in: true, lines: [{ product_id: product.id, description: 'Ultimul borcan', quantity: 1, unit_price_bani: 1500, vat_rate: 11 }] });
      expect(await deviceStock(device, 'BOR-1')).toBe(0);

      proxy.setDown(false);
      const status = await device.call('sync.now');
      expect(status.outbox.failed).toBeGreaterThan(0);
      expect(await serverLevel(server, company.apiKey, serverId)).toBe(0);
      // The service's 0, less the sale it refused: the cashier sees the unit she gave away without stock.
      expect(await deviceStock(device, 'BOR-1')).toBe(-1);
      await device.call('invoices.discard', { id: mine.id });
      await device.call('sync.now');
      expect(await deviceStock(device, 'BOR-1')).toBe(0);
      expect(await serverLevel(server, company.apiKey, serverId)).toBe(0);
    } finally {
      await device.close();
    }
  });
});
