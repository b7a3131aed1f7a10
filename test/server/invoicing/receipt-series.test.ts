import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import {
  DEVICE_A, DEVICE_B, branchOf, expectError, newFirm, newSeries, seriesNamesOf, startInvoicingServer, type Firm,
} from './helpers';

const T2026 = Math.floor(Date.parse('2026-11-21T10:00:00Z') / 1000);

describe.each(DIALECTS)('receipt series update and delete on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The stored row, read past the API: what the server really keeps (PostgreSQL answers bigints as text). */
  const row = async (id: string) => {
    const r = await server.storage.db
      .selectFrom('number_series')
      .select(['name', 'description', 'start_number', 'is_primary', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    return r && { ...r, start_number: Number(r.start_number), is_primary: Number(r.is_primary), updated_at: r.updated_at === null ? null : Number(r.updated_at) };
  };

  const receiptSeries = (firm: Firm, body: Record<string, unknown> = {}): Promise<{ id: string; prefix: string }> =>
    firm.ok('POST', '/receipt-series', body);

  /** A receipt numbered without naming a series: from the work point's default. */
  const walkInReceipt = (firm: Firm, body: Record<string, unknown> = {}) =>
    firm.ok('POST', '/receipts', { client_name: 'Ion Popescu', amount: 10, ...body });

  describe('prefixes unique in the firm', () => {
    const prefixes = (companyId: string) => seriesNamesOf(server, companyId, 'receipt');

    it('refuses a prefix the firm already uses, in any case, at any work point (409 duplicate_series, param prefix)', async () => {
      const firm = await newFirm(server);
      await receiptSeries(firm, { prefix: 'CH' });
      const again = await firm.call('POST', '/receipt-series', { prefix: 'CH', start_number: 100 });
      expectError(again, 409, 'duplicate_series');
      expect(again.body.error).toMatchObject({ type: 'invalid_request_error', param: 'prefix' });
      // The default prefix is CH too.
      expectError(await firm.call('POST', '/receipt-series', {}), 409, 'duplicate_series');
      const lower = await firm.call('POST', '/receipt-series', { prefix: 'ch' }, { 'accept-language': 'ro' });
      expectError(lower, 409, 'duplicate_series');
      expect(lower.body.error.message).toBe('Firma are deja o serie cu acest nume, la acest punct de lucru sau la altul; două astfel de serii ar tipări aceleași numere.');
      const branch = await branchOf(server, firm);
      expectError(await branch.call('POST', '/receipt-series', { prefix: 'Ch' }), 409, 'duplicate_series');
      expect(await prefixes(firm.companyId)).toEqual(['CH']);
      expect((await branch.ok('GET', '/receipt-series')).total).toBe(0);
    });

    it('lets another firm, and an invoice series of the same firm, use the prefix', async () => {
      const firm = await newFirm(server);
      await receiptSeries(firm, { prefix: 'CH' });
      expect(await newSeries(firm, { name: 'CH' })).toMatchObject({ name: 'CH' });
      const stranger = await newFirm(server);
      expect(await receiptSeries(stranger, { prefix: 'CH' })).toMatchObject({ prefix: 'CH' });
      expect(await prefixes(firm.companyId)).toEqual(['CH']);
    });

    it('refuses changing to another series\' prefix, but not to its own in any case', async () => {
      const firm = await newFirm(server);
      const ch = await receiptSeries(firm, { prefix: 'CH' });
      const rez = await receiptSeries(firm, { prefix: 'REZ' });
      const branch = await branchOf(server, firm);
      const far = await receiptSeries(branch, { prefix: 'BV' });
      const before = await row(rez.id);

      const taken = await firm.call('PUT', `/receipt-series/${rez.id}`, { prefix: 'ch', description: 'nu' });
      expectError(taken, 409, 'duplicate_series');
      expect(taken.body.error.param).toBe('prefix');
      expectError(await firm.call('PUT', `/receipt-series/${rez.id}`, { prefix: 'BV' }), 409, 'duplicate_series');
      expectError(await branch.call('PUT', `/receipt-series/${far.id}`, { prefix: 'rez' }), 409, 'duplicate_series');
      expect(await row(rez.id)).toEqual(before);

      expect(await firm.ok('PUT', `/receipt-series/${ch.id}`, { prefix: 'CH', description: 'Casa 1' })).toMatchObject({ prefix: 'CH', description: 'Casa 1' });
      expect(await firm.ok('PUT', `/receipt-series/${ch.id}`, { prefix: 'ch' })).toMatchObject({ prefix: 'ch' });
      expect(await firm.ok('PUT', `/receipt-series/${far.id}`, { prefix: 'CH2' })).toMatchObject({ prefix: 'CH2' });
      expect(await prefixes(firm.companyId)).toEqual(['CH2', 'REZ', 'ch']);
    });

    it('gives the default series made on first use a prefix the firm does not use yet', async () => {
      const firm = await newFirm(server);
      expect((await walkInReceipt(firm)).receipt_number).toBe('CH-1');
      const branch = await branchOf(server, firm);
      await receiptSeries(firm, { prefix: 'CH2' });
      // The branch has no series of its own: its default may print neither CH-1 nor CH2-1 again.
      const receipt = await walkInReceipt(branch);
      expect(receipt.receipt_number).toBe('CH3-1');
      expect((await branch.ok('GET', '/receipt-series')).data.map((s: { id: string; prefix: string }) => [s.id, s.prefix])).toEqual([[receipt.series_id, 'CH3']]);
      expect((await row(receipt.series_id))?.is_primary).toBe(1);
      expect((await walkInReceipt(branch)).receipt_number).toBe('CH3-2');
    });
  });

  describe('PUT /receipt-series/{id}', () => {
    it('changes the members sent, on the server too, and numbers from the new values', async () => {
      const firm = await newFirm(server);
      const series = await receiptSeries(firm, { prefix: 'CH', description: 'Casa veche' });
      server.clock.advance(60);
      try {
        const res = await firm.call('PUT', `/receipt-series/${series.id}`, { prefix: 'CAS', description: 'Casa 1', start_number: 100 });
        expect(res.status, res.text).toBe(200);
        expect(res.body.data).toMatchObject({
          id: series.id, object: 'receipt_series', work_point_id: firm.workPointId, prefix: 'CAS', description: 'Casa 1',
          start_number: 100, next_number: 100, is_used: false, is_locked: false, lock: null, created_at: T2026,
        });
        expect(await row(series.id)).toEqual({ name: 'CAS', description: 'Casa 1', start_number: 100, is_primary: 1, updated_at: T2026 + 60 });
        // Only what is sent changes.
        const described = await firm.ok('PUT', `/receipt-series/${series.id}`, { description: '' });
        expect(described).toMatchObject({ prefix: 'CAS', description: '', start_number: 100 });
        expect(await firm.ok('GET', `/receipt-series/${series.id}`)).toEqual(described);
      } finally {
        server.clock.set(T2026);
      }
      const receipt = await walkInReceipt(firm, { series_id: series.id });
      expect(receipt.receipt_number).toBe('CAS-100');
    });

    it('refuses an invalid body with 422 and changes nothing', async () => {
      const firm = await newFirm(server);
      const series = await receiptSeries(firm, { prefix: 'CH', start_number: 7 });
      const before = await row(series.id);
      const invalid: Array<[Record<string, unknown>, string]> = [
        [{ prefix: 'C-H' }, 'prefix'],
        [{ prefix: '  ' }, 'prefix'],
        [{ prefix: 'X'.repeat(21) }, 'prefix'],
        [{ start_number: 0 }, 'start_number'],
        [{ start_number: 1.5 }, 'start_number'],
        [{ start_number: '5' }, 'start_number'],
        [{ description: 'd'.repeat(201) }, 'description'],
      ];
      for (const [body, member] of invalid) {
        const res = await firm.call('PUT', `/receipt-series/${series.id}`, body);
        expectError(res, 422, 'validation_error');
        expect(Object.keys(res.body.error.fields), JSON.stringify(body)).toEqual([member]);
      }
      expect(await row(series.id)).toEqual(before);
    });

    it('keeps prefix and start_number once a number was taken (409 in_use naming the member)', async () => {
      const firm = await newFirm(server);
      const series = await receiptSeries(firm, { prefix: 'CH', start_number: 10 });
      const receipt = await walkInReceipt(firm, { series_id: series.id });
      expect(receipt.receipt_number).toBe('CH-10');

      const start = await firm.call('PUT', `/receipt-series/${series.id}`, { start_number: 1 });
      expectError(start, 409, 'in_use');
      expect(start.body.error.param).toBe('start_number');
      const prefix = await firm.call('PUT', `/receipt-series/${series.id}`, { prefix: 'CHX', description: 'nou' });
      expectError(prefix, 409, 'in_use');
      expect(prefix.body.error.param).toBe('prefix');
      expect(await row(series.id)).toMatchObject({ name: 'CH', description: '', updated_at: null });

      // Sending the values it already has, or changing only the description, is fine.
      const same = await firm.ok('PUT', `/receipt-series/${series.id}`, { prefix: 'CH', start_number: 10, description: 'Casa 2' });
      expect(same).toMatchObject({ prefix: 'CH', start_number: 10, next_number: 11, description: 'Casa 2', is_used: true });
      // The printed numbers stay true: the old receipt and the next one.
      expect((await firm.ok('GET', `/receipts/${receipt.id}`)).receipt_number).toBe('CH-10');
      expect((await walkInReceipt(firm, { series_id: series.id })).receipt_number).toBe('CH-11');
    });

    it('answers 404 resource_missing for another firm\'s series, an unknown id and an invoice series id', async () => {
      const owner = await newFirm(server);
      const stranger = await newFirm(server);
      const series = await receiptSeries(owner, { prefix: 'CH' });
      const before = await row(series.id);
      const foreign = await stranger.call('PUT', `/receipt-series/${series.id}`, { prefix: 'HACK' });
      expectError(foreign, 404, 'resource_missing');
      expect(foreign.body.error.param).toBe('id');
      expectError(await owner.call('PUT', '/receipt-series/rser_nope', { prefix: 'X' }), 404, 'resource_missing');
      const invoiceSeries = await newSeries(owner);
      expectError(await owner.call('PUT', `/receipt-series/${invoiceSeries.id}`, { description: 'x' }), 404, 'resource_missing');
      expect(await row(series.id)).toEqual(before);
    });
  });

  describe('DELETE /receipt-series/{id}', () => {
    it('deletes an unused series: answered at top level, then gone', async () => {
      const firm = await newFirm(server);
      await receiptSeries(firm, { prefix: 'CH' });
      const spare = await receiptSeries(firm, { prefix: 'REZ' });
      const res = await firm.call('DELETE', `/receipt-series/${spare.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ success: true, object: 'receipt_series', id: spare.id, deleted: true });
      expect(res.body.data).toBeUndefined();
      expect(await row(spare.id)).toBeUndefined();
      expectError(await firm.call('GET', `/receipt-series/${spare.id}`), 404, 'resource_missing');
      expectError(await firm.call('DELETE', `/receipt-series/${spare.id}`), 404, 'resource_missing');
      expect((await firm.ok('GET', '/receipt-series')).data.map((s: { prefix: string }) => s.prefix)).toEqual(['CH']);
    });

    it('refuses a series a number was taken from (409 in_use), even after its receipt was deleted', async () => {
      const firm = await newFirm(server);
      const series = await receiptSeries(firm, { prefix: 'CH' });
      const receipt = await walkInReceipt(firm, { series_id: series.id });
      const res = await firm.call('DELETE', `/receipt-series/${series.id}`);
      expectError(res, 409, 'in_use');
      expect(res.body.error.param).toBe('id');
      // A soft-deleted receipt keeps its printed number, so its series stays.
      await firm.ok('DELETE', `/receipts/${receipt.id}`);
      expectError(await firm.call('DELETE', `/receipt-series/${series.id}`), 409, 'in_use');
      expect(await firm.ok('GET', `/receipt-series/${series.id}`)).toMatchObject({ is_used: true, next_number: 2 });
    });

    it('refuses a series whose numbers were set aside by a lock takeover, with no receipt yet', async () => {
      const firm = await newFirm(server);
      const series = await receiptSeries(firm, { prefix: 'CH' });
      await firm.ok('POST', `/receipt-series/${series.id}/lock`, DEVICE_A);
      await firm.ok('POST', `/receipt-series/${series.id}/lock`, { ...DEVICE_B, takeover: true, reserve_for_old_holder: 2 });
      expect((await firm.ok('GET', '/receipts')).total).toBe(0);
      expectError(await firm.call('DELETE', `/receipt-series/${series.id}`), 409, 'in_use');
      expectError(await firm.call('PUT', `/receipt-series/${series.id}`, { start_number: 5 }), 409, 'in_use');
    });

    it('answers 404 resource_missing for another firm\'s series and deletes nothing', async () => {
      const owner = await newFirm(server);
      const stranger = await newFirm(server);
      const series = await receiptSeries(owner, { prefix: 'CH' });
      const foreign = await stranger.call('DELETE', `/receipt-series/${series.id}`);
      expectError(foreign, 404, 'resource_missing');
      expect(foreign.body.error.param).toBe('id');
      expect(await owner.ok('GET', `/receipt-series/${series.id}`)).toMatchObject({ id: series.id });
    });

    describe('the work point\'s default series', () => {
      it('passes to the oldest remaining series when the default is deleted', async () => {
        const firm = await newFirm(server);
        const first = await receiptSeries(firm, { prefix: 'CHA' });
        server.clock.advance(1);
        const second = await receiptSeries(firm, { prefix: 'CHB' });
        server.clock.advance(1);
        const third = await receiptSeries(firm, { prefix: 'CHC' });
        server.clock.set(T2026);
        expect((await row(first.id))?.is_primary).toBe(1);

        await firm.ok('DELETE', `/receipt-series/${first.id}`);
        expect([(await row(second.id))?.is_primary, (await row(third.id))?.is_primary]).toEqual([1, 0]);
        expect((await walkInReceipt(firm)).receipt_number).toBe('CHB-1');
        // A series created afterwards does not take the default over.
        await receiptSeries(firm, { prefix: 'CHD' });
        expect((await walkInReceipt(firm)).receipt_number).toBe('CHB-2');
        expect((await firm.ok('GET', '/receipt-series')).total).toBe(3);
      });

      it('stays where it is when another series is deleted', async () => {
        const firm = await newFirm(server);
        const first = await receiptSeries(firm, { prefix: 'CHA' });
        const second = await receiptSeries(firm, { prefix: 'CHB' });
        await firm.ok('DELETE', `/receipt-series/${second.id}`);
        expect((await row(first.id))?.is_primary).toBe(1);
        expect((await walkInReceipt(firm)).receipt_number).toBe('CHA-1');
      });

      it('is created again (CH, from 1) on next use when the last series was deleted', async () => {
        const firm = await newFirm(server);
        const only = await receiptSeries(firm, { prefix: 'OLD', start_number: 50 });
        await firm.ok('DELETE', `/receipt-series/${only.id}`);
        expect((await firm.ok('GET', '/receipt-series')).total).toBe(0);
        const receipt = await walkInReceipt(firm);
        expect(receipt.receipt_number).toBe('CH-1');
        expect(receipt.series_id).not.toBe(only.id);
        const list = await firm.ok('GET', '/receipt-series');
        expect(list.data.map((s: { id: string; prefix: string }) => [s.id, s.prefix])).toEqual([[receipt.series_id, 'CH']]);
        expect((await row(receipt.series_id))?.is_primary).toBe(1);
      });

      it('is the oldest series when none is marked default (two concurrent deletes), not a new CH series', async () => {
        const firm = await newFirm(server);
        const first = await receiptSeries(firm, { prefix: 'CH' });
        await walkInReceipt(firm);
        server.clock.advance(1);
        const second = await receiptSeries(firm, { prefix: 'CHB' });
        server.clock.set(T2026);
        // The state two deletes racing on PostgreSQL can leave: series, but no primary among them.
        await server.storage.db.updateTable('number_series').set({ is_primary: 0 }).where('id', '=', first.id).execute();
        const receipt = await walkInReceipt(firm);
        expect(receipt).toMatchObject({ series_id: first.id, receipt_number: 'CH-2' });
        expect([(await row(first.id))?.is_primary, (await row(second.id))?.is_primary]).toEqual([1, 0]);
        expect((await firm.ok('GET', '/receipt-series')).total).toBe(2);
      });

      // On PostgreSQL the receipt usually reads the old default's id, then waits on its row lock until the
      // delete commits: it must look again rather than find the row gone.
      it('numbers a receipt racing the default\'s deletion from whichever series is the default after it', async () => {
        for (let round = 0; round < 4; round++) {
          const firm = await newFirm(server);
          const first = await receiptSeries(firm, { prefix: 'CHA' });
          server.clock.advance(1);
          const second = await receiptSeries(firm, { prefix: 'CHB' });
          server.clock.set(T2026);
          const [deleted, receipt] = await Promise.all([
            firm.call('DELETE', `/receipt-series/${first.id}`),
            firm.call('POST', '/receipts', { client_name: 'Ion Popescu', amount: 10 }),
          ]);
          expect(receipt.status, receipt.text).toBe(201);
          if (deleted.status === 200) {
            expect(receipt.body.data).toMatchObject({ series_id: second.id, receipt_number: 'CHB-1' });
          } else {
            // The receipt took the first series' number before the delete looked: the series is in use.
            expectError(deleted, 409, 'in_use');
            expect(receipt.body.data).toMatchObject({ series_id: first.id, receipt_number: 'CHA-1' });
          }
        }
      });
    });
  });
});

describe.each(DIALECTS)('receipt number reservations on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  const reserve = (firm: Firm, seriesId: string, device: string, count: number) =>
    firm.ok('POST', `/receipt-series/${seriesId}/reservations`, { device_id: device, count });
  const receiptWith = (firm: Firm, body: Record<string, unknown>) => firm.call('POST', '/receipts', { client_name: 'Ion Popescu', amount: 25, ...body });
  const storedNumbers = async (seriesId: string) =>
    (await server.storage.db.selectFrom('receipts').select('number').where('series_id', '=', seriesId).orderBy('number').execute()).map((r) => Number(r.number));

  it('gives two offline devices numbers of their own in one receipt series: no duplicate, online receipts after them', async () => {
    const firm = await newFirm(server);
    const series = await firm.ok('POST', '/receipt-series', { prefix: 'CZ', start_number: 7 });
    const a = await reserve(firm, series.id, 'dev-a', 3);
    const b = await reserve(firm, series.id, 'dev-b', 2);
    expect(a.data.map((r: { full_number: string }) => r.full_number)).toEqual(['CZ-7', 'CZ-8', 'CZ-9']);
    expect(b.data.map((r: { full_number: string }) => r.full_number)).toEqual(['CZ-10', 'CZ-11']);
    expect(a.data[0]).toMatchObject({ object: 'number_reservation', series_id: series.id, year: 0, status: 'pending', device_id: 'dev-a' });
    // An online receipt meanwhile takes the number after every reservation.
    const online = await receiptWith(firm, { series_id: series.id });
    expect(online.status, online.text).toBe(201);
    expect(online.body.data.receipt_number).toBe('CZ-12');
    // The devices sync what they printed offline, in any order.
    const fromB = await receiptWith(firm, { reservation_token: b.data[1].token, device_id: 'dev-b', client_local_uuid: crypto.randomUUID() });
    expect(fromB.status, fromB.text).toBe(201);
    expect(fromB.body.data).toMatchObject({ receipt_number: 'CZ-11', series_id: series.id });
    const uuid = crypto.randomUUID();
    const fromA = await receiptWith(firm, { reservation_token: a.data[0].token, device_id: 'dev-a', client_local_uuid: uuid, series_id: series.id });
    expect(fromA.body.data.receipt_number).toBe('CZ-7');
    // Sent again (a lost reply): the same receipt, not a second one.
    const again = await receiptWith(firm, { reservation_token: a.data[0].token, device_id: 'dev-a', client_local_uuid: uuid });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(fromA.body.data.id);
    expect(await storedNumbers(series.id)).toEqual([7, 11, 12]);
    const consumed = await firm.ok('GET', `/receipt-series/${series.id}/reservations?status=consumed`);
    expect(consumed.data.map((r: { number: number; client_local_uuid: string }) => [r.number, r.client_local_uuid])).toEqual([[7, uuid], [11, expect.any(String)]]);
    const stored = await server.storage.db.selectFrom('number_reservations').select(['number', 'receipt_id', 'invoice_id']).where('status', '=', 'consumed').where('series_id', '=', series.id).orderBy('number').execute();
    expect(stored.map((r) => [Number(r.number), r.receipt_id, r.invoice_id])).toEqual([[7, fromA.body.data.id, null], [11, fromB.body.data.id, null]]);
  });

  it('refuses another device\'s token, a used or released one, a token with a number, and leaves no receipt', async () => {
    const firm = await newFirm(server);
    const series = await firm.ok('POST', '/receipt-series', { prefix: 'CR' });
    const [first, second, third] = (await reserve(firm, series.id, 'dev-a', 3)).data;
    expectError(await receiptWith(firm, { reservation_token: first.token, device_id: 'dev-b' }), 403, 'forbidden');
    expectError(await receiptWith(firm, { reservation_token: first.token }), 422, 'validation_error');
    expectError(await receiptWith(firm, { reservation_token: first.token, device_id: 'dev-a', number: 1 }), 422, 'validation_error');
    expectError(await receiptWith(firm, { reservation_token: 'rsv_unknown', device_id: 'dev-a' }), 404, 'resource_missing');
    expect((await receiptWith(firm, { reservation_token: first.token, device_id: 'dev-a' })).status).toBe(201);
    expectError(await receiptWith(firm, { reservation_token: first.token, device_id: 'dev-a' }), 409, 'reservation_consumed');
    // Released: the number becomes a gap and is never printed.
    const released = await firm.ok('POST', `/receipt-series/reservations/${second.token}/release?device_id=dev-a`);
    expect(released).toMatchObject({ status: 'released', number: 2 });
    expectError(await receiptWith(firm, { reservation_token: second.token, device_id: 'dev-a' }), 409, 'reservation_released');
    expectError(await firm.call('POST', `/receipt-series/reservations/${first.token}/release?device_id=dev-a`), 409, 'reservation_consumed');
    expectError(await firm.call('POST', `/receipt-series/reservations/${third.token}/release?device_id=dev-b`), 403, 'forbidden');
    const gaps = await firm.ok('GET', `/receipt-series/${series.id}/gaps`);
    expect(gaps.data.map((g: { full_number: string; reason: string }) => [g.full_number, g.reason])).toEqual([['CR-2', 'released']]);
    expect(await storedNumbers(series.id)).toEqual([1]);
  });

  it('keeps the two kinds apart: an invoice reservation does not number a receipt, nor the other way round', async () => {
    const firm = await newFirm(server);
    const receiptSeries = await firm.ok('POST', '/receipt-series', { prefix: 'CK' });
    const invoiceSeries = await newSeries(firm, { name: 'FK' });
    const invoiceToken = (await firm.ok('POST', `/invoice-series/${invoiceSeries.id}/reservations`, { device_id: 'dev-a', count: 1 })).data[0].token;
    const receiptToken = (await reserve(firm, receiptSeries.id, 'dev-a', 1)).data[0].token;
    expectError(await receiptWith(firm, { reservation_token: invoiceToken, device_id: 'dev-a' }), 404, 'resource_missing');
    expectError(await firm.call('POST', `/invoice-series/reservations/${receiptToken}/release?device_id=dev-a`), 404, 'resource_missing');
    expectError(await firm.call('POST', `/receipt-series/reservations/${invoiceToken}/release?device_id=dev-a`), 404, 'resource_missing');
    expectError(await firm.call('POST', `/receipt-series/${invoiceSeries.id}/reservations`, { device_id: 'dev-a' }), 404, 'resource_missing');
    // Both still pending.
    expect((await firm.ok('GET', `/receipt-series/${receiptSeries.id}/reservations?status=pending`)).total).toBe(1);
    expect((await firm.ok('GET', `/invoice-series/${invoiceSeries.id}/reservations?status=pending`)).total).toBe(1);
  });

  it('refuses to reserve from a locked series, and accepts a late receipt on an expired reservation', async () => {
    const firm = await newFirm(server);
    const series = await firm.ok('POST', '/receipt-series', { prefix: 'CL' });
    const token = (await firm.ok('POST', `/receipt-series/${series.id}/reservations`, { device_id: 'dev-a', count: 1, ttl_seconds: 60 })).data[0].token;
    await firm.ok('POST', `/receipt-series/${series.id}/lock`, DEVICE_A);
    expectError(await firm.call('POST', `/receipt-series/${series.id}/reservations`, { device_id: 'dev-a' }), 409, 'series_locked');
    await firm.ok('POST', `/receipt-series/${series.id}/unlock`, { device_id: 'dev-a' });
    server.clock.advance(120);
    try {
      const gaps = await firm.ok('GET', `/receipt-series/${series.id}/gaps`);
      expect(gaps.data.map((g: { number: number; reason: string }) => [g.number, g.reason])).toEqual([[1, 'expired']]);
      // The number may be on paper: the owner's late receipt is accepted and the gap goes away.
      const late = await receiptWith(firm, { reservation_token: token, device_id: 'dev-a' });
      expect(late.status, late.text).toBe(201);
      expect(late.body.data.receipt_number).toBe('CL-1');
      expect((await firm.ok('GET', `/receipt-series/${series.id}/gaps`)).total).toBe(0);
    } finally {
      server.clock.set(T2026);
    }
  });
});
