import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';
import { databaseFingerprint } from '../support/openapi-fuzz';
import { todayAt } from '../../server/platform/bucharest-time';
import { expectError, firm, VALID, type Firm } from './catalog/helpers';

/**
 * The member aliases of Contazen's PHP SDK (docs/api-decisions.md, "Member aliases") and the refusal
 * of members nobody knows: each asserted on what is stored, not only on the status.
 */
describe.each(DIALECTS)('member aliases and unknown members on %s', (dialect) => {
  let server: TestServer;
  let f: Firm;
  const db = () => server.storage.db;
  const line = { description: 'Marfă', quantity: 1, price: 10, vat_rate: 21 };

  beforeAll(async () => {
    server = await startTestServer(dialect, { rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
    f = await firm(server);
    await f.ok('POST', '/invoice-series', { name: 'AL', is_primary: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  const storedProduct = (id: string) => db().selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const storedInvoice = (id: string) => db().selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const storedLines = (id: string) =>
    db().selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('position').execute();

  it('products: sku, unit_of_measure, ubl_um and sell_price are stored as code, unit, unit_code and price', async () => {
    // What the SDK's Products::create sends for a service sold by the hour.
    const res = await f.ok('POST', '/products', {
      name: 'Consultanță', price: 150, sell_price: 150, sku: 'CONS-1', unit_of_measure: 'ore', ubl_um: 'HUR', currency: 'RON', vat_rate: 21,
    });
    const row = await storedProduct(res.body.data.id);
    expect(row).toMatchObject({ code: 'CONS-1', unit: 'ore', unit_code: 'HUR', price: 15_000 });
    expect(res.body.data).toMatchObject({ code: 'CONS-1', unit: 'ore', unit_code: 'HUR', price: 150 });
    // On an update too.
    await f.ok('PUT', `/products/${res.body.data.id}`, { sku: 'CONS-2', unit_of_measure: 'zi', ubl_um: 'DAY' });
    expect(await storedProduct(res.body.data.id)).toMatchObject({ code: 'CONS-2', unit: 'zi', unit_code: 'DAY' });
  });

  it('products: an alias and its contract name with the same value pass; with different values, 422 alias_conflict and nothing stored', async () => {
    const same = await f.ok('POST', '/products', { name: 'Pâine', price: 5, sku: 'P-1', code: 'P-1' });
    expect((await storedProduct(same.body.data.id)).code).toBe('P-1');
    const before = await databaseFingerprint(server.storage);
    const error = expectError(await f.call('POST', '/products', { name: 'Lapte', price: 7, sku: 'L-1', code: 'L-2' }), 422, 'alias_conflict');
    expect(error.fields).toHaveProperty('sku');
    expectError(await f.call('POST', '/products', { name: 'Lapte', price: 7, sell_price: 8 }), 422, 'alias_conflict');
    expect(await databaseFingerprint(server.storage)).toBe(before);
  });

  it('invoices: date and due_days give the issue and due date; line name is the description, unit_of_measure the unit', async () => {
    const client = (await f.ok('POST', '/clients', { type: 'person', name: 'Ion Termen' })).body.data;
    const res = await f.ok('POST', '/invoices', {
      client_id: client.id, date: '2026-11-02', due_days: 30, currency: 'RON', document_type: 'fiscal',
      items: [{ name: 'Abonament', quantity: 2, price: 10, vat_rate: 21, unit_of_measure: 'luna', ubl_um: 'MON' }],
    });
    expect(await storedInvoice(res.body.data.id)).toMatchObject({ issue_date: '2026-11-02', due_date: '2026-12-02' });
    expect(await storedLines(res.body.data.id)).toMatchObject([{ description: 'Abonament', unit: 'luna', unit_code: 'MON' }]);
    // Without a date, due_days counts from the service's today (Europe/Bucharest).
    const today = todayAt(server.clock.now());
    const plain = await f.ok('POST', '/invoices', { client_id: client.id, due_days: 0, items: [line] });
    expect(await storedInvoice(plain.body.data.id)).toMatchObject({ issue_date: today, due_date: today });
  });

  it('invoices: notes (what createFromOrder sends) is stored as observations, on a create and a draft update', async () => {
    const client = (await f.ok('POST', '/clients', { type: 'person', name: 'Ion Comandă' })).body.data;
    const res = await f.ok('POST', '/invoices', { client_id: client.id, is_draft: true, notes: 'Comanda 1042', items: [line] });
    expect(await storedInvoice(res.body.data.id)).toMatchObject({ observations: 'Comanda 1042' });
    await f.ok('PUT', `/invoices/${res.body.data.id}`, { notes: 'Comanda 1043' });
    expect(await storedInvoice(res.body.data.id)).toMatchObject({ observations: 'Comanda 1043' });
    const before = await databaseFingerprint(server.storage);
    expectError(await f.call('POST', '/invoices', { client_id: client.id, notes: 'a', observations: 'b', items: [line] }), 422, 'alias_conflict');
    expect(await databaseFingerprint(server.storage)).toBe(before);
  });

  it('invoices: due_days on a draft update needs the issue date in the same request; a bad due_days is refused by name', async () => {
    const client = (await f.ok('POST', '/clients', { type: 'person', name: 'Ana Ciornă' })).body.data;
    const draft = (await f.ok('POST', '/invoices', { client_id: client.id, is_draft: true, issue_date: '2026-11-10', items: [line] })).body.data;
    await f.ok('PUT', `/invoices/${draft.id}`, { date: '2026-11-11', due_days: 14 });
    expect(await storedInvoice(draft.id)).toMatchObject({ issue_date: '2026-11-11', due_date: '2026-11-25' });
    const before = await databaseFingerprint(server.storage);
    expect(expectError(await f.call('PUT', `/invoices/${draft.id}`, { due_days: 5 }), 422, 'validation_error').fields).toHaveProperty('due_days');
    expect(expectError(await f.call('POST', '/invoices', { client_id: client.id, due_days: 1.5, items: [line] }), 422, 'validation_error').fields)
      .toHaveProperty('due_days');
    expectError(await f.call('POST', '/invoices', { client_id: client.id, due_days: 3, due_date: '2030-01-01', items: [line] }), 422, 'alias_conflict');
    expect(await databaseFingerprint(server.storage)).toBe(before);
  });

  it('invoices: client_data is the inline client, with the SDK names of its members (type b2b, rc, cui_prefix)', async () => {
    const res = await f.ok('POST', '/invoices', {
      client_data: { type: 'b2b', name: 'Client Nou SRL', cui_prefix: 'RO', cui: VALID.cui, rc: 'J40/1/2020', email: 'contabil@client.ro', country: 'RO' },
      items: [line],
    });
    const invoice = await storedInvoice(res.body.data.id);
    const client = await db().selectFrom('clients').selectAll().where('id', '=', invoice.client_id!).executeTakeFirstOrThrow();
    expect(client).toMatchObject({ type: 'company', name: 'Client Nou SRL', cui: VALID.cui, reg_com: 'J40/1/2020', email: 'contabil@client.ro' });
    expect(res.body.data.client_id).toBe(client.id);
    // The same names on POST /clients: an individual, and a VAT payer given as prefix + digits.
    const person = (await f.ok('POST', '/clients', { type: 'individual', name: 'Maria Persoană' })).body.data;
    expect(person.type).toBe('person');
    const payer = (await f.ok('POST', '/clients', { name: 'Plătitor TVA SRL', cui_prefix: 'RO', cui: VALID.cui2 })).body.data;
    expect(payer).toMatchObject({ cui: VALID.cui2, vat_payer: true });
  });

  it('lists: q is search; the SDK sort and status values are ours (date, sent, paid, cancelled, overdue)', async () => {
    const g = await firm(server);
    await g.ok('POST', '/invoice-series', { name: 'LS', is_primary: true });
    const client = (await g.ok('POST', '/clients', { type: 'person', name: 'Vasile Listă' })).body.data;
    await g.ok('POST', '/products', { name: 'Căpșuni de grădină', price: 12 });
    await g.ok('POST', '/products', { name: 'Mere', price: 4 });
    const found = (await g.ok('GET', '/products?q=capsuni')).body.data.data as Array<{ name: string }>;
    expect(found.map((p) => p.name)).toEqual(['Căpșuni de grădină']);
    const old = (await g.ok('POST', '/invoices', { client_id: client.id, date: '2026-01-05', due_days: 10, items: [line] })).body.data;
    const later = (await g.ok('POST', '/invoices', { client_id: client.id, date: '2026-03-05', items: [line] })).body.data;
    const draft = (await g.ok('POST', '/invoices', { client_id: client.id, is_draft: true, items: [line] })).body.data;
    await g.ok('POST', '/payments', { invoice_id: later.id, amount: 12.1 }, 201);
    const ids = async (query: string) => ((await g.ok('GET', `/invoices?${query}`)).body.data.data as Array<{ id: string }>).map((i) => i.id);
    expect(await ids('sort=date&order=asc&status=sent')).toEqual([old.id, later.id]);
    expect(await ids('status=paid')).toEqual([later.id]);
    expect(await ids('status=overdue')).toEqual([old.id]);
    expect(await ids('status=draft')).toEqual([draft.id]);
    expect(await ids('status=cancelled')).toEqual([]);
    expectError(await g.call('GET', '/invoices?status=paid&paid_state=unpaid'), 422, 'alias_conflict');
    expectError(await g.call('GET', '/products?q=mere&search=pere'), 422, 'alias_conflict');
  });

  it('the SDK work point in a write body is the query work point; another one than the query is a conflict', async () => {
    const me = await server.key();
    const wp = me.work_point_id;
    const res = await server.api(me.api_key, 'POST', '/products', { name: 'Cu punct', price: 1, work_point_id: wp });
    expect(res.status, res.text).toBe(201);
    const other = await server.api(me.api_key, 'POST', `/products?work_point_id=${wp}`, { name: 'Alt punct', price: 1, work_point_id: 'wp_altul' });
    expectError(other, 422, 'alias_conflict');
    // A work point of nobody, given in the body, is looked up like the query's: 404.
    expectError(await server.api(me.api_key, 'POST', '/products', { name: 'Nicăieri', price: 1, firm_id: 'wp_nimeni' }), 404, 'resource_missing');
  });

  it('unknown members (body, nested line, inline client, query) are refused with 422 unknown_parameter naming each, nothing stored', async () => {
    const client = (await f.ok('POST', '/clients', { type: 'person', name: 'Nimic Pierdut' })).body.data;
    const before = await databaseFingerprint(server.storage);
    // The products of the issue: members we do not have are refused, not dropped.
    let error = expectError(await f.call('POST', '/products', { name: 'Stoc', price: 1, track_stock: true, ubl_cpv: '123' }), 422, 'unknown_parameter');
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['track_stock', 'ubl_cpv']);
    expect(error.param).toBe('track_stock');
    error = expectError(
      await f.call('POST', '/invoices', {
        client_id: client.id, send_email: true,
        items: [line, { ...line, sku: 'X-1' }],
      }),
      422,
      'unknown_parameter',
    );
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['items.1.sku', 'send_email']);
    error = expectError(
      await f.call('POST', '/invoices', { client: { name: 'Firmă', contact_person: 'Ion' }, items: [line] }),
      422,
      'unknown_parameter',
    );
    expect(Object.keys(error.fields ?? {})).toEqual(['client.contact_person']);
    // A misspelt required member: named as unknown, and the member it was meant for as missing.
    error = expectError(await f.call('POST', '/invoices', { client_id: client.id, items: [{ ...line, description: undefined, descripton: 'x' }] }), 422, 'unknown_parameter');
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['items.0.description', 'items.0.descripton']);
    // Query members, on a list and on a retrieve; in Romanian with `locale=ro`.
    error = expectError(await f.call('GET', '/invoices?is_paid=1&currency=EUR&locale=ro'), 422, 'unknown_parameter');
    expect(error.fields).toEqual({
      is_paid: 'Câmp necunoscut: acest endpoint nu îl acceptă.',
      currency: 'Câmp necunoscut: acest endpoint nu îl acceptă.',
    });
    expect(error.message).toMatch(/nu le cunoaște/);
    expectError(await f.call('GET', `/clients/${client.id}?expand=payments`), 422, 'unknown_parameter');
    expect(await databaseFingerprint(server.storage)).toBe(before);
    // The expense routes that judge the expense before the body refuse unknown members after that.
    const supplier = (await f.ok('POST', '/suppliers', { name: 'Furnizor Necunoscut SRL' })).body.data;
    const expense = (await f.ok('POST', '/expenses', { supplier_id: supplier.id, amount: 10, vat: 0 }, 201)).body;
    const expenseId = (expense.expense ?? expense.data ?? expense).id as string;
    const midway = await databaseFingerprint(server.storage);
    expect(expectError(await f.call('PUT', `/expenses/${expenseId}`, { amount: 20, nota: 'x' }), 422, 'unknown_parameter').fields).toHaveProperty('nota');
    expectError(await f.call('POST', `/expenses/${expenseId}/pay`, { paid_date: '2026-11-20', payment_type: 1, metoda: 'card' }), 422, 'unknown_parameter');
    expect(await databaseFingerprint(server.storage)).toBe(midway);
    // A body sent to a route that takes none.
    expectError(await f.call('DELETE', `/clients/${client.id}`, { motiv: 'test' }), 422, 'unknown_parameter');
    expect(await databaseFingerprint(server.storage)).toBe(midway);
  });
});
