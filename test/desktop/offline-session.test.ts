import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import type { FaultProxy } from '../support/fault-proxy';
import { createSeries, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

interface RemoteList<T> {
  data: T[];
  has_more: boolean;
}

async function fetchAll<T>(server: TestServer, apiKey: string, path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await server.api(apiKey, 'GET', `${path}${sep}page=${page}&per_page=100`);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    const list = res.body.data as RemoteList<T>;
    out.push(...list.data);
    if (!list.has_more) return out;
  }
}

describe('an offline session of 200 invoices, 20 new clients and 50 receipts', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('lands on the server exactly once, with the reserved numbers, and the released ones as gaps', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'OF');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const series = await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 210, low_water: 5 });
      expect(series.pool.available).toBe(210);

      proxy.setDown(true);
      const clients = [];
      for (let i = 0; i < 20; i++) {
        clients.push(await device.call('clients.create', { type: 'person', name: `Client ${i + 1}`, country: 'RO' }));
      }
      const issued = [];
      for (let i = 0; i < 200; i++) {
        issued.push(
          await device.call('invoices.issue', {
            series_id: seriesId,
            client_id: clients[i % 20]!.id,
            lines: [
              { description: `Marfă ${i}`, quantity: 1 + (i % 3), unit_price_bani: 1000 + i * 7, vat_rate: 21 },
              { description: 'Carte', quantity: 0.5, unit_price_bani: 3333, vat_rate: 11, discount_percent: 10 },
            ],
          }),
        );
      }
      expect(issued.map((i) => i.number)).toEqual(Array.from({ length: 200 }, (_v, i) => i + 1));
      // A few are discarded before they sync: their numbers are released, never reused.
      const discardedIdx = [9, 49, 99, 149, 199];
      const released: string[] = [];
      for (const idx of discardedIdx) {
        const r = await device.call('invoices.discard', { id: issued[idx]!.id });
        released.push(r.released_full_number!);
      }
      expect(released).toEqual(['OF-2026-0010', 'OF-2026-0050', 'OF-2026-0100', 'OF-2026-0150', 'OF-2026-0200']);
      const kept = issued.filter((_inv, idx) => !discardedIdx.includes(idx));
      // 30 receipts pay (part of) an invoice, 20 stand alone.
      const receipts = [];
      for (let i = 0; i < 30; i++) {
        const inv = kept[i * 3]!;
        receipts.push(await device.call('receipts.create', { invoice_id: inv.id, amount_bani: Math.floor(inv.totals.total_bani / 2) }));
      }
      for (let i = 0; i < 20; i++) {
        receipts.push(
          await device.call('receipts.create', i % 2 ? { client_id: clients[i]!.id, amount_bani: 500 + i } : { client_name: `Trecător ${i}`, amount_bani: 700 + i }),
        );
      }
      const paidLocally = await device.call('invoices.get', { id: kept[0]!.id });
      expect(paidLocally.paid_state).toBe('partially_paid');
      expect((await device.call('sync.now')).mode).toBe('offline');
      expect((await device.call('outbox.list')).counts.pending).toBe(20 + 195 + 50 + 5);

      proxy.setDown(false);
      for (let pass = 0; pass < 5; pass++) {
        const status = await device.call('sync.now');
        if (status.outbox.pending === 0 && status.outbox.failed === 0) break;
      }
      expect((await device.call('sync.status')).outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });

      type RemoteInvoice = { id: string; full_number: string; number: number; client_local_uuid: string; totals: { total: number }; paid_state: string };
      const remoteInvoices = await fetchAll<RemoteInvoice>(server, company.apiKey, '/invoices?sort=number&order=asc');
      expect(remoteInvoices).toHaveLength(195);
      expect(new Set(remoteInvoices.map((i) => i.client_local_uuid)).size).toBe(195);
      expect(remoteInvoices.map((i) => i.full_number).sort()).toEqual(kept.map((i) => i.full_number!).sort());
      const byUuid = new Map(remoteInvoices.map((i) => [i.client_local_uuid, i]));
      for (const inv of kept) {
        // Offline totals equal the server's, to the ban.
        expect(Math.round(byUuid.get(inv.id)!.totals.total * 100)).toBe(inv.totals.total_bani);
      }

      const remoteClients = await fetchAll<{ client_local_uuid: string | null }>(server, company.apiKey, '/clients');
      expect(remoteClients).toHaveLength(20);
      expect(new Set(remoteClients.map((c) => c.client_local_uuid))).toEqual(new Set(clients.map((c) => c.id)));

      const remoteReceipts = await fetchAll<{ client_local_uuid: string; invoice: { id: string } | null; amount: number }>(server, company.apiKey, '/receipts');
      expect(remoteReceipts).toHaveLength(50);
      expect(new Set(remoteReceipts.map((r) => r.client_local_uuid))).toEqual(new Set(receipts.map((r) => r.id)));
      expect(remoteReceipts.filter((r) => r.invoice !== null)).toHaveLength(30);
      expect(byUuid.get(kept[0]!.id)!.paid_state).toBe('partially_paid');

      const gaps = await device.call('series.gaps', { id: seriesId });
      expect(gaps.map((g) => g.full_number)).toEqual(released);
      expect(gaps.every((g) => g.reason === 'released')).toBe(true);

      // Locally, everything is synced and carries its server id; receipts got their server numbers.
      const localReceipts = await device.call('receipts.list', { limit: 100 });
      expect(localReceipts.items.every((r) => r.sync.state === 'synced' && r.receipt_number !== null)).toBe(true);
      const localInvoices = await device.call('invoices.list', { limit: 500 });
      expect(localInvoices.total).toBe(195);
      expect(localInvoices.items.every((i) => i.sync.state === 'synced')).toBe(true);
    } finally {
      await device.close();
    }
  });
});
