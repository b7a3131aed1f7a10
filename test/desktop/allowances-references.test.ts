import { describe, expect, it } from 'vitest';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { deviceWithReserve, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

/**
 * Discounts and charges on the whole invoice (BG-20/BG-21) and the references, made offline on the
 * desktop (issue 14): stored in the local cache (desktop migration 0014), priced by the same shared
 * computation, pushed, and the service's totals equal the desktop's to the ban; a storno made offline
 * negates them as the service's does; a draft edited offline replaces them.
 */
const BUYER = { type: 'company', name: 'Exemplu Client SRL', cui: 'RO76543210', address: 'Bd. Independenței nr. 5', city: 'Iași', county: 'Iași', country: 'RO' } as const;

type Money = Record<string, number>;
const bani = (m: Money) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Math.round(v * 100)]));

describe('discounts, charges and references made on the desktop', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('issues offline, syncs with the same totals to the ban, and a storno negates them', async () => {
    const { company, seriesId, device } = await deviceWithReserve(server, proxy, 'ADJ');
    try {
      proxy.setDown(true);
      const client = await device.call('clients.create', BUYER);
      const invoice = await device.call('invoices.issue', {
        series_id: seriesId,
        client_id: client.id,
        lines: [
          { description: 'Scaun ergonomic', quantity: 3, unit_price_bani: 89_999, vat_rate: 21 },
          { description: 'Carte', quantity: 7, unit_price_bani: 4590, vat_rate: 11 },
        ],
        allowances_charges: [
          // 10% of the 21% lines: 269 997 x 10% = 27 000 (rounded once).
          { amount_bani: 27_000, vat_rate: 21, reason: 'Reducere comercială', reason_code: '95' },
          { charge: true, amount_bani: 5000, vat_rate: 21, reason: 'Transport', reason_code: 'FC' },
        ],
        references: { order: 'CMD 77', despatch: 'AVZ 12' },
      });
      expect(invoice.totals).toMatchObject({ net_bani: 269_997 - 27_000 + 5000 + 32_130 });
      expect(invoice.allowances_charges.map((a) => [a.charge, a.amount_bani])).toEqual([[false, 27_000], [true, 5000]]);
      expect(invoice.references).toMatchObject({ order: 'CMD 77', despatch: 'AVZ 12', project: null });

      proxy.setDown(false);
      const status = await device.call('sync.now');
      expect(status.outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const serverId = (await device.call('invoices.get', { id: invoice.id })).sync.server_id;
      const remote = (await server.api(company.apiKey, 'GET', `/invoices/${serverId}`)).body.data;
      expect(bani(remote.totals)).toMatchObject({ net: invoice.totals.net_bani, vat: invoice.totals.vat_bani, total: invoice.totals.total_bani, allowances: 27_000, charges: 5000 });
      expect(remote.references).toMatchObject({ order: 'CMD 77', despatch: 'AVZ 12' });
      expect(remote.allowances_charges.map((a: Money) => Math.round(a.vat! * 100))).toEqual(invoice.allowances_charges.map((a) => a.vat_bani));
      const synced = await device.call('invoices.get', { id: invoice.id });
      expect(synced.allowances_charges).toEqual(invoice.allowances_charges);
      expect(synced.totals.total_bani).toBe(invoice.totals.total_bani);

      proxy.setDown(true);
      const storno = await device.call('invoices.storno', { id: invoice.id });
      expect(storno.totals.total_bani).toBe(-invoice.totals.total_bani);
      expect(storno.allowances_charges.map((a) => a.amount_bani)).toEqual([-27_000, -5000]);
      expect(storno.references.despatch).toBe('AVZ 12');
      proxy.setDown(false);
      await device.call('sync.now');
      const stornoServerId = (await device.call('invoices.get', { id: storno.id })).sync.server_id;
      const remoteStorno = (await server.api(company.apiKey, 'GET', `/invoices/${stornoServerId}`)).body.data;
      expect(Math.round(remoteStorno.totals.total * 100)).toBe(storno.totals.total_bani);
      expect(Math.round(remoteStorno.totals.vat * 100)).toBe(storno.totals.vat_bani);
    } finally {
      await device.close();
    }
  });

  it('refuses offline one at a rate no line has, and replaces them on a draft edited offline', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const client = await device.call('clients.create', BUYER);
      const lines = [{ description: 'Marfă', quantity: 1, unit_price_bani: 10_000, vat_rate: 21 }];
      await expect(device.call('invoices.saveDraft', { client_id: client.id, lines, allowances_charges: [{ amount_bani: 100, vat_rate: 11, reason: 'Reducere' }] }))
        .rejects.toMatchObject({ ipc: { fields: { 'allowances_charges.0.vat_rate': expect.stringContaining('Nicio linie') } } });
      const draft = await device.call('invoices.saveDraft', { client_id: client.id, lines, allowances_charges: [{ amount_bani: 1000, vat_rate: 21, reason_code: '95', reason: 'Reducere' }] });
      await device.call('sync.now');
      const serverId = (await device.call('invoices.get', { id: draft.id })).sync.server_id;
      expect((await server.api(company.apiKey, 'GET', `/invoices/${serverId}`)).body.data.totals).toMatchObject({ net: 90, allowances: 10 });
      proxy.setDown(true);
      await device.call('invoices.saveDraft', { id: draft.id, client_id: client.id, lines, allowances_charges: [{ charge: true, amount_bani: 2500, vat_rate: 21, reason_code: 'FC', reason: 'Transport' }], references: { project: 'P-1' } });
      proxy.setDown(false);
      await device.call('sync.now');
      const remote = (await server.api(company.apiKey, 'GET', `/invoices/${serverId}`)).body.data;
      expect(remote.totals).toMatchObject({ net: 125, charges: 25 });
      expect(remote.references).toMatchObject({ project: 'P-1' });
    } finally {
      await device.close();
    }
  });
});
