import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUblXml } from '../../../server/efactura/index';
import { finish, seller as exampleSupplier } from '../../efactura/fixtures/documents';
import { DIALECTS } from '../../support/storage';
import { expectError, fetchRaw, firm, receiveFromSupplier, startEnv, SUPPLIER_CUI, type Env, type Firm } from './helpers';


/** A supplier's e-Factura addressed to `buyerCui`. */
function supplierXml(buyerCui: string, o: { number: string; kind?: 'invoice' | 'credit_note'; due?: string; issue?: string; lines?: Parameters<typeof finish>[1] }): string {
  const doc = finish(
    {
      kind: o.kind ?? 'invoice',
      number: o.number,
      issue_date: o.issue ?? '2026-11-02',
      ...(o.kind === 'credit_note' ? {} : { due_date: o.due ?? '2026-12-02' }),
      currency: 'RON',
      seller: exampleSupplier,
      buyer: {
        name: 'Tejghea Test SRL',
        vat_id: `RO${buyerCui}`,
        cui: buyerCui,
        address: { street: 'Str. Memorandumului nr. 28', city: 'Cluj-Napoca', county_code: 'RO-CJ', country_code: 'RO' },
      },
      payment: { means_code: '30', iban: 'RO49AAAA1B31007593840000' },
      order_reference: 'PO-17',
    },
    o.lines ?? [
      { name: 'Hârtie A4', quantity_milli: 10_000, unit_price_bani: 2_500, vat_category: 'S', vat_rate_bp: 2100, unit_code: 'H87' },
      { name: 'Toner', description: 'Toner negru', quantity_milli: 2_000, unit_price_bani: 31_000, vat_category: 'S', vat_rate_bp: 2100, unit_code: 'H87' },
    ],
  );
  return toUblXml(doc);
}

