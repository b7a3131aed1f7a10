import { describe, expect, it } from 'vitest';
import type { FaultProxy } from '../support/fault-proxy';
import { startTestServer, type TestServer } from '../support/server';
import { fastClock } from './support/clocks';
import { createSeries, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

async function fetchAll<T>(server: TestServer, apiKey: string, path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const res = await server.api(apiKey, 'GET', `${path}?page=${page}&per_page=100`);
    out.push(...(res.body.data.data as T[]));
    if (!res.body.data.has_more) return out;
  }
}

describe('a server answering 500, 429, dropping connections and stalling', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('the engine backs off and completes, each record exactly once', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'FT');
    const device = openDevice(proxy.base, company.apiKey, { api: { timeoutMs: 400, retry: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 200 } } });
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 70, low_water: 0 });
      proxy.setDown(true);
      const clients = [];
      for (let i = 0; i < 10; i++) clients.push(await device.call('clients.create', { type: 'person', name: `Fault ${i}`, country: 'RO' }));
      const invoices = [];
      for (let i = 0; i < 60; i++) {
        invoices.push(await device.call('invoices.issue', { series_id: seriesId, client_id: clients[i % 10]!.id, lines: [{ description: 'x', quantity: 1, unit_price_bani: 100 + i, vat_rate: 21 }] }));
      }
      const receipts = [];
      for (let i = 0; i < 10; i++) receipts.push(await device.call('receipts.create', { invoice_id: invoices[i]!.id, amount_bani: 50 }));
      proxy.setDown(false);
      proxy.setRates({ status500: 0.1, status503: 0.04, status429: 0.04, drop_before: 0.08, drop_after: 0.12, stall: 0.03 }, 42);
      let passes = 0;
      for (; passes < 60; passes++) {
        const status = await device.call('sync.now');
        if (status.outbox.pending === 0 && status.outbox.in_flight === 0) break;
        // Items back off in whole seconds; let the clock move.
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      proxy.setRates({});
      const injected = proxy.counts.status500 + proxy.counts.status503 + proxy.counts.status429 + proxy.counts.drop_before + proxy.counts.drop_after + proxy.counts.stall;
      expect(injected).toBeGreaterThan(20);
      expect(proxy.counts.drop_after).toBeGreaterThan(3);
      expect((await device.call('sync.status')).outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const remoteInvoices = await fetchAll<{ client_local_uuid: string; full_number: string }>(server, company.apiKey, '/invoices');
      expect(remoteInvoices.map((i) => i.client_local_uuid).sort()).toEqual(invoices.map((i) => i.id).sort());
      expect(remoteInvoices.map((i) => i.full_number).sort()).toEqual(invoices.map((i) => i.full_number).sort());
      const remoteClients = await fetchAll<{ client_local_uuid: string }>(server, company.apiKey, '/clients');
      expect(remoteClients).toHaveLength(10);
      const remoteReceipts = await fetchAll<{ client_local_uuid: string }>(server, company.apiKey, '/receipts');
      expect(remoteReceipts.map((r) => r.client_local_uuid).sort()).toEqual(receipts.map((r) => r.id).sort());
    } finally {
      await device.close();
    }
  }, 120_000);
});

describe('pacing under the real rate limits (fast clock shared by server and device)', () => {
  it('pushes a backlog larger than both budgets without a single 429', async () => {
    // 1 real second = 120 server seconds: the hour window passes in 30 s, a minute in 0.5 s.
    const clock = fastClock(120);
    const server = await startTestServer('sqlite', { clock: clock.seconds, rateLimits: { requestsPerHour: 60, createsPerMinute: 12 } });
    try {
      const company = await newCompany(server);
      // The test's own setup call uses a second key of the same company: rate limits are per key, and
      // a create by another client on the device's key is not something the device can see coming.
      const admin = await server.key({ cui: company.cui });
      const seriesId = await createSeries(server, admin.api_key, 'RL');
      const device = openDevice(server.base, company.apiKey, {
        clock: clock.seconds,
        // No margin tuned for the fast clock: creates are counted from their replies, so latency (which a
        // fast clock multiplies) cannot push two minutes' worth into one server window.
        pacer: { clock: clock.pacer, requestsPerHour: 60, createsPerMinute: 12 },
      });
      try {
        await device.call('sync.now');
        await device.call('series.setMode', { id: seriesId, mode: 'exclusive' });
        const client = await device.call('clients.create', { type: 'person', name: 'Rate', country: 'RO' });
        for (let i = 0; i < 70; i++) {
          await device.call('invoices.issue', { series_id: seriesId, client_id: client.id, lines: [{ description: 'x', quantity: 1, unit_price_bani: 100, vat_rate: 21 }] });
        }
        for (let pass = 0; pass < 10; pass++) {
          const status = await device.call('sync.now');
          if (status.outbox.pending === 0) break;
        }
        const api = device.services.engine.api;
        expect(api.stats.status429).toBe(0);
        expect((await device.call('sync.status')).outbox.pending).toBe(0);
        // 71 creates at 12 a minute and ~80 requests at 60 an hour: the pacer had to wait for both.
        expect(api.pacer.snapshot().waits).toBeGreaterThan(0);
        const list = await server.api(company.apiKey, 'GET', '/invoices?per_page=1');
        expect(list.body.data.total).toBe(70);
      } finally {
        await device.close();
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});
