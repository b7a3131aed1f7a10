import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectError, firm, type Firm } from './helpers';

describe.each(DIALECTS)('PUT /expenses/{id} on %s', (dialect) => {
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

  const put = (id: string, body: unknown) => f.call('PUT', `/expenses/${id}`, body);
  const putOk = async (id: string, body: unknown) => {
    const res = await put(id, body);
    expect(res.status, res.text).toBe(200);
    return res.body.expense;
  };
  const lines = (id: string) =>
    server.storage.db.selectFrom('expense_lines').select(['id', 'kind', 'vat_percent', 'total_bani']).where('expense_id', '=', id).orderBy('position').execute();

  it('answers { success, expense, message } at top level and keeps omitted members', async () => {
    const e = await f.expense({ supplier_id: supplier, reference: 'R-1', description: 'Vechi', amount: 121, vat: 21, due_date: '2026-12-01' });
    server.clock.advance(90);
    const res = await put(e.id, { description: 'Nou' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expense', 'message', 'meta', 'success']);
    expect(res.body).toMatchObject({ success: true, message: 'Expense updated.' });
    expect(res.body.expense).toMatchObject({
      id: e.id,
      description: 'Nou',
      reference: 'R-1',
      due_date: '2026-12-01',
      amount: { total: '121.00', without_vat: '100.00', vat: '21.00' },
      created_at: e.created_at,
      updated_at: '2026-11-21 12:01:30',
    });
    expect((await f.call('PUT', `/expenses/${e.id}?locale=ro`, { description: 'x' })).body.message).toBe('Cheltuiala a fost actualizată.');
    expect((await f.ok('GET', `/expenses/${e.id}`, undefined)).body.data.description).toBe('x');
  });

  it('recomputes VAT and totals when amount, vat or with_vat change', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 121, vat: 21 });
    expect((await putOk(e.id, { amount: 242 })).amount).toMatchObject({ total: '242.00', without_vat: '200.00', vat: '42.00' });
    expect((await putOk(e.id, { vat: 9 })).amount).toMatchObject({ total: '242.00', without_vat: '222.02', vat: '19.98' });
    const net = await putOk(e.id, { with_vat: 0 });
    expect(net).toMatchObject({ with_vat: false, vat_percent: 9, amount: { total: '263.78', without_vat: '242.00', vat: '21.78' } });
    expect(net.vat_breakdown).toEqual([{ rate: 9, net: '242.00', vat_amount: '21.78', gross: '263.78' }]);
    const zero = expectError(await put(e.id, { amount: 0 }), 422, 'validation_error');
    expect(zero.fields).toEqual({ amount: 'Must be greater than 0.' });
  });

  it('switches to mix and back, requiring amount_vat_manual when mix is sent', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 100, vat: 19, with_vat: false });
    expect(expectError(await put(e.id, { vat: 'mix' }), 422, 'validation_error').fields).toEqual({ amount_vat_manual: 'Required when vat is mix.' });
    const mix = await putOk(e.id, { vat: 'mix', amount_vat_manual: 12.34 });
    expect(mix).toMatchObject({ vat_percent: null, amount: { without_vat: '100.00', vat: '12.34', total: '112.34' } });
    // Already mix: a new amount keeps the stored manual VAT.
    expect((await putOk(e.id, { amount: 200 })).amount).toMatchObject({ without_vat: '200.00', vat: '12.34', total: '212.34' });
    const back = await putOk(e.id, { vat: 21 });
    expect(back).toMatchObject({ vat_percent: 21, with_vat: false, amount: { without_vat: '200.00', vat: '42.00', total: '242.00' } });
  });

  it('vat_breakdown replaces the per-rate lines of a flat multi-rate receipt and must keep adding up', async () => {
    const e = await f.expense({
      supplier_id: supplier,
      amount: 100,
      vat: 'mix',
      amount_vat_manual: 15,
      vat_breakdown: [{ rate: 21, net: 50, vat_amount: 10.5, gross: 60.5 }, { rate: 9, net: 50, vat_amount: 4.5, gross: 54.5 }],
    });
    const stale = expectError(await put(e.id, { amount: 110 }), 422, 'validation_error');
    expect(stale.fields!.vat_breakdown).toMatch(/no longer adds up/);
    const updated = await putOk(e.id, {
      amount: 110,
      amount_vat_manual: 16.4,
      vat_breakdown: [{ rate: 19, net: 60, vat_amount: 11.4, gross: 71.4 }, { rate: 5, net: 50, vat_amount: 5, gross: 55 }],
    });
    expect(updated.vat_breakdown).toEqual([
      { rate: 19, net: '60.00', vat_amount: '11.40', gross: '71.40' },
      { rate: 5, net: '50.00', vat_amount: '5.00', gross: '55.00' },
    ]);
    expect((await lines(e.id)).map((l) => [l.kind, l.vat_percent])).toEqual([['vat_group', 19], ['vat_group', 5]]);
    // A breakdown sent alone replaces the lines when it adds up to the stored header.
    const alone = await putOk(e.id, { vat_breakdown: [{ rate: 21, net: 10, vat_amount: 2.1, gross: 12.1 }, { rate: 11, net: 100, vat_amount: 14.3, gross: 114.3 }] });
    expect(alone.vat_breakdown.map((b: { rate: number }) => b.rate)).toEqual([21, 11]);
    // Leaving mix drops the per-rate lines.
    const single = await putOk(e.id, { vat: 0 });
    expect(single.items).toEqual([]);
    expect(await lines(e.id)).toEqual([]);
  });

  it('items replaces ALL lines and derives the header; omitted items leave the lines untouched', async () => {
    const e = await f.expense({
      supplier_id: supplier,
      items: [
        { description: 'A', quantity: 1, unit_price: 121, vat: 21 },
        { description: 'B', quantity: 1, unit_price: 109, vat: 9 },
      ],
    });
    const before = await lines(e.id);
    expect(before).toHaveLength(2);
    const touched = await putOk(e.id, { description: 'doar descrierea' });
    expect(await lines(e.id)).toEqual(before);
    expect(touched.items.map((i: { id: string }) => i.id)).toEqual(before.map((l) => l.id));

    const replaced = await putOk(e.id, { amount: 5000, vat: 5, items: [{ description: 'C', quantity: 3, unit_price: 10, vat: 19 }] });
    expect(replaced).toMatchObject({ vat_percent: 19, amount: { total: '30.00', without_vat: '25.21', vat: '4.79' } });
    expect(replaced.items).toHaveLength(1);
    expect(replaced.items[0]).toMatchObject({ kind: 'item', description: 'C', quantity: 3, unit_price: '10.00' });
    expect(await lines(e.id)).toHaveLength(1);

    // Header amounts would contradict the lines: refused, not silently ignored.
    const header = expectError(await put(e.id, { amount: 10, vat: 21 }), 422, 'validation_error');
    expect(Object.keys(header.fields!).sort()).toEqual(['amount', 'vat']);
    expect(header.fields!.amount).toMatch(/itemized/);
    expect(expectError(await put(e.id, { vat_breakdown: [{ rate: 21, net: 1, vat_amount: 0.21, gross: 1.21 }, { rate: 9, net: 1, vat_amount: 0.09, gross: 1.09 }] }), 422, 'validation_error').fields!.vat_breakdown).toMatch(/itemized/);

    // with_vat re-prices the stored lines: 3 x 10.00 is now the net.
    const net = await putOk(e.id, { with_vat: false });
    expect(net.amount).toMatchObject({ without_vat: '30.00', vat: '5.70', total: '35.70' });
  });

  it('an empty items array turns an itemized expense flat, with new amount and vat alongside', async () => {
    const e = await f.expense({ supplier_id: supplier, items: [{ description: 'A', unit_price: 50, vat: 21 }] });
    const missing = expectError(await put(e.id, { items: [] }), 422, 'validation_error');
    expect(missing.fields).toEqual({ amount: 'Required for an expense without items.', vat: 'Required for an expense without items.' });
    const flat = await putOk(e.id, { items: [], amount: 80, vat: 11 });
    expect(flat).toMatchObject({ items: [], vat_percent: 11, amount: { total: '80.00', without_vat: '72.07', vat: '7.93' } });
    expect(await lines(e.id)).toEqual([]);
    // Flat again: amount alone now works.
    expect((await putOk(e.id, { amount: 111 })).amount).toMatchObject({ total: '111.00', without_vat: '100.00', vat: '11.00' });
  });

  it('recomputes account_amount when currency or exchange rate change', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 100, vat: 0 });
    expect(expectError(await put(e.id, { currency: 'EUR' }), 422, 'validation_error').fields).toEqual({ exchange_rate: 'Required when currency is not RON.' });
    const eur = await putOk(e.id, { currency: 'EUR', exchange_rate: 5 });
    expect(eur.account_amount).toEqual({ total: '500.00', without_vat: '500.00', vat: '0.00', currency: 'RON' });
    const rate = await putOk(e.id, { exchange_rate: 4.97 });
    expect(rate).toMatchObject({ exchange_rate: 4.97, account_amount: { total: '497.00' } });
    // A rate is kept only for its own currency.
    expectError(await put(e.id, { currency: 'USD' }), 422, 'validation_error');
    const ron = await putOk(e.id, { currency: 'RON' });
    expect(ron).toMatchObject({ exchange_rate: null, account_amount: { total: '100.00', currency: 'RON' } });
  });

  it('checks a changed supplier and category against the company; null clears the category', async () => {
    const category = await f.category();
    const e = await f.expense({ supplier_id: supplier, category_id: category, amount: 1, vat: 0 });
    const other = await firm(server);
    const bad = expectError(await put(e.id, { supplier_id: await other.supplier(), category_id: await other.category() }), 422, 'validation_error');
    expect(bad.fields).toEqual({ supplier_id: 'No such supplier in this company.', category_id: 'No such expense category in this company.' });
    const newSupplier = await f.supplier();
    expect(await putOk(e.id, { supplier_id: newSupplier, category_id: null, reference: 'NEW-9', user_id: 3 })).toMatchObject({ supplier_id: newSupplier, category_id: null, reference: 'NEW-9', user_id: 3 });
    const dates = expectError(await put(e.id, { date: '2026-1-5', due_date: 'mâine' }), 422, 'validation_error');
    expect(Object.keys(dates.fields!).sort()).toEqual(['date', 'due_date']);
  });

  it('marks paid with is_paid (payment_type required), and unpaid again', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 10, vat: 0 });
    expect(expectError(await put(e.id, { is_paid: 1 }), 422, 'validation_error').fields).toEqual({ payment_type: 'Required when marking the expense paid.' });
    const type = expectError(await put(e.id, { is_paid: true, payment_type: 8 }), 422, 'validation_error');
    expect(type.fields!.payment_type).toMatch(/between 1 and 7/);
    const paid = await putOk(e.id, { is_paid: true, payment_type: 3 });
    expect(paid).toMatchObject({ is_paid: true, paid_date: '2026-11-21', payment_type: { id: 3, name: 'Card' }, status: 'paid' });
    const moved = await putOk(e.id, { paid_date: '2026-11-19' });
    expect(moved.paid_date).toBe('2026-11-19');
    const unpaid = await putOk(e.id, { is_paid: 0 });
    expect(unpaid).toMatchObject({ is_paid: false, paid_date: null, status: 'unpaid', payment_type: { id: 3 } });
    expect(expectError(await put(e.id, { paid_date: '2026-11-19' }), 422, 'validation_error').fields!.paid_date).toMatch(/is_paid/);
    const events = await f.ok('GET', `/expenses/${e.id}/events`, undefined);
    expect(events.body.data.data.map((ev: { type: string }) => ev.type)).toEqual(['created', 'updated', 'paid', 'updated', 'updated', 'unpaid']);
    const paidEvent = events.body.data.data[2];
    expect(paidEvent.data).toEqual({ paid_date: '2026-11-21', payment_type: 3, via: 'update' });
    expect(events.body.data.data[1].data.changes.is_paid).toEqual({ from: false, to: true });
  });

  it('status: overdue once the due date has passed in Bucharest, recomputed on every read', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 10, vat: 0, date: '2026-11-01', due_date: '2026-11-21' });
    expect(e.status).toBe('unpaid');
    const start = server.clock.now();
    try {
      // 21:59:59 UTC on the 21st is 23:59:59 in Bucharest: still the due date.
      server.clock.set(Math.floor(Date.parse('2026-11-21T21:59:59Z') / 1000));
      expect((await f.ok('GET', `/expenses/${e.id}`, undefined)).body.data.status).toBe('unpaid');
      server.clock.set(Math.floor(Date.parse('2026-11-21T22:00:00Z') / 1000));
      expect((await f.ok('GET', `/expenses/${e.id}`, undefined)).body.data.status).toBe('overdue');
      expect((await putOk(e.id, { due_date: '2026-11-30' })).status).toBe('unpaid');
    } finally {
      server.clock.set(start);
    }
  });

  it('answers 404 resource_missing (param id) and needs expenses:write', async () => {
    expect(expectError(await put('exp_nope', { description: 'x' }), 404, 'resource_missing').param).toBe('id');
    expectError(await put('exp_nope', { amount: 'lots' }), 404, 'resource_missing');
    const e = await f.expense({ supplier_id: supplier, amount: 1, vat: 0 });
    const reader = await firm(server, { cui: f.cui, scopes: ['expenses:read'] });
    expectError(await reader.call('PUT', `/expenses/${e.id}`, { description: 'x' }), 403, 'insufficient_permissions');
    expectError(await server.api(null, 'PUT', `/expenses/${e.id}`, { description: 'x' }), 401, 'missing_api_key');
  });
});
