import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from '../../main/db/sql';
import { computeTotals } from '../../shared/invoice-math';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { createSeries, newCompany, openDevice, serverBehindProxyForTests, type Device, deviceWithReserve } from './support/harness';
import { cartItems, cartReducer, cartTotals, emptyCart } from '../../renderer/counter/cart';

/**
 * Unit prices with up to 4 decimals and a base quantity on the desktop (issue 14 item 4): an invoice
 * issued offline keeps the price exactly in the local SQLite cache (desktop migration 0014), is priced
 * by the same computation as the service, is pushed with its decimals, and the service's reply (and a
 * pull) leaves the same integers in the cache; a storno made offline repeats them.
 */
const BUYER = { type: 'company', name: 'Telecom Client SRL', cui: 'RO14186770', address: 'Bd. Independenței nr. 5', city: 'Iași', county: 'Iași' } as const;

const LINES = [
  { description: 'SMS trimise', quantity: 12_345, unit_price_bani: 1, unit_price_e4: 125, vat_rate: 21 },
  { description: 'Motorină', quantity: 45.37, unit: 'l', unit_code: 'LTR', unit_price_bani: 746, unit_price_e4: 74_590, vat_rate: 21 },
  { description: 'Etichete la mie', quantity: 2500, unit_price_bani: 1235, unit_price_e4: 123_456, base_quantity: 1000, vat_rate: 21 },
];

function stored(device: Device, localId: string): [number, number | null, number | null][] {
  return device.services.store.reader
    .all<{ price_bani: number; price_e4: number | null; base_quantity_milli: number | null }>(
      sql`SELECT price_bani, price_e4, base_quantity_milli FROM invoice_lines WHERE invoice_id = ${localId} ORDER BY position`,
    )
    .map((r) => [r.price_bani, r.price_e4, r.base_quantity_milli]);
}

const EXPECTED = [[1, 125, 1000], [746, 74_590, 1000], [1235, 123_456, 1_000_000]];
// 154,3125 -> 154,31; 338,41483 -> 338,41; 30,864 -> 30,86: each line rounded once.
const NETS = [15_431, 33_841, 3086];

