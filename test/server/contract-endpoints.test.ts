import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { startTestServer, type TestServer } from '../support/server';
import { databaseFingerprint } from '../support/openapi-fuzz';
import { contractText, deriveContractEndpoints, endpointLine, readCommittedEndpoints } from '../support/contract-endpoints';

const committed = readCommittedEndpoints();

/** Routes whose contract checks the resource's state before reading the body ("locked: always expense_locked"). */
const STATE_BEFORE_MEMBERS = new Set(['PUT /expenses/{id}', 'POST /expenses/{id}/pay']);

describe('the contract list of endpoints', () => {
  it('is what the contract names today (re-derived whenever the contract is at ../shared)', () => {
    const text = contractText();
    // CI keeps the contract beside the project (as it does the validators); a checkout without it
    // still walks the committed list below.
    if (text === null) return;
    expect(deriveContractEndpoints(text).map(endpointLine)).toEqual(committed.endpoints);
  });

  it('has the explicit endpoints and the CRUD of every resource the contract names', () => {
    expect(committed.endpoints).toContain('PUT /payments/{id}');
    expect(committed.endpoints).toContain('PUT /languages/{id}');
    expect(committed.endpoints).toContain('POST /invoice-series/reservations/{token}/release');
    expect(committed.endpoints.length).toBeGreaterThanOrEqual(60);
  });
});

describe.each(DIALECTS)('every endpoint of the contract is served on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer(dialect, { rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
    key = (await server.key()).api_key;
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(committed.endpoints)('%s', async (line) => {
    const [method, path] = line.split(' ') as [string, string];
    const url = `/v1${path.replace(/\{(\w+)\}/g, ':$1')}`;
    expect(server.app.hasRoute({ method: method as 'GET', url }), `${line} is not a route`).toBe(true);
    // Called for real with ids that exist nowhere: an answer of the route (404 resource_missing, 422…),
    // never the router's route_not_found, and never a 5xx.
    const concrete = path.replace(/\{year\}/g, '2024').replace(/\{(\w+)\}/g, 'nu_exista');
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    const res = await server.api(key, method, concrete, body);
    // The one 5xx allowed is the server's own configuration (no ANAF clients here), never the input's.
    if (res.status === 503) expect(res.body.error.type, res.text).toBe('configuration_error');
    else expect(res.status, res.text).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.body?.error?.code, res.text).not.toBe('route_not_found');
      expect(res.body.meta.request_id).toBe(res.headers.get('x-request-id'));
    }
  });

  // Nothing lost silently: a member the endpoint does not know is refused by name, and nothing changes.
  it.each(committed.endpoints)('%s refuses an unknown member with 422 unknown_parameter', async (line) => {
    const [method, path] = line.split(' ') as [string, string];
    const concrete = path.replace(/\{year\}/g, '2024').replace(/\{(\w+)\}/g, 'nu_exista');
    const before = await databaseFingerprint(server.storage);
    const inQuery = await server.api(key, method, `${concrete}?necunoscut_q=1`, method === 'GET' || method === 'DELETE' ? undefined : {});
    expect(inQuery.status, inQuery.text).toBe(422);
    expect(inQuery.body.error).toMatchObject({ code: 'unknown_parameter', type: 'validation_error', param: 'necunoscut_q' });
    expect(inQuery.body.error.fields).toHaveProperty('necunoscut_q');
    if (method !== 'GET') {
      const inBody = await server.api(key, method, concrete, { necunoscut_b: 1 });
      if (STATE_BEFORE_MEMBERS.has(line)) {
        // The contract judges the expense before its body: an id of nobody is 404 first (a real one: aliases.test.ts).
        expect(inBody.body.error, inBody.text).toMatchObject({ code: 'resource_missing', param: 'id' });
      } else {
        expect(inBody.status, inBody.text).toBe(422);
        expect(inBody.body.error).toMatchObject({ code: 'unknown_parameter', param: 'necunoscut_b' });
      }
    }
    expect(await databaseFingerprint(server.storage)).toBe(before);
  });
});

