import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { LINE, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from './helpers';

const ISSUERS = 16;
const ROUNDS = 6;

type Outcome = { issued: number[]; released: number[] };

/**
 * One issuer of four kinds, by index: online direct issues, drafts then issued, reservations consumed
 * through POST /invoices (one released for each consumed), single reservations consumed.
 */
async function issuer(firm: Firm, seriesId: string, clientId: string, index: number): Promise<Outcome> {
  const out: Outcome = { issued: [], released: [] };
  const device = `dev-${index}`;
  /** Calls and expects one of `statuses`: 201 for a create, 200 for a replay or another call. */
  const must = async (method: string, path: string, body: unknown, statuses = [200]) => {
    const res = await firm.call(method, path, body);
    if (!statuses.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const CREATED = [201];
  for (let round = 0; round < ROUNDS; round++) {
    switch (index % 4) {
      case 0:
        out.issued.push((await must('POST', '/invoices', { client_id: clientId, series_id: seriesId, items: [LINE] }, CREATED)).number);
        break;
      case 1: {
        const draft = await must('POST', '/invoices', { client_id: clientId, series_id: seriesId, is_draft: true, items: [LINE] }, CREATED);
        out.issued.push((await must('POST', `/invoices/${draft.id}/issue`, {})).number);
        break;
      }
      case 2: {
        const [keep, drop] = (await must('POST', `/invoice-series/${seriesId}/reservations`, { device_id: device, count: 2 }, CREATED)).data;
        const invoice = await must('POST', '/invoices', {
          client_id: clientId, items: [LINE], reservation_token: keep.token, device_id: device, client_local_uuid: randomUUID(),
        }, CREATED);
        out.issued.push(invoice.number);
        out.released.push((await must('POST', `/invoice-series/reservations/${drop.token}/release?device_id=${device}`, undefined)).number);
        break;
      }
      default: {
        const [only] = (await must('POST', `/invoice-series/${seriesId}/reservations`, { device_id: device }, CREATED)).data;
        const uuid = randomUUID();
        const body = { client_id: clientId, items: [LINE], reservation_token: only.token, device_id: device, client_local_uuid: uuid };
        // A sync that retries at once must not make a second invoice: one delivery creates (201), the other replays it (200).
        const [a, b] = await Promise.all([must('POST', '/invoices', body, [200, 201]), must('POST', '/invoices', body, [200, 201])]);
        expect(a.id).toBe(b.id);
        out.issued.push(a.number);
      }
    }
  }
  return out;
}

describe.each(DIALECTS)('numbering under concurrency on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`gives ${ISSUERS} parallel issuers consecutive numbers: no duplicate, no gap but released reservations`, async () => {
    const firm = await newFirm(server);
    const client = await newClient(firm);
    const series = await newSeries(firm);
    const outcomes = await Promise.all(Array.from({ length: ISSUERS }, (_, i) => issuer(firm, series.id, client.id, i)));
    const issued = outcomes.flatMap((o) => o.issued);
    const released = outcomes.flatMap((o) => o.released);
    expect(issued).toHaveLength(ISSUERS * ROUNDS);
    expect(new Set(issued).size).toBe(issued.length);
    const all = [...issued, ...released].sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));

    // What the database holds agrees with what the callers were told.
    const rows = await server.storage.db
      .selectFrom('invoices')
      .select(['number'])
      .where('series_id', '=', series.id)
      .where('status', '=', 'issued')
      .execute();
    expect(rows.map((r) => Number(r.number)).sort((x, y) => x - y)).toEqual([...issued].sort((x, y) => x - y));
    const gaps = await firm.ok('GET', `/invoice-series/${series.id}/gaps?per_page=100`);
    expect(gaps.data.map((g: { number: number }) => g.number)).toEqual([...released].sort((x, y) => x - y));
    expect(gaps.data.every((g: { reason: string }) => g.reason === 'released')).toBe(true);
    expect((await firm.ok('GET', `/invoice-series/${series.id}`)).next_number).toBe(all.length + 1);
  });
});

const RECEIPT_ISSUERS = 12;
const RECEIPT_ROUNDS = 5;

/**
 * Receipts take their series' next number last (server/modules/invoicing/receipt-routes.ts), after
 * the payment and the invoice's paid state are written. One issuer of four kinds, by index: standalone
 * receipts from the named series, receipts paired with an invoice of its own (a payment each), receipts
 * from the work point's default series, and reservations consumed with one released each time.
 */
