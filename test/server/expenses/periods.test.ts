import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectError, firm, type Firm } from './helpers';

describe.each(DIALECTS)('accounting periods and expense_locked on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A firm with an expense dated in October, then October closed. */
  async function closedOctober(): Promise<{ f: Firm; supplier: string; october: { id: string } & Record<string, unknown> }> {
    const f = await firm(server);
    const supplier = await f.supplier();
    const october = await f.expense({ supplier_id: supplier, date: '2026-10-15', amount: 121, vat: 21, description: 'Octombrie' });
    await f.ok('POST', '/accounting/periods/close', { month: '2026-10' });
    return { f, supplier, october };
  }

  it('closes a month that has ended and lists it; closing it again answers the same period', async () => {
    const f = await firm(server);
    const first = await f.ok('POST', '/accounting/periods/close', { month: '2026-09' });
    expect(first.body).toMatchObject({ success: true, data: { object: 'accounting_period', month: '2026-09', status: 'closed', closed_at: server.clock.now() } });
    const closedAt = first.body.data.closed_at;
    server.clock.advance(3600);
    const again = await f.ok('POST', '/accounting/periods/close', { month: '2026-09' });
    expect(again.body.data.closed_at).toBe(closedAt);
    await f.ok('POST', '/accounting/periods/close', { month: '2026-10' });
    const list = await f.ok('GET', '/accounting/periods', undefined);
    expect(list.body.data).toMatchObject({ object: 'list', total: 2 });
    expect(list.body.data.data.map((p: { month: string }) => p.month)).toEqual(['2026-10', '2026-09']);
    const asc = await f.ok('GET', '/accounting/periods?order=asc&per_page=1', undefined);
    expect(asc.body.data).toMatchObject({ total: 2, has_more: true });
    expect(asc.body.data.data[0].month).toBe('2026-09');
  });

  it('refuses the current month, a future month and a malformed one (422 validation_error)', async () => {
    const f = await firm(server);
    for (const month of ['2026-11', '2027-01']) {
      const error = expectError(await f.call('POST', '/accounting/periods/close', { month }), 422, 'validation_error');
      expect(error.fields).toEqual({ month: 'Only a month that has ended can be closed.' });
    }
    for (const month of ['2026-13', '2026-1', 202610, undefined]) {
      expect(Object.keys(expectError(await f.call('POST', '/accounting/periods/close', { month }), 422, 'validation_error').fields!)).toEqual(['month']);
    }
    expect((await f.ok('GET', '/accounting/periods', undefined)).body.data.total).toBe(0);
  });

  it('locks expenses dated in a closed month: PUT answers expense_locked and changes nothing', async () => {
    const { f, october } = await closedOctober();
    const got = await f.ok('GET', `/expenses/${october.id}`, undefined);
    expect(got.body.data.is_locked).toBe(true);
    const res = await f.call('PUT', `/expenses/${october.id}`, { description: 'schimbat', amount: 1 });
    const error = expectError(res, 409, 'expense_locked', 'invalid_request_error');
    expect(error.message).toBe('This expense is dated in the closed accounting month 2026-10 and can no longer be changed.');
    expect(error.param).toBe('id');
    const ro = expectError(await f.call('PUT', `/expenses/${october.id}?locale=ro`, { is_paid: true, payment_type: 1 }), 409, 'expense_locked');
    expect(ro.message).toContain('luna contabilă închisă 2026-10');
    // "Always": even a body that would not validate gets expense_locked.
    expectError(await f.call('PUT', `/expenses/${october.id}`, { amount: -5, payment_type: 99 }), 409, 'expense_locked');
    const after = await f.ok('GET', `/expenses/${october.id}`, undefined);
    expect(after.body.data).toEqual(got.body.data);
    const events = await server.storage.db.selectFrom('expense_events').select('type').where('expense_id', '=', october.id).execute();
    expect(events.map((e) => e.type)).toEqual(['created']);
  });

  it('still pays a locked expense in an open month, but not into a closed one', async () => {
    const { f, october } = await closedOctober();
    const closed = expectError(await f.call('POST', `/expenses/${october.id}/pay`, { paid_date: '2026-10-31', payment_type: 2 }), 409, 'accounting_period_closed');
    expect(closed.param).toBe('paid_date');
    expect(closed.message).toContain('2026-10');
    const paid = await f.ok('POST', `/expenses/${october.id}/pay`, { paid_date: '2026-11-03', payment_type: 2 });
    expect(paid.body.expense).toMatchObject({ is_paid: true, paid_date: '2026-11-03', is_locked: true });
  });

  it('refuses to create, move or mark paid anything into a closed month (409 accounting_period_closed)', async () => {
    const { f, supplier } = await closedOctober();
    const before = await server.storage.db.selectFrom('expenses').select('id').where('company_id', '=', f.companyId).execute();
    const create = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, date: '2026-10-31', amount: 1, vat: 0 }), 409, 'accounting_period_closed');
    expect(create.param).toBe('date');
    expectError(await f.call('POST', '/expenses', { supplier_id: supplier, date: '2026-11-01', amount: 1, vat: 0, is_paid: true, payment_type: 1, paid_date: '2026-10-30' }), 409, 'accounting_period_closed');
    const after = await server.storage.db.selectFrom('expenses').select('id').where('company_id', '=', f.companyId).execute();
    expect(after).toHaveLength(before.length);

    const november = await f.expense({ supplier_id: supplier, date: '2026-11-02', amount: 1, vat: 0 });
    expectError(await f.call('PUT', `/expenses/${november.id}`, { date: '2026-10-20' }), 409, 'accounting_period_closed');
    expectError(await f.call('PUT', `/expenses/${november.id}`, { is_paid: true, payment_type: 1, paid_date: '2026-10-30' }), 409, 'accounting_period_closed');
    expect((await f.ok('GET', `/expenses/${november.id}`, undefined)).body.data).toMatchObject({ date: '2026-11-02', is_paid: false });
    // Within open months it moves freely.
    await f.ok('PUT', `/expenses/${november.id}`, { date: '2026-11-05' });
  });

  it('a month closed by one company locks nothing of another', async () => {
    await closedOctober();
    const other = await firm(server);
    const e = await other.expense({ supplier_id: await other.supplier(), date: '2026-10-15', amount: 1, vat: 0 });
    expect(e.is_locked).toBe(false);
    await other.ok('PUT', `/expenses/${e.id}`, { description: 'liber' });
    expect((await other.ok('GET', '/accounting/periods', undefined)).body.data.total).toBe(0);
  });

  it('needs the accounting scopes', async () => {
    const f = await firm(server, { scopes: ['expenses:*'] });
    expectError(await f.call('POST', '/accounting/periods/close', { month: '2026-10' }), 403, 'insufficient_permissions');
    expectError(await f.call('GET', '/accounting/periods'), 403, 'insufficient_permissions');
    const reader = await firm(server, { cui: f.cui, scopes: ['accounting:read'] });
    await reader.ok('GET', '/accounting/periods', undefined);
    expectError(await reader.call('POST', '/accounting/periods/close', { month: '2026-10' }), 403, 'insufficient_permissions');
    expectError(await server.api(null, 'GET', '/accounting/periods'), 401, 'missing_api_key');
  });
});
