import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectIsolated } from '../../support/tenancy';
import { expectError, firm, type Firm } from './helpers';

/**
 * A key of one company never sees nor touches another company's suppliers, categories, expenses or
 * audit trail: every such row answers exactly like a missing one.
 */
describe.each(DIALECTS)('expenses tenancy on %s', (dialect) => {
  let server: TestServer;
  let a: Firm;
  let b: Firm;
  let supplier: string;
  let category: number;
  let expense: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    a = await firm(server);
    b = await firm(server);
    supplier = await a.supplier({ name: 'Furnizorul lui A', cui: 'RO1590082' });
    category = await a.category('Categoria lui A');
    expense = (await a.expense({ supplier_id: supplier, category_id: category, amount: 121, vat: 21, reference: 'A-1' })).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 404 resource_missing for every route that names another company’s row', async () => {
    const attempts: [string, string, unknown?][] = [
      ['GET', `/suppliers/${supplier}`],
      ['PUT', `/suppliers/${supplier}`, { name: 'furat' }],
      ['DELETE', `/suppliers/${supplier}`],
      ['GET', `/expense-categories/${category}`],
      ['PUT', `/expense-categories/${category}`, { name: 'furat' }],
      ['DELETE', `/expense-categories/${category}`],
      ['GET', `/expenses/${expense}`],
      ['PUT', `/expenses/${expense}`, { description: 'furat' }],
      ['POST', `/expenses/${expense}/pay`, { paid_date: '2026-11-20', payment_type: 1 }],
      ['GET', `/expenses/${expense}/events`],
    ];
    for (const [method, path, body] of attempts) {
      const theirs = expectError(await b.call(method, path, body), 404, 'resource_missing');
      expect(theirs.param, `${method} ${path}`).toBe('id');
    }
    // The same routes work for the owner, and nothing was changed by the attempts above.
    const own = await a.ok('GET', `/expenses/${expense}`, undefined);
    expect(own.body.data).toMatchObject({ description: null, is_paid: false, supplier_id: supplier, category_id: category });
    expect((await a.ok('GET', `/suppliers/${supplier}`, undefined)).body.data.name).toBe('Furnizorul lui A');
    expect((await a.ok('GET', `/expense-categories/${category}`, undefined)).body.data.name).toBe('Categoria lui A');
    const events = await a.ok('GET', `/expenses/${expense}/events`, undefined);
    expect(events.body.data.total).toBe(1);
  });

  it('isolates suppliers, categories, expenses and their audit trail (expectIsolated)', async () => {
    const post = async (key: string, path: string, body: unknown) => {
      const res = await server.api(key, 'POST', path, body);
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as string | number;
    };
    const newExpense = async (key: string) => {
      const supplierId = await post(key, '/suppliers', { name: 'Izolat SRL' });
      return String(await post(key, '/expenses', { supplier_id: supplierId, amount: 12.1, vat: 21, reference: 'ISO-1' }));
    };
    await expectIsolated(server, {
      create: async (key) => String(await post(key, '/suppliers', { name: 'Izolat SRL', cui: 'RO14399840' })),
      paths: (id) => [`/suppliers/${id}`],
      update: { name: 'Schimbat' },
      lists: ['/suppliers'],
    });
    await expectIsolated(server, {
      create: async (key) => String(await post(key, '/expense-categories', { name: 'Izolată' })),
      paths: (id) => [`/expense-categories/${id}`],
      update: { name: 'Schimbată' },
      // No `lists` here: the helper matches string ids, and category ids are integers (the list is checked below).
    });
    await expectIsolated(server, {
      create: newExpense,
      paths: (id) => [`/expenses/${id}`],
      methods: ['GET', 'PUT'],
      update: { description: 'Schimbată' },
      lists: ['/expenses'],
    });
    await expectIsolated(server, { create: newExpense, paths: (id) => [`/expenses/${id}/events`], methods: ['GET'] });
  });

  it('lists only the company’s own rows', async () => {
    await b.supplier({ name: 'Furnizorul lui B' });
    await b.category('Categoria lui B');
    for (const path of ['/suppliers', '/expense-categories', '/expenses', '/accounting/periods']) {
      const theirs = await b.ok('GET', path, undefined);
      const json = JSON.stringify(theirs.body.data);
      expect(json, path).not.toContain('lui A');
      expect(json, path).not.toContain(expense);
    }
    expect((await b.ok('GET', '/expenses', undefined)).body.data.total).toBe(0);
    expect((await a.ok('GET', '/expenses', undefined)).body.data.total).toBe(1);
  });

  it('refuses another company’s supplier or category on an expense of its own', async () => {
    const error = expectError(await b.call('POST', '/expenses', { supplier_id: supplier, category_id: category, amount: 1, vat: 0 }), 422, 'validation_error');
    expect(error.fields).toEqual({ supplier_id: 'No such supplier in this company.', category_id: 'No such expense category in this company.' });
    const mine = await b.expense({ supplier_id: await b.supplier(), amount: 1, vat: 0 });
    const put = expectError(await b.call('PUT', `/expenses/${mine.id}`, { supplier_id: supplier, category_id: category }), 422, 'validation_error');
    expect(Object.keys(put.fields!).sort()).toEqual(['category_id', 'supplier_id']);
  });

  it('keeps CUI uniqueness per company', async () => {
    const res = await b.ok('POST', '/suppliers', { name: 'Același CUI', cui: '1590082' }, 201);
    expect(res.body.data.cui).toBe('1590082');
  });

  it('refuses a work point of another company (404 work_point_id)', async () => {
    const error = expectError(await b.call('GET', `/expenses?work_point_id=${a.workPointId}`), 404, 'resource_missing');
    expect(error.param).toBe('work_point_id');
  });
});