describe.each(DIALECTS)('supplier bills from the SPV inbox on %s', (dialect) => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  const receive = (f: Firm, xml: string) => receiveFromSupplier(env, f, xml);
  const countRows = async (table: 'supplier_bills' | 'efactura_messages', companyId: string) =>
    (await env.server.storage.db.selectFrom(table).select('id').where('company_id', '=', companyId).execute()).length;

  it('imports each received invoice once, with its supplier, lines and amounts', async () => {
    const f = await firm(env);
    // The supplier is also a client of ours: the bill points at that client.
    const client = await f.ok('POST', '/clients', { type: 'company', name: 'Exemplu Furnizor SRL', cui: `RO${SUPPLIER_CUI}`, country: 'RO' }, 201);
    const a = receive(f, supplierXml(f.cui, { number: 'EF-1001' }));
    receive(f, supplierXml(f.cui, { number: 'EF-1002', due: '2026-11-20' }));
    receive(f, supplierXml(f.cui, { number: 'EF-1003', kind: 'credit_note', lines: [{ name: 'Retur toner', quantity_milli: 1000, unit_price_bani: 31_000, vat_category: 'S', vat_rate_bp: 2100, unit_code: 'H87' }] }));

    const first = await f.ok('POST', '/supplier-bills/sync', {});
    expect(first.body.data).toMatchObject({ object: 'supplier_bill_sync', environment: 'prod', listed: 3, imported: 3, already_imported: 0, failed: 0, errors: [] });
    const listCall = env.sim.state.requestsTo('/listaMesajeFactura').at(-1)!;
    expect(listCall.query).toEqual({ zile: '60', cif: f.cui, filtru: 'P' });
    const again = await f.ok('POST', '/supplier-bills/sync', { days: 30 });
    expect(again.body.data).toMatchObject({ listed: 3, imported: 0, already_imported: 3, bill_ids: [] });
    expect(await countRows('supplier_bills', f.companyId)).toBe(3);
    expect(await countRows('efactura_messages', f.companyId)).toBe(3);
    const suppliers = await env.server.storage.db.selectFrom('suppliers').selectAll().where('company_id', '=', f.companyId).execute();
    expect(suppliers).toHaveLength(1);
    expect(suppliers[0]).toMatchObject({ cui: SUPPLIER_CUI, name: 'Exemplu Furnizor SRL', vat_payer: 1, reg_com: 'J12/1234/2020' });

    const bills = await f.ok('GET', '/supplier-bills?sort=issue_date&order=asc&search=EF-1001');
    expect(bills.body.data.total).toBe(1);
    const id = bills.body.data.data[0].id;
    const got = await f.ok('GET', `/supplier-bills/${id}`);
    const bill = got.body.data.supplier_bill;
    expect(bill).toMatchObject({
      object: 'supplier_bill', source: 'spv', invoice_number: 'EF-1001', invoice_type_code: '380', invoice_type: 'invoice',
      issue_date: '2026-11-02', due_date: '2026-12-02', currency: 'RON', status: 'unpaid', payment_date: null, payment_amount: null,
      // 10 x 25.00 + 2 x 310.00 = 870.00 net, 182.70 VAT
      amounts: { tax_exclusive: 870, tax: 182.7, tax_inclusive: 1052.7, paid: 0, unpaid: 1052.7 },
      supplier: { id: suppliers[0]!.id, name: 'Exemplu Furnizor SRL', vat_id: `RO${SUPPLIER_CUI}`, reg_com: 'J12/1234/2020', email: 'facturi@exemplu.ro', phone: '+40 264 123 456' },
      supplier_id: suppliers[0]!.id,
      client_id: client.body.data.id,
      client: { id: client.body.data.id, object: 'client' },
      expense_id: null,
      expense: null,
      order_reference: 'PO-17',
      efactura_message: { message_id: a.downloadId, cif: f.cui, type: 'FACTURA PRIMITA', environment: 'prod', upload_index: a.uploadIndex },
      efactura_pdf_url: `${env.server.base}/supplier-bills/${id}/efactura-pdf`,
    });
    expect(Number.isInteger(bill.efactura_message_id)).toBe(true);
    expect(bill.efactura_message.id).toBe(bill.efactura_message_id);
    expect(bill.efactura_message.creation_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{2}:\d{2}$/);
    expect(bill.lines).toEqual([
      expect.objectContaining({ object: 'supplier_bill_line', position: 1, line_id: '1', name: 'Hârtie A4', quantity: 10, unit_price: 25, net: 250, vat_category: 'S', vat_rate: 21 }),
      expect.objectContaining({ position: 2, name: 'Toner', description: 'Toner negru', quantity: 2, unit_price: 310, price_amount: '310.00', net: 620 }),
    ]);
    const credit = (await f.ok('GET', '/supplier-bills?search=EF-1003')).body.data.data[0];
    expect(credit).toMatchObject({ invoice_type_code: '381', invoice_type: 'credit_note', amounts: { tax_exclusive: -310, tax: -65.1, tax_inclusive: -375.1, unpaid: -375.1 } });
  });

  it('expands what `expand` names: all by default, nothing when empty, a subset when listed', async () => {
    const f = await firm(env);
    receive(f, supplierXml(f.cui, { number: 'EX-1' }));
    const { bill_ids: [id] } = (await f.ok('POST', '/supplier-bills/sync', {})).body.data;
    const none = (await f.ok('GET', `/supplier-bills/${id}?expand=`)).body.data.supplier_bill;
    for (const member of ['supplier', 'expense', 'client', 'efactura_message', 'lines']) expect(none).not.toHaveProperty(member);
    expect(none.supplier_balance).toBeDefined();
    const some = (await f.ok('GET', `/supplier-bills/${id}?expand=lines,supplier`)).body.data.supplier_bill;
    expect(Object.keys(some).filter((k) => ['supplier', 'expense', 'client', 'efactura_message', 'lines'].includes(k)).sort()).toEqual(['lines', 'supplier']);
    expect((await f.ok('GET', `/supplier-bills/${id}?expand[]=efactura_message`)).body.data.supplier_bill).toHaveProperty('efactura_message');
    const bad = expectError(await f.call('GET', `/supplier-bills/${id}?expand=lines,nope`), 422, 'validation_error');
    expect(bad.fields).toHaveProperty('expand');
    expectError(await f.call('GET', '/supplier-bills/sbill_missing'), 404, 'resource_missing');
    const other = await firm(env, { link: false });
    expectError(await other.call('GET', `/supplier-bills/${id}`), 404, 'resource_missing');
  });

  it('balances a supplier across all work points, with the next due bill, and records payments', async () => {
    const f = await firm(env);
    receive(f, supplierXml(f.cui, { number: 'WP-1', due: '2026-12-15' }));
    const { bill_ids: [spvBill] } = (await f.ok('POST', '/supplier-bills/sync', {})).body.data;
    const second = await env.server.key({ cui: f.cui, workPointName: 'Punct de lucru 2' });
    const wp2 = (method: string, path: string, body?: unknown) => env.server.api(second.api_key, method, path, body);
    const manual = await wp2('POST', '/supplier-bills', {
      supplier: { name: 'Exemplu Furnizor SRL', cui: `RO${SUPPLIER_CUI}` }, invoice_number: 'M-77', issue_date: '2026-11-05', due_date: '2026-11-25', tax_exclusive: 100, tax: 21,
    });
    expect(manual.status).toBe(201);
    const manualBill = manual.body.data.supplier_bill;
    expect(manualBill).toMatchObject({ source: 'manual', work_point_id: second.work_point_id, efactura_message_id: null, efactura_pdf_url: null, efactura_message: null, lines: [] });

    const view = (await f.ok('GET', `/supplier-bills/${spvBill}`)).body.data.supplier_bill;
    expect(view.supplier_id).toBe(manualBill.supplier_id);
    expect(view.supplier_balance).toEqual({
      unpaid_total: 1052.7 + 121,
      unpaid_count: 2,
      currency: 'RON',
      next_due: { id: manualBill.id, invoice_number: 'M-77', due_date: '2026-11-25', tax_inclusive: 121 },
    });
    // Lists show the selected work point only.
    expect((await f.ok('GET', '/supplier-bills')).body.data.data.map((b: { id: string }) => b.id)).toEqual([spvBill]);
    expect((await f.ok('GET', `/supplier-bills?work_point_id=${second.work_point_id}`)).body.data.data.map((b: { id: string }) => b.id)).toEqual([manualBill.id]);

    const part = await wp2('POST', `/supplier-bills/${manualBill.id}/pay`, { payment_date: '2026-11-20', amount: 21 });
    expect(part.body.data.supplier_bill).toMatchObject({ status: 'partially_paid', payment_date: '2026-11-20', payment_amount: 21, amounts: { paid: 21, unpaid: 100 } });
    expect(expectError(await wp2('POST', `/supplier-bills/${manualBill.id}/pay`, { payment_date: '2026-11-21', amount: 100.01 }), 422, 'validation_error').fields).toHaveProperty('amount');
    const full = await wp2('POST', `/supplier-bills/${manualBill.id}/pay`, { payment_date: '2026-11-21' });
    expect(full.body.data.supplier_bill).toMatchObject({ status: 'paid', payment_amount: 100, amounts: { paid: 121, unpaid: 0 } });
    expectError(await wp2('POST', `/supplier-bills/${manualBill.id}/pay`, { payment_date: '2026-11-22' }), 409, 'supplier_bill_already_paid');
    const after = (await f.ok('GET', `/supplier-bills/${spvBill}?expand=`)).body.data.supplier_bill.supplier_balance;
    expect(after).toMatchObject({ unpaid_total: 1052.7, unpaid_count: 1, next_due: { id: spvBill, due_date: '2026-12-15' } });
    expect((await f.ok('GET', '/supplier-bills?status=unpaid')).body.data.total).toBe(1);
  });

  it('completes a bill entered by hand when its e-Factura arrives, instead of doubling it', async () => {
    const f = await firm(env);
    const manual = await f.ok('POST', '/supplier-bills', {
      supplier: { name: 'Exemplu Furnizor SRL', cui: SUPPLIER_CUI }, invoice_number: 'DUP-1', issue_date: '2026-11-02', tax_exclusive: 870, tax: 182.7,
    }, 201);
    expectError(await f.call('POST', '/supplier-bills', { supplier_id: manual.body.data.supplier_bill.supplier_id, invoice_number: 'DUP-1', issue_date: '2026-11-02', tax_exclusive: 1 }), 409, 'supplier_bill_exists');
    expectError(await f.call('POST', '/supplier-bills', { supplier_id: 'sup_missing', invoice_number: 'X-1', issue_date: '2026-11-02', tax_exclusive: 1 }), 404, 'resource_missing');
    expectError(await f.call('POST', '/supplier-bills', { invoice_number: 'X-1', issue_date: '2026-11-02', tax_exclusive: 1 }), 422, 'validation_error');
    receive(f, supplierXml(f.cui, { number: 'DUP-1' }));
    const sync = await f.ok('POST', '/supplier-bills/sync', {});
    expect(sync.body.data.bill_ids).toEqual([manual.body.data.supplier_bill.id]);
    expect(await countRows('supplier_bills', f.companyId)).toBe(1);
    const bill = (await f.ok('GET', `/supplier-bills/${manual.body.data.supplier_bill.id}`)).body.data.supplier_bill;
    expect(bill).toMatchObject({ source: 'spv', due_date: '2026-12-02', efactura_message: { type: 'FACTURA PRIMITA' } });
    expect(bill.lines).toHaveLength(2);
  });

  it('reports a message it cannot read, and tries it again on the next sync', async () => {
    const f = await firm(env);
    // An Invoice root, but without the amounts a bill needs.
    const bad = receive(f, '<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</ID></Invoice>');
    const res = await f.ok('POST', '/supplier-bills/sync', {});
    expect(res.body.data).toMatchObject({ listed: 1, imported: 0, failed: 1, errors: [{ message_id: bad.downloadId, error: 'missing document currency (DocumentCurrencyCode)' }] });
    expect((await f.ok('POST', '/supplier-bills/sync', {})).body.data).toMatchObject({ failed: 1, already_imported: 0 });
    // Kept as it came, with the reason: never dropped.
    const kept = await env.server.storage.db.selectFrom('efactura_messages').select(['status', 'error', 'xml']).where('company_id', '=', f.companyId).execute();
    expect(kept).toEqual([{ status: 'failed', error: 'missing document currency (DocumentCurrencyCode)', xml: expect.stringContaining('<Invoice xmlns=') }]);
  });

  it('warns about an unread message that ANAF deletes soon (60 days), with its last day', async () => {
    const f = await firm(env);
    const bad = '<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</ID></Invoice>';
    const old = env.sim.state.addReceivedInvoice({ buyerCif: f.cui, sellerCif: SUPPLIER_CUI, xml: bad, env: 'prod', createdMs: env.clock.now() * 1000 - 50 * 86_400_000 });
    receive(f, bad);
    const res = await f.ok('POST', '/supplier-bills/sync', {});
    expect(res.body.data.failed).toBe(2);
    expect(res.body.data.expiring).toHaveLength(1);
    expect(res.body.data.expiring[0]).toMatchObject({ message_id: old.downloadId, error: 'missing document currency (DocumentCurrencyCode)' });
    expect(res.body.data.expiring[0].expires > res.body.data.expiring[0].created).toBe(true);
  });

  it('imports a bill in the CII syntax', async () => {
    const f = await firm(env);
    const cii = readFileSync(join(__dirname, '..', '..', 'efactura', 'corpus', 'cen-cii', 'CII_example2.xml'), 'utf8');
    receive(f, cii);
    const res = await f.ok('POST', '/supplier-bills/sync', {});
    expect(res.body.data).toMatchObject({ listed: 1, imported: 1, failed: 0 });
    expect(await countRows('supplier_bills', f.companyId)).toBe(1);
  });

  it('needs the OAuth link, and says when ANAF is down', async () => {
    const unlinked = await firm(env, { link: false });
    expect(expectError(await unlinked.call('POST', '/supplier-bills/sync', {}), 400, 'oauth_not_configured').type).toBe('configuration_error');
    const f = await firm(env);
    env.sim.state.failNext(3, 500, '/listaMesajeFactura');
    expectError(await f.call('POST', '/supplier-bills/sync', {}), 502, 'anaf_unavailable');
    expectError(await f.call('POST', '/supplier-bills/sync', { days: 61 }), 422, 'validation_error');
  });

  it('serves ANAF’s PDF of a received invoice, from the cache after the first time', async () => {
    const f = await firm(env);
    receive(f, supplierXml(f.cui, { number: 'PDF-1' }));
    const { bill_ids: [id] } = (await f.ok('POST', '/supplier-bills/sync', {})).body.data;
    const conversions = () => env.sim.state.requestsTo('/transformare').length;
    const before = conversions();
    const first = await fetchRaw(env, f.key, `/supplier-bills/${id}/efactura-pdf`);
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/pdf');
    expect(first.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(first.bytes.toString('latin1')).toContain('FACTURA PDF-1');
    expect(first.disposition).toBe('attachment; filename="PDF-1.pdf"');
    expect(conversions()).toBe(before + 1);
    expect(env.sim.state.requestsTo('/transformare').at(-1)!.path).toBe('/webservicesp/prod/FCTEL/rest/transformare/FACT1');
    const second = await fetchRaw(env, f.key, `/supplier-bills/${id}/efactura-pdf`);
    expect(second.status).toBe(200);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(conversions()).toBe(before + 1);
  });

  it('answers efactura_not_available, resource_missing, anaf_unavailable and anaf_timeout for the PDF', async () => {
    const f = await firm(env);
    const manual = await f.ok('POST', '/supplier-bills', { supplier: { name: 'Furnizor Mic' }, invoice_number: 'HAND-1', issue_date: '2026-11-02', tax_exclusive: 10 }, 201);
    const na = expectError(await f.call('GET', `/supplier-bills/${manual.body.data.supplier_bill.id}/efactura-pdf`), 404, 'efactura_not_available');
    expect(na.param).toBe('id');
    expectError(await f.call('GET', '/supplier-bills/sbill_missing/efactura-pdf'), 404, 'resource_missing');

    receive(f, supplierXml(f.cui, { number: 'PDF-2' }));
    const { bill_ids: [id] } = (await f.ok('POST', '/supplier-bills/sync', {})).body.data;
    env.sim.state.failNext(3, 503, '/transformare');
    expectError(await f.call('GET', `/supplier-bills/${id}/efactura-pdf`), 502, 'anaf_unavailable');
    env.sim.state.stallNext(3_000, 1, '/transformare');
    expectError(await f.call('GET', `/supplier-bills/${id}/efactura-pdf`), 504, 'anaf_timeout');
    // Nothing was cached by the failures: the next request converts.
    expect((await fetchRaw(env, f.key, `/supplier-bills/${id}/efactura-pdf`)).status).toBe(200);
  });

  it('turns a bill into an expense through the expenses module, once', async () => {
    const f = await firm(env);
    receive(f, supplierXml(f.cui, { number: 'EXP-1' }));
    const { bill_ids: [id] } = (await f.ok('POST', '/supplier-bills/sync', {})).body.data;
    const made = await f.ok('POST', `/supplier-bills/${id}/expense`, { description: 'Consumabile birou' }, 201);
    const bill = made.body.data.supplier_bill;
    expect(bill.expense_id).toMatch(/^exp_/);
    expect(bill.expense).toMatchObject({
      id: bill.expense_id, reference: 'EXP-1', description: 'Consumabile birou', date: '2026-11-02', due_date: '2026-12-02', supplier_id: bill.supplier_id,
      amount: { total: '1052.70', without_vat: '870.00', vat: '182.70', currency: 'RON' }, vat_percent: 21, is_paid: false,
    });
    expect((await f.ok('GET', `/expenses/${bill.expense_id}`)).body.data).toMatchObject({ id: bill.expense_id, reference: 'EXP-1' });
    expectError(await f.call('POST', `/supplier-bills/${id}/expense`, {}), 409, 'supplier_bill_has_expense');
    const limited = await env.server.key({ cui: f.cui, scopes: ['supplier_bills:write'] });
    receive(f, supplierXml(f.cui, { number: 'EXP-2' }));
    const { bill_ids: [other] } = (await f.ok('POST', '/supplier-bills/sync', {})).body.data;
    const denied = await env.server.api(limited.api_key, 'POST', `/supplier-bills/${other}/expense`, {});
    expectError(denied, 403, 'insufficient_permissions');
  });
});

