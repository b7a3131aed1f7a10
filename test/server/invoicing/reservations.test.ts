import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { LINE, expectError, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from './helpers';

const T2026 = Math.floor(Date.parse('2026-11-21T10:00:00Z') / 1000);
const WEEK = 7 * 86_400;

describe.each(DIALECTS)('number reservations on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(async () => {
    server.clock.set(T2026);
    await server?.close();
  });

  async function setup(): Promise<{ firm: Firm; clientId: string; seriesId: string }> {
    const firm = await newFirm(server);
    const client = await newClient(firm);
    const series = await newSeries(firm);
    return { firm, clientId: client.id, seriesId: series.id };
  }

  const reserve = (firm: Firm, seriesId: string, body: Record<string, unknown>) =>
    firm.ok('POST', `/invoice-series/${seriesId}/reservations`, body);

  it('reserves consecutive numbers, one token each, and advances the counter at once', async () => {
    const { firm, seriesId } = await setup();
    const batch = await reserve(firm, seriesId, { device_id: 'dev-a', count: 3 });
    expect(batch).toMatchObject({ object: 'list', total: 3, has_more: false });
    expect(batch.data.map((r: { number: number }) => r.number)).toEqual([1, 2, 3]);
    expect(batch.data[0]).toMatchObject({
      object: 'number_reservation', series_id: seriesId, number: 1, full_number: 'TJ-2026-0001', year: 2026, status: 'pending',
      device_id: 'dev-a', reserved_at: T2026, expires_at: T2026 + WEEK, consumed_at: null, client_local_uuid: null,
    });
    expect(new Set(batch.data.map((r: { token: string }) => r.token)).size).toBe(3);
    expect(await firm.ok('GET', `/invoice-series/${seriesId}`)).toMatchObject({ next_number: 4, is_used: true });
    const other = await reserve(firm, seriesId, { device_id: 'dev-b', ttl_seconds: 3600 });
    expect(other.data[0]).toMatchObject({ number: 4, expires_at: T2026 + 3600 });
    // An online issue continues after every reserved number.
    const { clientId } = { clientId: (await newClient(firm)).id };
    expect((await firm.ok('POST', '/invoices', { client_id: clientId, series_id: seriesId, items: [LINE] })).number).toBe(5);
    expectError(await firm.call('POST', '/invoice-series/ser_nope/reservations', { device_id: 'd' }), 404, 'resource_missing');
    expectError(await firm.call('POST', `/invoice-series/${seriesId}/reservations`, { device_id: 'd', count: 101 }), 422, 'validation_error');
    expectError(await firm.call('POST', `/invoice-series/${seriesId}/reservations`, { count: 1 }), 422, 'validation_error');
  });

  it('lists reservations by device and status', async () => {
    const { firm, clientId, seriesId } = await setup();
    const a = await reserve(firm, seriesId, { device_id: 'dev-a', count: 2 });
    await reserve(firm, seriesId, { device_id: 'dev-b', count: 1, ttl_seconds: 60 });
    await firm.ok('POST', '/invoices', {
      client_id: clientId, items: [LINE], reservation_token: a.data[0].token, device_id: 'dev-a', client_local_uuid: randomUUID(),
    });
    await firm.ok('POST', `/invoice-series/reservations/${a.data[1].token}/release?device_id=dev-a`);
    server.clock.advance(61);
    try {
      const numbers = async (query: string) =>
        (await firm.ok('GET', `/invoice-series/${seriesId}/reservations${query}`)).data.map((r: { number: number; status: string }) => `${r.number}:${r.status}`);
      expect(await numbers('')).toEqual(['1:consumed', '2:released', '3:expired']);
      expect(await numbers('?device_id=dev-a')).toEqual(['1:consumed', '2:released']);
      expect(await numbers('?status=expired')).toEqual(['3:expired']);
      expect(await numbers('?status=pending')).toEqual([]);
      expect(await numbers('?status=consumed')).toEqual(['1:consumed']);
      expect(await numbers('?status=released&device_id=dev-a')).toEqual(['2:released']);
      expectError(await firm.call('GET', `/invoice-series/${seriesId}/reservations?status=lost`), 422, 'validation_error');
      expectError(await firm.call('GET', '/invoice-series/ser_nope/reservations'), 404, 'resource_missing');
    } finally {
      server.clock.set(T2026);
    }
  });

  it('is consumed by POST /invoices with its token, once, and a retry answers the same invoice', async () => {
    const { firm, clientId, seriesId } = await setup();
    const [r] = (await reserve(firm, seriesId, { device_id: 'dev-a', count: 2 })).data;
    const uuid = randomUUID();
    const body = { client_id: clientId, items: [LINE], reservation_token: r.token, device_id: 'dev-a', client_local_uuid: uuid };
    const first = await firm.call('POST', '/invoices', body);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ number: 1, full_number: 'TJ-2026-0001', series_id: seriesId, status: 'issued', client_local_uuid: uuid, device_id: 'dev-a' });
    const retry = await firm.call('POST', '/invoices', body);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    const listed = await firm.ok('GET', `/invoice-series/${seriesId}/reservations?status=consumed`);
    expect(listed.data[0]).toMatchObject({ token: r.token, status: 'consumed', consumed_at: T2026, client_local_uuid: uuid });
    expect((await firm.ok('GET', `/invoices?series_id=${seriesId}`)).total).toBe(1);

    const another = await firm.call('POST', '/invoices', { ...body, client_local_uuid: randomUUID() });
    expectError(another, 409, 'reservation_consumed');
    expectError(await firm.call('POST', `/invoice-series/reservations/${r.token}/release?device_id=dev-a`), 409, 'reservation_consumed');
  });

  it('is consumed only by its own device, with the series it belongs to', async () => {
    const { firm, clientId, seriesId } = await setup();
    const [r] = (await reserve(firm, seriesId, { device_id: 'dev-a' })).data;
    const base = { client_id: clientId, items: [LINE], reservation_token: r.token, client_local_uuid: randomUUID() };
    expectError(await firm.call('POST', '/invoices', { ...base, device_id: 'dev-b' }), 403, 'forbidden');
    const noDevice = await firm.call('POST', '/invoices', base);
    expectError(noDevice, 422, 'validation_error');
    expect(noDevice.body.error.fields).toHaveProperty('device_id');
    const otherSeries = await newSeries(firm, { name: 'ZZ' });
    expectError(await firm.call('POST', '/invoices', { ...base, device_id: 'dev-a', series_id: otherSeries.id }), 422, 'validation_error');
    expectError(await firm.call('POST', '/invoices', { ...base, device_id: 'dev-a', number: 1 }), 422, 'validation_error');
    expectError(await firm.call('POST', '/invoices', { ...base, device_id: 'dev-a', is_draft: true }), 422, 'validation_error');
    const unknown = await firm.call('POST', '/invoices', { ...base, device_id: 'dev-a', reservation_token: 'rsv_nope' });
    expectError(unknown, 404, 'resource_missing');
    expect(unknown.body.error.param).toBe('reservation_token');
    // Another company cannot use this firm's token: it does not exist for them.
    const stranger = await newFirm(server);
    const strangerClient = await newClient(stranger);
    expectError(
      await stranger.call('POST', '/invoices', { ...base, client_id: strangerClient.id, device_id: 'dev-a' }),
      404, 'resource_missing',
    );
    expect((await firm.ok('POST', '/invoices', { ...base, device_id: 'dev-a' })).number).toBe(1);
  });

  it('is released only by its owning device, becomes a gap, and can no longer be consumed', async () => {
    const { firm, clientId, seriesId } = await setup();
    const [r, s] = (await reserve(firm, seriesId, { device_id: 'dev-a', count: 2 })).data;
    expectError(await firm.call('POST', `/invoice-series/reservations/${r.token}/release?device_id=dev-b`), 403, 'forbidden');
    const missing = await firm.call('POST', `/invoice-series/reservations/${r.token}/release`);
    expectError(missing, 422, 'validation_error');
    expectError(await firm.call('POST', '/invoice-series/reservations/rsv_nope/release?device_id=dev-a'), 404, 'resource_missing');
    const stranger = await newFirm(server);
    expectError(await stranger.call('POST', `/invoice-series/reservations/${r.token}/release?device_id=dev-a`), 404, 'resource_missing');

    const released = await firm.call('POST', `/invoice-series/reservations/${r.token}/release?device_id=dev-a`);
    expect(released.status).toBe(200);
    expect(released.body.data).toMatchObject({ token: r.token, status: 'released', number: 1 });
    // The device may also name itself in a JSON body; releasing again answers the same.
    const again = await firm.call('POST', `/invoice-series/reservations/${r.token}/release`, { device_id: 'dev-a' });
    expect(again.body.data).toEqual(released.body.data);
    const consume = await firm.call('POST', '/invoices', {
      client_id: clientId, items: [LINE], reservation_token: r.token, device_id: 'dev-a', client_local_uuid: randomUUID(),
    });
    expectError(consume, 409, 'reservation_released');
    const gaps = await firm.ok('GET', `/invoice-series/${seriesId}/gaps`);
    expect(gaps.data).toEqual([{
      object: 'number_gap', series_id: seriesId, number: 1, full_number: 'TJ-2026-0001', year: 2026, reason: 'released',
      device_id: 'dev-a', reservation_token: r.token, recorded_at: T2026,
    }]);
    // The number is never handed out again.
    expect((await firm.ok('POST', '/invoices', { client_id: clientId, series_id: seriesId, items: [LINE] })).number).toBe(3);
    expect(s.number).toBe(2);
  });

  it('expires into the gap register, and its owner may still consume it late', async () => {
    const { firm, clientId, seriesId } = await setup();
    const [r, s] = (await reserve(firm, seriesId, { device_id: 'dev-a', count: 2, ttl_seconds: 600 })).data;
    expect((await firm.ok('GET', `/invoice-series/${seriesId}/gaps`)).total).toBe(0);
    server.clock.advance(600);
    try {
      const listed = await firm.ok('GET', `/invoice-series/${seriesId}/reservations`);
      expect(listed.data.map((x: { status: string }) => x.status)).toEqual(['expired', 'expired']);
      const gaps = await firm.ok('GET', `/invoice-series/${seriesId}/gaps`);
      expect(gaps.data).toEqual([1, 2].map((n) => ({
        object: 'number_gap', series_id: seriesId, number: n, full_number: `TJ-2026-000${n}`, year: 2026, reason: 'expired',
        device_id: 'dev-a', reservation_token: n === 1 ? r.token : s.token, recorded_at: T2026 + 600,
      })));
      // A number already printed on paper is never refused: the owner consumes it late.
      const late = await firm.call('POST', '/invoices', {
        client_id: clientId, items: [LINE], reservation_token: r.token, device_id: 'dev-a', client_local_uuid: randomUUID(),
      });
      expect(late.status).toBe(201);
      expect(late.body.data.number).toBe(1);
      expectError(
        await firm.call('POST', '/invoices', { client_id: clientId, items: [LINE], reservation_token: s.token, device_id: 'dev-b', client_local_uuid: randomUUID() }),
        403, 'forbidden',
      );
      // An expired reservation released afterwards becomes a `released` gap, not two entries.
      await firm.ok('POST', `/invoice-series/reservations/${s.token}/release?device_id=dev-a`);
      const left = await firm.ok('GET', `/invoice-series/${seriesId}/gaps`);
      expect(left.data.map((g: { number: number; reason: string }) => `${g.number}:${g.reason}`)).toEqual(['2:released']);
    } finally {
      server.clock.set(T2026);
    }
  });

  it('stays valid when another device locks the series afterwards', async () => {
    const { firm, clientId, seriesId } = await setup();
    const [r] = (await reserve(firm, seriesId, { device_id: 'dev-a' })).data;
    await firm.ok('POST', `/invoice-series/${seriesId}/lock`, { device_id: 'dev-b', device_name: 'Casa 2', device_platform: 'linux' });
    const consumed = await firm.ok('POST', '/invoices', {
      client_id: clientId, items: [LINE], reservation_token: r.token, device_id: 'dev-a', client_local_uuid: randomUUID(),
    });
    expect(consumed.number).toBe(1);
    // The holder continues after the number that was already handed out.
    expect((await firm.ok('POST', '/invoices', { client_id: clientId, series_id: seriesId, number: 2, device_id: 'dev-b', items: [LINE] })).number).toBe(2);
  });

  it('filters the gap register by reason and year, and pages through it', async () => {
    const { firm, seriesId } = await setup();
    const batch = (await reserve(firm, seriesId, { device_id: 'dev-a', count: 5, ttl_seconds: 60 })).data;
    await firm.ok('POST', `/invoice-series/reservations/${batch[0].token}/release?device_id=dev-a`);
    await firm.ok('POST', `/invoice-series/reservations/${batch[3].token}/release?device_id=dev-a`);
    server.clock.advance(60);
    try {
      const numbers = async (query: string) =>
        (await firm.ok('GET', `/invoice-series/${seriesId}/gaps${query}`)).data.map((g: { number: number }) => g.number);
      expect(await numbers('')).toEqual([1, 2, 3, 4, 5]);
      expect(await numbers('?reason=released')).toEqual([1, 4]);
      expect(await numbers('?reason=expired')).toEqual([2, 3, 5]);
      expect(await numbers('?year=2025')).toEqual([]);
      expect(await numbers('?per_page=2&page=2')).toEqual([3, 4]);
      expect(await numbers('?order=desc&per_page=2')).toEqual([5, 4]);
      const page = await firm.ok('GET', `/invoice-series/${seriesId}/gaps?per_page=2`);
      expect(page).toMatchObject({ total: 5, total_pages: 3, has_more: true });
      expectError(await firm.call('GET', '/invoice-series/ser_nope/gaps'), 404, 'resource_missing');
    } finally {
      server.clock.set(T2026);
    }
  });
});
