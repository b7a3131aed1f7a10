import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from '../../main/db/sql';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { APP_SENDER, LINE, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

/**
 * Choosing the work point a device works at: every request then carries `work_point_id`, and the
 * local cache swaps one work point's documents for the other's, giving back the numbers it held.
 */
describe('work point selection', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  const seen: string[] = [];
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  /** Every request the device sends (method and URL with its query), through the real fetch. */
  const recording: typeof fetch = (input, init) => {
    seen.push(`${init?.method ?? 'GET'} ${String(input)}`);
    return fetch(input, init);
  };
  const api = { timeoutMs: 3000, retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 200 }, fetch: recording };

  const ok = async (key: string, method: string, path: string, body?: unknown) => {
    const r = await server.api(key, method, path, body, method === 'POST' ? { 'idempotency-key': randomUUID() } : {});
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return r.body.data;
  };

  it('lists the work points, moves to another one (after its documents synced) and back, every request carrying it', async () => {
    const company = await newCompany(server);
    const me = (await server.api(company.apiKey, 'GET', '/me')).body.data;
    const home = me.work_point as { id: string; name: string };
    const shop = await ok(company.apiKey, 'POST', '/work-points', { name: 'Magazin Lipscani', address: 'Str. Lipscani 12' });
    const homeSeries = await ok(company.apiKey, 'POST', '/invoice-series', { name: 'SED', is_primary: true });
    const homeLocked = await ok(company.apiKey, 'POST', '/invoice-series', { name: 'SEX' });
    const shopSeries = await ok(company.apiKey, 'POST', `/invoice-series?work_point_id=${shop.id}`, { name: 'MAG', is_primary: true });
    const client = await ok(company.apiKey, 'POST', '/clients', { type: 'person', name: 'Ion Popescu', country: 'RO' });
    const shopInvoice = await ok(company.apiKey, 'POST', `/invoices?work_point_id=${shop.id}`, {
      series_id: shopSeries.id, client_id: client.id, items: [{ description: 'Cafea', quantity: 1, price: 10, vat_rate: 21 }],
    });
    await ok(company.apiKey, 'POST', `/expenses?work_point_id=${shop.id}`, { supplier_id: (await ok(company.apiKey, 'POST', '/suppliers', { name: 'Furnizor' })).id, reference: 'MAG-EXP', amount: 50, vat: 21 });

    const device = openDevice(proxy.base, company.apiKey, { api });
    try {
      await device.call('sync.now');
      const points = await device.call('catalog.workPoints');
      expect(points).toMatchObject({ current_id: home.id, source: 'server' });
      expect(points.items.map((w) => w.name).sort()).toEqual([home.name, 'Magazin Lipscani'].sort());
      expect((await device.call('series.list')).map((s) => s.name).sort()).toEqual(['SED', 'SEX']);
      await device.call('series.setMode', { id: homeSeries.id, mode: 'shared', pool_target: 4, low_water: 0 });
      await device.call('series.setMode', { id: homeLocked.id, mode: 'exclusive' });

      // A document of this work point waits in the outbox: the move is refused, nothing changes.
      proxy.setDown(true);
      const mine = await device.call('invoices.issue', { series_id: homeSeries.id, client_id: client.id, lines: [LINE] });
      const refused = await device.router.dispatch('settings.update', { work_point_id: shop.id }, APP_SENDER);
      expect(refused).toMatchObject({ ok: false, error: { type: 'conflict', code: 'invalid_state' } });
      // The work point list answers from its last copy while offline.
      expect(await device.call('catalog.workPoints')).toMatchObject({ source: 'cache', current_id: home.id });
      // Synced, but the lock held at this work point can only be given back online.
      proxy.setDown(false);
      await device.call('sync.now');
      proxy.setDown(true);
      expect(await device.router.dispatch('settings.update', { work_point_id: shop.id }, APP_SENDER)).toMatchObject({ ok: false, error: { code: 'offline' } });
      expect((await device.call('settings.get')).work_point?.id).toBe(home.id);
      expect((await device.call('invoices.list', { limit: 10 })).total).toBe(1);
      proxy.setDown(false);

      const moved = await device.call('settings.update', { work_point_id: shop.id });
      expect(moved.work_point).toEqual({ id: shop.id, name: 'Magazin Lipscani' });
      const afterMove = seen.length;
      // The unused reserved numbers of the old work point became documented gaps there.
      await device.call('sync.now');
      const gaps = await ok(company.apiKey, 'GET', `/invoice-series/${homeSeries.id}/gaps`);
      expect(gaps.data.map((g: { reason: string }) => g.reason)).toEqual(['released', 'released', 'released']);
      expect((await ok(company.apiKey, 'GET', `/invoice-series/${homeLocked.id}`)).is_locked).toBe(false);
      // The cache now holds the shop's documents, series and expenses; the company's clients stay.
      expect((await device.call('invoices.list', { limit: 10 })).items.map((i) => i.sync.server_id)).toEqual([shopInvoice.id]);
      expect((await device.call('series.list')).map((s) => s.name)).toEqual(['MAG']);
      expect((await device.call('purchases.expenses', { limit: 10 })).items.map((e) => e.reference)).toEqual(['MAG-EXP']);
      expect((await device.call('clients.list', { limit: 10 })).total).toBe(1);
      expect((await device.call('settings.get')).default_series_id).toBeNull();
      // Every request after the move named the shop, but the releases made for the old work point.
      const sinceMove = seen.slice(afterMove);
      const releases = sinceMove.filter((l) => l.includes('/release'));
      expect(releases).toHaveLength(3);
      for (const line of releases) expect(line).not.toContain('work_point_id');
      const rest = sinceMove.filter((l) => !l.includes('/release') && !l.includes('/work-points'));
      expect(rest.length).toBeGreaterThan(8);
      for (const line of rest) expect(line).toContain(`work_point_id=${shop.id}`);

      // Issued here, it lands at the shop.
      await device.call('series.setMode', { id: shopSeries.id, mode: 'exclusive' });
      const atShop = await device.call('invoices.issue', { series_id: shopSeries.id, client_id: client.id, lines: [LINE] });
      await device.call('sync.now');
      const remote = await ok(company.apiKey, 'GET', `/invoices/${(await device.call('invoices.get', { id: atShop.id })).sync.server_id}`);
      expect(remote.work_point_id).toBe(shop.id);
      expect(remote.full_number).toMatch(/^MAG-/);
      const expense = await device.call('expenses.create', { supplier_name: 'Furnizor', amount_bani: 1_000 });
      await device.call('sync.now');
      const shopExpenses = await ok(company.apiKey, 'GET', `/expenses?work_point_id=${shop.id}`);
      expect(shopExpenses.data.map((e: { id: string }) => e.id)).toContain((await device.call('purchases.expenses', { limit: 10 })).items.find((e) => e.id === expense.id)!.sync.server_id);

      // Back to the key's own work point: its invoice comes back from the service.
      await device.call('series.setMode', { id: shopSeries.id, mode: null });
      const back = await device.call('settings.update', { work_point_id: null });
      expect(back.work_point).toEqual({ id: home.id, name: home.name });
      await device.call('sync.now');
      const homeInvoices = await device.call('invoices.list', { limit: 10 });
      expect(homeInvoices.items.map((i) => i.full_number)).toEqual([mine.full_number]);
      expect(device.services.store.reader.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM series WHERE name = 'MAG'`)?.n).toBe(0);
    } finally {
      await device.close();
    }
  });

  it('a new key of another company forgets a work point chosen under the old one', async () => {
    const first = await newCompany(server);
    const other = await ok(first.apiKey, 'POST', '/work-points', { name: 'Depozit' });
    const device = openDevice(proxy.base, first.apiKey);
    try {
      await device.call('sync.now');
      await device.call('catalog.workPoints');
      await device.call('settings.update', { work_point_id: other.id });
      expect((await device.call('settings.get')).work_point?.name).toBe('Depozit');
      const second = await newCompany(server);
      const set = await device.call('settings.setApiKey', { api_key: second.apiKey });
      expect(set).toMatchObject({ verified: true, stored: true });
      expect(set.settings.company?.cui).toBe(second.cui);
      expect(set.settings.work_point?.name).not.toBe('Depozit');
      await device.call('sync.now');
      expect((await device.call('sync.status')).last_error).toBeNull();
    } finally {
      await device.close();
    }
  });
});
