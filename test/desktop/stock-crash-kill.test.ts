import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import { seededRandom } from '../support/fault-proxy';
import { expectStockInvariant } from '../server/stock/helpers';
import { createSeries, newCompany, openDevice, removeTempDirs, startServer, type Device } from './support/harness';
import { fetchAllPages, runSyncChild as runChild } from './support/sync-child-run';

/**
 * Issue 15, "a SIGKILL in the middle loses and duplicates no movement": a counter sells stocked goods
 * offline (its shown stock drops at once), then the sync engine pushing those sales runs in a child
 * process that is SIGKILLed at random points of the push, again and again. After a clean run the
 * service's ledger holds exactly one `invoice` movement per sale line, the levels are the received
 * quantities less the sales, every level is the sum of its movements, and the device, reopened and
 * synced, shows the service's levels with nothing left pending.
 */

interface Movement { product_id: string; quantity: number; document_type: string; document_id: string }

function movementsOf(server: TestServer, apiKey: string, productId: string): Promise<Movement[]> {
  return fetchAllPages<Movement>(server, apiKey, `/stock/movements?product_id=${productId}`);
}

async function serverLevel(server: TestServer, apiKey: string, productId: string): Promise<number> {
  const res = await server.api(apiKey, 'GET', `/stock?product_id=${productId}`);
  return (res.body.data.data as { quantity: number }[]).reduce((s, l) => s + l.quantity, 0);
}

async function deviceStock(device: Device, code: string): Promise<number | null | undefined> {
  return (await device.call('products.list', { search: code, limit: 5, offset: 0 })).items[0]?.stock;
}

describe('stock sold offline, the sync killed (SIGKILL) while pushing the sales', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
    removeTempDirs();
  });

  it('every sale moves stock on the service exactly once, and the device ends with the service\'s levels', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'SK');
    const device = openDevice(server.base, company.apiKey);
    const dataDir = device.dataDir;
    const goods = [
      { code: 'KIL-1', name: 'Cafea boabe 1kg', received: 60 },
      { code: 'KIL-2', name: 'Zahăr 1kg', received: 40 },
      { code: 'KIL-3', name: 'Lapte 1l', received: 5 },
    ];
    const products: { id: string; serverId: string; code: string; received: number; sold: number }[] = [];
    const sales: { id: string; product: number; quantity: number }[] = [];
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 80, low_water: 0 });
      for (const g of goods) {
        const p = await device.call('products.create', { name: g.name, code: g.code, price_bani: 1000, vat_rate: 21, price_includes_vat: true });
        products.push({ id: p.id, serverId: '', code: g.code, received: g.received, sold: 0 });
      }
      await device.call('sync.now');
      for (const p of products) {
        p.serverId = (await device.call('products.get', { id: p.id })).sync.server_id!;
        await device.call('stock.createNir', {
          request_id: randomUUID(), supplier_name: 'Furnizor SRL', document_number: `F-${p.code}`, lines: [{ product_id: p.id, quantity_invoiced: p.received, unit_cost: 4.5 }],
        });
        expect(await deviceStock(device, p.code)).toBe(p.received);
      }

      // Offline: 48 sales, one or two lines each; the third product goes below zero (allowed, with a warning).
      await device.call('settings.update', { api_url: 'http://127.0.0.1:9/v1' });
      const random = seededRandom(15_2026);
      for (let i = 0; i < 48; i++) {
        const picks = i % 3 === 0 ? [i % 3, 2] : [i % 3];
        const lines = picks.map((k) => ({ k, quantity: 1 + Math.floor(random() * 3) }));
        const inv = await device.call('invoices.issue', {
          series_id: seriesId, walk_in: true,
          lines: lines.map((l) => ({ product_id: products[l.k]!.id, description: goods[l.k]!.name, quantity: l.quantity, unit_price_bani: 1000, vat_rate: 21 })),
        });
        for (const l of lines) {
          products[l.k]!.sold += l.quantity;
          sales.push({ id: inv.id, product: l.k, quantity: l.quantity });
        }
      }
      // The shown stock dropped at once, before any sync.
      for (const p of products) expect(await deviceStock(device, p.code)).toBe(p.received - p.sold);
      expect(products[2]!.received - products[2]!.sold).toBeLessThan(0);
      await device.call('settings.update', { api_url: server.base });
    } finally {
      await device.close();
    }

    const random = seededRandom(20_261_126);
    let kills = 0;
    while (kills < 10) {
      const run = await runChild(dataDir, server.base, Math.floor(random() * 5), Math.floor(random() * 8));
      if (!run.killed) break;
      kills += 1;
    }
    // The kills landed inside the push: the sales were not all through before the tenth.
    expect(kills).toBe(10);
    const last = await runChild(dataDir, server.base, null, 0);
    expect(last.output).toMatch(/done failed=0/);

    // The service: one invoice movement per sale line, each of a distinct document per product, none missing.
    const invoices = new Map<string, string>();
    for (let page = 1; ; page++) {
      const res = await server.api(company.apiKey, 'GET', `/invoices?page=${page}&per_page=100`);
      for (const inv of res.body.data.data as { id: string; client_local_uuid: string }[]) invoices.set(inv.client_local_uuid, inv.id);
      if (!res.body.data.has_more) break;
    }
    expect(new Set(invoices.keys())).toEqual(new Set(sales.map((s) => s.id)));
    for (const [k, p] of products.entries()) {
      const moves = await movementsOf(server, company.apiKey, p.serverId);
      const sold = moves.filter((m) => m.document_type === 'invoice');
      const expected = sales.filter((s) => s.product === k);
      expect(sold.map((m) => `${m.document_id} ${m.quantity}`).sort(), p.code)
        .toEqual(expected.map((s) => `${invoices.get(s.id)} ${-s.quantity}`).sort());
      expect(moves.filter((m) => m.document_type === 'nir').map((m) => m.quantity)).toEqual([p.received]);
      expect(await serverLevel(server, company.apiKey, p.serverId), p.code).toBe(p.received - p.sold);
    }
    await expectStockInvariant(server);

    // The device, reopened: after a sync nothing is pending and it shows exactly the service's levels.
    const again = openDevice(server.base, null, { dataDir });
    try {
      await again.call('sync.now');
      for (const p of products) expect(await deviceStock(again, p.code), p.code).toBe(await serverLevel(server, company.apiKey, p.serverId));
      const levels = await again.call('stock.levels', { limit: 10, offset: 0 });
      expect(levels.items.map((l) => l.unsynced)).toEqual([0, 0, 0]);
    } finally {
      await again.close();
    }
  }, 240_000);
});
