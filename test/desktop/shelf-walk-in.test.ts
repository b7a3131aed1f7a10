import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from '../../main/db/sql';
import { parseUblInvoice } from '../../server/efactura/index';
import { formatFindings, ublValidatorAvailability, validateUblFiles } from '../../server/efactura/validator';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { newCui } from '../server/efactura-spv/helpers';
import { createSeries, deviceWithReserve, openDevice, serverBehindProxyForTests } from './support/harness';

/**
 * Shelf prices and walk-in sales on the desktop: the same shared arithmetic offline as on the service
 * (the customer pays the shelf total to the ban), the line's price_includes_vat stored and synced, and
 * a walk-in sale issued online and offline without a client, synced, and its XML valid.
 */
const LINES = [
  { description: 'Pâine', quantity: 1, unit_price_bani: 210, price_includes_vat: true, vat_rate: 21 },
  { description: 'Cafea', quantity: 3, unit_price_bani: 1120, price_includes_vat: true, vat_rate: 21 },
  { description: 'Telemea', quantity: 0.785, unit: 'kg', unit_code: 'KGM', unit_price_bani: 3299, price_includes_vat: true, vat_rate: 11, discount_percent: 10 },
];
// 2,10 + 33,60 + (25,90 - 2,59) 23,31
const TOTAL = 210 + 3360 + 2331;
const PROFILE = {
  name: 'Magazin Test SRL', reg_com: 'J12/1234/2020', street: 'Str. Memorandumului nr. 28', city: 'Cluj-Napoca', county: 'Cluj',
  postal_code: '400114', vat_payer: true,
};

const availability = ublValidatorAvailability();
const skipReason = availability.available ? '' : `UBL validators unavailable: ${availability.reason}`;

describe('shelf prices and walk-in sales on the desktop', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));
  const dir = mkdtempSync(join(tmpdir(), 'desktop-walk-in-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('issues walk-in sales online and offline at the shelf total; the service agrees and their XML is valid', async () => {
    // e-Factura needs a CUI with a valid control digit.
    const key = await server.key({ cui: newCui() });
    const company = { apiKey: key.api_key };
    const profile = await server.api(company.apiKey, 'PUT', '/company/profile', PROFILE);
    expect(profile.status).toBe(200);
    const seriesId = await createSeries(server, company.apiKey, 'TJ');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 3, low_water: 1 });
      await device.call('sync.now');

      // A cart with no client is a walk-in sale; one naming no buyer at all is refused before a number is spent.
      await expect(device.call('invoices.issue', { series_id: seriesId, lines: LINES })).rejects.toThrow();
      const online = await device.call('invoices.issue', { series_id: seriesId, walk_in: true, payment_method: 'receipt', lines: LINES });
      expect(online.totals.total_bani).toBe(TOTAL);
      expect(online.client_id).toBeNull();
      expect(online.buyer).toMatchObject({ name: 'Persoană fizică', walk_in: true });
      expect(online.lines.map((l) => [l.price_includes_vat, l.total_bani])).toEqual([[true, 210], [true, 3360], [true, 2331]]);

      proxy.setDown(true);
      const offline = await device.call('invoices.issue', { series_id: seriesId, walk_in: true, lines: LINES });
      expect(offline.sync.state).toBe('pending');
      expect(offline.totals).toEqual(online.totals);
      expect(offline.vat_breakdown).toEqual(online.vat_breakdown);
      const stored = device.services.store.reader.all<{ price_includes_vat: number }>(sql`SELECT price_includes_vat FROM invoice_lines WHERE invoice_id = ${offline.id} ORDER BY position`);
      expect(stored.map((r) => r.price_includes_vat)).toEqual([1, 1, 1]);
      const stornoOffline = await device.call('invoices.storno', { id: offline.id });
      expect(stornoOffline.totals.total_bani).toBe(-TOTAL);
      expect(stornoOffline.buyer).toMatchObject({ walk_in: true });

      proxy.setDown(false);
      const status = await device.call('sync.now');
      expect(status.outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });

      const files: string[] = [];
      for (const [name, local] of [['online', online], ['offline', offline], ['storno', stornoOffline]] as const) {
        const serverId = (await device.call('invoices.get', { id: local.id })).sync.server_id;
        const remote = await server.api(company.apiKey, 'GET', `/invoices/${serverId}?expand[]=lines`);
        expect(remote.status).toBe(200);
        const sign = name === 'storno' ? -1 : 1;
        expect(Math.round(remote.body.data.totals.total * 100)).toBe(sign * TOTAL);
        expect(remote.body.data).toMatchObject({ client_id: null, buyer: { name: 'Persoană fizică', walk_in: true } });
        expect(remote.body.data.lines.every((l: { price_includes_vat: boolean }) => l.price_includes_vat)).toBe(true);
        const xml = await fetch(`${server.base}/invoices/${serverId}/efactura-xml`, { headers: { authorization: `Bearer ${company.apiKey}` } });
        const text = await xml.text();
        expect(xml.status, text).toBe(200);
        const parsed = parseUblInvoice(text);
        expect(parsed.amounts.payable_bani).toBe(sign * TOTAL);
        expect(parsed.customer).toMatchObject({ cnp: '0000000000000', address: { city: 'Cluj-Napoca', county_code: 'RO-CJ' } });
        const file = join(dir, `${name}.xml`);
        writeFileSync(file, text);
        files.push(file);
      }
      if (!skipReason) {
        const result = await validateUblFiles(files, 'strict');
        if (!result.available) throw new Error(result.reason);
        const fatal = result.findings.filter((f) => f.flag === 'fatal');
        expect(fatal, formatFindings(fatal)).toEqual([]);
      }
    } finally {
      await device.close();
    }
  }, 120_000);

  it('keeps a walk-in draft a walk-in sale through sync, and issues it', async () => {
    const { company, seriesId, device } = await deviceWithReserve(server, proxy, 'TD');
    try {
      await device.call('sync.now');
      const draft = await device.call('invoices.saveDraft', { walk_in: true, lines: LINES.slice(0, 1) });
      expect(draft.buyer).toMatchObject({ walk_in: true });
      await device.call('sync.now');
      const issued = await device.call('invoices.issueDraft', { id: draft.id, series_id: seriesId });
      expect(issued.status).toBe('issued');
      await device.call('sync.now');
      const serverId = (await device.call('invoices.get', { id: draft.id })).sync.server_id;
      const remote = await server.api(company.apiKey, 'GET', `/invoices/${serverId}`);
      expect(remote.body.data).toMatchObject({ status: 'issued', client_id: null, buyer: { walk_in: true }, totals: { total: 2.1 } });
    } finally {
      await device.close();
    }
  }, 120_000);
});
