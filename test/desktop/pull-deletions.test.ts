import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../main/db/sql';
import { readDeletionCursor } from '../../main/sync/deletions';
import { readCursor } from '../../main/sync/pull';
import { fixedClock } from '../../server/platform/clock';
import { startTestServer, type TestServer } from '../support/server';
import { createSeries, newCompany, openDevice, removeTempDirs, type Company } from './support/harness';

/**
 * The real engine against the real service: records deleted for good on the server (GET
 * /deleted-records) leave the device, a change waiting in the outbox is not lost silently, and the
 * expense cursor reads the service's Bucharest wall time. The service clock is moved by the tests so
 * that changes fall in distinct seconds, and an hour apart where the expense cursor needs it.
 */
describe('pull of deletions and of expense changes', () => {
  let server: TestServer;
  const clock = fixedClock(Math.floor(Date.now() / 1000));
  beforeAll(async () => {
    server = await startTestServer('sqlite', { clock, rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
  });
  afterAll(async () => {
    await server?.close();
    removeTempDirs();
  });

  const post = async (company: Company, path: string, body: unknown) => {
    const res = await server.api(company.apiKey, 'POST', path, body, { 'idempotency-key': randomUUID() });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.data as { id: string };
  };
  const del = async (company: Company, path: string) => {
    const res = await server.api(company.apiKey, 'DELETE', path);
    expect(res.status, res.text).toBe(200);
  };
  const count = (db: { get<T>(q: ReturnType<typeof sql>): T | undefined }, q: ReturnType<typeof sql>) => db.get<{ n: number }>(q)?.n;

  it('a draft invoice, a product and a supplier deleted on the server disappear from the device', async () => {
    const company = await newCompany(server);
    const client = await post(company, '/clients', { type: 'person', name: 'Ion', country: 'RO' });
    const draft = await post(company, '/invoices', { is_draft: true, client_id: client.id, items: [{ description: 'Cafea', quantity: 1, price: 10, vat_rate: 21 }] });
    const product = await post(company, '/products', { name: 'Ceai verde', price: 12.5 });
    const supplier = await post(company, '/suppliers', { name: 'Furnizor Șters SRL' });
    const device = openDevice(server.base, company.apiKey);
    try {
      await device.call('sync.now');
      expect((await device.call('invoices.get', { id: draft.id })).status).toBe('draft');
      expect((await device.call('products.get', { id: product.id })).name).toBe('Ceai verde');
      expect((await device.call('purchases.suppliers', { limit: 50 })).items.map((s) => s.id)).toEqual([supplier.id]);
      const db = device.services.store.reader;
      expect(count(db, sql`SELECT COUNT(*) AS n FROM invoice_lines WHERE invoice_id = ${draft.id}`)).toBe(1);

      clock.advance(5);
      await del(company, `/invoices/${draft.id}`);
      await del(company, `/products/${product.id}`);
      await del(company, `/suppliers/${supplier.id}`);
      await device.call('sync.now');

      await expect(device.call('invoices.get', { id: draft.id })).rejects.toThrow(/not_found/);
      expect(count(db, sql`SELECT COUNT(*) AS n FROM invoices WHERE id = ${draft.id}`)).toBe(0);
      expect(count(db, sql`SELECT COUNT(*) AS n FROM invoice_lines WHERE invoice_id = ${draft.id}`)).toBe(0);
      await expect(device.call('products.get', { id: product.id })).rejects.toThrow(/not_found/);
      expect(count(db, sql`SELECT COUNT(*) AS n FROM products`)).toBe(0);
      expect((await device.call('purchases.suppliers', { limit: 50 })).items).toEqual([]);
      // Each resource has its own cursor on deleted_at, at the deletion's instant.
      expect(readDeletionCursor(db, 'invoices')).toMatchObject({ since: clock.now(), page: 1 });
      expect(readDeletionCursor(db, 'products').since).toBe(clock.now());

      // Nothing new: the next pass deletes nothing more and the cursors stay.
      await device.call('sync.now');
      expect(readDeletionCursor(db, 'invoices').since).toBe(clock.now());
    } finally {
      await device.close();
    }
  });

  it('a payment deleted on the server drops the local invoice back to unpaid and leaves no payment row', async () => {
    const company = await newCompany(server);
    const seriesId = await createSeries(server, company.apiKey, 'PD');
    const client = await post(company, '/clients', { type: 'person', name: 'Maria', country: 'RO' });
    const invoice = await post(company, '/invoices', { series_id: seriesId, client_id: client.id, items: [{ description: 'Ceai', quantity: 1, price: 100, vat_rate: 21 }] });
    clock.advance(2);
    const payment = await post(company, '/payments', { invoice_id: invoice.id, amount: 121, type: 'card' });
    const device = openDevice(server.base, company.apiKey);
    try {
      await device.call('sync.now');
      expect(await device.call('invoices.get', { id: invoice.id })).toMatchObject({ paid_state: 'paid', amount_paid_bani: 12_100 });
      const db = device.services.store.reader;
      expect(count(db, sql`SELECT COUNT(*) AS n FROM payments WHERE server_id = ${payment.id}`)).toBe(1);

      clock.advance(5);
      await del(company, `/payments/${payment.id}`);
      await device.call('sync.now');
      expect(count(db, sql`SELECT COUNT(*) AS n FROM payments`)).toBe(0);
      expect(await device.call('invoices.get', { id: invoice.id })).toMatchObject({ paid_state: 'unpaid', amount_paid_bani: 0 });
      expect(readDeletionCursor(db, 'payments').since).toBe(clock.now());
    } finally {
      await device.close();
    }
  });

  it('sees an expense changed on the server an hour after the last pull (the cursor reads Bucharest wall time)', async () => {
    const company = await newCompany(server);
    const supplier = await post(company, '/suppliers', { name: 'Energie SRL' });
    const expense = await post(company, '/expenses', { supplier_id: supplier.id, reference: 'EN-1', description: 'Curent', date: '2026-01-10', amount: 121, vat: 21 });
    const device = openDevice(server.base, company.apiKey);
    try {
      await device.call('sync.now');
      const before = (await device.call('purchases.expenses', { limit: 10 })).items;
      expect(before.map((e) => [e.id, e.description])).toEqual([[expense.id, 'Curent']]);

      // An hour later, well inside the 2-3 hours a cursor read as UTC would have jumped ahead.
      clock.advance(3600);
      const res = await server.api(company.apiKey, 'PUT', `/expenses/${expense.id}`, { description: 'Curent electric ianuarie' });
      expect(res.status, res.text).toBe(200);
      await device.call('sync.now');
      const after = (await device.call('purchases.expenses', { limit: 10 })).items;
      expect(after.map((e) => [e.id, e.description])).toEqual([[expense.id, 'Curent electric ianuarie']]);
    } finally {
      await device.close();
    }
  });

  it('sees a change committed with an instant the walk had already passed (the walk starts a minute early)', async () => {
    const company = await newCompany(server);
    const slow = await post(company, '/clients', { type: 'person', name: 'Înainte', country: 'RO' });
    const start = clock.now();
    clock.advance(30);
    await post(company, '/clients', { type: 'person', name: 'Mai nou', country: 'RO' });
    const device = openDevice(server.base, company.apiKey);
    try {
      await device.call('sync.now');
      expect(readCursor(device.services.store, 'clients').since).toBe(start + 30);
      // A slow request that started 20 s before the cursor commits now: its updated_at is that earlier instant.
      clock.set(start + 10);
      expect((await server.api(company.apiKey, 'PUT', `/clients/${slow.id}`, { name: 'Schimbat încet' })).status).toBe(200);
      clock.set(start + 40);
      await device.call('sync.now');
      expect((await device.call('clients.get', { id: slow.id })).name).toBe('Schimbat încet');
      // The cursor never moves back for what the overlap re-read.
      expect(readCursor(device.services.store, 'clients').since).toBe(start + 30);
    } finally {
      await device.close();
    }
  });

  it('a record deleted on the server while a local change of it waits: the copy stays and the change fails visibly', async () => {
    const company = await newCompany(server);
    const product = await post(company, '/products', { name: 'Cafea boabe', price: 50 });
    const device = openDevice(server.base, company.apiKey);
    try {
      await device.call('sync.now');
      // A change the server refuses (over its price ceiling) is set aside, waiting for the user.
      await device.call('products.update', { id: product.id, patch: { price_bani: 100_000_000_000_001 } });
      await device.call('sync.now');
      const waiting = (await device.call('outbox.list')).items;
      expect(waiting).toMatchObject([{ kind: 'product.update', state: 'failed', last_error: { type: 'validation_error' } }]);

      clock.advance(5);
      await del(company, `/products/${product.id}`);
      await device.call('sync.now');
      // Not deleted silently: the local copy (with the user's change) is still there...
      expect((await device.call('products.get', { id: product.id })).price_bani).toBe(100_000_000_000_001);
      // ...and the change says why it can never be sent.
      const item = (await device.call('outbox.list')).items[0]!;
      expect(item).toMatchObject({ id: waiting[0]!.id, kind: 'product.update', state: 'failed', can_discard: true, last_error: { code: 'resource_deleted' } });

      // Discarding it re-reads the record, which the server no longer has: the copy goes.
      await device.call('outbox.discard', { id: item.id });
      await device.call('sync.now');
      await expect(device.call('products.get', { id: product.id })).rejects.toThrow(/not_found/);
      expect((await device.call('outbox.list')).items).toEqual([]);
    } finally {
      await device.close();
    }
  });
});
