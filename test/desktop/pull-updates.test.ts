import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDeletionCursor } from '../../main/sync/deletions';
import { readCursor } from '../../main/sync/pull';
import { zListPage } from '../../shared/api/envelope';
import { zDeletedRecord } from '../../server/modules/meta/deleted-records';
import { RESOURCES } from '../../server/platform/api-keys';
import { fixedClock } from '../../server/platform/clock';
import { startTestServer, type TestServer } from '../support/server';
import { createSeries, newCompany, openDevice, removeTempDirs } from './support/harness';

/**
 * The real desktop engine against the real service, now that the service's lists accept
 * `updated_since` and `sort=updated_at`: changes made elsewhere to records the device already
 * pulled reach it; deletions are announced by GET /deleted-records.
 */
describe('incremental pull of changes made elsewhere', () => {
  let server: TestServer;
  // The service's clock starts at the real time (the device's) and is moved on by the test, so that
  // records fall in distinct seconds: the walk by creation date re-reads its cursor's own second, and
  // would otherwise see the paid invoice again by chance.
  const clock = fixedClock(Math.floor(Date.now() / 1000));
  beforeAll(async () => {
    server = await startTestServer('sqlite', { clock, rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
  });
  afterAll(async () => {
    await server?.close();
    removeTempDirs();
  });

  it('sees an invoice paid by another key after it was pulled, and can learn of a draft deleted on the server with its own cursor', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'PU');
    const post = async (path: string, body: unknown, key = company.apiKey) => {
      const res = await server.api(key, 'POST', path, body, { 'idempotency-key': randomUUID() });
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
      return res.body.data as { id: string };
    };
    const client = await post('/clients', { type: 'person', name: 'Ion Popescu', country: 'RO' });
    const items = [{ description: 'Cafea boabe', quantity: 1, price: 100, vat_rate: 21 }];
    const issued = await post('/invoices', { series_id: seriesId, client_id: client.id, items });
    // The newest record pulled sets the cursor: the issued invoice lies in an earlier second than it.
    clock.advance(3);
    const draft = await post('/invoices', { is_draft: true, client_id: client.id, items });

    // The device's key may not read payments: the paid state can then reach it only through the
    // invoice record itself (the fallback walk by creation date never reads an old invoice again).
    const deviceKey = await server.key({ cui: company.cui, scopes: RESOURCES.filter((r) => r !== 'payments').map((r) => `${r}:*`) });
    const device = openDevice(server.base, deviceKey.api_key);
    try {
      await device.call('sync.now');
      const before = await device.call('invoices.get', { id: issued.id });
      expect(before).toMatchObject({ status: 'issued', paid_state: 'unpaid', amount_paid_bani: 0 });
      const localDraft = await device.call('invoices.get', { id: draft.id });
      expect(localDraft).toMatchObject({ status: 'draft', sync: { server_id: draft.id } });
      // The server accepted `sort=updated_at`: the engine walks by change, not by creation.
      const cursor = readCursor(device.services.store, 'invoices');
      expect(cursor.strategy).toBe('updated');
      expect(cursor.since).not.toBeNull();

      // Another device (its own key, same company and work point) is paid the whole invoice and deletes the draft.
      clock.advance(5);
      const other = await server.key({ cui: company.cui });
      await post('/payments', { invoice_id: issued.id, amount: 121, type: 'card' }, other.api_key);
      expect((await server.api(other.api_key, 'DELETE', `/invoices/${draft.id}`)).status).toBe(200);

      await device.call('sync.now');
      // An old record changed on the server: seen by the next pass.
      expect(await device.call('invoices.get', { id: issued.id })).toMatchObject({ paid_state: 'paid', amount_paid_bani: 12_100 });
      expect(readCursor(device.services.store, 'invoices')).toMatchObject({ strategy: 'updated' });

      // The deletion, announced by GET /deleted-records, has been applied: the local draft is gone.
      await expect(device.call('invoices.get', { id: draft.id })).rejects.toThrow(/not_found/);
      // The key may not read payments: their tombstones answer 403 and that walk is parked, like the list's.
      expect(readDeletionCursor(device.services.store.reader, 'payments').forbidden_until).toBeGreaterThan(0);
      // What the engine read, through its own API client (key, work point, pacing):
      const tombstones = await device.services.engine.api.request({
        method: 'GET',
        path: '/deleted-records',
        query: { resource: 'invoices', updated_since: cursor.since! },
        schema: zListPage(zDeletedRecord),
      });
      expect(tombstones.data).toEqual([{ object: 'deleted_record', id: draft.id, resource: 'invoices', work_point_id: expect.any(String), deleted_at: expect.any(Number) }]);
      expect(tombstones.data[0]!.deleted_at).toBeGreaterThanOrEqual(cursor.since!);
      // It names the very record the device holds.
      expect(tombstones.data[0]!.id).toBe(localDraft.sync.server_id);
    } finally {
      await device.close();
    }
  });
});
