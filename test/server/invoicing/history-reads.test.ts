import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../../../server/app';
import { createApiKey } from '../../../server/platform/api-keys';
import { newId } from '../../../server/platform/ids';
import { createTestStorage, DIALECTS, type TestStorage } from '../../support/storage';

/**
 * Reads that must not walk a firm's history (bench/catalog-usage.ts, 100,000 invoices): the first page
 * of GET /payments and its count read one index, never the invoices. GET /invoices/stats still walks
 * the period's invoices (the sales journal's own computation, page by page, other requests served in
 * between: test/server/accounting/long-walks.test.ts); its totals are pinned here to the journal's to
 * the ban, whatever the documents, for whoever makes it an aggregate.
 */
describe.each(DIALECTS)('history reads on %s', (dialect) => {
  let t: TestStorage;
  let app: ReturnType<typeof buildApp>['app'];
  let headers: Record<string, string>;
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data?: unknown };
    return (body.data && !Array.isArray(body.data) ? body.data : body) as Record<string, unknown>;
  };
  beforeAll(async () => {
    t = await createTestStorage(dialect);
    app = buildApp({ storage: t.storage, validateResponses: true }).app;
    await app.ready();
    const { api_key: key } = await createApiKey(t.storage.db, { companyName: 'Firma SRL', cui: '18547290', now: Math.floor(Date.now() / 1000) });
    headers = { authorization: `Bearer ${key}` };
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('answers invoice stats equal to the sales journal, for every kind of part, rate and firm', async () => {
    const db = t.storage.db;
    const post = async (url: string, payload: Record<string, unknown>) => {
      const res = await app.inject({ method: 'POST', url, headers, payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return (res.json() as { data: { id: string } }).data.id;
    };
    const client = await post('/v1/clients', { name: 'Client SRL', cui: 'RO18547290' });
    const series = await post('/v1/invoice-series', { name: 'CU' });
    const id = await post('/v1/invoices', { client_id: client, series_id: series, items: [{ description: 'Cafea', quantity: 1, price: 45.5, vat_rate: 21 }] });
    await post('/v1/payments', { invoice_id: id, amount: 20.01 });
    const template = await db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const line = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).executeTakeFirstOrThrow();
    const payment = await db.selectFrom('payments').selectAll().where('invoice_id', '=', id).executeTakeFirstOrThrow();
    const date = template.issue_date;
    // Amounts chosen so that each conversion rounds (half away from zero, negatives of a storno too).
    const docs: Array<{ currency: string; rate: number | null; reverse: number; status: 'issued' | 'voided' | 'storno'; parts: object[]; lines: Array<['K' | 'G', number, number]> }> = [
      { currency: 'EUR', rate: 4.97335, reverse: 0, status: 'issued', parts: [{ vat_rate_bp: 2100, net_bani: 10001, vat_bani: 2100 }, { vat_rate_bp: 1100, vat_category: null, net_bani: 333, vat_bani: 37 }], lines: [] },
      { currency: 'RON', rate: null, reverse: 0, status: 'storno', parts: [{ vat_rate_bp: 2100, net_bani: -4550, vat_bani: -956 }, { vat_rate_bp: 1700, net_bani: -101, vat_bani: -17 }], lines: [] },
      { currency: 'USD', rate: 4.3211, reverse: 0, status: 'issued', parts: [{ vat_rate_bp: 0, vat_category: 'K', net_bani: 10007, vat_bani: 0 }, { vat_rate_bp: 0, vat_category: 'G', net_bani: 5003, vat_bani: 0 }], lines: [['K', 1, 3001], ['K', 0, 7006], ['G', 1, 5003]] },
      { currency: 'RON', rate: null, reverse: 0, status: 'voided', parts: [{ vat_rate_bp: 0, vat_category: 'K', net_bani: -777, vat_bani: 0 }, { vat_rate_bp: 0, vat_category: 'Z', net_bani: 500, vat_bani: 0 }, { vat_rate_bp: 0, net_bani: 250, vat_bani: 0 }], lines: [['K', 1, 333], ['K', 0, -1110]] },
      { currency: 'EUR', rate: 5.0001, reverse: 1, status: 'issued', parts: [{ vat_rate_bp: 2100, net_bani: 12345, vat_bani: 0 }], lines: [] },
      { currency: 'EUR', rate: 4.9, reverse: 0, status: 'issued', parts: [], lines: [] },
      { currency: 'RON', rate: null, reverse: 0, status: 'issued', parts: [{ vat_rate_bp: 0, vat_category: 'G', net_bani: 900, vat_bani: 0 }], lines: [['G', 1, 450], ['G', 1, -450]] },
    ];
    for (const [k, d] of docs.entries()) {
      const inv = newId('inv');
      await db.insertInto('invoices').values({
        ...template, id: inv, number: 1000 + k, full_number: `T-${k}`, client_local_uuid: null, currency: d.currency, exchange_rate: d.rate,
        reverse_charge: d.reverse, status: d.status, vat_breakdown_json: JSON.stringify(d.parts),
      }).execute();
      for (const [n, [cat, service, net]] of d.lines.entries()) {
        await db.insertInto('invoice_lines').values({ ...line, id: newId('lin'), invoice_id: inv, position: n + 1, vat_rate_bp: 0, vat_category: cat, is_service: service, net_bani: net }).execute();
      }
      await db.insertInto('payments').values({ ...payment, id: newId('pay'), invoice_id: inv, amount_without_vat_bani: 1001 + k, amount_vat_bani: 211 + k, client_local_uuid: null }).execute();
    }
    const period = `start_date=${date.slice(0, 8)}01&end_date=${date}`;
    for (const collection of [0, 1]) {
      const res = await app.inject({ method: 'PUT', url: '/v1/company/profile', headers, payload: { vat_on_collection: collection === 1 } });
      expect(res.statusCode, res.body).toBe(200);
      const stats = await get(`/v1/invoices/stats?${period}`);
      const journal = await get(`/v1/accounting/journals/sales?${period}`);
      expect(stats.document_count).toBe(docs.length + 1 + (collection ? docs.length + 1 - 1 : 0));
      expect(stats).toEqual({
        object: 'invoice_stats', start_date: `${date.slice(0, 8)}01`, end_date: date, currency: 'RON',
        document_count: journal.document_count, columns: journal.columns, column_titles: journal.column_titles, totals: journal.totals, warnings: [],
      });
      expect(Object.values(stats.totals as Record<string, number>).filter((v) => v !== 0).length).toBeGreaterThan(collection ? 14 : 10);
    }
  });

  it('lists the first page of payments and counts them from one index, the invoices left alone', async () => {
    const db = t.storage.db;
    const first = await get('/v1/payments');
    const numbers = (first.data as Array<{ invoice: { number: string | null } }>).map((p) => p.invoice.number);
    expect(numbers.length).toBe(8);
    expect(numbers.every((n) => typeof n === 'string' && n !== '')).toBe(true);
    expect(first.total).toBe((first.data as unknown[]).length);
    if (dialect === 'sqlite') {
      const plan = async (q: ReturnType<typeof sql>) => (await sql<{ detail: string }>`explain query plan ${q}`.execute(db)).rows.map((r) => r.detail).join('\n');
      const page = await plan(sql`select payments.id from payments where company_id = ${'c'} and work_point_id = ${'w'} order by date desc, id desc limit 50`);
      expect(page).toMatch(/SEARCH payments USING (COVERING )?INDEX payments_list_page \(company_id=\? AND work_point_id=\?\)/);
      expect(page).not.toMatch(/TEMP B-TREE/);
      const stats = await plan(sql`select currency, type, count(*), sum(amount_bani) from payments where company_id = ${'c'} and work_point_id = ${'w'} group by currency, type order by currency, type`);
      expect(stats).toMatch(/SEARCH payments USING COVERING INDEX payments_stats/);
      expect(stats).not.toMatch(/TEMP B-TREE/);
    } else {
      const rows = await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and tablename = 'payments'`.execute(db);
      const defs = rows.rows.map((r) => r.indexdef).join('\n');
      expect(defs).toMatch(/\(company_id, work_point_id, date, id\)/);
      expect(defs).toMatch(/\(company_id, work_point_id, currency, type, date, amount_bani\)/);
    }
  });
});
