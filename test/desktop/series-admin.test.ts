import { describe, expect, it } from 'vitest';
import type { IpcError } from '../../shared/ipc/contract';
import type { TestServer } from '../support/server';
import type { FaultProxy } from '../support/fault-proxy';
import { LINE, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

async function refusal(call: Promise<unknown>): Promise<IpcError> {
  try {
    await call;
  } catch (error) {
    return (error as { ipc: IpcError }).ipc;
  }
  throw new Error('expected a refusal');
}

describe('series administration and setup state over IPC', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('creates series that continue another program\'s numbering, refuses duplicates and a start below the last issued', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const invoiceSeries = await device.call('series.create', { kind: 'invoice', name: 'ARD', start_number: 1235, is_primary: true });
      expect(invoiceSeries.example_full_number).toBe('ARD-2026-1235');
      expect(invoiceSeries.is_primary).toBe(true);
      const remote = await server.api(company.apiKey, 'GET', `/invoice-series/${invoiceSeries.id}`);
      expect(remote.body.data).toMatchObject({ name: 'ARD', start_number: 1235, next_number: 1235 });

      const receiptSeries = await device.call('series.create', { kind: 'receipt', name: 'ARDCH', start_number: 77 });
      expect(receiptSeries.example_full_number).toBe('ARDCH-77');

      const duplicate = await refusal(device.call('series.create', { kind: 'invoice', name: 'ard' }));
      expect(duplicate.code).toBe('duplicate_series');
      expect(duplicate.fields?.name).toMatch(/Numele este folosit deja/);

      // Two sales, then a start below the last issued one is refused at the field, nothing changes.
      await device.call('series.setMode', { id: invoiceSeries.id, mode: 'exclusive' });
      const client = await device.call('clients.create', { name: 'Ion Pop', type: 'person', country: 'RO' });
      await device.call('invoices.issue', { series_id: invoiceSeries.id, client_id: client.id, lines: [LINE] });
      await device.call('invoices.issue', { series_id: invoiceSeries.id, client_id: client.id, lines: [LINE] });
      await device.call('sync.now');
      const below = await refusal(device.call('series.update', { id: invoiceSeries.id, start_number: 100 }));
      expect(below.fields?.start_number).toMatch(/Mai mic decât ultimul număr emis \(1236\)/);
      const moved = await refusal(device.call('series.update', { id: invoiceSeries.id, start_number: 5000 }));
      expect(moved.fields?.start_number).toMatch(/s-au emis deja numere/);
      const after = await server.api(company.apiKey, 'GET', `/invoice-series/${invoiceSeries.id}`);
      expect(after.body.data).toMatchObject({ start_number: 1235, next_number: 1237 });

      const renamed = await device.call('series.update', { id: receiptSeries.id, name: 'CHR', start_number: 80 });
      expect(renamed.example_full_number).toBe('CHR-80');

      const second = await device.call('series.create', { kind: 'invoice', name: 'B2' });
      const primary = await device.call('series.setPrimary', { id: second.id });
      expect(primary.is_primary).toBe(true);
      const list = await device.call('series.list');
      expect(list.filter((s) => s.kind === 'invoice' && s.is_primary).map((s) => s.name)).toEqual(['B2']);
    } finally {
      await device.close();
    }
  });

  it('creates the bank account, refuses a bad IBAN at the field, and keeps the wizard state', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      // A company with a key but nothing in the cache: the wizard is due.
      expect(await device.call('setup.get')).toMatchObject({ onboarding_done: false, source: 'inferred', print_layout: 'a4' });
      const bad = await refusal(device.call('bankAccounts.create', { iban: 'RO49AAAA1B31007593840001' }));
      expect(bad.fields?.iban).toBeTruthy();
      const account = await device.call('bankAccounts.create', { iban: 'RO49 AAAA 1B31 0075 9384 0000', is_default: true });
      expect(account.iban).toBe('RO49AAAA1B31007593840000');
      expect((await device.call('bankAccounts.list')).map((a) => a.iban)).toEqual(['RO49AAAA1B31007593840000']);
      const dup = await refusal(device.call('bankAccounts.create', { iban: 'RO49AAAA1B31007593840000' }));
      expect(dup.code).toBe('duplicate_iban');

      const state = await device.call('setup.update', { completed: ['bank'], print_layout: '80mm' });
      expect(state).toMatchObject({ onboarding_done: false, source: 'stored', completed: ['bank'], print_layout: '80mm' });
      await device.call('series.create', { kind: 'invoice', name: 'X1' });
      // Written explicitly: a series made mid-wizard does not end it.
      expect((await device.call('setup.get')).onboarding_done).toBe(false);
      const bigLogo = `data:image/png;base64,${'A'.repeat(400_000)}`;
      await expect(device.call('setup.update', { logo: bigLogo })).rejects.toThrow(/prea mare|too large/);
    } finally {
      await device.close();
    }
  });

  it('an install with a key and series from before the wizard is not sent through it', async () => {
    const company = await newCompany(server);
    await server.api(company.apiKey, 'POST', '/invoice-series', { name: 'OLD' });
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      expect(await device.call('setup.get')).toMatchObject({ onboarding_done: true, source: 'inferred' });
    } finally {
      await device.close();
    }
  });
});