describe('4-decimal prices and base quantities offline', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('issues offline with the exact prices, pushes them, and keeps them through the reply, a pull and a storno', async () => {
    const { company, seriesId, device } = await deviceWithReserve(server, proxy, 'SMS');
    try {
      proxy.setDown(true);
      const client = await device.call('clients.create', BUYER);
      const invoice = await device.call('invoices.issue', { series_id: seriesId, client_id: client.id, lines: LINES });
      expect(invoice.sync.state).toBe('pending');
      expect(invoice.lines.map((l) => [l.unit_price_e4, l.base_quantity, l.net_bani])).toEqual([[125, 1, NETS[0]], [74_590, 1, NETS[1]], [123_456, 1000, NETS[2]]]);
      expect(stored(device, invoice.id)).toEqual(EXPECTED);
      const offlineTotals = computeTotals(EXPECTED.map(([bani, e4, base], i) => ({
        quantity_milli: Math.round(LINES[i]!.quantity * 1000), unit_price_bani: bani!, unit_price_e4: e4!, base_quantity_milli: base!, vat_rate_bp: 2100,
      })));
      expect(invoice.totals.total_bani).toBe(offlineTotals.total_bani);

      proxy.setDown(false);
      const status = await device.call('sync.now');
      expect(status.outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const serverId = (await device.call('invoices.get', { id: invoice.id })).sync.server_id;
      const remote = await server.api(company.apiKey, 'GET', `/invoices/${serverId}?expand[]=lines`);
      expect(remote.status).toBe(200);
      expect(remote.body.data.lines.map((l: { price: number; base_quantity: number }) => [l.price, l.base_quantity])).toEqual([[0.0125, 1], [7.459, 1], [12.3456, 1000]]);
      // The service priced it to the ban as the device did.
      expect(Math.round(remote.body.data.totals.total * 100)).toBe(invoice.totals.total_bani);
      // The service's reply became the local copy: the same integers.
      expect(stored(device, invoice.id)).toEqual(EXPECTED);

      // A storno made offline repeats the prices with their decimals.
      proxy.setDown(true);
      const storno = await device.call('invoices.storno', { id: invoice.id });
      expect(storno.lines.map((l) => [l.quantity, l.unit_price_e4, l.base_quantity, l.net_bani])).toEqual([
        [-12_345, 125, 1, -NETS[0]!], [-45.37, 74_590, 1, -NETS[1]!], [-2500, 123_456, 1000, -NETS[2]!],
      ]);
      expect(storno.totals.total_bani).toBe(-invoice.totals.total_bani);
      proxy.setDown(false);
      await device.call('sync.now');
      const stornoServerId = (await device.call('invoices.get', { id: storno.id })).sync.server_id;
      const remoteStorno = await server.api(company.apiKey, 'GET', `/invoices/${stornoServerId}?expand[]=lines`);
      expect(remoteStorno.body.data.lines.map((l: { price: number }) => l.price)).toEqual([0.0125, 7.459, 12.3456]);
      expect(Math.round(remoteStorno.body.data.totals.total * 100)).toBe(-invoice.totals.total_bani);
    } finally {
      await device.close();
    }
  });

  it('keeps a draft\'s 4-decimal prices through the counter\'s cart: loaded, priced and saved back unchanged', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      proxy.setDown(true);
      const client = await device.call('clients.create', BUYER);
      const draft = await device.call('invoices.saveDraft', { client_id: client.id, lines: LINES });
      // What CounterScreen does with a draft it opens, then what it saves.
      const cart = cartReducer(emptyCart(), {
        type: 'load', client: null, payment_method: null, reverse_charge: false, observations: '', due_date: '', delivery_date: '',
        lines: draft.lines.map((l) => ({
          product_id: l.product_id, code: null, description: l.description, unit: l.unit, unit_code: l.unit_code, quantity_milli: Math.round(l.quantity * 1000),
          unit_price_bani: l.unit_price_bani, unit_price_e4: l.unit_price_e4, base_quantity_milli: Math.round(l.base_quantity * 1000),
          price_includes_vat: l.price_includes_vat, vat_rate_bp: Math.round(l.vat_rate * 100), discount_bp: 0, vat_exemption_reason: null, vat_category: null, return_of: null,
        })),
      });
      expect(cartTotals(cart).lines.map((a) => a.net_bani)).toEqual(NETS);
      const saved = await device.call('invoices.saveDraft', { id: draft.id, client_id: client.id, lines: cartItems(cart) });
      expect(saved.lines.map((l) => [l.unit_price_e4, l.base_quantity])).toEqual([[125, 1], [74_590, 1], [123_456, 1000]]);
      expect(stored(device, draft.id)).toEqual(EXPECTED);
    } finally {
      await device.close();
    }
  });

  it('keeps the decimals of an invoice made on the service and pulled', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'PL');
    const buyer = await server.api(company.apiKey, 'POST', '/clients', BUYER, { 'idempotency-key': randomUUID() });
    const inv = await server.api(company.apiKey, 'POST', '/invoices', {
      series_id: seriesId, client_id: buyer.body.data.id,
      items: [{ description: 'SMS', quantity: 12_345, price: 0.0125, vat_rate: 21 }, { description: 'Etichete', quantity: 2500, price: 12.3456, base_quantity: 1000, vat_rate: 21 }],
    }, { 'idempotency-key': randomUUID() });
    expect(inv.status).toBe(201);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const list = await device.call('invoices.list', { limit: 10 });
      const local = await device.call('invoices.get', { id: list.items[0]!.id });
      expect(local.lines.map((l) => [l.unit_price_e4, l.unit_price_bani, l.base_quantity, l.net_bani])).toEqual([[125, 1, 1, 15_431], [123_456, 1235, 1000, 3086]]);
      expect(stored(device, local.id)).toEqual([[1, 125, 1000], [1235, 123_456, 1_000_000]]);
    } finally {
      await device.close();
    }
  });
});
