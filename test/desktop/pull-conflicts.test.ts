import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from '../../main/db/sql';
import { applyClient } from '../../main/sync/apply';
import { readCursor } from '../../main/sync/pull';
import type { Client } from '../../shared/schemas/client';
import type { FaultProxy } from '../support/fault-proxy';
import type { TestServer } from '../support/server';
import { createSeries, LINE, newCompany, openDevice, serverBehindProxyForTests } from './support/harness';

describe('pull and conflict rules', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  serverBehindProxyForTests((started) => ({ server, proxy } = started));

  it('pulls what another device created, with references mapped to local ids, and is cheap when nothing changed', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'PL');
    // "Another device": straight to the API.
    const other = await server.api(company.apiKey, 'POST', '/clients', { type: 'person', name: 'De pe alt dispozitiv', country: 'RO' }, { 'idempotency-key': randomUUID() });
    const inv = await server.api(company.apiKey, 'POST', '/invoices', { series_id: seriesId, client_id: other.body.data.id, items: [{ description: 'x', quantity: 2, price: 10.5, vat_rate: 21 }] }, { 'idempotency-key': randomUUID() });
    expect(inv.status).toBeLessThan(300);
    await server.api(company.apiKey, 'POST', '/receipts', { invoice_id: inv.body.data.id, amount: 5 }, { 'idempotency-key': randomUUID() });
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      const clients = await device.call('clients.list', { limit: 10 });
      expect(clients.items.map((c) => c.name)).toEqual(['De pe alt dispozitiv']);
      const invoices = await device.call('invoices.list', { limit: 10 });
      expect(invoices.items).toHaveLength(1);
      const local = await device.call('invoices.get', { id: invoices.items[0]!.id });
      expect(local.client_id).toBe(clients.items[0]!.id);
      expect(local.totals.total_bani).toBe(2541);
      expect(local.lines).toHaveLength(1);
      expect(local.numbering).toBe('server');
      expect(local.paid_state).toBe('partially_paid');
      expect(local.amount_paid_bani).toBe(500);
      const receipts = await device.call('receipts.list', { limit: 10 });
      expect(receipts.items[0]!.invoice_id).toBe(local.id);
      // The server accepts `updated_since`: the engine walks by last change, not by creation date.
      expect(readCursor(device.services.store, 'invoices').strategy).toBe('updated');
      const before = device.services.engine.api.stats.requests;
      await device.call('sync.now');
      // Nothing changed: a probe, the series lists, the seller profile, one small page per resource (8 of
      // them), one of tombstones for each of the 4 resources deleted for good, and the stock's two (its
      // warehouses and the levels changed since the last pull, issue 15).
      expect(device.services.engine.api.stats.requests - before).toBeLessThanOrEqual(18);
      // A background pass (timer) skips the series and the profile refreshed minutes ago (the stock's two stay).
      const beforeTimer = device.services.engine.api.stats.requests;
      await device.services.engine.runPass('timer');
      expect(device.services.engine.api.stats.requests - beforeTimer).toBeLessThanOrEqual(15);
      expect((await device.call('invoices.list', { limit: 10 })).total).toBe(1);
    } finally {
      await device.close();
    }
  });

  it('a local edit still in the outbox is not overwritten by the server copy; after the push the server reply is the copy', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      const client = await device.call('clients.create', { type: 'person', name: 'Original', country: 'RO' });
      await device.call('sync.now');
      const serverId = (await device.call('clients.get', { id: client.id })).sync.server_id!;
      proxy.setDown(true);
      await device.call('clients.update', { id: client.id, patch: { name: 'Local edit', city: 'Cluj' } });
      // Meanwhile the server copy changes (another device).
      await server.api(company.apiKey, 'PUT', `/clients/${serverId}`, { name: 'Remote edit', phone: '0700' });
      const row = await server.api(company.apiKey, 'GET', `/clients/${serverId}`);
      // The pulled copy arrives while the edit waits: rule 4 keeps the local content.
      device.services.store.write((db) => applyClient(db, row.body.data as Client, 1));
      expect((await device.call('clients.get', { id: client.id })).name).toBe('Local edit');
      proxy.setDown(false);
      await device.call('sync.now');
      const after = await device.call('clients.get', { id: client.id });
      expect(after).toMatchObject({ name: 'Local edit', city: 'Cluj', phone: '0700' });
      expect(after.sync.state).toBe('synced');
    } finally {
      await device.close();
    }
  });

  it('an older server copy never replaces a newer one', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      const copy: Client = {
        id: 'cli_x', object: 'client', type: 'person', name: 'Newer', cui: null, vat_payer: false, reg_com: null, cnp: null, address: null,
        city: null, county: null, country: 'RO', postal_code: null, email: null, phone: null, iban: null, bank: null, notes: null,
        client_local_uuid: null, is_deleted: false, created_at: 100, updated_at: 200,
      };
      device.services.store.write((db) => applyClient(db, copy, 1));
      device.services.store.write((db) => applyClient(db, { ...copy, name: 'Older', updated_at: 150 }, 1));
      expect((await device.call('clients.get', { id: 'cli_x' })).name).toBe('Newer');
      device.services.store.write((db) => applyClient(db, { ...copy, name: 'Newest', updated_at: 250 }, 1));
      expect((await device.call('clients.get', { id: 'cli_x' })).name).toBe('Newest');
    } finally {
      await device.close();
    }
  });

  it('409 resource_deleted: an edit of a receipt deleted on the server fails visibly and the receipt shows as deleted', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      const receipt = await device.call('receipts.create', { client_name: 'Trecător', amount_bani: 1500 });
      await device.call('sync.now');
      const serverId = (await device.call('receipts.get', { id: receipt.id })).sync.server_id!;
      await server.api(company.apiKey, 'DELETE', `/receipts/${serverId}`);
      await device.call('receipts.update', { id: receipt.id, patch: { observations: 'corectat' } });
      await device.call('sync.now');
      const outbox = await device.call('outbox.list');
      expect(outbox.items).toHaveLength(1);
      expect(outbox.items[0]).toMatchObject({ kind: 'receipt.update', state: 'failed', can_discard: true, can_retry: true, last_error: { code: 'resource_deleted' } });
      const local = await device.call('receipts.get', { id: receipt.id });
      expect(local.is_deleted).toBe(true);
      expect(local.sync.state).toBe('failed');
      await expect(device.call('receipts.update', { id: receipt.id, patch: { observations: 'again' } })).rejects.toThrow(/resource_deleted/);
      await device.call('outbox.discard', { id: outbox.items[0]!.id });
      await device.call('sync.now');
      expect((await device.call('receipts.get', { id: receipt.id })).sync.state).toBe('synced');
    } finally {
      await device.close();
    }
  });

  it('404: a draft deleted on the server fails its edit with resource_missing; discarding it drops the local copy', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      const client = await device.call('clients.create', { type: 'person', name: 'C', country: 'RO' });
      const draft = await device.call('invoices.saveDraft', { client_id: client.id, lines: [LINE] });
      await device.call('sync.now');
      const serverId = (await device.call('invoices.get', { id: draft.id })).sync.server_id!;
      expect((await server.api(company.apiKey, 'DELETE', `/invoices/${serverId}`)).status).toBe(200);
      await device.call('invoices.saveDraft', { id: draft.id, client_id: client.id, lines: [{ ...LINE, quantity: 5 }] });
      await device.call('sync.now');
      const failed = (await device.call('outbox.list')).items[0]!;
      expect(failed).toMatchObject({ kind: 'invoice.update', state: 'failed', last_error: { code: 'resource_missing' } });
      await device.call('outbox.discard', { id: failed.id });
      await device.call('sync.now');
      await expect(device.call('invoices.get', { id: draft.id })).rejects.toThrow(/not_found/);
    } finally {
      await device.close();
    }
  });

  it('a create the server refuses is set aside with its error; discarding it releases its reserved number', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'FX');
    const device = openDevice(proxy.base, company.apiKey);
    try {
      await device.call('sync.now');
      await device.call('series.setMode', { id: seriesId, mode: 'shared', pool_target: 2, low_water: 0 });
      const client = await device.call('clients.create', { type: 'person', name: 'Eur', country: 'RO' });
      // EUR without an exchange rate: the server refuses it (validation), the app does not know rates offline.
      const invoice = await device.call('invoices.issue', { series_id: seriesId, client_id: client.id, currency: 'EUR', lines: [LINE] });
      await device.call('sync.now');
      const failed = (await device.call('outbox.list')).items.find((i) => i.kind === 'invoice.create')!;
      expect(failed.state).toBe('failed');
      expect(failed.last_error?.type).toBe('validation_error');
      expect(failed.can_discard).toBe(true);
      expect((await device.call('invoices.get', { id: invoice.id })).sync.error?.type).toBe('validation_error');
      // Discarding it releases its reserved number (a documented gap).
      const { discarded } = await device.call('outbox.discard', { id: failed.id });
      expect(discarded).toEqual([failed.id]);
      await device.call('sync.now');
      const gaps = await device.call('series.gaps', { id: seriesId });
      expect(gaps.map((g) => [g.full_number, g.reason])).toEqual([[invoice.full_number, 'released']]);
      expect(device.services.store.reader.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM reservations WHERE status = 'released'`)?.n).toBe(1);
    } finally {
      await device.close();
    }
  });

  it('a failed create can be retried, edited, and then goes out under the same idempotency key', async () => {
    const company = await newCompany(server);
    const device = openDevice(proxy.base, company.apiKey);
    try {
      // Above the server's price ceiling (a rule the app does not repeat): refused at sync.
      const product = await device.call('products.create', { name: 'Prea scump', price_bani: 100_000_000_000_001 });
      await device.call('sync.now');
      let item = (await device.call('outbox.list')).items[0]!;
      expect(item).toMatchObject({ kind: 'product.create', state: 'failed', attempts: 1, can_retry: true, can_edit: true, last_error: { type: 'validation_error' } });
      const retried = await device.call('outbox.retry', { id: item.id });
      expect(retried.state).toBe('pending');
      await device.call('sync.now');
      item = (await device.call('outbox.list')).items[0]!;
      expect(item).toMatchObject({ state: 'failed', attempts: 2 });
      // The fix is folded into the same item (same Idempotency-Key), which is pending again.
      await device.call('products.update', { id: product.id, patch: { price_bani: 12_345 } });
      const pending = (await device.call('outbox.list')).items;
      expect(pending.map((i) => [i.id, i.state])).toEqual([[item.id, 'pending']]);
      await device.call('sync.now');
      expect((await device.call('sync.status')).outbox).toEqual({ pending: 0, in_flight: 0, failed: 0 });
      const remote = await server.api(company.apiKey, 'GET', '/products');
      expect(remote.body.data.data.map((p: { price: number }) => p.price)).toEqual([123.45]);
    } finally {
      await device.close();
    }
  });
});
