import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectError, firm, type Firm } from './helpers';

describe.each(DIALECTS)('GET /expenses on %s', (dialect) => {
  let server: TestServer;
  let f: Firm;
  let alfa: string;
  let beta: string;
  let fuel: number;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer(dialect);
    f = await firm(server);
    alfa = await f.supplier({ name: 'Alfa' });
    beta = await f.supplier({ name: 'Beta' });
    fuel = await f.category('Combustibil');
    const make = async (name: string, body: Record<string, unknown>) => {
      ids[name] = (await f.expense({ supplier_id: alfa, vat: 0, ...body })).id;
    };
    await make('oct', { date: '2026-10-05', amount: 300, reference: 'OCT-1', description: 'Motorină', category_id: fuel, due_date: '2026-10-20' });
    await make('nov1', { date: '2026-11-01', amount: 100, reference: 'NOV-1', description: 'Hârtie', supplier_id: beta });
    await make('nov2', { date: '2026-11-10', amount: 50, reference: 'NOV-2', description: 'Benzină', category_id: fuel, is_paid: true, payment_type: 1 });
    await make('nov3', { date: '2026-11-15', amount: 200, reference: 'NOV-3', currency: 'EUR', exchange_rate: 5, due_date: '2026-12-15' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (query: string) => {
    const res = await f.ok('GET', `/expenses${query}`, undefined);
    return res.body.data as { object: string; total: number; data: { id: string }[]; has_more: boolean; page: number; per_page: number; total_pages: number };
  };
  const names = (page: { data: { id: string }[] }) => page.data.map((e) => Object.keys(ids).find((k) => ids[k] === e.id));

  it('lists the work point expenses, newest date first, as full Expense objects', async () => {
    const page = await list('');
    expect(page).toMatchObject({ object: 'list', total: 4, page: 1, per_page: 50, total_pages: 1, has_more: false });
    expect(names(page)).toEqual(['nov3', 'nov2', 'nov1', 'oct']);
    const got = await f.ok('GET', `/expenses/${ids.nov3}`, undefined);
    expect(page.data[0]).toEqual(got.body.data);
  });

  it('pages, sorts and searches with the common list parameters', async () => {
    const p2 = await list('?per_page=3&page=2');
    expect(p2).toMatchObject({ total: 4, page: 2, per_page: 3, total_pages: 2, has_more: false });
    expect(names(p2)).toEqual(['oct']);
    expect((await list('?per_page=3')).has_more).toBe(true);
    expect(names(await list('?sort=amount&order=asc'))).toEqual(['nov2', 'nov1', 'nov3', 'oct']);
    expect(names(await list('?sort=reference&order=asc'))).toEqual(['nov1', 'nov2', 'nov3', 'oct']);
    expect(names(await list('?search=hârt'))).toEqual(['nov1']);
    expect(names(await list('?search=nov-'))).toEqual(['nov3', 'nov2', 'nov1']);
    expect(names(await list('?start_date=2026-11-01&end_date=2026-11-10'))).toEqual(['nov2', 'nov1']);
    expectError(await f.call('GET', '/expenses?per_page=0'), 422, 'validation_error');
    expectError(await f.call('GET', '/expenses?order=up'), 422, 'validation_error');
    expectError(await f.call('GET', '/expenses?start_date=2026-11-31'), 422, 'validation_error');
  });

  it('filters by supplier, category, currency and status', async () => {
    expect(names(await list(`?supplier_id=${beta}`))).toEqual(['nov1']);
    expect(names(await list(`?category_id=${fuel}`))).toEqual(['nov2', 'oct']);
    expect(names(await list('?currency=eur'))).toEqual(['nov3']);
    expect(names(await list('?status=paid'))).toEqual(['nov2']);
    expect(names(await list('?status=overdue'))).toEqual(['oct']);
    expect(names(await list('?status=unpaid'))).toEqual(['nov3', 'nov1']);
    expectError(await f.call('GET', '/expenses?status=late'), 422, 'validation_error');
  });

  it('shows the selected work point only; another work point of the company sees its own', async () => {
    const branch = await firm(server, { cui: f.cui, workPointName: 'Punct de lucru Cluj' });
    expect(branch.companyId).toBe(f.companyId);
    expect(branch.workPointId).not.toBe(f.workPointId);
    const own = await branch.expense({ supplier_id: alfa, amount: 1, vat: 0 });
    const branchList = await branch.ok('GET', '/expenses', undefined);
    expect(branchList.body.data.data.map((e: { id: string }) => e.id)).toEqual([own.id]);
    expect(own.work_point_id).toBe(branch.workPointId);
    const selected = await branch.ok('GET', `/expenses?work_point_id=${f.workPointId}`, undefined);
    expect(selected.body.data.total).toBe(4);
    // The key reaches every work point of its company.
    await branch.ok('GET', `/expenses/${ids.oct}`, undefined);
    expect((await list('')).total).toBe(4);
  });

  it('needs expenses:read', async () => {
    const other = await firm(server, { cui: f.cui, scopes: ['suppliers:*'] });
    expectError(await other.call('GET', '/expenses'), 403, 'insufficient_permissions');
    expectError(await server.api(null, 'GET', '/expenses'), 401, 'missing_api_key');
  });
});
