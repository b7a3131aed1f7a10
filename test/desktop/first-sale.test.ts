import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server';
import type { FaultProxy } from '../support/fault-proxy';
import type { IpcError } from '../../shared/ipc/contract';
import { createSeries, LINE, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

/**
 * Issue 12: a series made by hand (on the service, or by another counter) and never set up on this
 * device. The first sale online must take its number; offline the error must say what is wrong.
 */
async function refusal(call: Promise<unknown>): Promise<IpcError> {
  try {
    await call;
  } catch (error) {
    return (error as { ipc: IpcError }).ipc;
  }
  throw new Error('expected a refusal');
}

describe('first sale from a series this device never set up', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('online: the series is set up for shared numbering on the spot and the invoice is issued', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'MANA');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const before = (await device.call('series.list')).find((s) => s.id === seriesId)!;
      expect(before.mode).toBeNull();
      const client = await device.call('clients.create', { name: 'Ion Pop', type: 'person', country: 'RO' });
      const invoice = await device.call('invoices.issue', { series_id: seriesId, client_id: client.id, lines: [LINE] });
      expect(invoice.full_number).toBe('MANA-2026-0001');
      const after = (await device.call('series.list')).find((s) => s.id === seriesId)!;
      expect(after.mode).toBe('shared');
      expect(after.locked_by_me).toBe(false);
      await device.call('sync.now');
      const remote = await server.api(company.apiKey, 'GET', '/invoices');
      expect(remote.body.data.data.map((i: { full_number: string }) => i.full_number)).toEqual(['MANA-2026-0001']);
    } finally {
      await device.close();
    }
  });

  it('online: a shared series whose pool ran out is refilled at the sale instead of failing', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'POOL');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 1, low_water: 0 });
      const client = await device.call('clients.create', { name: 'Ion Pop', type: 'person', country: 'RO' });
      const first = await device.call('invoices.issue', { series_id: seriesId, client_id: client.id, lines: [LINE] });
      expect((await device.call('series.list')).find((s) => s.id === seriesId)!.pool.available).toBe(0);
      const second = await device.call('invoices.issue', { series_id: seriesId, client_id: client.id, lines: [LINE] });
      expect([first.full_number, second.full_number]).toEqual(['POOL-2026-0001', 'POOL-2026-0002']);
    } finally {
      await device.close();
    }
  });

  it('online: a draft issued from such a series takes its number too', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'CIO');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const client = await device.call('clients.create', { name: 'Ion Pop', type: 'person', country: 'RO' });
      const draft = await device.call('invoices.saveDraft', { client_id: client.id, lines: [LINE] });
      const issued = await device.call('invoices.issueDraft', { id: draft.id, series_id: seriesId });
      expect(issued.full_number).toBe('CIO-2026-0001');
    } finally {
      await device.close();
    }
  });

  it('offline: the error names the series not set up here, not a missing connection alone', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'OFF');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const client = await device.call('clients.create', { name: 'Ion Pop', type: 'person', country: 'RO' });
      proxy.setDown(true);
      const failure = await refusal(device.call('invoices.issue', { series_id: seriesId, client_id: client.id, lines: [LINE] }));
      expect(failure.code).toBe('series_not_set_up');
      expect(failure.message).toMatch(/OFF/);
      expect((await device.call('invoices.list', { limit: 10 })).total).toBe(0);
    } finally {
      proxy.setDown(false);
      await device.close();
    }
  });

  it('a series locked by another counter: the error says so, not to connect', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'LCK');
    const other = openDevice(proxy.base, company.apiKey);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await other.call('sync.now');
      await other.call('series.setMode', { id: seriesId, mode: 'exclusive' });
      await device.call('sync.now');
      const client = await device.call('clients.create', { name: 'Ion Pop', type: 'person', country: 'RO' });
      const failure = await refusal(device.call('invoices.issue', { series_id: seriesId, client_id: client.id, lines: [LINE] }));
      expect(failure.code).toBe('series_locked');
      expect(failure.message).toMatch(/LCK/);
    } finally {
      await other.close();
      await device.close();
    }
  });
});