/** The number in a receipt's printed number (`CONC-12` → 12). */
const receiptNo = (receipt: { receipt_number: string }) => Number(receipt.receipt_number.split('-').pop());

async function receiptIssuer(firm: Firm, seriesId: string, invoiceSeriesId: string, clientId: string, index: number): Promise<Outcome & { defaults: number[] }> {
  const out = { issued: [] as number[], released: [] as number[], defaults: [] as number[] };
  const device = `rdev-${index}`;
  const must = async (method: string, path: string, body: unknown, statuses = [201]) => {
    const res = await firm.call(method, path, body);
    if (!statuses.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body.data;
  };
  const invoice = index % 4 === 1
    ? await must('POST', '/invoices', { client_id: clientId, series_id: invoiceSeriesId, items: [{ ...LINE, price: 1000, quantity: 1 }] })
    : null;
  for (let round = 0; round < RECEIPT_ROUNDS; round++) {
    switch (index % 4) {
      case 0:
        out.issued.push(receiptNo(await must('POST', '/receipts', { series_id: seriesId, client_id: clientId, amount: 10 })));
        break;
      case 1:
        out.issued.push(receiptNo(await must('POST', '/receipts', { series_id: seriesId, invoice_id: invoice.id, amount: 10 })));
        break;
      case 2:
        out.defaults.push(receiptNo(await must('POST', '/receipts', { client_name: 'Ion Popescu', amount: 5 })));
        break;
      default: {
        const [keep, drop] = (await must('POST', `/receipt-series/${seriesId}/reservations`, { device_id: device, count: 2 })).data;
        const receipt = await must('POST', '/receipts', {
          client_id: clientId, amount: 7, reservation_token: keep.token, device_id: device, client_local_uuid: randomUUID(),
        });
        out.issued.push(receiptNo(receipt));
        out.released.push((await must('POST', `/receipt-series/reservations/${drop.token}/release?device_id=${device}`, undefined, [200])).number);
      }
    }
  }
  return out;
}

describe.each(DIALECTS)('receipt numbering under concurrency on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`gives ${RECEIPT_ISSUERS} parallel receipt issuers consecutive numbers in each series: no duplicate, no gap but released reservations`, async () => {
    const firm = await newFirm(server);
    const client = await newClient(firm);
    // The default series first (made on first use by a receipt naming none), then the one named.
    const first = await firm.ok('POST', '/receipts', { client_name: 'Ion Popescu', amount: 1 });
    const series = await firm.ok('POST', '/receipt-series', { prefix: 'CONC' });
    const invoiceSeries = await newSeries(firm);
    const outcomes = await Promise.all(Array.from({ length: RECEIPT_ISSUERS }, (_, i) => receiptIssuer(firm, series.id, invoiceSeries.id, client.id, i)));
    const consecutive = (numbers: number[]) => [...numbers].sort((x, y) => x - y);

    const issued = outcomes.flatMap((o) => o.issued);
    const released = outcomes.flatMap((o) => o.released);
    expect(new Set(issued).size).toBe(issued.length);
    const all = consecutive([...issued, ...released]);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    const defaults = consecutive([receiptNo(first), ...outcomes.flatMap((o) => o.defaults)]);
    expect(defaults).toEqual(Array.from({ length: defaults.length }, (_, i) => i + 1));

    // What the database holds agrees with what the callers were told, payments included.
    const stored = async (id: string) =>
      (await server.storage.db.selectFrom('receipts').select('number').where('series_id', '=', id).execute()).map((r) => Number(r.number));
    expect(consecutive(await stored(series.id))).toEqual(consecutive(issued));
    expect(consecutive(await stored(first.series_id))).toEqual(defaults);
    const payments = await server.storage.db.selectFrom('payments').select('receipt_id').where('company_id', '=', firm.companyId).execute();
    expect(payments).toHaveLength((RECEIPT_ISSUERS / 4) * RECEIPT_ROUNDS);
    const gaps = await firm.ok('GET', `/receipt-series/${series.id}/gaps?per_page=100`);
    expect(gaps.data.map((g: { number: number }) => g.number)).toEqual(consecutive(released));
  });
});
