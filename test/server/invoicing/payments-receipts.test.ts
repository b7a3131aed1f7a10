import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { DEVICE_A, DEVICE_B, expectError, issue, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from './helpers';

const T2026 = Math.floor(Date.parse('2026-11-21T10:00:00Z') / 1000);

// 2 x 45.50 at 21%: net 91.00, VAT 19.11, total 110.11.
const TOTAL = 110.11;

describe.each(DIALECTS)('payments and receipts on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function setup(): Promise<{ firm: Firm; clientId: string; seriesId: string; invoice: { id: string; full_number: string } }> {
    const firm = await newFirm(server);
    const client = await newClient(firm, 'Delta Market SRL');
    const series = await newSeries(firm, { is_primary: true });
    const invoice = await issue(firm, { client_id: client.id, series_id: series.id });
    return { firm, clientId: client.id, seriesId: series.id, invoice };
  }

  describe('payments', () => {
    it('records a payment with its VAT share and derives the paid state', async () => {
      const { firm, clientId, invoice } = await setup();
      const res = await firm.call('POST', '/payments', { invoice_id: invoice.id, amount: 50, date: '2026-11-20' });
      expect(res.status).toBe(201);
      // VAT share: round(5000 * 1911 / 11011) = 868 bani.
      expect(res.body.data).toMatchObject({
        object: 'payment', amount: 50, amount_vat: 8.68, amount_without_vat: 41.32, currency: 'RON', date: '2026-11-20',
        type: 'bank_order', type_description: 'Bank transfer', exchange_rate: null, exchange_currency: null,
        invoice: { id: invoice.id, number: 'TJ-2026-0001' }, client: { id: clientId, name: 'Delta Market SRL' }, receipt_id: null,
        created_at: T2026,
      });
      expect(await firm.ok('GET', `/invoices/${invoice.id}`)).toMatchObject({ paid_state: 'partially_paid', amount_paid: 50, amount_due: 60.11 });
      const card = await firm.ok('POST', '/payments?locale=ro', { invoice_id: invoice.id, amount: 60.11, type: 'card' });
      expect(card).toMatchObject({ type: 'card', type_description: 'Card', date: '2026-11-21' });
      expect(await firm.ok('GET', `/invoices/${invoice.id}`)).toMatchObject({ paid_state: 'paid', amount_paid: TOTAL, amount_due: 0 });
      const over = await firm.call('POST', '/payments', { invoice_id: invoice.id, amount: 0.01 });
      expectError(over, 422, 'validation_error');
      expect(over.body.error.fields).toHaveProperty('amount');

      const got = await firm.ok('GET', `/payments/${res.body.data.id}`);
      expect(got).toEqual(res.body.data);
      const list = await firm.ok('GET', '/payments?sort=amount&order=asc');
      expect(list.data.map((p: { amount: number }) => p.amount)).toEqual([50, 60.11]);
      expect((await firm.ok('GET', '/payments?type=card')).total).toBe(1);
      expect((await firm.ok('GET', `/payments?invoice_id=${invoice.id}&start_date=2026-11-21`)).total).toBe(1);
      expect((await firm.ok('GET', '/payments?search=delta')).total).toBe(2);

      const del = await firm.call('DELETE', `/payments/${card.id}`);
      expect(del.body).toMatchObject({ success: true, object: 'payment', id: card.id, deleted: true });
      expect(await firm.ok('GET', `/invoices/${invoice.id}`)).toMatchObject({ paid_state: 'partially_paid', amount_paid: 50 });
      expectError(await firm.call('GET', `/payments/${card.id}`), 404, 'resource_missing');
      expectError(await firm.call('DELETE', `/payments/${card.id}`), 404, 'resource_missing');
      expectError(await (await newFirm(server)).call('GET', `/payments/${res.body.data.id}`), 404, 'resource_missing');
    });

    it('refuses what cannot be paid this way', async () => {
      const { firm, clientId, seriesId, invoice } = await setup();
      const cash = await firm.call('POST', '/payments', { invoice_id: invoice.id, amount: 1, type: 'receipt' });
      expectError(cash, 422, 'validation_error');
      expect(cash.body.error.fields).toHaveProperty('type');
      expectError(await firm.call('POST', '/payments', { invoice_id: invoice.id, amount: 1, currency: 'EUR' }), 422, 'validation_error');
      expectError(await firm.call('POST', '/payments', { invoice_id: invoice.id, amount: 0 }), 422, 'validation_error');
      expectError(await firm.call('POST', '/payments', { invoice_id: 'inv_nope', amount: 1 }), 404, 'resource_missing');
      const draft = await issue(firm, { is_draft: true, client_id: clientId });
      expectError(await firm.call('POST', '/payments', { invoice_id: draft.id, amount: 1 }), 409, 'invoice_is_draft');
      const other = await issue(firm, { client_id: clientId, series_id: seriesId });
      const storno = await firm.ok('POST', `/invoices/${other.id}/storno`, {});
      expectError(await firm.call('POST', '/payments', { invoice_id: other.id, amount: 1 }), 409, 'already_voided');
      expectError(await firm.call('POST', '/payments', { invoice_id: storno.id, amount: 1 }), 409, 'invoice_is_storno');
    });

    it('pays an invoice in another currency at its rate, and answers a retried client_local_uuid', async () => {
      const { firm, clientId, seriesId } = await setup();
      await firm.ok('POST', '/currencies', { code: 'EUR' });
      const invoice = await issue(firm, { client_id: clientId, series_id: seriesId, currency: 'EUR', exchange_rate: 4.97 });
      const uuid = randomUUID();
      const body = { invoice_id: invoice.id, amount: 10, client_local_uuid: uuid };
      const [first, second] = await Promise.all([firm.call('POST', '/payments', body), firm.call('POST', '/payments', body)]);
      expect(first.body.data).toMatchObject({ currency: 'EUR', exchange_rate: 4.97, exchange_currency: 'RON' });
      expect(second.body.data).toEqual(first.body.data);
      expect((await firm.ok('GET', `/invoices/${invoice.id}`)).amount_paid).toBe(10);
    });
  });

  describe('receipt series', () => {
    it('creates, lists and retrieves receipt series; the first is the default', async () => {
      const firm = await newFirm(server);
      expect((await firm.ok('GET', '/receipt-series')).total).toBe(0);
      const ch = await firm.ok('POST', '/receipt-series', {});
      expect(ch).toMatchObject({
        object: 'receipt_series', prefix: 'CH', description: '', start_number: 1, next_number: 1, is_used: false, is_locked: false,
        lock: null, work_point_id: firm.workPointId, created_at: T2026,
      });
      const cas2 = await firm.ok('POST', '/receipt-series', { prefix: 'CAS2', start_number: 500, description: 'Casa 2' });
      expect((await firm.ok('GET', '/receipt-series')).total).toBe(2);
      expect(await firm.ok('GET', `/receipt-series/${cas2.id}`)).toMatchObject({ prefix: 'CAS2', next_number: 500 });
      expectError(await firm.call('POST', '/receipt-series', { prefix: 'C-H' }), 422, 'validation_error');
      expectError(await firm.call('GET', '/receipt-series/rser_nope'), 404, 'resource_missing');
      // An invoice series id is not a receipt series.
      const invoiceSeries = await newSeries(firm);
      expectError(await firm.call('GET', `/receipt-series/${invoiceSeries.id}`), 404, 'resource_missing');
      const receipt = await firm.ok('POST', '/receipts', { client_name: 'Ion Popescu', amount: 20 });
      expect(receipt).toMatchObject({ series_id: ch.id, receipt_number: 'CH-1' });
      const other = await firm.ok('POST', '/receipts', { client_name: 'Ion Popescu', amount: 20, series_id: cas2.id });
      expect(other.receipt_number).toBe('CAS2-500');
      expect(await firm.ok('GET', `/receipt-series/${ch.id}`)).toMatchObject({ next_number: 2, is_used: true });
    });

    it('locks a receipt series for one device, which then numbers receipts offline', async () => {
      const firm = await newFirm(server);
      const series = await firm.ok('POST', '/receipt-series', {});
      const locked = await firm.ok('POST', `/receipt-series/${series.id}/lock`, DEVICE_A);
      expect(locked).toMatchObject({ is_locked: true, lock: { device_id: 'dev-a' } });
      expectError(await firm.call('POST', `/receipt-series/${series.id}/lock`, DEVICE_B), 409, 'series_locked');
      const base = { client_name: 'Maria Ionescu', amount: 15, series_id: series.id };
      expect((await firm.ok('POST', '/receipts', { ...base, number: 1, device_id: 'dev-a' })).receipt_number).toBe('CH-1');
      const skipped = await firm.call('POST', '/receipts', { ...base, number: 3, device_id: 'dev-a' });
      expectError(skipped, 409, 'number_out_of_sequence');
      expect(skipped.body.error.message).toContain('2');
      expectError(await firm.call('POST', '/receipts', { ...base, device_id: 'dev-b' }), 409, 'series_locked');
      // Takeover sets numbers aside for the old holder, which may still sync them.
      const taken = await firm.ok('POST', `/receipt-series/${series.id}/lock`, { ...DEVICE_B, takeover: true, reserve_for_old_holder: 2 });
      expect(taken).toMatchObject({ next_number: 4, lock: { device_id: 'dev-b' } });
      const gaps = await firm.ok('GET', `/receipt-series/${series.id}/gaps`);
      expect(gaps.data.map((g: { full_number: string; reason: string }) => `${g.full_number}:${g.reason}`)).toEqual(['CH-2:lock_takeover', 'CH-3:lock_takeover']);
      expect((await firm.ok('POST', '/receipts', { ...base, number: 2, device_id: 'dev-a' })).receipt_number).toBe('CH-2');
      expect((await firm.ok('GET', `/receipt-series/${series.id}/gaps`)).total).toBe(1);
      expectError(await firm.call('POST', `/receipt-series/${series.id}/unlock`, { device_id: 'dev-a' }), 403, 'forbidden');
      expect(await firm.ok('POST', `/receipt-series/${series.id}/unlock`, { device_id: 'dev-b' })).toMatchObject({ is_locked: false });
      expectError(await firm.call('POST', '/receipts', { ...base, number: 9, device_id: 'dev-b' }), 409, 'series_not_locked');
      expectError(await firm.call('POST', '/receipt-series/rser_nope/lock', DEVICE_A), 404, 'resource_missing');
      expectError(await firm.call('POST', '/receipt-series/rser_nope/unlock', { device_id: 'x' }), 404, 'resource_missing');
      expectError(await firm.call('GET', '/receipt-series/rser_nope/gaps'), 404, 'resource_missing');
    });
  });

  describe('receipts', () => {
    it('issues a standalone receipt, numbered from the default series made on first use', async () => {
      const firm = await newFirm(server);
      const client = await newClient(firm, 'Epsilon SRL');
      const res = await firm.call('POST', '/receipts', { client_id: client.id, amount: 121, amount_vat: 21, observations: 'Avans' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        object: 'receipt', receipt_number: 'CH-1', amount: 121, amount_vat: 21, amount_without_vat: 100, currency: 'RON',
        date: '2026-11-21', observations: 'Avans', language: 'ro', is_draft: false, is_deleted: false, exchange_rate: null,
        exchange_currency: null, type: 'receipt', client: { id: client.id, name: 'Epsilon SRL' }, invoice: null, payment: null,
        created_at: T2026, updated_at: null,
      });
      expect(res.body.data.id).toMatch(/^rcpt_/);
      const walkIn = await firm.ok('POST', '/receipts', { client_name: 'Client ocazional', amount: 10, payment_date: '2026-11-20' });
      expect(walkIn).toMatchObject({ receipt_number: 'CH-2', amount_vat: 0, amount_without_vat: 10, client: { id: null, name: 'Client ocazional' } });
      const series = await firm.ok('GET', '/receipt-series');
      expect(series.data).toHaveLength(1);
      expectError(await firm.call('POST', '/receipts', { amount: 10 }), 422, 'validation_error');
      expectError(await firm.call('POST', '/receipts', { client_name: 'X', amount: 10, amount_vat: 11 }), 422, 'validation_error');
      expectError(await firm.call('POST', '/receipts', { client_id: 'cli_nope', amount: 10 }), 404, 'resource_missing');
      expectError(await firm.call('POST', '/receipts', { client_name: 'X', amount: -1 }), 422, 'validation_error');
      expectError(await firm.call('POST', '/receipts', { client_name: 'X', amount: 10, currency: 'EUR', exchange_rate: 5 }), 422, 'validation_error');
      await firm.ok('POST', '/currencies', { code: 'EUR' });
      expectError(await firm.call('POST', '/receipts', { client_name: 'X', amount: 10, currency: 'EUR' }), 422, 'validation_error');
      const eur = await firm.ok('POST', '/receipts', { client_name: 'X', amount: 10, currency: 'EUR', exchange_rate: 5.01 });
      expect(eur).toMatchObject({ currency: 'EUR', exchange_rate: 5.01, exchange_currency: 'RON', receipt_number: 'CH-3' });
      expectError(await firm.call('POST', '/receipts', { client_name: 'X', amount: 1, series_id: 'rser_nope' }), 404, 'resource_missing');
    });

    it('pairs a receipt with an invoice: linked payment, proportional VAT, paid state', async () => {
      const { firm, clientId, invoice } = await setup();
      const res = await firm.call('POST', '/receipts', { invoice_id: invoice.id, amount: 60 });
      // VAT share: round(6000 * 1911 / 11011) = 1041 bani.
      expect(res.body.data).toMatchObject({
        receipt_number: 'CH-1', amount: 60, amount_vat: 10.41, amount_without_vat: 49.59, type: 'receipt',
        client: { id: clientId, name: 'Delta Market SRL' },
        invoice: { id: invoice.id, number: 'TJ-2026-0001', total: TOTAL, currency: 'RON', is_paid: false },
        payment: {
          object: 'payment', amount: 60, amount_vat: 10.41, amount_without_vat: 49.59, type: 'receipt', type_description: 'Cash receipt',
          invoice: { id: invoice.id, number: 'TJ-2026-0001' }, client: { id: clientId, name: 'Delta Market SRL' },
        },
      });
      expect(res.body.data.payment.receipt_id).toBe(res.body.data.id);
      const rest = await firm.ok('POST', '/receipts', { invoice_id: invoice.id, amount: 50.11 });
      expect(rest.invoice.is_paid).toBe(true);
      const inv = await firm.ok('GET', `/invoices/${invoice.id}?expand[]=payments`);
      expect(inv).toMatchObject({ paid_state: 'paid', amount_paid: TOTAL, amount_due: 0 });
      expect(inv.payments.map((p: { type: string }) => p.type)).toEqual(['receipt', 'receipt']);
      expectError(await firm.call('POST', '/receipts', { invoice_id: invoice.id, amount: 1 }), 422, 'validation_error');
      // A receipt's payment goes away with the receipt, not on its own.
      expectError(await firm.call('DELETE', `/payments/${rest.payment.id}`), 409, 'payment_linked_to_receipt');
      const other = await newClient(firm, 'Alt client SRL');
      expectError(await firm.call('POST', '/receipts', { invoice_id: invoice.id, client_id: other.id, amount: 1 }), 422, 'validation_error');
      expectError(await firm.call('POST', '/receipts', { invoice_id: 'inv_nope', amount: 1 }), 404, 'resource_missing');
      const draft = await issue(firm, { is_draft: true, client_id: clientId });
      expectError(await firm.call('POST', '/receipts', { invoice_id: draft.id, amount: 1 }), 409, 'invoice_is_draft');
    });

    it('answers a retried client_local_uuid with the receipt already issued', async () => {
      const { firm, invoice } = await setup();
      const body = { invoice_id: invoice.id, amount: 10, client_local_uuid: randomUUID() };
      const replies = await Promise.all([1, 2, 3].map(() => firm.call('POST', '/receipts', body)));
      expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 201]);
      for (const r of replies) expect(r.headers.get('idempotent-replayed')).toBe(r.status === 200 ? 'true' : null);
      expect((await firm.ok('GET', `/invoices/${invoice.id}`)).amount_paid).toBe(10);
      expect((await firm.ok('GET', '/receipts')).total).toBe(1);
    });

    it('updates a receipt as the contract says', async () => {
      const { firm, clientId, seriesId, invoice } = await setup();
      const receipt = await firm.ok('POST', '/receipts', { invoice_id: invoice.id, amount: 30 });
      server.clock.advance(10);
      try {
        // Amount changes: the payment follows and the invoice's paid state is recomputed; the client is kept.
        const more = await firm.ok('PUT', `/receipts/${receipt.id}`, { amount: TOTAL, observations: 'Rest achitat' });
        expect(more).toMatchObject({
          amount: TOTAL, amount_vat: 19.11, amount_without_vat: 91, observations: 'Rest achitat', receipt_number: 'CH-1',
          client: { id: clientId }, invoice: { is_paid: true }, payment: { id: receipt.payment.id, amount: TOTAL }, updated_at: T2026 + 10,
        });
        expect((await firm.ok('GET', `/invoices/${invoice.id}`)).paid_state).toBe('paid');
        // Moving the receipt to another invoice recomputes both.
        const second = await issue(firm, { client_id: clientId, series_id: seriesId });
        const moved = await firm.ok('PUT', `/receipts/${receipt.id}`, { invoice_id: second.id, amount: 20 });
        expect(moved).toMatchObject({ invoice: { id: second.id, is_paid: false }, payment: { invoice: { id: second.id } } });
        expect(await firm.ok('GET', `/invoices/${invoice.id}`)).toMatchObject({ paid_state: 'unpaid', amount_paid: 0 });
        expect(await firm.ok('GET', `/invoices/${second.id}`)).toMatchObject({ paid_state: 'partially_paid', amount_paid: 20 });
        const tooMuch = await firm.call('PUT', `/receipts/${receipt.id}`, { amount: 1000 });
        expectError(tooMuch, 422, 'validation_error');
        expectError(await firm.call('PUT', `/receipts/${receipt.id}`, { amount: 'ten' }), 422, 'validation_error');
        expectError(await firm.call('PUT', `/receipts/${receipt.id}`, { invoice_id: 'inv_nope' }), 404, 'resource_missing');
        expectError(await firm.call('PUT', '/receipts/rcpt_nope', { amount: 1 }), 404, 'resource_missing');

        // A standalone receipt gets paired through PUT: its payment row appears.
        const standalone = await firm.ok('POST', '/receipts', { client_name: 'Ocazional', amount: 5 });
        const renamed = await firm.ok('PUT', `/receipts/${standalone.id}`, { client_name: 'Vasile Ocazional', type: 'other' });
        expect(renamed).toMatchObject({ client: { id: null, name: 'Vasile Ocazional' }, type: 'other', payment: null });
        const paired = await firm.ok('PUT', `/receipts/${standalone.id}`, { invoice_id: invoice.id });
        expect(paired).toMatchObject({ invoice: { id: invoice.id }, payment: { amount: 5, type: 'other' } });
        expect((await firm.ok('GET', `/invoices/${invoice.id}`)).amount_paid).toBe(5);
      } finally {
        server.clock.set(T2026);
      }
    });

    it('soft-deletes a receipt: still readable, out of the list, its payment gone, no longer editable', async () => {
      const { firm, invoice } = await setup();
      const receipt = await firm.ok('POST', '/receipts', { invoice_id: invoice.id, amount: 40 });
      const standalone = await firm.ok('POST', '/receipts', { client_name: 'Ocazional', amount: 5 });
      const res = await firm.call('DELETE', `/receipts/${receipt.id}`);
      expect(res.body).toMatchObject({ success: true, object: 'receipt', id: receipt.id, deleted: true });
      const again = await firm.call('DELETE', `/receipts/${receipt.id}`);
      expect(again.body).toMatchObject({ success: true, deleted: true });
      const got = await firm.ok('GET', `/receipts/${receipt.id}`);
      expect(got).toMatchObject({ is_deleted: true, payment: null, receipt_number: 'CH-1', invoice: { id: invoice.id, is_paid: false } });
      expect(await firm.ok('GET', `/invoices/${invoice.id}`)).toMatchObject({ paid_state: 'unpaid', amount_paid: 0 });
      expectError(await firm.call('PUT', `/receipts/${receipt.id}`, { amount: 1 }), 409, 'resource_deleted');
      expect((await firm.ok('GET', '/receipts')).data.map((r: { id: string }) => r.id)).toEqual([standalone.id]);
      expect((await firm.ok('GET', '/receipts?include_deleted=true')).total).toBe(2);
      // Its number is never given again.
      expect((await firm.ok('POST', '/receipts', { client_name: 'Nou', amount: 1 })).receipt_number).toBe('CH-3');
      expectError(await firm.call('DELETE', '/receipts/rcpt_nope'), 404, 'resource_missing');
      expectError(await firm.call('GET', '/receipts/rcpt_nope'), 404, 'resource_missing');
      expectError(await (await newFirm(server)).call('GET', `/receipts/${standalone.id}`), 404, 'resource_missing');
    });

    it('lists receipts with filters, search and sort', async () => {
      const { firm, clientId, invoice } = await setup();
      const a = await firm.ok('POST', '/receipts', { invoice_id: invoice.id, amount: 10, payment_date: '2026-11-01' });
      const b = await firm.ok('POST', '/receipts', { client_name: 'Zeta Ocazional', amount: 30, payment_date: '2026-11-10', type: 'card' });
      const c = await firm.ok('POST', '/receipts', { client_id: clientId, amount: 20, payment_date: '2026-11-15' });
      const ids = async (query: string) => (await firm.ok('GET', `/receipts${query}`)).data.map((r: { id: string }) => r.id);
      expect(await ids('?sort=date&order=asc')).toEqual([a.id, b.id, c.id]);
      expect(await ids('?sort=amount&order=desc')).toEqual([b.id, c.id, a.id]);
      expect(await ids('?sort=number&order=asc')).toEqual([a.id, b.id, c.id]);
      expect(await ids(`?invoice_id=${invoice.id}`)).toEqual([a.id]);
      expect(await ids(`?client_id=${clientId}&sort=number&order=asc`)).toEqual([a.id, c.id]);
      expect(await ids('?type=card')).toEqual([b.id]);
      expect(await ids('?search=zeta')).toEqual([b.id]);
      expect(await ids('?search=CH-3')).toEqual([c.id]);
      expect(await ids('?start_date=2026-11-05&end_date=2026-11-12')).toEqual([b.id]);
      expect(await ids(`?series_id=${a.series_id}`)).toHaveLength(3);
      expectError(await firm.call('GET', '/receipts?include_deleted=yes'), 422, 'validation_error');
      const cui = (await server.storage.db.selectFrom('companies').select('cui').where('id', '=', firm.companyId).executeTakeFirstOrThrow()).cui;
      const branch = await newFirm(server, { cui, workPointName: 'Punct 2' });
      expect((await branch.ok('GET', '/receipts')).total).toBe(0);
    });
  });
});
