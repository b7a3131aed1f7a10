import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { branchOf, expectError, newClient, newFirm, startInvoicingServer, type Firm } from '../invoicing/helpers';

/**
 * Registrul de casă rebuilt from its documents: chitanțe in, expenses paid in cash out, cash movements;
 * each day's closing balance is the next day's opening; closing a day, closing it twice, paying more
 * than the till holds.
 */
describe.each(DIALECTS)('cash register (%s)', (dialect) => {
  let server: TestServer;
  let firm: Firm;

  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
    firm = await newFirm(server);
    await firm.ok('POST', '/receipt-series', {});
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('carries each day\'s balance to the next, from chitanțe, cash expenses and cash movements', async () => {
    await firm.ok('POST', '/accounting/cash-movements', { date: '2026-11-02', kind: 'opening', amount: 1000, description: 'Sold la preluare' });
    const r1 = await firm.ok('POST', '/receipts', { client_name: 'Ion Popescu', amount: 250.5, payment_date: '2026-11-02' });
    await firm.ok('POST', '/receipts', { client_name: 'Maria Ionescu', amount: 49.99, payment_date: '2026-11-03' });
    const supplier = (await firm.ok('POST', '/suppliers', { name: 'Papetărie SRL' })).id;
    await firm.ok('POST', '/expenses', { supplier_id: supplier, reference: 'BF 12', description: 'Hârtie', date: '2026-11-03', amount: 121, vat: 21, with_vat: true, is_paid: true, paid_date: '2026-11-03', payment_type: 1 });
    // Paid by bank transfer: not the register's business.
    await firm.ok('POST', '/expenses', { supplier_id: supplier, date: '2026-11-03', amount: 500, vat: 21, is_paid: true, paid_date: '2026-11-03', payment_type: 2 });
    await firm.ok('POST', '/accounting/cash-movements', { date: '2026-11-03', kind: 'bank_deposit', amount: 800, document_number: 'FV 1', description: 'Depunere la BT' });

    const d2 = await firm.ok('GET', '/accounting/cash-register/day?date=2026-11-02');
    expect(d2).toMatchObject({ opening_balance: 0, total_in: 1250.5, total_out: 0, closing_balance: 1250.5, closed: false });
    expect(d2.entries.map((e: { source: string; document_number: string | null }) => [e.source, e.document_number])).toEqual([
      ['cash_movement', null], ['receipt', r1.receipt_number],
    ]);
    const d3 = await firm.ok('GET', '/accounting/cash-register/day?date=2026-11-03');
    expect(d3).toMatchObject({ opening_balance: 1250.5, total_in: 49.99, total_out: 921, closing_balance: 379.49 });
    const d4 = await firm.ok('GET', '/accounting/cash-register/day?date=2026-11-04');
    expect(d4).toMatchObject({ opening_balance: 379.49, entries: [], closing_balance: 379.49 });
    // Another work point has its own register.
    const branch = await branchOf(server, firm);
    expect((await branch.ok('GET', '/accounting/cash-register/day?date=2026-11-03')).opening_balance).toBe(0);
    expect((await firm.ok('GET', `/accounting/cash-register/day?date=2026-11-03&work_point_id=${branch.workPointId}`)).opening_balance).toBe(0);
  });

  it('refuses a payment that would make the register negative, that day or a later one, and says why', async () => {
    const f = await newFirm(server);
    await f.ok('POST', '/accounting/cash-movements', { date: '2026-11-10', kind: 'opening', amount: 100, description: 'Sold' });
    await f.ok('POST', '/accounting/cash-movements', { date: '2026-11-12', kind: 'payment', amount: 80, description: 'Transport' });
    const tooMuch = await f.call('POST', '/accounting/cash-movements?locale=ro', { date: '2026-11-11', kind: 'bank_deposit', amount: 30, description: 'Depunere' });
    expectError(tooMuch, 409, 'cash_register_negative');
    expect(tooMuch.body.error.message).toBe('Această plată de 30,00 lei ar lăsa registrul de casă la -10,00 lei pe 12.11.2026: nu există atâta numerar în casă.');
    await f.ok('POST', '/accounting/cash-movements', { date: '2026-11-11', kind: 'bank_deposit', amount: 20, description: 'Depunere' });
    expect((await f.ok('GET', '/accounting/cash-register/day?date=2026-11-12')).closing_balance).toBe(0);
    expectError(await f.call('POST', '/accounting/cash-movements', { date: '2026-11-12', kind: 'payment', amount: 0.01, description: 'x' }), 409, 'cash_register_negative');
    const bad = await f.call('POST', '/accounting/cash-movements?locale=ro', { date: '2026-11-12', kind: 'payment', amount: -5, description: '' });
    expectError(bad, 422, 'validation_error');
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['amount', 'description']);
  });

  it('closes a day once; a closed day takes no new entry; a correction goes on an open day', async () => {
    const f = await newFirm(server);
    await f.ok('POST', '/accounting/cash-movements', { date: '2026-11-15', kind: 'opening', amount: 200, description: 'Sold' });
    const closed = await f.call('POST', '/accounting/cash-register/days/close', { date: '2026-11-15' });
    expect(closed.status, closed.text).toBe(201);
    expect(closed.body.data).toMatchObject({ closed: true, closing_balance: 200 });
    const again = await f.call('POST', '/accounting/cash-register/days/close?locale=ro', { date: '2026-11-15' });
    expectError(again, 409, 'cash_day_already_closed');
    expect(again.body.error.message).toBe('Ziua 15.11.2026 din registrul de casă a fost deja închisă.');
    const late = await f.call('POST', '/accounting/cash-movements?locale=ro', { date: '2026-11-15', kind: 'receipt', amount: 5, description: 'Uitată' });
    expectError(late, 409, 'cash_day_closed');
    expect(late.body.error.message).toContain('Ziua 15.11.2026 din registrul de casă este închisă');
    const fix = await f.ok('POST', '/accounting/cash-movements', { date: '2026-11-16', kind: 'correction', direction: 'in', amount: 5, description: 'Încasare uitată pe 15.11', corrects_id: 'none' });
    expect(fix).toMatchObject({ kind: 'correction', amount: 5 });
    expect((await f.ok('GET', '/accounting/cash-register/day?date=2026-11-16')).closing_balance).toBe(205);
    expectError(await f.call('POST', '/accounting/cash-register/days/close', { date: '2030-01-01' }), 422, 'validation_error');
  });

  it('warns when a client\'s cash of the day passes the ceiling (a setting), B2C and B2B', async () => {
    const f = await newFirm(server);
    await f.ok('POST', '/receipt-series', {});
    const company = await newClient(f);
    const person = await f.ok('POST', '/clients', { type: 'person', name: 'Ion Popescu' });
    expect(await f.ok('GET', '/accounting/cash-settings')).toMatchObject({ b2b_daily_limit: 5000, b2c_daily_limit: 10000 });
    const first = await f.ok('POST', '/receipts', { client_id: company.id, client_name: company.name, amount: 4000, payment_date: '2026-11-21' });
    expect(first.warnings).toEqual([]);
    expect((await f.ok('GET', `/accounting/cash-ceiling?client_id=${company.id}&amount=1000&date=2026-11-21`)).warning).toBeNull();
    const over = await f.ok('GET', `/accounting/cash-ceiling?client_id=${company.id}&amount=1000.01&date=2026-11-21&locale=ro`);
    expect(over.warning).toMatchObject({ code: 'cash_ceiling_exceeded', client_kind: 'b2b', limit: 5000, received_today: 4000 });
    expect(over.warning.message).toContain('5.000,00 lei');
    // Issued anyway (the law fines, it does not void): the reply says it, for the counter to show.
    const second = await f.ok('POST', '/receipts?locale=ro', { client_id: company.id, client_name: company.name, amount: 1500, payment_date: '2026-11-21' });
    expect(second.warnings).toEqual([expect.objectContaining({ code: 'cash_ceiling_exceeded', client_kind: 'b2b', limit: 5000, received_today: 5500 })]);
    expect(second.warnings[0].message).toContain('5.500,00 lei');
    expect((await f.ok('GET', `/accounting/cash-ceiling?client_id=${person.id}&amount=9000&date=2026-11-21`)).warning).toBeNull();
    await f.ok('PUT', '/accounting/cash-settings', { b2c_daily_limit: 5000 });
    expect((await f.ok('GET', `/accounting/cash-ceiling?client_id=${person.id}&amount=9000&date=2026-11-21`)).warning).toMatchObject({ client_kind: 'b2c', limit: 5000 });
    expectError(await f.call('GET', '/accounting/cash-ceiling?client_id=cli_nope&amount=1'), 404, 'resource_missing');
  });

  it('prints the register on form 14-4-7A, a page per day with its balances', async () => {
    const res = await fetch(`${server.base}/accounting/cash-register/html?start_date=2026-11-01&end_date=2026-11-30`, { headers: { authorization: `Bearer ${firm.key}` } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/REGISTRU DE CASĂ/g)).toHaveLength(2);
    expect(html).toContain('Cod 14-4-7A');
    expect(html).toContain('Ziua 03.11.2026');
    expect(html).toContain('1.250,50');
    expect(html).toContain('379,49');
  });
});
