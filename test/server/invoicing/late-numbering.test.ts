import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/types';
import type { TestServer } from '../../support/server';
import { DEVICE_B, expectError, LINE, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from './helpers';

/**
 * An issue takes its number last (server/modules/invoicing/invoice-numbering.ts, `LateNumber`): the
 * invoice and its lines are written first, and the series row is locked only for the number and the
 * commit. Observed on PostgreSQL, where that row lock is what issuers of a series wait for: a test
 * transaction holds the series row, and the issuing backend is seen waiting for it with its invoice
 * and lines already written. SQLite has one writer; its numbering is covered by the other tests.
 */
describe('late numbering on PostgreSQL', () => {
  let server: TestServer;
  let firm: Firm;
  let clientId: string;

  beforeAll(async () => {
    server = await startInvoicingServer('postgres');
    firm = await newFirm(server);
    clientId = (await newClient(firm)).id;
  });
  afterAll(() => server?.close());

  /** Runs `during` while a transaction of the test holds the series row, then commits that transaction. */
  async function holdingSeries(seriesId: string, during: (trx: Db, holderPid: number) => Promise<void>): Promise<void> {
    await server.storage.db.transaction().execute(async (trx) => {
      await sql`select id from number_series where id = ${seriesId} for update`.execute(trx);
      const pid = Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid);
      await during(trx, pid);
    });
  }

  /** The backend blocked by `holderPid`, once there is one, with the tables it has already written to. */
  async function blockedWriter(holderPid: number): Promise<{ pid: number; query: string; written: string[] }> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const blocked = await sql<{ pid: number; query: string }>`
        select pid, query from pg_stat_activity where ${holderPid} = any(pg_blocking_pids(pid))`.execute(server.storage.db);
      const row = blocked.rows[0];
      if (row) {
        const written = await sql<{ relname: string }>`
          select c.relname from pg_locks l join pg_class c on c.oid = l.relation
          where l.pid = ${row.pid} and l.granted and l.mode = 'RowExclusiveLock' and c.relkind = 'r'`.execute(server.storage.db);
        return { pid: Number(row.pid), query: row.query, written: written.rows.map((r) => r.relname).sort() };
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('no request ever waited for the series row');
  }

  it('writes the invoice and its lines before it waits for the series, then numbers it in sequence', async () => {
    const series = await newSeries(firm, { name: 'LATE' });
    const first = await firm.ok('POST', '/invoices', { client_id: clientId, series_id: series.id, items: [LINE] });
    expect(first.number).toBe(1);
    let reply: ReturnType<Firm['call']> | undefined;
    await holdingSeries(series.id, async (_trx, holderPid) => {
      reply = firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, items: [LINE, { ...LINE, description: 'Lapte' }] });
      const waiting = await blockedWriter(holderPid);
      expect(waiting.query.toLowerCase()).toContain('number_series');
      expect(waiting.query.toLowerCase()).toContain('for update');
      expect(waiting.written).toEqual(expect.arrayContaining(['invoices', 'invoice_lines']));
    });
    const res = await reply!;
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ number: 2, full_number: expect.stringContaining('2'), status: 'issued' });
    expect(res.body.data.lines).toHaveLength(2);
    const stored = await server.storage.db.selectFrom('invoices').select(['number', 'full_number']).where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ number: 2, full_number: res.body.data.full_number });
  });

  it('checks the series again under the lock: locked meanwhile by another device, the issue is refused and spends no number', async () => {
    const series = await newSeries(firm, { name: 'RACE' });
    let reply: ReturnType<Firm['call']> | undefined;
    await holdingSeries(series.id, async (trx, holderPid) => {
      reply = firm.call('POST', '/invoices', { client_id: clientId, series_id: series.id, items: [LINE] });
      await blockedWriter(holderPid);
      // What POST /invoice-series/{id}/lock writes, done by the transaction the issue is waiting for.
      await trx.updateTable('number_series')
        .set({ lock_device_id: DEVICE_B.device_id, lock_device_name: DEVICE_B.device_name, lock_device_platform: DEVICE_B.device_platform, locked_at: server.clock.now() })
        .where('id', '=', series.id).execute();
    });
    expectError(await reply!, 409, 'series_locked');
    const invoices = await server.storage.db.selectFrom('invoices').select('id').where('series_id', '=', series.id).execute();
    expect(invoices).toEqual([]);
    const lines = await sql<{ n: string }>`select count(*) as n from invoice_lines l left join invoices i on i.id = l.invoice_id where i.id is null`.execute(server.storage.db);
    expect(Number(lines.rows[0]!.n)).toBe(0);
    // The holder unlocks; the next issue takes number 1: nothing was spent by the refused one.
    await server.storage.db.updateTable('number_series').set({ lock_device_id: null, lock_device_name: null, lock_device_platform: null, locked_at: null }).where('id', '=', series.id).execute();
    const next = await firm.ok('POST', '/invoices', { client_id: clientId, series_id: series.id, items: [LINE] });
    expect(next.number).toBe(1);
    const gaps = await firm.ok('GET', `/invoice-series/${series.id}/gaps`);
    expect(gaps.data).toEqual([]);
  });
  it('writes a paired receipt\'s payment and the invoice\'s paid state before it waits for the series, then numbers it in sequence', async () => {
    const invoiceSeries = await newSeries(firm, { name: 'RCPTINV' });
    const invoice = await firm.ok('POST', '/invoices', { client_id: clientId, series_id: invoiceSeries.id, items: [LINE] });
    const series = await firm.ok('POST', '/receipt-series', { prefix: 'LATER' });
    const first = await firm.ok('POST', '/receipts', { series_id: series.id, client_id: clientId, amount: 1 });
    expect(first.receipt_number).toBe('LATER-1');
    let reply: ReturnType<Firm['call']> | undefined;
    await holdingSeries(series.id, async (_trx, holderPid) => {
      reply = firm.call('POST', '/receipts', { series_id: series.id, invoice_id: invoice.id, amount: 2 });
      const waiting = await blockedWriter(holderPid);
      expect(waiting.query.toLowerCase()).toContain('number_series');
      expect(waiting.query.toLowerCase()).toContain('for update');
      expect(waiting.written).toEqual(expect.arrayContaining(['invoices', 'payments']));
      expect(waiting.written).not.toContain('receipts');
    });
    const res = await reply!;
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ receipt_number: 'LATER-2', series_id: series.id, payment: { amount: 2 } });
    const stored = await server.storage.db.selectFrom('receipts').select(['number', 'payment_id']).where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ number: 2, payment_id: res.body.data.payment.id });
  });

  it('checks a receipt series again under the lock: locked meanwhile by another device, the receipt is refused, its payment undone', async () => {
    const invoiceSeries = await newSeries(firm, { name: 'RCPTRACE' });
    const invoice = await firm.ok('POST', '/invoices', { client_id: clientId, series_id: invoiceSeries.id, items: [LINE] });
    const series = await firm.ok('POST', '/receipt-series', { prefix: 'RRACE' });
    let reply: ReturnType<Firm['call']> | undefined;
    await holdingSeries(series.id, async (trx, holderPid) => {
      reply = firm.call('POST', '/receipts', { series_id: series.id, invoice_id: invoice.id, amount: 2 });
      await blockedWriter(holderPid);
      await trx.updateTable('number_series')
        .set({ lock_device_id: DEVICE_B.device_id, lock_device_name: DEVICE_B.device_name, lock_device_platform: DEVICE_B.device_platform, locked_at: server.clock.now() })
        .where('id', '=', series.id).execute();
    });
    expectError(await reply!, 409, 'series_locked');
    expect(await server.storage.db.selectFrom('payments').select('id').where('invoice_id', '=', invoice.id).execute()).toEqual([]);
    expect(await firm.ok('GET', `/invoices/${invoice.id}`)).toMatchObject({ paid_state: 'unpaid', amount_paid: 0 });
    await server.storage.db.updateTable('number_series').set({ lock_device_id: null, lock_device_name: null, lock_device_platform: null, locked_at: null }).where('id', '=', series.id).execute();
    const next = await firm.ok('POST', '/receipts', { series_id: series.id, client_id: clientId, amount: 1 });
    expect(next.receipt_number).toBe('RRACE-1');
  });
});