describe.each(DIALECTS)('the PUTs the contract names, on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  const call = (method: string, path: string, body?: unknown) => server.api(key, method, path, body);
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  beforeAll(async () => {
    server = await startTestServer(dialect, { rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
    key = (await server.key()).api_key;
    await ok('POST', '/invoice-series', { name: 'TJ', is_primary: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('PUT /payments/{id} changes amount, date and type, recomputes the VAT share and the invoice paid state', async () => {
    const client = (await ok('POST', '/clients', { type: 'person', name: 'Ion Plătitor' })).data;
    const invoice = (await ok('POST', '/invoices', { client_id: client.id, items: [{ description: 'Marfă', quantity: 1, price: 100, vat_rate: 21 }] })).data;
    const payment = (await ok('POST', '/payments', { invoice_id: invoice.id, amount: 21, date: '2026-11-20' })).data;
    server.clock.advance(60);
    const updated = (await ok('PUT', `/payments/${payment.id}`, { amount: 121, date: '2026-11-21', type: 'card' })).data;
    expect(updated).toMatchObject({ id: payment.id, amount: 121, amount_vat: 21, amount_without_vat: 100, date: '2026-11-21', type: 'card', invoice: { id: invoice.id } });
    expect(updated.updated_at).toBe(server.clock.now());
    expect((await ok('GET', `/payments/${payment.id}`)).data).toEqual(updated);
    const row = await server.storage.db.selectFrom('invoices').select(['amount_paid_bani', 'paid_state']).where('id', '=', invoice.id).executeTakeFirstOrThrow();
    expect(Number(row.amount_paid_bani)).toBe(12_100);
    expect(row.paid_state).toBe('paid');
    // Omitted members keep their values; an empty body changes nothing but the stamp.
    expect((await ok('PUT', `/payments/${payment.id}`, {})).data).toMatchObject({ amount: 121, type: 'card', date: '2026-11-21' });
    // More than is due (its own share counted) is refused, and so is cash or another currency.
    const over = await call('PUT', `/payments/${payment.id}`, { amount: 121.01 });
    expect(over.status).toBe(422);
    expect(over.body.error.fields).toHaveProperty('amount');
    expect((await call('PUT', `/payments/${payment.id}`, { type: 'receipt' })).status).toBe(422);
    expect((await call('PUT', `/payments/${payment.id}`, { currency: 'EUR' })).status).toBe(422);
    expect((await call('PUT', '/payments/pay_nope', { amount: 1 })).body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    const paid = await server.storage.db.selectFrom('payments').select('amount_bani').where('id', '=', payment.id).executeTakeFirstOrThrow();
    expect(Number(paid.amount_bani)).toBe(12_100);
  });

  it('PUT /payments/{id} of a receipt payment is 409 payment_linked_to_receipt', async () => {
    const client = (await ok('POST', '/clients', { type: 'person', name: 'Ana Numerar' })).data;
    const invoice = (await ok('POST', '/invoices', { client_id: client.id, items: [{ description: 'Marfă', quantity: 1, price: 10, vat_rate: 21 }] })).data;
    const receipt = (await ok('POST', '/receipts', { invoice_id: invoice.id, amount: 12.1 })).data;
    const payments = (await ok('GET', `/payments?invoice_id=${invoice.id}`)).data.data as Array<{ id: string; receipt_id: string }>;
    expect(payments[0]!.receipt_id).toBe(receipt.id);
    const res = await call('PUT', `/payments/${payments[0]!.id}`, { amount: 1 });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('payment_linked_to_receipt');
  });

  it('PUT /languages/{id} swaps the language of a row; ro stays; a code enabled elsewhere is 409', async () => {
    const en = (await ok('POST', '/languages', { code: 'en' })).data;
    await ok('POST', '/languages', { code: 'de' });
    const fr = (await ok('PUT', `/languages/${en.id}`, { code: 'FR' })).data;
    expect(fr).toEqual({ id: en.id, object: 'language', code: 'fr', name: 'Français', is_default: false });
    expect((await ok('GET', `/languages/${en.id}`)).data).toEqual(fr);
    expect((await ok('PUT', `/languages/${en.id}`, {})).data).toEqual(fr);
    expect((await call('PUT', `/languages/${en.id}`, { code: 'de' })).body.error).toMatchObject({ code: 'already_enabled', status: 409 });
    expect((await call('PUT', '/languages/lang_ro', { code: 'en' })).body.error).toMatchObject({ code: 'is_default', status: 409 });
    expect((await ok('PUT', '/languages/lang_ro', { code: 'ro' })).data.code).toBe('ro');
    expect((await call('PUT', `/languages/${en.id}`, { code: 'xx' })).status).toBe(422);
    expect((await call('PUT', '/languages/lang_nope', { code: 'it' })).status).toBe(404);
    const list = await ok('GET', '/languages');
    expect(list.data.map((l: { code: string }) => l.code)).toEqual(['ro', 'fr', 'de']);
  });

  it('PUT /expenses/{id} with items ignores the header amounts, whatever their values', async () => {
    const supplier = (await ok('POST', '/suppliers', { name: 'Furnizor Linii SRL' })).data;
    const expense = (await ok('POST', '/expenses', { supplier_id: supplier.id, amount: 50, vat: 21 })).data;
    const items = [{ description: 'Hârtie', quantity: 2, unit_price: 12.1, vat: 21 }];
    // Header members that would each be refused on their own: ignored, as the contract says.
    const res = await call('PUT', `/expenses/${expense.id}`, {
      items, amount: 0, vat: 'mix', amount_vat_manual: -5, vat_breakdown: 'nonsens',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.expense).toMatchObject({ vat_percent: 21, amount: { total: '24.20', without_vat: '20.00', vat: '4.20' } });
    // `amount_vat_manual` is ignored when vat is not mix.
    const flat = await call('PUT', `/expenses/${expense.id}`, { items: [], amount: 10, vat: 9, amount_vat_manual: -1 });
    expect(flat.status, flat.text).toBe(200);
    expect(flat.body.expense).toMatchObject({ vat_percent: 9, amount: { total: '10.00', vat: '0.83' } });
  });
});
