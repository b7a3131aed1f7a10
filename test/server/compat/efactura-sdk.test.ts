import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUblXml } from '../../../server/efactura/index';
import { finish, seller as exampleSupplier } from '../../efactura/fixtures/documents';
import { DIALECTS } from '../../support/storage';
import { expectError, firm, invoice, startEnv, type Env, type Firm } from '../efactura-spv/helpers';

/**
 * Issue 18: the e-Factura calls of Contazen's SDK that had no route (validate, messages, sync-messages,
 * settings, cancel), made as the SDK makes them: its action calls post `[]` (PHP's empty array), its
 * reads are GETs with its query members. What the service holds afterwards is read from the database.
 */

const SUPPLIER_CUI = '12345674';

function supplierXml(buyerCui: string, number: string): string {
  return toUblXml(finish(
    {
      kind: 'invoice', number, issue_date: '2026-11-02', due_date: '2026-12-02', currency: 'RON', seller: exampleSupplier,
      buyer: {
        name: 'Tejghea Test SRL', vat_id: `RO${buyerCui}`, cui: buyerCui,
        address: { street: 'Str. Memorandumului nr. 28', city: 'Cluj-Napoca', county_code: 'RO-CJ', country_code: 'RO' },
      },
      payment: { means_code: '30', iban: 'RO49AAAA1B31007593840000' },
    },
    [{ name: 'Hârtie A4', quantity_milli: 10_000, unit_price_bani: 2_500, vat_category: 'S', vat_rate_bp: 2100, unit_code: 'H87' }],
  ));
}

