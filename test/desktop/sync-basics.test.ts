import { describe, expect, it } from 'vitest';
import { sql } from '../../main/db/sql';
import type { TestServer } from '../support/server';
import type { FaultProxy } from '../support/fault-proxy';
import { createSeries, LINE, newCompany, openDevice, serverBehindProxyForTests, deviceWithReserve } from './support/harness';

describe('sync engine against the real server', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('issues offline from a reservation pool, with a client made offline, and syncs it once', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'TJ');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      expect(device.services.engine.status().mode).toBe('online');
      const series = await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 5, low_water: 2 });
      expect(series.pool.available).toBe(5);
      expect(series.next_full_number).toBe('TJ-2026-0001');

      proxy.setDown(true);
      const client = await device.call('clients.create', { name: 'Popescu SRL', cui: 'RO1590082', type: 'company', country: 'RO' });
      expect(client.cui).toBe('1590082');
      expect(client.vat_payer).toBe(true);
      const invoice = await device.call('invoices.issue', { series_id: seriesId, client_id: client.id, lines: [LINE] });
      expect(invoice.full_number).toBe('TJ-2026-0001');
      expect(invoice.totals).toEqual({ net_bani: 900, vat_bani: 99, total_bani: 999, discount_bani: 0 });
      expect(invoice.sync.state).toBe('pending');
      const status = await device.call('sync.now');
      expect(status.mode).toBe('offline');
      expect(status.outbox.pending).toBe(2);

      proxy.setDown(false);
      const after = await device.call('sync.now');
      expect(after.mode).toBe('online');
      expect(after.outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const synced = await device.call('invoices.get', { id: invoice.id });
      expect(synced.sync.state).toBe('synced');
      expect(synced.id).toBe(invoice.id);
      expect(synced.sync.server_id).toMatch(/^inv_/);
      const remote = await server.api(company.apiKey, 'GET', `/invoices/${synced.sync.server_id}?expand[]=lines`);
      expect(remote.body.data.full_number).toBe('TJ-2026-0001');
      expect(remote.body.data.totals.total).toBe(9.99);
      expect(remote.body.data.client_local_uuid).toBe(invoice.id);
      const clientServerId = (await device.call('clients.get', { id: client.id })).sync.server_id;
      expect(remote.body.data.client_id).toBe(clientServerId);
      const list = await server.api(company.apiKey, 'GET', '/invoices');
      expect(list.body.data.total).toBe(1);
    } finally {
      await device.close();
    }
  });

  it('numbers without gaps under an exclusive lock and the server checks continuity', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'EX');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const series = await device.call('series.setMode', { id: seriesId, mode: 'exclusive' });
      expect(series.locked_by_me).toBe(true);
      expect(series.next_number).toBe(1);
      const client = await device.call('clients.create', { name: 'Ion Pop', type: 'person', country: 'RO' });
      proxy.setDown(true);
      const numbers: (string | null)[] = [];
      for (let i = 0; i < 5; i++) {
        numbers.push((await device.call('invoices.issue', { series_id: seriesId, client_id: client.id, lines: [LINE] })).full_number);
      }
      expect(numbers).toEqual(['EX-2026-0001', 'EX-2026-0002', 'EX-2026-0003', 'EX-2026-0004', 'EX-2026-0005']);
      // The last one can be discarded (its number is given back); an earlier one cannot.
      const all = await device.call('invoices.list', { limit: 10 });
      const fifth = all.items.find((i) => i.number === 5)!;
      const third = all.items.find((i) => i.number === 3)!;
      await expect(device.call('invoices.discard', { id: third.id })).rejects.toThrow(/invalid_state/);
      expect((await device.call('invoices.discard', { id: fifth.id })).released_full_number).toBe('EX-2026-0005');
      expect((await device.call('series.list'))[0]!.next_number).toBe(5);
      proxy.setDown(false);
      await device.call('sync.now');
      const remote = await server.api(company.apiKey, 'GET', '/invoices?sort=number&order=asc');
      expect(remote.body.data.data.map((i: { full_number: string }) => i.full_number)).toEqual(['EX-2026-0001', 'EX-2026-0002', 'EX-2026-0003', 'EX-2026-0004']);
      const gaps = await device.call('series.gaps', { id: seriesId });
      expect(gaps).toEqual([]);
    } finally {
      await device.close();
    }
  });

  it('keeps drafts numberless, edits them offline, and deletes one on the server', async () => {
    const { company, seriesId, device } = await deviceWithReserve(server, proxy, 'DR');
    try {
      const client = await device.call('clients.create', { name: 'Draft Client SRL', cui: '1590082', type: 'company', country: 'RO' });
      const draft = await device.call('invoices.saveDraft', { client_id: client.id, lines: [LINE] });
      expect(draft.number).toBeNull();
      await device.call('sync.now');
      const draftServerId = (await device.call('invoices.get', { id: draft.id })).sync.server_id;
      expect(draftServerId).toBeTruthy();
      proxy.setDown(true);
      const edited = await device.call('invoices.saveDraft', { id: draft.id, client_id: client.id, lines: [{ ...LINE, quantity: 3 }] });
      expect(edited.totals.total_bani).toBe(1499);
      const issued = await device.call('invoices.issueDraft', { id: draft.id, series_id: seriesId });
      expect(issued.full_number).toBe('DR-2026-0001');
      const other = await device.call('invoices.saveDraft', { client_id: client.id, lines: [LINE] });
      proxy.setDown(false);
      await device.call('sync.now');
      const remote = await server.api(company.apiKey, 'GET', `/invoices/${draftServerId}`);
      expect(remote.body.data).toMatchObject({ status: 'issued', full_number: 'DR-2026-0001', totals: { total: 14.99 } });
      const otherServerId = (await device.call('invoices.get', { id: other.id })).sync.server_id;
      await device.call('invoices.discard', { id: other.id });
      await device.call('sync.now');
      expect((await server.api(company.apiKey, 'GET', `/invoices/${otherServerId}`)).status).toBe(404);
      await expect(device.call('invoices.get', { id: other.id })).rejects.toThrow(/not_found/);
    } finally {
      await device.close();
    }
  });

  it('prints receipts offline with their number under a locked receipt series', async () => {
    const company = await newCompany(server);
    const rs = await server.api(company.apiKey, 'POST', '/receipt-series', { prefix: 'CH' });
    expect(rs.status).toBeLessThan(300);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const listed = (await device.call('series.list')).find((s) => s.id === rs.body.data.id)!;
      expect(listed).toMatchObject({ kind: 'receipt', name: 'CH', mode: null });
      const locked = await device.call('series.setMode', { id: listed.id, mode: 'exclusive' });
      expect(locked).toMatchObject({ locked_by_me: true, next_full_number: 'CH-1' });
      proxy.setDown(true);
      const made: Array<{ id: string; receipt_number: string | null }> = [];
      for (let i = 0; i < 3; i++) made.push(await device.call('receipts.create', { client_name: `Plătitor ${i}`, amount_bani: 1000 + i }));
      expect(made.map((r) => r.receipt_number)).toEqual(['CH-1', 'CH-2', 'CH-3']);
      const items = (await device.call('outbox.list')).items;
      await expect(device.call('outbox.discard', { id: items.find((i) => i.entity_id === made[1]!.id)!.id })).rejects.toThrow();
      await device.call('outbox.discard', { id: items.find((i) => i.entity_id === made[2]!.id)!.id });
      const again = await device.call('receipts.create', { client_name: 'Din nou', amount_bani: 5 });
      expect(again.receipt_number).toBe('CH-3');
      proxy.setDown(false);
      await device.call('sync.now');
      expect((await device.call('sync.status')).outbox.failed).toBe(0);
      const remote = await server.api(company.apiKey, 'GET', '/receipts?sort=number&order=asc');
      expect(remote.body.data.data.map((r: { receipt_number: string }) => r.receipt_number)).toEqual(['CH-1', 'CH-2', 'CH-3']);
      expect(await device.call('series.gaps', { id: listed.id })).toEqual([]);
      // Giving the lock back works once everything numbered under it has synced.
      expect((await device.call('series.setMode', { id: listed.id, mode: null })).locked_by_me).toBe(false);
    } finally {
      await device.close();
    }
  });

  it('carries an invoice\'s delivery date both ways: a draft made offline, an invoice made elsewhere', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'DL');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      proxy.setDown(true);
      const client = await device.call('clients.create', { type: 'person', name: 'Maria Ionescu', country: 'RO' });
      // A due date before the invoice's date is refused here, as the service would refuse it at sync.
      await expect(device.call('invoices.saveDraft', { client_id: client.id, due_date: '2020-01-01', lines: [LINE] })).rejects.toThrow(/due_date/);
      expect((await device.call('invoices.list', { limit: 10 })).total).toBe(0);
      const draft = await device.call('invoices.saveDraft', { client_id: client.id, delivery_date: '2026-10-30', lines: [LINE] });
      expect(draft.delivery_date).toBe('2026-10-30');
      proxy.setDown(false);
      await device.call('sync.now');
      const serverId = (await device.call('invoices.get', { id: draft.id })).sync.server_id;
      expect((await server.api(company.apiKey, 'GET', `/invoices/${serverId}`)).body.data.delivery_date).toBe('2026-10-30');
      // Cleared offline, cleared on the server.
      await device.call('invoices.saveDraft', { id: draft.id, client_id: client.id, delivery_date: null, lines: [LINE] });
      await device.call('sync.now');
      expect((await server.api(company.apiKey, 'GET', `/invoices/${serverId}`)).body.data.delivery_date).toBeNull();

      const elsewhere = await server.api(company.apiKey, 'POST', '/invoices', {
        series_id: seriesId, client_id: (await device.call('clients.get', { id: client.id })).sync.server_id, delivery_date: '2026-11-01',
        items: [{ description: 'Montaj', quantity: 1, price: 100, vat_rate: 21 }],
      });
      expect(elsewhere.status, elsewhere.text).toBe(201);
      await device.call('sync.now');
      const pulled = (await device.call('invoices.list', { limit: 10 })).items.find((i) => i.full_number === elsewhere.body.data.full_number)!;
      expect((await device.call('invoices.get', { id: pulled.id })).delivery_date).toBe('2026-11-01');
    } finally {
      await device.close();
    }
  });

  it('lets two offline devices print numbered receipts from one receipt series, each from its reserved numbers', async () => {
    const company = await newCompany(server);
    const rs = await server.api(company.apiKey, 'POST', '/receipt-series', { prefix: 'CP' });
    expect(rs.status).toBeLessThan(300);
    const seriesId: string = rs.body.data.id;
    const first = openDevice(proxy.base, company.apiKey);
    const second = openDevice(proxy.base, company.apiKey);
    try {
      const next: string[] = [];
      for (const device of [first, second]) {
        await device.call('sync.now');
        const shared = await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 3, low_water: 0 });
        expect(shared).toMatchObject({ kind: 'receipt', mode: 'shared', pool: { available: 3 } });
        next.push(shared.next_full_number ?? '');
      }
      expect(next).toEqual(['CP-1', 'CP-4']);

      proxy.setDown(true);
      const byFirst = [];
      const bySecond = [];
      for (let i = 0; i < 2; i++) {
        byFirst.push(await first.call('receipts.create', { client_name: `Casa 1 · ${i}`, amount_bani: 1000 + i }));
        bySecond.push(await second.call('receipts.create', { client_name: `Casa 2 · ${i}`, amount_bani: 2000 + i }));
      }
      expect(byFirst.map((r) => r.receipt_number)).toEqual(['CP-1', 'CP-2']);
      expect(bySecond.map((r) => r.receipt_number)).toEqual(['CP-4', 'CP-5']);
      // A receipt dropped before it synced gives its number up: a documented gap, never printed again.
      const dropped = await second.call('receipts.create', { client_name: 'Renunțat', amount_bani: 5 });
      expect(dropped.receipt_number).toBe('CP-6');
      const item = (await second.call('outbox.list')).items.find((i) => i.entity_id === dropped.id)!;
      await second.call('outbox.discard', { id: item.id });
      // The pool is empty now: the next receipt waits for the server's number.
      expect((await second.call('receipts.create', { client_name: 'Fără număr', amount_bani: 7 })).receipt_number).toBeNull();

      proxy.setDown(false);
      for (const device of [second, first]) {
        await device.call('sync.now');
        expect((await device.call('sync.status')).outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      }
      const remote = await server.api(company.apiKey, 'GET', '/receipts?sort=number&order=asc&per_page=50');
      expect(remote.body.data.data.map((r: { receipt_number: string; client: { name: string } }) => [r.receipt_number, r.client.name])).toEqual([
        ['CP-1', 'Casa 1 · 0'], ['CP-2', 'Casa 1 · 1'], ['CP-4', 'Casa 2 · 0'], ['CP-5', 'Casa 2 · 1'], ['CP-7', 'Fără număr'],
      ]);
      const gaps = await server.api(company.apiKey, 'GET', `/receipt-series/${seriesId}/gaps`);
      expect(gaps.body.data.data.map((g: { full_number: string; reason: string }) => [g.full_number, g.reason])).toEqual([['CP-6', 'released']]);
      // The numbers the devices printed are consumed on the server; the first device's unused CP-3 is still its own,
      // and the second device, back online with an empty pool, reserved three more after the server numbered CP-7.
      const reservations = await server.api(company.apiKey, 'GET', `/receipt-series/${seriesId}/reservations?per_page=50`);
      expect(reservations.body.data.data.map((r: { number: number; status: string; device_id: string }) => [r.number, r.status, r.device_id === first.services.ctx.device.id ? 1 : 2])).toEqual([
        [1, 'consumed', 1], [2, 'consumed', 1], [3, 'pending', 1], [4, 'consumed', 2], [5, 'consumed', 2], [6, 'released', 2],
        [8, 'pending', 2], [9, 'pending', 2], [10, 'pending', 2],
      ]);
      const pools = await Promise.all([first, second].map(async (d) => (await d.call('series.list')).find((x) => x.id === seriesId)!.next_full_number));
      expect(pools).toEqual(['CP-3', 'CP-8']);
      // Locally the printed numbers read consumed too, and each device holds every receipt with the server's numbers.
      const local = first.services.store.reader.all<{ number: number; status: string }>(sql`SELECT number, status FROM reservations ORDER BY number`);
      expect(local.map((r) => [r.number, r.status])).toEqual([[1, 'consumed'], [2, 'consumed'], [3, 'pending']]);
      await second.call('sync.now');
      for (const device of [first, second]) {
        const listed = (await device.call('receipts.list', { limit: 10, offset: 0 })).items.map((r) => r.receipt_number).sort();
        expect(listed).toEqual(['CP-1', 'CP-2', 'CP-4', 'CP-5', 'CP-7']);
      }
      // Taking the lock instead gives the unused reserve up: CP-3 becomes a released gap, not an expired one later.
      await first.call('series.setMode', { id: seriesId, mode: 'exclusive' });
      await first.call('sync.now');
      const after = await server.api(company.apiKey, 'GET', `/receipt-series/${seriesId}/gaps`);
      expect(after.body.data.data.map((g: { full_number: string; reason: string }) => [g.full_number, g.reason])).toEqual([['CP-3', 'released'], ['CP-6', 'released']]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