describe('a full SPV inbox (more than ANAF lists in one call)', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv('sqlite', { sim: { pageSize: 200 } });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('walks the paginated list when the plain one refuses over 500 messages', async () => {
    const f = await firm(env);
    const xml = supplierXml(f.cui, { number: 'BULK-0' });
    for (let i = 0; i < 501; i++) env.sim.state.addReceivedInvoice({ buyerCif: f.cui, sellerCif: SUPPLIER_CUI, xml: xml.replace('<cbc:ID>BULK-0</cbc:ID>', `<cbc:ID>BULK-${i}</cbc:ID>`), env: 'prod' });
    // The paginated window ends 10 s before the service clock (ANAF refuses an end in its future):
    // bring the service clock just past the moment the messages arrived.
    env.clock.set(Math.floor(Date.now() / 1000) + 12);
    const res = await f.ok('POST', '/supplier-bills/sync', {});
    expect(res.body.data).toMatchObject({ listed: 501, imported: 501, failed: 0 });
    const pages = env.sim.state.requestsTo('/listaMesajePaginatieFactura').map((r) => r.query.pagina);
    expect(pages).toEqual(['1', '2', '3']);
    expect((await f.ok('GET', '/supplier-bills?per_page=1')).body.data.total).toBe(501);
  }, 60_000);
});
