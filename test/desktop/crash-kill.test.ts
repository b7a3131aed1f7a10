import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../main/db/sql';
import { Store } from '../../main/db/store';
import { DATABASE_FILE } from '../../main/app/services';
import type { TestServer } from '../support/server';
import { seededRandom } from '../support/fault-proxy';
import { createSeries, newCompany, openDevice, removeTempDirs, startServer } from './support/harness';
import { fetchAllPages as fetchAll, runSyncChild as runChild } from './support/sync-child-run';

describe('the sync process killed (SIGKILL) at random points', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
    removeTempDirs();
  });

  it('loses nothing and duplicates nothing after 20 kills', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'KL');
    const exclusiveId = await createSeries(server, company.apiKey, 'KX', { is_primary: false });
    // Prepare the offline session in-process, then let child processes sync it.
    const device = openDevice(server.base, company.apiKey);
    const dataDir = device.dataDir;
    await device.call('sync.now');
    await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 125, low_water: 0 });
    await device.call('series.setMode', { id: exclusiveId, mode: 'exclusive' });
    // From here on the device is offline: an unreachable API until the children take over.
    await device.call('settings.update', { api_url: 'http://127.0.0.1:9/v1' });
    const clients = [];
    for (let i = 0; i < 15; i++) clients.push(await device.call('clients.create', { type: 'person', name: `Kill ${i}`, country: 'RO' }));
    const invoices = [];
    for (let i = 0; i < 160; i++) {
      invoices.push(
        await device.call('invoices.issue', {
          series_id: i % 4 === 3 ? exclusiveId : seriesId,
          client_id: clients[i % 15]!.id,
          lines: [{ description: `Item ${i}`, quantity: 1, unit_price_bani: 2000 + i, vat_rate: 21 }],
        }),
      );
    }
    const released = [];
    for (const idx of [4, 40, 80]) released.push((await device.call('invoices.discard', { id: invoices[idx]!.id })).released_full_number);
    const kept = invoices.filter((_v, idx) => ![4, 40, 80].includes(idx));
    const receipts = [];
    for (let i = 0; i < 25; i++) {
      receipts.push(await device.call('receipts.create', i < 15 ? { invoice_id: kept[i * 5]!.id, amount_bani: 1000 } : { client_name: `Walk-in ${i}`, amount_bani: 300 + i }));
    }
    await device.call('settings.update', { api_url: server.base });
    await device.close();
    const total = 15 + kept.length + receipts.length + released.length;

    const random = seededRandom(20_261_121);
    let kills = 0;
    let finishedEarly = false;
    let recoveredRuns = 0;
    while (kills < 20) {
      const run = await runChild(dataDir, server.base, Math.floor(random() * 10), Math.floor(random() * 8));
      if (/recovered=[1-9]/.test(run.output)) recoveredRuns += 1;
      if (!run.killed) {
        finishedEarly = true;
        break;
      }
      kills += 1;
    }
    expect(finishedEarly).toBe(false);
    expect(kills).toBe(20);
    const last = await runChild(dataDir, server.base, null, 0);
    expect(last.output).toMatch(/done failed=0/);
    if (/recovered=[1-9]/.test(last.output)) recoveredRuns += 1;
    // Some kills landed while a request was on the wire (the next start found the item in flight).
    expect(recoveredRuns).toBeGreaterThan(0);

    // The server holds everything exactly once.
    const remoteInvoices = await fetchAll<{ client_local_uuid: string; full_number: string }>(server, company.apiKey, '/invoices');
    expect(remoteInvoices).toHaveLength(kept.length);
    expect(new Set(remoteInvoices.map((i) => i.client_local_uuid))).toEqual(new Set(kept.map((i) => i.id)));
    expect(remoteInvoices.map((i) => i.full_number).sort()).toEqual(kept.map((i) => i.full_number).sort());
    const remoteClients = await fetchAll<{ client_local_uuid: string }>(server, company.apiKey, '/clients');
    expect(remoteClients.map((c) => c.client_local_uuid).sort()).toEqual(clients.map((c) => c.id).sort());
    const remoteReceipts = await fetchAll<{ client_local_uuid: string }>(server, company.apiKey, '/receipts');
    expect(remoteReceipts.map((r) => r.client_local_uuid).sort()).toEqual(receipts.map((r) => r.id).sort());
    const gaps = await server.api(company.apiKey, 'GET', `/invoice-series/${seriesId}/gaps`);
    expect(gaps.body.data.data.map((g: { full_number: string }) => g.full_number)).toEqual(released);
    expect((await server.api(company.apiKey, 'GET', `/invoice-series/${exclusiveId}/gaps`)).body.data.total).toBe(0);

    // And the device agrees: every item done, every record mapped to its server id.
    const store = new Store({ path: join(dataDir, DATABASE_FILE) });
    try {
      expect(store.reader.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM outbox WHERE state <> 'done'`)?.n).toBe(0);
      expect(store.reader.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM outbox WHERE state = 'done'`)?.n).toBe(total);
      expect(store.reader.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM invoices WHERE server_id IS NULL`)?.n).toBe(0);
      expect(store.reader.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM receipts WHERE server_id IS NULL`)?.n).toBe(0);
    } finally {
      store.close();
    }
  }, 240_000);
});
