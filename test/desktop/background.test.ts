import { describe, expect, it } from 'vitest';
import type { EventName } from '../../shared/ipc/channels';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('background sync (timers on)', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('detects offline by probing, syncs by itself on reconnection, and pushes local changes at once when online', async () => {
    const company = await newCompany(server);
    proxy.setDown(true);
    const events: Array<{ event: EventName; payload: unknown }> = [];
    const device = openDevice(proxy.base, company.apiKey, {
      timers: true,
      emit: (event, payload) => events.push({ event, payload }),
      engine: { probeDelayMs: { min: 50, max: 200 } },
    });
    try {
      await waitFor(() => device.services.engine.status().mode === 'offline' && !device.services.engine.status().syncing);
      const client = await device.call('clients.create', { type: 'person', name: 'Fundal', country: 'RO' });
      expect((await device.call('clients.get', { id: client.id })).sync.state).toBe('pending');
      proxy.setDown(false);
      // No call to sync.now: the probe finds the server and the reconnection pass pushes the client.
      await waitFor(async () => (await device.call('clients.get', { id: client.id })).sync.state === 'synced');
      expect(events.some((e) => e.event === 'sync.status' && (e.payload as { mode: string }).mode === 'online')).toBe(true);
      expect(events.some((e) => e.event === 'data.changed' && (e.payload as { domains: string[] }).domains.includes('clients'))).toBe(true);
      expect(events.some((e) => e.event === 'outbox.changed')).toBe(true);
      // Online: a new change goes out at once.
      const second = await device.call('clients.create', { type: 'person', name: 'Imediat', country: 'RO' });
      await waitFor(async () => (await device.call('clients.get', { id: second.id })).sync.state === 'synced', 3000);
      const remote = await server.api(company.apiKey, 'GET', '/clients');
      expect(remote.body.data.total).toBe(2);
    } finally {
      await device.close();
    }
  });
});
