import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { startTestServer, type TestServer } from '../../support/server';
import { expectError, firm, type Firm } from './helpers';

describe.each(DIALECTS)('POST /expenses and GET /expenses/{id} on %s', (dialect) => {
  let server: TestServer;
  let f: Firm;
  let supplier: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    f = await firm(server);
    supplier = await f.supplier({ cui: 'RO1590082' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const amounts = (e: Record<string, unknown>) => [e.amount, e.account_amount];

  it('creates a flat expense whose amount includes VAT by default, in the contract shape', async () => {
    const category = await f.category();
    const res = await f.ok(
      'POST',
      '/expenses',
      { supplier_id: supplier, category_id: category, reference: 'FCT 0001', description: 'Hârtie', date: '2026-11-20', due_date: '2026-12-20', amount: 121, vat: 21, user_id: 7 },
      201,
    );
    expect(res.body.success).toBe(true);
    expect(res.body.meta).toMatchObject({ version: 'v1' });
    const e = res.body.data;
    expect(e).toEqual({
      id: expect.stringMatching(/^exp_/),
      object: 'expense',
      reference: 'FCT 0001',
      description: 'Hârtie',
      amount: { total: '121.00', without_vat: '100.00', vat: '21.00', currency: 'RON' },
      account_amount: { total: '121.00', without_vat: '100.00', vat: '21.00', currency: 'RON' },
      vat_percent: 21,
      with_vat: true,
      date: '2026-11-20',
      due_date: '2026-12-20',
      paid_date: null,
      is_paid: false,
      payment_type: null,
      status: 'unpaid',
      supplier_id: supplier,
      category_id: category,
      user_id: 7,
      currency: 'RON',
      exchange_rate: null,
      work_point_id: f.workPointId,
      is_locked: false,
      items: [],
      vat_breakdown: [{ rate: 21, net: '100.00', vat_amount: '21.00', gross: '121.00' }],
      // 10:00 UTC on 21 November is 12:00 in Bucharest (EET, UTC+2).
      created_at: '2026-11-21 12:00:00',
      updated_at: '2026-11-21 12:00:00',
    });
    const got = await f.ok('GET', `/expenses/${e.id}`, undefined);
    expect(got.body.data).toEqual(e);
    const row = await server.storage.db.selectFrom('expenses').select(['net_bani', 'vat_bani', 'total_bani', 'company_id']).where('id', '=', e.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ net_bani: 10000, vat_bani: 2100, total_bani: 12100, company_id: f.companyId });
  });

  it('reads with_vat 0/false as a net amount, and rounds VAT half away from zero to the ban', async () => {
    const net = await f.expense({ supplier_id: supplier, amount: 100, vat: 19, with_vat: 0 });
    expect(net.with_vat).toBe(false);
    expect(net.amount).toEqual({ total: '119.00', without_vat: '100.00', vat: '19.00', currency: 'RON' });
    // 10.00 gross at 21%: VAT = 10 * 21 / 121 = 1.7355 -> 1.74; net 8.26.
    const gross = await f.expense({ supplier_id: supplier, amount: 10, vat: 21, with_vat: true });
    expect(gross.amount).toMatchObject({ total: '10.00', without_vat: '8.26', vat: '1.74' });
    // 0.05 net at 9%: 0.0045 -> 0.00; 0.50 net at 9%: 0.045 -> 0.05 (half away from zero).
    const tiny = await f.expense({ supplier_id: supplier, amount: '0.50', vat: 9, with_vat: 0 });
    expect(tiny.amount).toMatchObject({ total: '0.55', without_vat: '0.50', vat: '0.05' });
    const zero = await f.expense({ supplier_id: supplier, amount: 50, vat: 0 });
    expect(zero.amount).toMatchObject({ total: '50.00', without_vat: '50.00', vat: '0.00' });
    for (const rate of [5, 11]) {
      const e = await f.expense({ supplier_id: supplier, amount: 100, vat: rate, with_vat: false });
      expect(e.amount).toMatchObject({ vat: `${rate}.00`, total: `${100 + rate}.00` });
    }
  });

  it('mix: net is amount, VAT is amount_vat_manual, total their sum', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 100, vat: 'mix', amount_vat_manual: 15.5, with_vat: true });
    expect(e).toMatchObject({
      amount: { total: '115.50', without_vat: '100.00', vat: '15.50', currency: 'RON' },
      vat_percent: null,
      with_vat: false,
      items: [],
      vat_breakdown: [],
    });
    const missing = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, amount: 100, vat: 'mix' }), 422, 'validation_error');
    expect(missing.fields).toEqual({ amount_vat_manual: 'Required when vat is mix.' });
    const negative = expectError(
      await f.call('POST', '/expenses', { supplier_id: supplier, amount: 100, vat: 'mix', amount_vat_manual: -1 }),
      422,
      'validation_error',
    );
    expect(negative.fields!.amount_vat_manual).toBe('Must be 0 or more.');
    const ignored = await f.expense({ supplier_id: supplier, amount: 100, vat: 21, amount_vat_manual: 99, with_vat: false });
    expect(ignored.amount).toMatchObject({ vat: '21.00', total: '121.00' });
  });

  it('mix with vat_breakdown: the breakdown is checked and makes one line per rate', async () => {
    const breakdown = [
      { rate: 9, net: 50, vat_amount: 4.5, gross: 54.5 },
      { rate: 21, net: 50, vat_amount: 10.5, gross: 60.5 },
    ];
    const e = await f.expense({ supplier_id: supplier, amount: 100, vat: 'mix', amount_vat_manual: 15, vat_breakdown: breakdown });
    expect(e.amount).toMatchObject({ total: '115.00', without_vat: '100.00', vat: '15.00' });
    expect(e.vat_breakdown).toEqual([
      { rate: 21, net: '50.00', vat_amount: '10.50', gross: '60.50' },
      { rate: 9, net: '50.00', vat_amount: '4.50', gross: '54.50' },
    ]);
    expect(e.items).toEqual([
      { id: expect.any(String), kind: 'vat_group', description: null, quantity: 1, unit_price: '50.00', vat_percent: 21, amount: { total: '60.50', without_vat: '50.00', vat: '10.50' } },
      { id: expect.any(String), kind: 'vat_group', description: null, quantity: 1, unit_price: '50.00', vat_percent: 9, amount: { total: '54.50', without_vat: '50.00', vat: '4.50' } },
    ]);
    const lines = await server.storage.db.selectFrom('expense_lines').select(['kind', 'vat_percent']).where('expense_id', '=', e.id).orderBy('position').execute();
    expect(lines).toEqual([{ kind: 'vat_group', vat_percent: 21 }, { kind: 'vat_group', vat_percent: 9 }]);

    const post = (body: Record<string, unknown>) => f.call('POST', '/expenses', { supplier_id: supplier, amount: 100, vat: 'mix', amount_vat_manual: 15, ...body });
    const sums = expectError(await post({ vat_breakdown: [breakdown[0], { ...breakdown[1], net: 40, gross: 50.5 }] }), 422, 'validation_error');
    expect(sums.fields!.vat_breakdown).toMatch(/add up/);
    const entry = expectError(await post({ vat_breakdown: [breakdown[0], { ...breakdown[1], gross: 61 }] }), 422, 'validation_error');
    expect(Object.keys(entry.fields!)).toEqual(['vat_breakdown.1.gross']);
    const one = expectError(await post({ vat_breakdown: [breakdown[0]] }), 422, 'validation_error');
    expect(one.fields!.vat_breakdown).toBe('Must be at least 2.');
    const twice = expectError(await post({ vat_breakdown: [breakdown[0], breakdown[0]] }), 422, 'validation_error');
    expect(twice.fields!['vat_breakdown.1.rate']).toMatch(/once/);
    const zeroRate = expectError(
      await post({ amount: 100, amount_vat_manual: 1, vat_breakdown: [{ rate: 0, net: 50, vat_amount: 1, gross: 51 }, { rate: 9, net: 50, vat_amount: 0, gross: 50 }] }),
      422,
      'validation_error',
    );
    expect(zeroRate.fields!['vat_breakdown.0.vat_amount']).toBe('Must be 0 at rate 0.');
    const badRate = expectError(await post({ vat_breakdown: [{ ...breakdown[0], rate: 20 }, breakdown[1]] }), 422, 'validation_error');
    expect(badRate.fields!['vat_breakdown.0.rate']).toMatch(/0, 5, 9, 11, 19, 21/);
    const notMix = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, amount: 100, vat: 21, vat_breakdown: breakdown }), 422, 'validation_error');
    expect(notMix.fields!.vat_breakdown).toMatch(/vat = mix/);
  });

  it('items: the header is derived from the lines, and header amount/vat/vat_breakdown are ignored', async () => {
    const e = await f.expense({
      supplier_id: supplier,
      amount: 999,
      vat: 5,
      vat_breakdown: [{ rate: 5, net: 1, vat_amount: 1, gross: 1 }, { rate: 9, net: 1, vat_amount: 1, gross: 1 }],
      items: [
        { description: 'Hârtie A4', quantity: 2, unit_price: 12.1, vat: 21 },
        { description: 'Pâine', unit_price: 10.9, vat: 9 },
      ],
    });
    // 2 x 12.10 = 24.20 gross at 21% -> VAT 4.20, net 20.00; 10.90 gross at 9% -> VAT 0.90, net 10.00.
    expect(e).toMatchObject({
      amount: { total: '35.10', without_vat: '30.00', vat: '5.10', currency: 'RON' },
      vat_percent: null,
      with_vat: true,
      vat_breakdown: [
        { rate: 21, net: '20.00', vat_amount: '4.20', gross: '24.20' },
        { rate: 9, net: '10.00', vat_amount: '0.90', gross: '10.90' },
      ],
    });
    expect(e.items).toEqual([
      { id: expect.stringMatching(/^expl_/), kind: 'item', description: 'Hârtie A4', quantity: 2, unit_price: '12.10', vat_percent: 21, amount: { total: '24.20', without_vat: '20.00', vat: '4.20' } },
      { id: expect.stringMatching(/^expl_/), kind: 'item', description: 'Pâine', quantity: 1, unit_price: '10.90', vat_percent: 9, amount: { total: '10.90', without_vat: '10.00', vat: '0.90' } },
    ]);
    const single = await f.expense({ supplier_id: supplier, with_vat: 0, items: [{ description: 'A', quantity: 1.5, unit_price: 10, vat: 19 }, { description: 'B', unit_price: 5, vat: 19 }] });
    expect(single).toMatchObject({ vat_percent: 19, with_vat: false, amount: { without_vat: '20.00', vat: '3.80', total: '23.80' } });
    const bad = expectError(
      await f.call('POST', '/expenses', { supplier_id: supplier, items: [{ description: '', quantity: 0, unit_price: -1, vat: 'mix' }] }),
      422,
      'validation_error',
    );
    expect(Object.keys(bad.fields!).sort()).toEqual(['items.0.description', 'items.0.quantity', 'items.0.unit_price', 'items.0.vat']);
    const zero = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, items: [{ description: 'Gratis', unit_price: 0, vat: 21 }] }), 422, 'validation_error');
    expect(zero.fields!.items).toMatch(/more than 0/);
  });

  it('a foreign currency needs an exchange rate and gives account_amount in RON', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 100, vat: 19, with_vat: false, currency: 'eur', exchange_rate: 4.9765 });
    // net 100.00 EUR -> 497.65 RON; VAT 19.00 EUR -> 94.5535 -> 94.55 RON; total their sum.
    expect(amounts(e)).toEqual([
      { total: '119.00', without_vat: '100.00', vat: '19.00', currency: 'EUR' },
      { total: '592.20', without_vat: '497.65', vat: '94.55', currency: 'RON' },
    ]);
    expect(e).toMatchObject({ currency: 'EUR', exchange_rate: 4.9765 });
    const missing = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, amount: 1, vat: 0, currency: 'EUR' }), 422, 'validation_error');
    expect(missing.fields).toEqual({ exchange_rate: 'Required when currency is not RON.' });
    const ron = await f.expense({ supplier_id: supplier, amount: 1, vat: 0, exchange_rate: 5 });
    expect(ron.exchange_rate).toBeNull();
    const bad = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, amount: 1, vat: 0, currency: 'EURO', exchange_rate: 0 }), 422, 'validation_error');
    expect(Object.keys(bad.fields!).sort()).toEqual(['currency', 'exchange_rate']);
    const unknown = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, amount: 1, vat: 0, currency: 'XYZ', exchange_rate: 1 }), 422, 'validation_error');
    expect(unknown.fields).toEqual({ currency: 'Not an ISO 4217 currency code.' });
    // Any ISO currency will do; the firm need not have enabled it.
    expect((await f.expense({ supplier_id: supplier, amount: 1, vat: 0, currency: 'CHF', exchange_rate: 5.1 })).account_amount).toMatchObject({ total: '5.10' });
  });

  it('can record an expense already paid; paid_date defaults to its date', async () => {
    const e = await f.expense({ supplier_id: supplier, amount: 20, vat: 21, date: '2026-11-02', is_paid: 1, payment_type: 1 });
    expect(e).toMatchObject({ is_paid: true, paid_date: '2026-11-02', payment_type: { id: 1, name: 'Cash' }, status: 'paid' });
    const noType = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, amount: 20, vat: 21, is_paid: true }), 422, 'validation_error');
    expect(noType.fields).toEqual({ payment_type: 'Required when marking the expense paid.' });
    const paidDateAlone = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, amount: 20, vat: 21, paid_date: '2026-11-02' }), 422, 'validation_error');
    expect(Object.keys(paidDateAlone.fields!)).toEqual(['paid_date']);
    const future = expectError(
      await f.call('POST', '/expenses', { supplier_id: supplier, amount: 20, vat: 21, is_paid: true, payment_type: 2, paid_date: '2026-11-22' }),
      422,
      'validation_error',
    );
    expect(future.fields).toEqual({ paid_date: 'Must not be in the future.' });
  });

  it('answers 422 validation_error with one message per bad member', async () => {
    const other = await firm(server);
    const foreignSupplier = await other.supplier();
    const foreignCategory = await other.category();
    const res = await f.call('POST', '/expenses', {
      supplier_id: foreignSupplier,
      category_id: foreignCategory,
      amount: 0,
      vat: 20,
      date: '2026-02-30',
      payment_type: 9,
      with_vat: 'yes',
    });
    const error = expectError(res, 422, 'validation_error', 'validation_error');
    expect(Object.keys(error.fields!).sort()).toEqual(['amount', 'date', 'payment_type', 'vat', 'with_vat']);
    expect(error.fields!.payment_type).toMatch(/between 1 and 7/);
    expect(error.fields!.vat).toBe('VAT must be one of 0, 5, 9, 11, 19, 21 or "mix".');
    // The body is well-formed: now the references are checked against this company.
    const refs = expectError(await f.call('POST', '/expenses', { supplier_id: foreignSupplier, category_id: foreignCategory, amount: 1, vat: 0 }), 422, 'validation_error');
    expect(refs.fields).toEqual({ supplier_id: 'No such supplier in this company.', category_id: 'No such expense category in this company.' });
    const required = expectError(await f.call('POST', '/expenses', {}), 422, 'validation_error');
    expect(required.fields).toEqual({ supplier_id: 'Required.' });
    const flat = expectError(await f.call('POST', '/expenses', { supplier_id: supplier }), 422, 'validation_error');
    expect(flat.fields).toEqual({ amount: 'Required for an expense without items.', vat: 'Required for an expense without items.' });
    const due = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, amount: 1, vat: 0, date: '2026-11-10', due_date: '2026-11-09' }), 422, 'validation_error');
    expect(Object.keys(due.fields!)).toEqual(['due_date']);
    const decimals = expectError(await f.call('POST', '/expenses', { supplier_id: supplier, amount: 1.234, vat: 0 }), 422, 'validation_error');
    expect(decimals.fields!.amount).toMatch(/2 decimals/);
    const ro = expectError(await f.call('POST', '/expenses?locale=ro', { supplier_id: supplier, amount: 1, vat: 0, payment_type: 0 }), 422, 'validation_error');
    expect(ro.fields!.payment_type).toMatch(/între 1 și 7/);
    expect(ro.message).toBe('Unele câmpuri ale cererii nu sunt valide.');
  });

  it('defaults date to today in Bucharest, even when UTC is still on the previous day', async () => {
    const before = server.clock.now();
    server.clock.set(Math.floor(Date.parse('2026-11-21T22:30:00Z') / 1000));
    try {
      const e = await f.expense({ supplier_id: supplier, amount: 1, vat: 0 });
      expect(e.date).toBe('2026-11-22');
      expect(e.created_at).toBe('2026-11-22 00:30:00');
    } finally {
      server.clock.set(before);
    }
  });

  it('replays a create sent again with the same Idempotency-Key', async () => {
    const body = { supplier_id: supplier, amount: 33, vat: 9, reference: 'IDEM-1' };
    const first = await f.call('POST', '/expenses', body, { 'idempotency-key': 'exp-idem-1' });
    const again = await f.call('POST', '/expenses', body, { 'idempotency-key': 'exp-idem-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    const rows = await server.storage.db.selectFrom('expenses').select('id').where('reference', '=', 'IDEM-1').execute();
    expect(rows).toHaveLength(1);
  });

  it('GET answers 404 resource_missing with param id; names payment types in the caller language', async () => {
    const missing = expectError(await f.call('GET', '/expenses/exp_missing'), 404, 'resource_missing', 'invalid_request_error');
    expect(missing.param).toBe('id');
    const e = await f.expense({ supplier_id: supplier, amount: 5, vat: 0, is_paid: true, payment_type: 5 });
    expect((await f.ok('GET', `/expenses/${e.id}?locale=ro`, undefined)).body.data.payment_type).toEqual({ id: 5, name: 'Bilet la ordin' });
    const res = await f.call('GET', `/expenses/${e.id}`, undefined, { 'accept-language': 'ro-RO' });
    expect(res.body.data.payment_type.name).toBe('Bilet la ordin');
  });

  it('needs expenses:write to create and expenses:read to read', async () => {
    const reader = await firm(server, { cui: f.cui, scopes: ['expenses:read'] });
    expectError(await reader.call('POST', '/expenses', { supplier_id: supplier, amount: 1, vat: 0 }), 403, 'insufficient_permissions', 'permission_error');
    const e = await f.expense({ supplier_id: supplier, amount: 1, vat: 0 });
    await reader.ok('GET', `/expenses/${e.id}`, undefined);
    const stranger = await firm(server, { cui: f.cui, scopes: ['suppliers:read'] });
    expectError(await stranger.call('GET', `/expenses/${e.id}`), 403, 'insufficient_permissions');
    expectError(await server.api(null, 'GET', `/expenses/${e.id}`), 401, 'missing_api_key');
    expectError(await server.api('sk_live_000000000000000000000000', 'GET', `/expenses/${e.id}`), 401, 'invalid_api_key');
  });
});
