import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import type { FaultProxy } from '../support/fault-proxy';
import { createSeries, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

/**
 * The stock channels behind the count, transfer and counter-warning screens (issue 15), through the
 * real main process against the real service: the book level a scan shows has this device's unsynced
 * sales taken off; a count is refused offline with nothing booked and books the differences online;
 * the same warehouse twice never leaves the device; the firm's rule for selling below zero is kept
 * for offline use and read again after a manual sync.
 */
describe('stock channels of the desktop', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('scan, count, transfer and the counter\'s rule', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'SD');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 10, low_water: 2 });
      const product = await device.call('products.create', { name: 'Cafea boabe 1kg', code: 'CAF-1', barcode: '5940000000017', price_bani: 6999, vat_rate: 21, price_includes_vat: true });
      await device.call('sync.now');
      const serverId = (await device.call('products.get', { id: product.id })).sync.server_id!;
      await device.call('stock.createNir', {
        request_id: randomUUID(), supplier_name: 'Furnizor Cafea SRL', document_number: 'FC-1', lines: [{ product_id: product.id, quantity_invoiced: 10, unit_cost: 30 }],
      });
      const warehouses = await device.call('stock.warehouses');
      expect(warehouses).toHaveLength(1);
      const main = warehouses[0]!;
      expect(main.is_default).toBe(true);

      // The scan finds the product by barcode, never by name, with its book level.
      expect(await device.call('stock.scan', { warehouse_id: main.id, code: '5940000000017' })).toMatchObject({ product_id: product.id, book_quantity: 10 });
      expect(await device.call('stock.scan', { warehouse_id: main.id, code: 'Cafea' })).toBeNull();

      // An offline sale comes off the book level at once; the count is refused offline, nothing booked.
      proxy.setDown(true);
      await device.call('invoices.issue', { series_id: seriesId, walk_in: true, lines: [{ product_id: product.id, description: 'Cafea boabe 1kg', quantity: 3, unit_price_bani: 6999, vat_rate: 21 }] });
      expect(await device.call('stock.bookLevels', { warehouse_id: main.id, product_ids: [product.id] })).toEqual([{ product_id: product.id, book_quantity: 7 }]);
      const count = { request_id: randomUUID(), warehouse_id: main.id, lines: [{ product_id: product.id, quantity: 6 }] };
      await expect(device.call('stock.createCount', count)).rejects.toMatchObject({ ipc: { code: 'offline' } });
      proxy.setDown(false);
      await device.call('sync.now');
      expect((await server.api(company.apiKey, 'GET', '/stock-counts')).body.data.data).toHaveLength(0);

      // Online: 6 found where 7 are on the books.
      const booked = await device.call('stock.createCount', count);
      expect(booked).toMatchObject({ kind: 'count', warehouse_name: main.name, lines: [{ name: 'Cafea boabe 1kg', quantity: 6, expected: 7, difference: -1 }] });
      // Sent again (a lost reply): the same count, not a second one.
      await device.call('stock.createCount', count);
      expect((await server.api(company.apiKey, 'GET', '/stock-counts')).body.data.data).toHaveLength(1);
      const level = (await server.api(company.apiKey, 'GET', `/stock?product_id=${serverId}`)).body.data.data as { quantity: number }[];
      expect(level.map((l) => l.quantity)).toEqual([6]);
      expect(await device.call('stock.bookLevels', { warehouse_id: main.id, product_ids: [product.id] })).toEqual([{ product_id: product.id, book_quantity: 6 }]);

      // The same warehouse on both sides: refused on the device, in Romanian, nothing sent.
      await expect(device.call('stock.createTransfer', {
        request_id: randomUUID(), from_warehouse_id: main.id, to_warehouse_id: main.id, lines: [{ product_id: product.id, quantity: 1 }],
      })).rejects.toMatchObject({ ipc: { fields: { to_warehouse_id: expect.stringContaining('Gestiunea de destinație trebuie să difere de cea de proveniență') } } });
      expect((await server.api(company.apiKey, 'GET', '/stock-transfers')).body.data.data).toHaveLength(0);

      // The counter's rule: read once, kept; a change on the service is seen after a manual sync, and kept offline.
      expect(await device.call('stock.cartStock', { product_ids: [product.id] })).toEqual({ negative_stock: 'allow', levels: [{ product_id: product.id, quantity: 6 }] });
      expect((await server.api(company.apiKey, 'PUT', '/stock/settings', { negative_stock: 'block' })).status).toBe(200);
      expect((await device.call('stock.cartStock', { product_ids: [product.id] })).negative_stock).toBe('allow');
      await device.call('sync.now');
      expect((await device.call('stock.cartStock', { product_ids: [product.id] })).negative_stock).toBe('block');
      proxy.setDown(true);
      await device.call('sync.now');
      expect((await device.call('stock.cartStock', { product_ids: [product.id] })).negative_stock).toBe('block');
      proxy.setDown(false);
    } finally {
      await device.close();
    }
  });
});
