import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeTotals } from '../../../shared/invoice-math';
import { messageFor } from '../../../server/platform/messages';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { LINE, expectError, issue, newClient, newFirm, newSeries, startInvoicingServer, validCui, type Firm } from './helpers';

const T2026 = Math.floor(Date.parse('2026-11-21T10:00:00Z') / 1000);

const MIXED_LINES = [
  { description: 'Ceai verde', quantity: 3, price: 10.99, vat_rate: 21, discount_percent: 10 },
  { description: 'Cașcaval', quantity: 0.125, price: 19.99, vat_rate: 9, unit: 'kg', unit_code: 'KGM' },
  { description: 'Curs autorizat', quantity: 1, price: 100, vat_rate: 0, vat_exemption_reason: 'art. 292 alin. (2) lit. a) Cod fiscal' },
  { description: 'Pungă', quantity: 2, price: 7.5, vat_rate: 21 },
];

describe.each(DIALECTS)('invoices on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function setup(): Promise<{ firm: Firm; clientId: string; seriesId: string }> {
    const firm = await newFirm(server);
    const client = await newClient(firm, 'Alfa Distribuție SRL');
    const series = await newSeries(firm, { is_primary: true });
    return { firm, clientId: client.id, seriesId: series.id };
  }

  describe('create and totals', () => {
    it('computes line amounts, totals and the per-rate VAT breakdown to the ban', async () => {
      const { firm, clientId, seriesId } = await setup();
      const invoice = await issue(firm, { client_id: clientId, series_id: seriesId, items: MIXED_LINES, due_date: '2026-12-21' });
      expect(invoice).toMatchObject({
        object: 'invoice', document_type: 'fiscal', status: 'issued', is_draft: false, number: 1, full_number: 'TJ-2026-0001',
        issue_date: '2026-11-21', due_date: '2026-12-21', currency: 'RON', exchange_rate: null, totals_ron: null,
        totals: { net: 147.17, vat: 9.61, total: 156.78, discount: 3.3 },
        vat_breakdown: [
          { vat_rate: 21, vat_category: null, net: 44.67, vat: 9.38, total: 54.05 },
          { vat_rate: 9, vat_category: null, net: 2.5, vat: 0.23, total: 2.73 },
          { vat_rate: 0, vat_category: 'E', net: 100, vat: 0, total: 100 },
        ],
        paid_state: 'unpaid', amount_paid: 0, amount_due: 156.78, issued_at: T2026, created_at: T2026, work_point_id: firm.workPointId,
      });
      expect(invoice.lines.map((l: Record<string, number>) => [l.position, l.quantity, l.price, l.discount, l.net, l.vat, l.total])).toEqual([
        [1, 3, 10.99, 3.3, 29.67, 6.23, 35.9],
        [2, 0.125, 19.99, 0, 2.5, 0.23, 2.73],
        [3, 1, 100, 0, 100, 0, 100],
        [4, 2, 7.5, 0, 15, 3.15, 18.15],
      ]);
      expect(invoice.lines[1]).toMatchObject({ unit: 'kg', unit_code: 'KGM', vat_rate: 9, discount_percent: 0 });
      expect(invoice.lines[2].vat_exemption_reason).toContain('art. 292');
      // The desktop app runs the same function offline: both must agree.
      const offline = computeTotals([
        { quantity_milli: 3000, unit_price_bani: 1099, vat_rate_bp: 2100, discount_bp: 1000 },
        { quantity_milli: 125, unit_price_bani: 1999, vat_rate_bp: 900 },
        { quantity_milli: 1000, unit_price_bani: 10000, vat_rate_bp: 0 },
        { quantity_milli: 2000, unit_price_bani: 750, vat_rate_bp: 2100 },
      ]);
      expect([offline.net_bani, offline.vat_bani, offline.total_bani]).toEqual([14717, 961, 15678]);
    });

    it('copies the buyer from the client at issue; a later edit of the client changes nothing', async () => {
      const { firm, clientId, seriesId } = await setup();
      const invoice = await issue(firm, { client_id: clientId, series_id: seriesId });
      expect(invoice.buyer).toMatchObject({ name: 'Alfa Distribuție SRL', vat_payer: true, city: 'Brașov', country: 'RO' });
      await firm.ok('PUT', `/clients/${clientId}`, { name: 'Alfa Nou SRL', city: 'Sibiu' });
      const again = await firm.ok('GET', `/invoices/${invoice.id}?expand[]=client`);
      expect(again.buyer).toMatchObject({ name: 'Alfa Distribuție SRL', city: 'Brașov' });
      expect(again.client).toMatchObject({ id: clientId, object: 'client', name: 'Alfa Nou SRL' });
    });

    it('creates a new client together with the invoice', async () => {
      const { firm, seriesId } = await setup();
      const uuid = randomUUID();
      const invoice = await issue(firm, { series_id: seriesId, client: { name: 'Beta Comerț SRL', cui: validCui(), client_local_uuid: uuid } });
      expect(invoice.client_id).toMatch(/^cli_/);
      expect(invoice.buyer.name).toBe('Beta Comerț SRL');
      const client = await firm.ok('GET', `/clients/${invoice.client_id}`);
      expect(client).toMatchObject({ name: 'Beta Comerț SRL', client_local_uuid: uuid });
      const badCui = await firm.call('POST', '/invoices', { series_id: seriesId, items: [LINE], client: { name: 'X SRL', cui: '123' } });
      expectError(badCui, 422, 'validation_error');
      const both = await firm.call('POST', '/invoices', { series_id: seriesId, items: [LINE], client_id: invoice.client_id, client: { name: 'Y', cui: validCui() } });
      expectError(both, 422, 'validation_error');
    });

    it('refuses an issued invoice without a client, an unknown client, and bad lines', async () => {
      const { firm, clientId, seriesId } = await setup();
      const noClient = await firm.call('POST', '/invoices', { series_id: seriesId, items: [LINE] });
      expectError(noClient, 422, 'validation_error');
      expect(noClient.body.error.fields).toHaveProperty('client_id');
      const unknown = await firm.call('POST', '/invoices', { series_id: seriesId, client_id: 'cli_nope', items: [LINE] });
      expectError(unknown, 404, 'resource_missing');
      expect(unknown.body.error.param).toBe('client_id');
      const strangerClient = await newClient(await newFirm(server));
      expectError(await firm.call('POST', '/invoices', { series_id: seriesId, client_id: strangerClient.id, items: [LINE] }), 404, 'resource_missing');
      // The wire schema answers first; then the server's own checks, every problem at once.
      const malformed = await firm.call('POST', '/invoices', {
        client_id: clientId, series_id: seriesId, items: [{ ...LINE, price: 1.23456 }, { ...LINE, quantity: 0 }, { ...LINE, description: '' }],
      });
      expectError(malformed, 422, 'validation_error');
      expect(Object.keys(malformed.body.error.fields).sort()).toEqual(['items.0.price', 'items.1.quantity', 'items.2.description']);
      const bad = await firm.call('POST', '/invoices', {
        client_id: clientId, series_id: seriesId, currency: 'USD',
        items: [{ ...LINE, quantity: -1 }, { ...LINE, vat_rate: 7 }, { ...LINE, discount_percent: 2.555 }],
      });
      expectError(bad, 422, 'validation_error');
      expect(Object.keys(bad.body.error.fields).sort()).toEqual(['currency', 'exchange_rate', 'items.0.quantity', 'items.1.vat_rate', 'items.2.discount_percent']);
      expectError(await firm.call('POST', '/invoices', { client_id: clientId, series_id: seriesId, items: [] }), 422, 'validation_error');
      const early = await firm.call('POST', '/invoices', { client_id: clientId, series_id: seriesId, items: [LINE], issue_date: '2026-11-21', due_date: '2026-11-20' });
      expectError(early, 422, 'validation_error');
      expect(early.body.error.fields).toHaveProperty('due_date');
      expectError(await firm.call('POST', '/invoices', { client_id: clientId, series_id: 'ser_nope', items: [LINE] }), 404, 'resource_missing');
      expectError(await firm.call('POST', '/invoices', { client_id: clientId, items: [LINE], language: 'de' }), 422, 'validation_error');
      // Nothing above took a number.
      expect((await issue(firm, { client_id: clientId, series_id: seriesId })).number).toBe(1);
    });

    it('accepts the firm\'s custom VAT rates', async () => {
      const { firm, clientId, seriesId } = await setup();
      expectError(await firm.call('POST', '/invoices', { client_id: clientId, series_id: seriesId, items: [{ ...LINE, vat_rate: 20.5 }] }), 422, 'validation_error');
      await firm.ok('POST', '/vat-rates', { rate: 20.5, name: 'Cotă specială' });
      const invoice = await issue(firm, { client_id: clientId, series_id: seriesId, items: [{ description: 'X', quantity: 1, price: 33.33, vat_rate: 20.5 }] });
      expect(invoice.totals).toEqual({ net: 33.33, vat: 6.83, total: 40.16, discount: 0 });
      expect(invoice.vat_breakdown).toEqual([{ vat_rate: 20.5, vat_category: null, net: 33.33, vat: 6.83, total: 40.16 }]);
    });

    it('under reverse charge puts no VAT on any line and one 0% breakdown entry', async () => {
      const { firm, clientId, seriesId } = await setup();
      const invoice = await issue(firm, { client_id: clientId, series_id: seriesId, reverse_charge: true, items: MIXED_LINES });
      expect(invoice.reverse_charge).toBe(true);
      expect(invoice.totals).toEqual({ net: 147.17, vat: 0, total: 147.17, discount: 3.3 });
      expect(invoice.vat_breakdown).toEqual([{ vat_rate: 0, vat_category: null, net: 147.17, vat: 0, total: 147.17 }]);
      expect(invoice.lines.every((l: { vat: number }) => l.vat === 0)).toBe(true);
    });

    it('invoices in another currency with its exchange rate and RON totals', async () => {
      const { firm, clientId, seriesId } = await setup();
      const notEnabled = await firm.call('POST', '/invoices', { client_id: clientId, series_id: seriesId, currency: 'EUR', exchange_rate: 4.9771, items: [LINE] });
      expectError(notEnabled, 422, 'validation_error');
      expect(notEnabled.body.error.fields).toHaveProperty('currency');
      await firm.ok('POST', '/currencies', { code: 'EUR' });
      const noRate = await firm.call('POST', '/invoices', { client_id: clientId, series_id: seriesId, currency: 'EUR', items: [LINE] });
      expectError(noRate, 422, 'validation_error');
      expect(noRate.body.error.fields).toHaveProperty('exchange_rate');
      const invoice = await issue(firm, {
        client_id: clientId, series_id: seriesId, currency: 'EUR', exchange_rate: 4.9771,
        items: [{ description: 'Consultanță', quantity: 1, price: 100, vat_rate: 21 }],
      });
      expect(invoice).toMatchObject({
        currency: 'EUR', exchange_rate: 4.9771,
        totals: { net: 100, vat: 21, total: 121, discount: 0 },
        totals_ron: { net: 497.71, vat: 104.52, total: 602.23, discount: 0 },
      });
      // RON never carries a rate.
      expect((await issue(firm, { client_id: clientId, series_id: seriesId, exchange_rate: 1 })).exchange_rate).toBeNull();
    });
  });

  describe('drafts', () => {
    it('takes no number, changes only while a draft, and takes its number when issued', async () => {
      const { firm, clientId, seriesId } = await setup();
      const draft = await issue(firm, { is_draft: true });
      expect(draft).toMatchObject({ status: 'draft', is_draft: true, number: null, full_number: null, series_id: null, client_id: null, buyer: null, issued_at: null });
      const changed = await firm.ok('PUT', `/invoices/${draft.id}`, {
        client_id: clientId, series_id: seriesId, items: MIXED_LINES, observations: 'Livrare luni', due_date: '2026-12-01',
      });
      expect(changed).toMatchObject({ status: 'draft', client_id: clientId, series_id: seriesId, series_name: 'TJ', observations: 'Livrare luni', updated_at: T2026 });
      expect(changed.totals.total).toBe(156.78);
      expect(changed.lines).toHaveLength(4);
      // Without `items` the lines stay and are priced again with the new header.
      const reverse = await firm.ok('PUT', `/invoices/${draft.id}`, { reverse_charge: true });
      expect(reverse.totals).toMatchObject({ vat: 0, total: 147.17 });
      expect(reverse.lines).toHaveLength(4);
      const badPut = await firm.call('PUT', `/invoices/${draft.id}`, { items: [{ ...LINE, vat_rate: 3 }] });
      expectError(badPut, 422, 'validation_error');
      expectError(await firm.call('PUT', '/invoices/inv_nope', { observations: 'x' }), 404, 'resource_missing');
      expect((await firm.ok('GET', `/invoice-series/${seriesId}`)).next_number).toBe(1);

      server.clock.advance(3600);
      try {
        const issued = await firm.ok('POST', `/invoices/${draft.id}/issue`, {});
        expect(issued).toMatchObject({ id: draft.id, status: 'issued', is_draft: false, number: 1, full_number: 'TJ-2026-0001', issued_at: T2026 + 3600 });
        expect(issued.buyer.name).toBe('Alfa Distribuție SRL');
        expect(issued.lines).toHaveLength(4);
      } finally {
        server.clock.set(T2026);
      }
      expectError(await firm.call('PUT', `/invoices/${draft.id}`, { observations: 'x' }), 409, 'invoice_not_draft');
      expectError(await firm.call('POST', `/invoices/${draft.id}/issue`, {}), 409, 'invoice_not_draft');
      expectError(await firm.call('POST', '/invoices/inv_nope/issue', {}), 404, 'resource_missing');
    });

    it('issues a draft with a reservation or the lock holder\'s number, and answers a repeated issue', async () => {
      const { firm, clientId, seriesId } = await setup();
      const [r] = (await firm.ok('POST', `/invoice-series/${seriesId}/reservations`, { device_id: 'dev-a' })).data;
      const draft = await issue(firm, { is_draft: true, client_id: clientId });
      const issued = await firm.ok('POST', `/invoices/${draft.id}/issue`, { reservation_token: r.token, device_id: 'dev-a' });
      expect(issued).toMatchObject({ number: 1, series_id: seriesId });
      const repeated = await firm.call('POST', `/invoices/${draft.id}/issue`, { reservation_token: r.token, device_id: 'dev-a' });
      expect(repeated.status).toBe(200);
      expect(repeated.headers.get('idempotent-replayed')).toBe('true');
      expect(repeated.body.data).toEqual(issued);

      const locked = await newSeries(firm, { name: 'LK' });
      await firm.ok('POST', `/invoice-series/${locked.id}/lock`, { device_id: 'dev-a', device_name: 'Casa', device_platform: 'linux' });
      const draft2 = await issue(firm, { is_draft: true, client_id: clientId, series_id: locked.id });
      expectError(await firm.call('POST', `/invoices/${draft2.id}/issue`, { device_id: 'dev-b' }), 409, 'series_locked');
      expectError(await firm.call('POST', `/invoices/${draft2.id}/issue`, { number: 2, device_id: 'dev-a' }), 409, 'number_out_of_sequence');
      expect(await firm.ok('POST', `/invoices/${draft2.id}/issue`, { number: 1, device_id: 'dev-a' })).toMatchObject({ full_number: 'LK-2026-0001' });

      const noClient = await issue(firm, { is_draft: true });
      expectError(await firm.call('POST', `/invoices/${noClient.id}/issue`, {}), 422, 'validation_error');
    });

    it('is deleted without leaving a gap', async () => {
      const { firm, clientId, seriesId } = await setup();
      const draft = await issue(firm, { is_draft: true, client_id: clientId, series_id: seriesId });
      const res = await firm.call('DELETE', `/invoices/${draft.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, object: 'invoice', id: draft.id, deleted: true });
      expectError(await firm.call('GET', `/invoices/${draft.id}`), 404, 'resource_missing');
      expect((await firm.ok('GET', `/invoice-series/${seriesId}/gaps`)).total).toBe(0);
      expect((await issue(firm, { client_id: clientId, series_id: seriesId })).number).toBe(1);
    });
  });

  describe('retrieve and list', () => {
    it('expands lines, payments and client on request only', async () => {
      const { firm, clientId, seriesId } = await setup();
      const invoice = await issue(firm, { client_id: clientId, series_id: seriesId });
      await firm.ok('POST', '/payments', { invoice_id: invoice.id, amount: 10 });
      const bare = await firm.ok('GET', `/invoices/${invoice.id}`);
      expect(bare).not.toHaveProperty('lines');
      expect(bare).not.toHaveProperty('payments');
      expect(bare).not.toHaveProperty('client');
      const full = await firm.ok('GET', `/invoices/${invoice.id}?expand[]=lines&expand[]=payments&expand[]=client`);
      expect(full.lines).toHaveLength(1);
      expect(full.payments).toMatchObject([{ object: 'payment', amount: 10, invoice: { id: invoice.id, number: 'TJ-2026-0001' } }]);
      expect(full.client).toMatchObject({ id: clientId, object: 'client' });
      expect((await firm.ok('GET', `/invoices/${invoice.id}?expand=lines,client`)).client.id).toBe(clientId);
      expectError(await firm.call('GET', `/invoices/${invoice.id}?expand[]=nope`), 422, 'validation_error');
      expectError(await (await newFirm(server)).call('GET', `/invoices/${invoice.id}`), 404, 'resource_missing');
    });

    it('filters, searches, sorts and pages', async () => {
      const { firm, clientId, seriesId } = await setup();
      const other = await newClient(firm, 'Gama Servicii SRL');
      const proforma = await newSeries(firm, { name: 'PF', document_type: 'proforma' });
      const a = await issue(firm, { client_id: clientId, series_id: seriesId, issue_date: '2026-11-01', items: [{ ...LINE, price: 10 }] });
      const b = await issue(firm, { client_id: other.id, series_id: seriesId, issue_date: '2026-11-10', items: [{ ...LINE, price: 30 }] });
      const c = await issue(firm, { client_id: clientId, series_id: proforma.id, document_type: 'proforma', issue_date: '2026-11-15', items: [{ ...LINE, price: 20 }] });
      const d = await issue(firm, { is_draft: true, client_id: other.id });
      await firm.ok('POST', '/payments', { invoice_id: b.id, amount: b.totals.total });
      await firm.ok('POST', '/payments', { invoice_id: a.id, amount: 1 });
      const ids = async (query: string) => (await firm.ok('GET', `/invoices${query}`)).data.map((i: { id: string }) => i.id);
      expect(await ids(`?sort=number&order=asc&series_id=${seriesId}`)).toEqual([a.id, b.id]);
      expect(await ids(`?sort=number&order=desc&series_id=${seriesId}`)).toEqual([b.id, a.id]);
      expect(await ids('?status=draft')).toEqual([d.id]);
      expect(await ids(`?client_id=${other.id}&sort=created_at`)).toHaveLength(2);
      expect(await ids(`?series_id=${proforma.id}`)).toEqual([c.id]);
      expect(await ids('?document_type=proforma')).toEqual([c.id]);
      expect(await ids('?paid_state=paid')).toEqual([b.id]);
      expect(await ids('?paid_state=partially_paid')).toEqual([a.id]);
      expect(await ids('?start_date=2026-11-05&end_date=2026-11-14')).toEqual([b.id]);
      expect(await ids('?search=gama&status=issued')).toEqual([b.id]);
      expect(await ids('?search=PF-2026')).toEqual([c.id]);
      expect(await ids('?sort=total&order=desc&status=issued')).toEqual([b.id, c.id, a.id]);
      expect(await ids('?sort=issue_date&order=asc&status=issued')).toEqual([a.id, b.id, c.id]);
      const page = await firm.ok('GET', '/invoices?per_page=2&page=2&sort=issue_date&order=asc');
      expect(page).toMatchObject({ total: 4, per_page: 2, page: 2, total_pages: 2, has_more: false });
      const expanded = await firm.ok('GET', '/invoices?status=issued&expand[]=lines&expand[]=payments');
      expect(expanded.data.every((i: { lines: unknown[]; payments: unknown[] }) => i.lines.length === 1 && Array.isArray(i.payments))).toBe(true);
      const cui = (await server.storage.db.selectFrom('companies').select('cui').where('id', '=', firm.companyId).executeTakeFirstOrThrow()).cui;
      const branch = await newFirm(server, { cui, workPointName: 'Punct 2' });
      expect((await branch.ok('GET', '/invoices')).total).toBe(0);
      expect((await branch.ok('GET', `/invoices?work_point_id=${firm.workPointId}`)).total).toBe(4);
      expectError(await firm.call('GET', '/invoices?sort=buyer'), 422, 'validation_error');
      expectError(await firm.call('GET', '/invoices?paid_state=half'), 422, 'validation_error');
    });
  });

  describe('storno, deletion and conversion', () => {
    it('voids by storno: negative quantities, positive prices, linked both ways', async () => {
      const { firm, clientId, seriesId } = await setup();
      const original = await issue(firm, { client_id: clientId, series_id: seriesId, items: MIXED_LINES });
      const res = await firm.call('POST', `/invoices/${original.id}/storno`, {});
      expect(res.status).toBe(201);
      const storno = res.body.data;
      expect(storno).toMatchObject({
        status: 'storno', number: 2, full_number: 'TJ-2026-0002', storno_of: original.id, client_id: clientId,
        totals: { net: -147.17, vat: -9.61, total: -156.78, discount: -3.3 },
        vat_breakdown: [
          { vat_rate: 21, vat_category: null, net: -44.67, vat: -9.38, total: -54.05 },
          { vat_rate: 9, vat_category: null, net: -2.5, vat: -0.23, total: -2.73 },
          { vat_rate: 0, vat_category: 'E', net: -100, vat: 0, total: -100 },
        ],
      });
      expect(storno.buyer).toEqual(original.buyer);
      expect(storno.lines.map((l: { quantity: number; price: number }) => [l.quantity, l.price])).toEqual([[-3, 10.99], [-0.125, 19.99], [-1, 100], [-2, 7.5]]);
      const voided = await firm.ok('GET', `/invoices/${original.id}`);
      expect(voided).toMatchObject({ status: 'voided', storno_id: storno.id });
      const again = await firm.call('POST', `/invoices/${original.id}/storno`, {});
      expectError(again, 409, 'already_voided');
      expect(again.body.error.message).toContain(storno.id);
      expectError(await firm.call('POST', `/invoices/${storno.id}/storno`, {}), 409, 'invoice_is_storno');
      const draft = await issue(firm, { is_draft: true });
      expectError(await firm.call('POST', `/invoices/${draft.id}/storno`, {}), 409, 'invoice_is_draft');
      expectError(await firm.call('POST', '/invoices/inv_nope/storno', {}), 404, 'resource_missing');
    });

    it('makes a storno offline-safe: another series, a reservation, a retried client_local_uuid', async () => {
      const { firm, clientId, seriesId } = await setup();
      const stornoSeries = await newSeries(firm, { name: 'ST' });
      const [r] = (await firm.ok('POST', `/invoice-series/${stornoSeries.id}/reservations`, { device_id: 'dev-a' })).data;
      const original = await issue(firm, { client_id: clientId, series_id: seriesId });
      const uuid = randomUUID();
      const body = { reservation_token: r.token, device_id: 'dev-a', client_local_uuid: uuid };
      const storno = await firm.call('POST', `/invoices/${original.id}/storno`, body);
      expect(storno.body.data).toMatchObject({ series_id: stornoSeries.id, full_number: 'ST-2026-0001', client_local_uuid: uuid });
      const retry = await firm.call('POST', `/invoices/${original.id}/storno`, body);
      expect(retry.status).toBe(200);
      expect(retry.body.data).toEqual(storno.body.data);
    });

    it('deletes only drafts, voided invoices and stornos, never paid ones; a deleted number stays in the gap register', async () => {
      const { firm, clientId, seriesId } = await setup();
      const issued = await issue(firm, { client_id: clientId, series_id: seriesId });
      expectError(await firm.call('DELETE', `/invoices/${issued.id}`), 409, 'invoice_not_deletable');
      await firm.ok('POST', '/payments', { invoice_id: issued.id, amount: 5 });
      expectError(await firm.call('DELETE', `/invoices/${issued.id}`), 409, 'invoice_paid');
      const storno = await firm.ok('POST', `/invoices/${issued.id}/storno`, {});
      // Voided but partially paid: still refused.
      expectError(await firm.call('DELETE', `/invoices/${issued.id}`), 409, 'invoice_paid');
      const deleted = await firm.call('DELETE', `/invoices/${storno.id}`);
      expect(deleted.body).toMatchObject({ success: true, object: 'invoice', id: storno.id, deleted: true });

      const second = await issue(firm, { client_id: clientId, series_id: seriesId });
      await firm.ok('POST', `/invoices/${second.id}/storno`, {});
      expect((await firm.call('DELETE', `/invoices/${second.id}`)).status).toBe(200);
      const gaps = await firm.ok('GET', `/invoice-series/${seriesId}/gaps`);
      expect(gaps.data.map((g: { number: number; reason: string }) => `${g.number}:${g.reason}`)).toEqual(['2:deleted', '3:deleted']);
      expect((await issue(firm, { client_id: clientId, series_id: seriesId })).number).toBe(5);
      expectError(await firm.call('DELETE', '/invoices/inv_nope'), 404, 'resource_missing');
    });

    it('refuses to delete an invoice sent to e-Factura', async () => {
      const { firm, clientId, seriesId } = await setup();
      const invoice = await issue(firm, { client_id: clientId, series_id: seriesId });
      const storno = await firm.ok('POST', `/invoices/${invoice.id}/storno`, {});
      // The e-Factura module records submissions in this column; simulate its write.
      await server.storage.db.updateTable('invoices').set({ efactura_status: 'accepted' }).where('id', '=', storno.id).execute();
      expectError(await firm.call('DELETE', `/invoices/${storno.id}`), 409, 'invoice_in_efactura');
    });

    it('converts an issued proforma into a fiscal invoice, once', async () => {
      const { firm, clientId, seriesId } = await setup();
      const pf = await newSeries(firm, { name: 'PF', document_type: 'proforma', is_primary: true });
      const wrongSeries = await firm.call('POST', '/invoices', { client_id: clientId, document_type: 'proforma', series_id: seriesId, items: [LINE] });
      expectError(wrongSeries, 422, 'validation_error');
      const proforma = await issue(firm, { client_id: clientId, document_type: 'proforma', items: MIXED_LINES });
      expect(proforma).toMatchObject({ document_type: 'proforma', series_id: pf.id, full_number: 'PF-2026-0001' });
      const draftPf = await issue(firm, { client_id: clientId, document_type: 'proforma', is_draft: true });
      expectError(await firm.call('POST', `/invoices/${draftPf.id}/convert`, {}), 409, 'invoice_is_draft');
      await firm.ok('PUT', `/clients/${clientId}`, { city: 'Cluj-Napoca' });
      const fiscal = await firm.ok('POST', `/invoices/${proforma.id}/convert`, {});
      expect(fiscal).toMatchObject({
        document_type: 'fiscal', status: 'issued', series_id: seriesId, full_number: 'TJ-2026-0001', converted_from: proforma.id,
        totals: proforma.totals, vat_breakdown: proforma.vat_breakdown,
      });
      expect(fiscal.buyer.city).toBe('Cluj-Napoca');
      expect(await firm.ok('GET', `/invoices/${proforma.id}`)).toMatchObject({ converted_to: fiscal.id, status: 'issued' });
      const twice = await firm.call('POST', `/invoices/${proforma.id}/convert`, {});
      expectError(twice, 409, 'already_converted');
      expect(twice.body.error.message).toContain(fiscal.id);
      expectError(await firm.call('POST', `/invoices/${fiscal.id}/convert`, {}), 409, 'invoice_not_proforma');
      const voidedPf = await issue(firm, { client_id: clientId, document_type: 'proforma' });
      await firm.ok('POST', `/invoices/${voidedPf.id}/storno`, {});
      expectError(await firm.call('POST', `/invoices/${voidedPf.id}/convert`, {}), 409, 'already_voided');
      expectError(await firm.call('POST', '/invoices/inv_nope/convert', {}), 404, 'resource_missing');
    });
  });

  describe('e-invoicing and retries', () => {
    it('refuses e-invoicing without the OAuth link, and accepts it once the company is linked', async () => {
      const { firm, clientId, seriesId } = await setup();
      const res = await firm.call('POST', '/invoices', { client_id: clientId, series_id: seriesId, efactura_enabled: true, items: [LINE] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'oauth_not_configured', type: 'configuration_error', param: 'efactura_enabled' });
      const draft = await issue(firm, { is_draft: true });
      expectError(await firm.call('PUT', `/invoices/${draft.id}`, { efactura_enabled: true }), 400, 'oauth_not_configured');
      // What the e-Factura module writes when a company completes the link.
      await server.storage.db
        .insertInto('anaf_oauth_tokens')
        .values({
          company_id: firm.companyId, access_token: 'a', refresh_token: 'r', encryption: 'none', expires_at: T2026 + 3600,
          refresh_expires_at: null, scope: null, reconsent_required: 0, connected_at: T2026, refreshed_at: null, updated_at: T2026,
        })
        .execute();
      // Linked, but with no address the seller cannot make a valid e-Factura: refused before numbering.
      const bare = await firm.call('POST', '/invoices', { client_id: clientId, series_id: seriesId, efactura_enabled: true, items: [LINE] });
      expectError(bare, 422, 'efactura_invalid_invoice');
      expect(Object.keys(bare.body.error.fields).sort()).toEqual(['seller.address.city', 'seller.address.county_code', 'seller.address.street']);
      await firm.ok('PUT', '/company/profile', { street: 'Str. Memorandumului nr. 28', city: 'Cluj-Napoca', county: 'Cluj' });
      const linked = await issue(firm, { client_id: clientId, series_id: seriesId, efactura_enabled: true, spv_environment: 'test' });
      expect(linked).toMatchObject({ efactura_enabled: true, spv_environment: 'test', efactura_status: 'not_sent', number: 1 });
      // Another company, not linked, is still refused.
      const other = await setup();
      expectError(
        await other.firm.call('POST', '/invoices', { client_id: other.clientId, series_id: other.seriesId, efactura_enabled: true, items: [LINE] }),
        400, 'oauth_not_configured',
      );
    });

    it('answers a repeated client_local_uuid with the invoice already created, even when retries race', async () => {
      const { firm, clientId, seriesId } = await setup();
      const uuid = randomUUID();
      const body = { client_id: clientId, series_id: seriesId, items: MIXED_LINES, client_local_uuid: uuid, device_id: 'dev-a' };
      const replies = await Promise.all(Array.from({ length: 6 }, () => firm.call('POST', '/invoices', body)));
      // One delivery created it (201); every other one is a replay (200, Idempotent-Replayed: true).
      expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      for (const r of replies) expect(r.headers.get('idempotent-replayed')).toBe(r.status === 200 ? 'true' : null);
      const ids = new Set(replies.map((r) => r.body.data.id));
      expect(ids.size).toBe(1);
      for (const r of replies) expect(r.body.data).toEqual(replies[0]!.body.data);
      const list = await firm.ok('GET', `/invoices?series_id=${seriesId}`);
      expect(list.total).toBe(1);
      expect((await firm.ok('GET', `/invoice-series/${seriesId}`)).next_number).toBe(2);
      // The same uuid is another invoice for another company.
      const other = await setup();
      const theirs = await issue(other.firm, { client_id: other.clientId, series_id: other.seriesId, client_local_uuid: uuid });
      expect(theirs.id).not.toBe(replies[0]!.body.data.id);
      expectError(await firm.call('POST', '/invoices', { ...body, client_local_uuid: 'not-a-uuid' }), 422, 'validation_error');
    });

    it('honours Idempotency-Key on create', async () => {
      const { firm, clientId, seriesId } = await setup();
      const body = { client_id: clientId, series_id: seriesId, items: [LINE] };
      const first = await firm.call('POST', '/invoices', body, { 'idempotency-key': 'k-1' });
      const second = await firm.call('POST', '/invoices', body, { 'idempotency-key': 'k-1' });
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.body.data).toEqual(first.body.data);
      expect((await firm.ok('GET', '/invoices')).total).toBe(1);
    });
  });

  describe('delivery date', () => {
    it('keeps the delivery date given, changes it on a draft, leaves it off a storno and carries it into a conversion', async () => {
      const { firm, clientId, seriesId } = await setup();
      const plain = await issue(firm, { client_id: clientId, series_id: seriesId });
      expect(plain.delivery_date).toBeNull();
      const delivered = await issue(firm, { client_id: clientId, series_id: seriesId, delivery_date: '2026-10-30' });
      expect(delivered).toMatchObject({ issue_date: '2026-11-21', delivery_date: '2026-10-30' });
      expect((await firm.ok('GET', `/invoices/${delivered.id}`)).delivery_date).toBe('2026-10-30');
      const stored = await server.storage.db.selectFrom('invoices').select('delivery_date').where('id', '=', delivered.id).executeTakeFirstOrThrow();
      expect(stored.delivery_date).toBe('2026-10-30');
      // A storno reverses the supply; it states no delivery of its own.
      expect((await firm.ok('POST', `/invoices/${delivered.id}/storno`, {})).delivery_date).toBeNull();

      const draft = await issue(firm, { client_id: clientId, is_draft: true, delivery_date: '2026-11-02' });
      expect((await firm.ok('PUT', `/invoices/${draft.id}`, { observations: 'x' })).delivery_date).toBe('2026-11-02');
      expect((await firm.ok('PUT', `/invoices/${draft.id}`, { delivery_date: '2026-11-03' })).delivery_date).toBe('2026-11-03');
      expect((await firm.ok('PUT', `/invoices/${draft.id}`, { delivery_date: null })).delivery_date).toBeNull();

      await newSeries(firm, { name: 'PF', document_type: 'proforma', is_primary: true });
      const proforma = await issue(firm, { client_id: clientId, document_type: 'proforma', delivery_date: '2026-11-20' });
      expect((await firm.ok('POST', `/invoices/${proforma.id}/convert`, {})).delivery_date).toBe('2026-11-20');
    });

    it('refuses a date that is not one, with 422 naming the member, and creates nothing', async () => {
      const { firm, clientId, seriesId } = await setup();
      for (const bad of ['2026-02-30', '30.10.2026', 20261030]) {
        const res = await firm.call('POST', '/invoices', { client_id: clientId, series_id: seriesId, items: [LINE], delivery_date: bad });
        expectError(res, 422, 'validation_error');
        expect(Object.keys(res.body.error.fields)).toEqual(['delivery_date']);
      }
      expect((await firm.ok('GET', '/invoices')).total).toBe(0);
    });
  });

  describe('VAT category of 0% lines', () => {
    const CATEGORY_LINES = [
      { description: 'Piese auto', quantity: 10, price: 120, vat_rate: 0, vat_category: 'K' },
      { description: 'Utilaj', quantity: 1, price: 5000, vat_rate: 0, vat_category: 'G' },
      { description: 'Serviciu cotă zero', quantity: 1, price: 80, vat_rate: 0, vat_category: 'Z' },
      { description: 'Curs autorizat', quantity: 1, price: 100, vat_rate: 0, vat_exemption_reason: 'art. 292 alin. (2) lit. a) Cod fiscal' },
      { ...LINE, vat_rate: 0, vat_category: null, vat_exemption_reason: 'art. 292' },
      LINE,
    ];
    const categories = (invoice: { lines: Array<{ vat_category: string | null }> }) => invoice.lines.map((l) => l.vat_category);
    // Absent or null on a 0% line reads back as E; a line with a rate above 0 has none.
    const EXPECTED = ['K', 'G', 'Z', 'E', 'E', null];

    it('stores it, reads it back, keeps it through a draft edit, and carries it into a storno and a conversion', async () => {
      const { firm, clientId, seriesId } = await setup();
      const created = await issue(firm, { client_id: clientId, series_id: seriesId, items: CATEGORY_LINES });
      expect(categories(created)).toEqual(EXPECTED);
      // Each kind of 0% is its own base in the breakdown (art. 319 (20) l Cod fiscal).
      const BREAKDOWN = [
        { vat_rate: 21, vat_category: null, net: 91, vat: 19.11, total: 110.11 },
        { vat_rate: 0, vat_category: 'E', net: 191, vat: 0, total: 191 },
        { vat_rate: 0, vat_category: 'Z', net: 80, vat: 0, total: 80 },
        { vat_rate: 0, vat_category: 'K', net: 1200, vat: 0, total: 1200 },
        { vat_rate: 0, vat_category: 'G', net: 5000, vat: 0, total: 5000 },
      ];
      expect(created.vat_breakdown).toEqual(BREAKDOWN);
      expect((await firm.ok('GET', `/invoices/${created.id}`)).vat_breakdown).toEqual(BREAKDOWN);
      expect(categories(await firm.ok('GET', `/invoices/${created.id}?expand[]=lines`))).toEqual(EXPECTED);
      const listed = await firm.ok('GET', '/invoices?expand[]=lines');
      expect(categories(listed.data.find((i: { id: string }) => i.id === created.id))).toEqual(EXPECTED);

      const storno = await firm.ok('POST', `/invoices/${created.id}/storno`, {});
      expect(categories(storno)).toEqual(EXPECTED);
      expect(categories(await firm.ok('GET', `/invoices/${storno.id}?expand[]=lines`))).toEqual(EXPECTED);

      // A PUT without items prices the stored lines again: their categories stay.
      const draft = await issue(firm, { is_draft: true, items: CATEGORY_LINES });
      expect(categories(await firm.ok('PUT', `/invoices/${draft.id}`, { observations: 'Livrare în Germania' }))).toEqual(EXPECTED);
      const replaced = await firm.ok('PUT', `/invoices/${draft.id}`, { items: [{ ...LINE, vat_rate: 0, vat_category: 'G' }] });
      expect(categories(replaced)).toEqual(['G']);

      await newSeries(firm, { name: 'PF', document_type: 'proforma', is_primary: true });
      const proforma = await issue(firm, { client_id: clientId, document_type: 'proforma', items: CATEGORY_LINES });
      expect(categories(await firm.ok('POST', `/invoices/${proforma.id}/convert`, {}))).toEqual(EXPECTED);
    });

    it('refuses it on a line with a rate above 0, and an unknown category, in both languages', async () => {
      const { firm, clientId, seriesId } = await setup();
      const res = await firm.call('POST', '/invoices', {
        client_id: clientId, series_id: seriesId, items: [LINE, { ...LINE, vat_category: 'K' }, { ...LINE, vat_rate: 0, vat_category: 'X' }],
      });
      expectError(res, 422, 'validation_error');
      expect(Object.keys(res.body.error.fields).sort()).toEqual(['items.1.vat_category', 'items.2.vat_category']);
      expect(res.body.error.fields['items.1.vat_category']).toBe('Only a 0% line has a VAT category (E, Z, K or G).');
      const ro = await firm.call('POST', '/invoices?locale=ro', { client_id: clientId, series_id: seriesId, items: [{ ...LINE, vat_rate: 9, vat_category: 'Z' }] });
      expectError(ro, 422, 'validation_error');
      expect(ro.body.error.fields).toEqual({ 'items.0.vat_category': 'Doar o linie cu 0% are categorie de TVA (E, Z, K sau G).' });
      const draft = await issue(firm, { is_draft: true });
      const put = await firm.call('PUT', `/invoices/${draft.id}`, { items: [{ ...LINE, vat_category: 'E' }] });
      expectError(put, 422, 'validation_error');
      expect(Object.keys(put.body.error.fields)).toEqual(['items.0.vat_category']);
      // Nothing above took a number.
      expect((await issue(firm, { client_id: clientId, series_id: seriesId })).number).toBe(1);
    });
  });

  it('publishes its routes and error codes in the OpenAPI document, with texts in both languages', async () => {
    const res = await fetch(`${server.base}/openapi.json`);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const path of [
      '/invoices', '/invoices/{id}', '/invoices/{id}/issue', '/invoices/{id}/storno', '/invoices/{id}/convert', '/invoice-series',
      '/invoice-series/{id}/lock', '/invoice-series/{id}/unlock', '/invoice-series/{id}/reservations',
      '/invoice-series/reservations/{token}/release', '/invoice-series/{id}/gaps', '/payments', '/payments/{id}', '/receipts',
      '/receipts/{id}', '/receipt-series', '/receipt-series/{id}/lock', '/receipt-series/{id}/gaps',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    const codes = [
      'series_locked', 'series_not_locked', 'number_out_of_sequence', 'reservation_released', 'reservation_consumed',
      'invoice_not_draft', 'invoice_is_draft', 'invoice_not_deletable', 'invoice_paid', 'invoice_in_efactura', 'already_voided',
      'invoice_is_storno', 'invoice_not_proforma', 'already_converted', 'payment_linked_to_receipt', 'in_use', 'oauth_not_configured',
    ];
    for (const code of codes) {
      const en = messageFor(code, 'en');
      const ro = messageFor(code, 'ro');
      expect(en, code).not.toBe(messageFor('api_error', 'en'));
      expect(ro, code).not.toBe(messageFor('api_error', 'ro'));
      expect(ro, code).not.toBe(en);
    }
  });

  it('answers in Romanian when asked', async () => {
    const { firm } = await setup();
    const res = await firm.call('PUT', '/invoices/inv_nope?locale=ro', {});
    expectError(res, 404, 'resource_missing');
    const draft = await issue(firm, { is_draft: true });
    const storno = await firm.call('POST', `/invoices/${draft.id}/storno?locale=ro`, {});
    expect(storno.body.error.message).toBe('Această operație cere o factură emisă; aceasta este încă ciornă.');
  });
});
