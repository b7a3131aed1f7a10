import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectError, firm, type Firm } from './helpers';

describe.each(DIALECTS)('POST /expenses/{id}/pay and GET /expenses/{id}/events on %s', (dialect) => {
  let server: TestServer;
  let f: Firm;
  let supplier: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    f = await firm(server);
    supplier = await f.supplier();
  });
  afterAll(async () => {
    await server?.close();
  });

  const pay = (id: string, body: unknown, query = '') => f.call('POST', `/expenses/${id}/pay${query}`, body);

  it('marks an unpaid expense paid and answers { success, expense, message } at top level', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 121, vat: 21, reference: 'P-1' });
    server.clock.advance(30);
    const res = await pay(e.id, { paid_date: '2026-11-20', payment_type: 2 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expense', 'message', 'meta', 'success']);
    expect(res.body).toMatchObject({ success: true, message: 'Expense marked as paid.' });
    expect(res.body.expense).toMatchObject({
      id: e.id,
      is_paid: true,
      paid_date: '2026-11-20',
      payment_type: { id: 2, name: 'Bank transfer' },
      status: 'paid',
      amount: { total: '121.00' },
      updated_at: '2026-11-21 12:00:30',
    });
    const row = await server.storage.db.selectFrom('expenses').select(['is_paid', 'paid_date', 'payment_type']).where('id', '=', e.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ is_paid: 1, paid_date: '2026-11-20', payment_type: 2 });
    expect((await f.ok('GET', `/expenses/${e.id}`, undefined)).body.data).toEqual(res.body.expense);
  });

  it('audits the payment in expense_events, readable through GET /expenses/{id}/events', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 10, vat: 0 });
    await f.ok('POST', `/expenses/${e.id}/pay`, { paid_date: '2026-11-21', payment_type: 7 });
    const rows = await server.storage.db.selectFrom('expense_events').select(['type', 'seq', 'key_id', 'company_id']).where('expense_id', '=', e.id).orderBy('seq').execute();
    expect(rows.map((r) => [r.type, r.seq])).toEqual([['created', 1], ['paid', 2]]);
    expect(new Set(rows.map((r) => r.company_id))).toEqual(new Set([f.companyId]));
    const res = await f.ok('GET', `/expenses/${e.id}/events`, undefined);
    expect(res.body.data).toMatchObject({ object: 'list', total: 2, page: 1, has_more: false });
    expect(res.body.data.data[1]).toEqual({
      id: expect.stringMatching(/^eev_/),
      object: 'expense_event',
      expense_id: e.id,
      seq: 2,
      type: 'paid',
      data: { paid_date: '2026-11-21', payment_type: 7, via: 'pay' },
      key_id: rows[1]!.key_id,
      work_point_id: f.workPointId,
      created_at: server.clock.now(),
    });
    const newestFirst = await f.ok('GET', `/expenses/${e.id}/events?order=desc&per_page=1`, undefined);
    expect(newestFirst.body.data).toMatchObject({ total: 2, has_more: true, total_pages: 2 });
    expect(newestFirst.body.data.data[0].type).toBe('paid');
    expect(expectError(await f.call('GET', '/expenses/exp_nope/events'), 404, 'resource_missing').param).toBe('id');
  });

  it('answers 400 expense_already_paid for a paid expense, and changes nothing', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 10, vat: 0 });
    await f.ok('POST', `/expenses/${e.id}/pay`, { paid_date: '2026-11-10', payment_type: 1 });
    const again = expectError(await pay(e.id, { paid_date: '2026-11-20', payment_type: 3 }), 400, 'expense_already_paid', 'invalid_request_error');
    expect(again.message).toBe('This expense is already paid.');
    const ro = expectError(await pay(e.id, { paid_date: '2026-11-20', payment_type: 3 }, '?locale=ro'), 400, 'expense_already_paid');
    expect(ro.message).toBe('Această cheltuială este deja plătită.');
    expect((await f.ok('GET', `/expenses/${e.id}`, undefined)).body.data).toMatchObject({ paid_date: '2026-11-10', payment_type: { id: 1 } });
    // "Always": whatever the body.
    expectError(await pay(e.id, { payment_type: 0 }), 400, 'expense_already_paid');
    expectError(await f.call('POST', `/expenses/${e.id}/pay`), 400, 'expense_already_paid');
    const created = await f.expense({ supplier_id: supplier, amount: 10, vat: 0, is_paid: true, payment_type: 6 });
    expectError(await pay(created.id, { paid_date: '2026-11-20', payment_type: 3 }), 400, 'expense_already_paid');
  });

  it('lets exactly one of several simultaneous payments through', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 10, vat: 0 });
    const replies = await Promise.all([1, 2, 3, 4, 5].map((t) => pay(e.id, { paid_date: '2026-11-21', payment_type: t })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const r of replies.filter((x) => x.status === 400)) expect(r.body.error.code).toBe('expense_already_paid');
    const paidEvents = await server.storage.db.selectFrom('expense_events').select('id').where('expense_id', '=', e.id).where('type', '=', 'paid').execute();
    expect(paidEvents).toHaveLength(1);
    const winner = replies.find((r) => r.status === 200)!;
    expect((await f.ok('GET', `/expenses/${e.id}`, undefined)).body.data.payment_type.id).toBe(winner.body.expense.payment_type.id);
  });

  it('answers 422 validation_error with fields for a missing paid_date or a payment type outside 1-7', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 10, vat: 0 });
    const missing = expectError(await pay(e.id, { payment_type: 1 }), 422, 'validation_error', 'validation_error');
    expect(missing.fields).toEqual({ paid_date: 'Required.' });
    expect(missing.param).toBe('paid_date');
    for (const bad of [0, 8, 2.5, '3', null]) {
      const error = expectError(await pay(e.id, { paid_date: '2026-11-20', payment_type: bad }), 422, 'validation_error');
      expect(error.fields!.payment_type).toMatch(/^Payment type must be an integer between 1 and 7/);
    }
    const ro = expectError(await pay(e.id, { paid_date: '2026-11-20', payment_type: 9 }, '?locale=ro'), 422, 'validation_error');
    expect(ro.fields!.payment_type).toMatch(/^Tipul plății trebuie să fie un număr întreg între 1 și 7/);
    const both = expectError(await pay(e.id, {}), 422, 'validation_error');
    expect(Object.keys(both.fields!).sort()).toEqual(['paid_date', 'payment_type']);
    const badDate = expectError(await pay(e.id, { paid_date: '2026-02-29', payment_type: 1 }), 422, 'validation_error');
    expect(badDate.fields!.paid_date).toBe('Must be a date written YYYY-MM-DD.');
    const future = expectError(await pay(e.id, { paid_date: '2026-11-22', payment_type: 1 }), 422, 'validation_error');
    expect(future.fields).toEqual({ paid_date: 'Must not be in the future.' });
    expect((await f.ok('GET', `/expenses/${e.id}`, undefined)).body.data.is_paid).toBe(false);
    expectError(await f.call('POST', `/expenses/${e.id}/pay`, '{"paid_date":'), 400, 'invalid_json');
  });

  it('pays an overdue expense', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 10, vat: 0, date: '2026-10-01', due_date: '2026-10-31' });
    expect(e.status).toBe('overdue');
    const res = await f.ok('POST', `/expenses/${e.id}/pay`, { paid_date: '2026-11-21', payment_type: 4 });
    expect(res.body.expense).toMatchObject({ status: 'paid', payment_type: { id: 4, name: 'Check' } });
  });

  it('answers 404 resource_missing with param id, 401 without a key, 403 without expenses:write', async () => {
    const missing = expectError(await pay('exp_missing', { paid_date: '2026-11-20', payment_type: 1 }), 404, 'resource_missing', 'invalid_request_error');
    expect(missing.param).toBe('id');
    expectError(await pay('exp_missing', { payment_type: 12 }), 404, 'resource_missing');
    const e = await f.expense({ supplier_id: supplier, amount: 10, vat: 0 });
    expectError(await server.api(null, 'POST', `/expenses/${e.id}/pay`, { paid_date: '2026-11-20', payment_type: 1 }), 401, 'missing_api_key');
    const reader = await firm(server, { cui: f.cui, scopes: ['expenses:read'] });
    expectError(await reader.call('POST', `/expenses/${e.id}/pay`, { paid_date: '2026-11-20', payment_type: 1 }), 403, 'insufficient_permissions');
    // Reading the audit trail is a read.
    await reader.ok('GET', `/expenses/${e.id}/events`, undefined);
  });
});