describe.each(DIALECTS)('e-Factura calls of Contazen\'s SDK on %s', (dialect) => {
  let env: Env;
  let f: Firm;
  const db = () => env.server.storage.db;

  beforeAll(async () => {
    env = await startEnv(dialect);
    f = await firm(env);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  it('validates an invoice without sending it: valid, or each problem named', async () => {
    const inv = await invoice(f);
    const ok = await f.ok('POST', `/efactura/validate/${inv.id}`, []);
    expect(ok.body.data).toEqual({ object: 'efactura_validation', invoice_id: inv.id, valid: true, errors: [] });
    expect(await db().selectFrom('efactura_submissions').select('id').where('invoice_id', '=', inv.id).execute()).toHaveLength(0);

    // A firm without its address: the invoice is issued (no e-Factura asked), but it cannot make a valid e-Factura.
    const bare = await firm(env, { profile: false, link: false });
    const poor = await invoice(bare);
    const bad = (await bare.ok('POST', `/efactura/validate/${poor.id}?locale=ro`, [])).body.data;
    expect(bad).toMatchObject({ object: 'efactura_validation', invoice_id: poor.id, valid: false });
    expect(bad.errors.length).toBeGreaterThan(0);
    // The same problems the XML route refuses with.
    const xml = expectError(await bare.call('GET', `/invoices/${poor.id}/efactura-xml?locale=ro`), 422, 'efactura_invalid_invoice');
    expect(Object.fromEntries(bad.errors.map((e: { field: string; message: string }) => [e.field, e.message]))).toEqual(xml.fields);

    const draft = await invoice(f, { is_draft: true });
    expectError(await f.call('POST', `/efactura/validate/${draft.id}`, []), 409, 'invoice_is_draft');
    expectError(await bare.call('POST', `/efactura/validate/${inv.id}`, []), 404, 'resource_missing');
  });

  it('syncs the SPV inbox and lists its messages of the last days, each with its supplier bill', async () => {
    const g = await firm(env);
    env.sim.state.addReceivedInvoice({ buyerCif: g.cui, sellerCif: SUPPLIER_CUI, xml: supplierXml(g.cui, 'MS-1'), env: 'prod' });
    env.sim.state.addReceivedInvoice({ buyerCif: g.cui, sellerCif: SUPPLIER_CUI, xml: supplierXml(g.cui, 'MS-2'), env: 'prod' });
    const synced = (await g.ok('POST', '/efactura/sync-messages', [])).body.data;
    expect(synced).toMatchObject({ object: 'supplier_bill_sync', listed: 2, imported: 2, failed: 0 });
    expect(env.sim.state.requestsTo('/listaMesajeFactura').at(-1)!.query).toEqual({ zile: '60', cif: g.cui, filtru: 'P' });

    const page = (await g.ok('GET', '/efactura/messages?days=7')).body.data;
    expect(page).toMatchObject({ object: 'list', total: 2, has_more: false });
    const bills = await db().selectFrom('supplier_bills').select(['id', 'efactura_message_id']).where('company_id', '=', g.companyId).execute();
    expect(page.data.map((m: { supplier_bill_id: string }) => m.supplier_bill_id).sort()).toEqual(bills.map((b) => b.id).sort());
    for (const m of page.data) {
      expect(m).toMatchObject({ object: 'efactura_message', environment: 'prod', type: 'FACTURA PRIMITA', cif: g.cui, status: 'imported', error: null });
      expect(bills.find((b) => b.id === m.supplier_bill_id)!.efactura_message_id).toBe(Number(m.id));
    }
    expect((await g.ok('GET', '/efactura/messages?days=7&status=failed')).body.data.total).toBe(0);
    expect((await g.ok('GET', '/efactura/messages?days=7&type=FACTURA%20PRIMITA&per_page=1')).body.data).toMatchObject({ total: 2, has_more: true, data: [expect.anything()] });
    // Another firm sees none of them.
    expect((await f.ok('GET', '/efactura/messages')).body.data.total).toBe(0);
    expect(expectError(await g.call('GET', '/efactura/messages?days=90'), 422, 'validation_error').fields).toHaveProperty('days');
  });

  it('answers the e-Factura settings as the service works, and refuses a change it would not honour', async () => {
    const settings = (await f.ok('GET', '/efactura/settings')).body.data;
    expect(settings).toEqual({
      object: 'efactura_settings', environment: 'live', auto_send: false, auto_send_timing: null, send_to_public_institutions: false,
      oauth_configured: true, oauth_status: 'linked',
    });
    expect((await f.ok('PATCH', '/efactura/settings', { environment: 'live', auto_send: false })).body.data).toEqual(settings);
    for (const [member, value] of [['auto_send', true], ['environment', 'test'], ['auto_send_timing', 'daily'], ['send_to_public_institutions', true]] as const) {
      const error = expectError(await f.call('PATCH', '/efactura/settings?locale=ro', { [member]: value }), 422, 'efactura_setting_unsupported');
      expect(error.param).toBe(member);
      expect(error.message).toContain(member);
    }
    expectError(await f.call('PATCH', '/efactura/settings', { signature: 'x' }), 422, 'unknown_parameter');
    const unlinked = await firm(env, { link: false });
    expect((await unlinked.ok('GET', '/efactura/settings')).body.data).toMatchObject({ oauth_configured: false });
  });

  it('cancels only a submission ANAF never received; the invoice is not_sent again', async () => {
    const inv = await invoice(f);
    expectError(await f.call('POST', `/efactura/cancel/${inv.id}`, []), 409, 'efactura_not_submitted');

    // ANAF down: the submission waits to retry its upload, which ANAF provably never got.
    env.sim.state.failNext(3, 503, '/upload');
    expectError(await f.call('POST', `/efactura/submit/${inv.id}`, []), 502, 'anaf_unavailable');
    const before = await db().selectFrom('efactura_submissions').selectAll().where('invoice_id', '=', inv.id).executeTakeFirstOrThrow();
    expect(before).toMatchObject({ status: 'retrying', upload_index: null });
    const cancelled = (await f.ok('POST', `/efactura/cancel/${inv.id}`, [])).body.data;
    expect(cancelled).toEqual({ object: 'efactura_cancellation', invoice_id: inv.id, submission_id: before.id, status: 'failed' });
    const after = await db().selectFrom('efactura_submissions').selectAll().where('id', '=', before.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: 'failed', active_key: null, next_check_at: null });
    expect((await db().selectFrom('invoices').select('efactura_status').where('id', '=', inv.id).executeTakeFirstOrThrow()).efactura_status).toBe('not_sent');
    expectError(await f.call('POST', `/efactura/cancel/${inv.id}`, []), 409, 'efactura_not_submitted');

    // Submitted again, ANAF has it: no cancel, a storno corrects it.
    expect((await f.ok('POST', `/efactura/submit/${inv.id}`, [])).body.data.status).toMatch(/uploaded|processing|accepted/);
    expectError(await f.call('POST', `/efactura/cancel/${inv.id}`, []), 409, 'efactura_not_cancellable');

    // An upload of unknown fate (the answer lost): ANAF may have it, so it is not cancelled either.
    const lost = await invoice(f);
    env.sim.state.failNext(1, 500, '/upload');
    expectError(await f.call('POST', `/efactura/submit/${lost.id}`, []), 502, 'anaf_unavailable');
    expectError(await f.call('POST', `/efactura/cancel/${lost.id}`, []), 409, 'efactura_not_cancellable');

    const other = await firm(env, { link: false });
    expectError(await other.call('POST', `/efactura/cancel/${inv.id}`, []), 404, 'resource_missing');
  });
});
