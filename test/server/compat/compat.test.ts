import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../../server/modules/index';
import { ALIAS_OF } from '../../../server/modules/compat/alias';
import { DIALECTS } from '../../support/storage';
import { expectError, fetchRaw, firm, invoice, RO_BUYER, startEnv, type Env, type Firm } from '../efactura-spv/helpers';

/**
 * Issue 18: the names Contazen's official SDK calls, on top of our routes. Each alias is called as the
 * SDK calls it (method, path, members), and what the service then holds is read from the database.
 */
describe('the PATCH twin of every PUT', () => {
  it('exists for every PUT route, on the same path, as an alias of it', () => {
    const puts = allRoutes.filter((r) => r.method === 'PUT');
    expect(puts.length).toBeGreaterThan(15);
    for (const put of puts) {
      const twin = allRoutes.find((r) => r.method === 'PATCH' && r.path === put.path);
      expect(twin, `PATCH ${put.path}`).toBeDefined();
      expect(twin!.handler).toBe(put.handler);
      expect(ALIAS_OF.get(twin!.operationId)).toBe(ALIAS_OF.get(put.operationId) ?? put.operationId);
    }
    const ids = allRoutes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(ids).size, 'no method and path twice').toBe(ids.length);
    expect(new Set(allRoutes.map((r) => r.operationId)).size).toBe(allRoutes.length);
  });
});

describe.each(DIALECTS)('Contazen SDK routes on %s', (dialect) => {
  let env: Env;
  let f: Firm;
  const db = () => env.server.storage.db;
  const data = async (method: string, path: string, body?: unknown, status = 200) => (await f.ok(method, path, body, status)).body.data;

  beforeAll(async () => {
    env = await startEnv(dialect);
    f = await firm(env);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  it('answers ping and version', async () => {
    expect(await data('GET', '/ping')).toMatchObject({ object: 'ping', pong: true, time: env.clock.now() });
    const version = await f.ok('GET', '/version');
    expect(version.body).toMatchObject({ success: true, data: { object: 'version', api_version: 'v1' } });
    const openapi = (await (await fetch(`${env.server.base}/openapi.json`)).json()) as { info: { version: string } };
    expect(version.body.data.openapi_version).toBe(openapi.info.version);
    expect((await fetch(`${env.server.base}/ping`)).status, 'a key is still needed').toBe(401);
  });

  it('looks a company up at ANAF under /clients/anaf/{cui}, as /fiscal/company-lookup does', async () => {
    const viaClients = await data('GET', '/clients/anaf/RO76543210');
    expect(viaClients).toEqual(await data('GET', '/fiscal/company-lookup?cui=RO76543210'));
    expect(viaClients.cui).toBe('76543210');
    expectError(await f.call('GET', '/clients/anaf/12345607'), 404, 'company_not_found');
    expect(expectError(await f.call('GET', '/clients/anaf/12345675'), 422, 'validation_error').fields).toHaveProperty('cui');
  });

  it('keeps invoice series under /series: create, list as an array, read, PATCH, set-primary, delete', async () => {
    const a = await data('POST', '/series', { name: 'CZA', document_type: 'fiscal' }, 201);
    const b = await data('POST', '/series', { name: 'CZB', document_type: 'fiscal', is_primary: true }, 201);
    const list = await data('GET', '/series?document_type=fiscal');
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await data('GET', `/series/${a.id}`)).toMatchObject({ id: a.id, name: 'CZA' });
    await data('PATCH', `/series/${a.id}`, { description: 'magazin' });
    const stored = await db().selectFrom('number_series').select(['description', 'is_primary']).where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ description: 'magazin', is_primary: 0 });
    expect(await data('POST', `/series/${a.id}/set-primary`)).toMatchObject({ id: a.id, is_primary: true });
    const primaries = await db().selectFrom('number_series').select(['id', 'is_primary']).where('id', 'in', [a.id, b.id]).orderBy('name').execute();
    expect(primaries.map((r) => [r.id, Number(r.is_primary)])).toEqual([[a.id, 1], [b.id, 0]]);
    expectError(await f.call('POST', '/series/ser_doesnotexist123/set-primary'), 404, 'resource_missing');
    expect((await f.ok('DELETE', `/series/${b.id}`)).body).toMatchObject({ success: true, deleted: true, id: b.id });
    expect(await db().selectFrom('number_series').select('id').where('id', '=', b.id).executeTakeFirst()).toBeUndefined();
  });

  it('updates with PATCH wherever PUT updates: a product, a draft invoice, the company profile', async () => {
    const product = await data('POST', '/products', { name: 'Ceai verde', price: 12 }, 201);
    await data('PATCH', `/products/${product.id}`, { price: 13.5 });
    const row = await db().selectFrom('products').selectAll().where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).toContain('1350');
    expect(await data('GET', `/products/${product.id}`)).toMatchObject({ name: 'Ceai verde', price: 13.5 });
    const draft = await invoice(f, { is_draft: true });
    await data('PATCH', `/invoices/${draft.id}`, { observations: 'prin PATCH' });
    expect((await db().selectFrom('invoices').select('observations').where('id', '=', draft.id).executeTakeFirstOrThrow()).observations).toBe('prin PATCH');
    await data('PATCH', '/company/profile', { phone: '+40 264 999 999' });
    const profile = await db().selectFrom('company_profiles').select(['phone', 'city']).where('company_id', '=', f.companyId).executeTakeFirstOrThrow();
    expect(profile).toEqual({ phone: '+40 264 999 999', city: 'Cluj-Napoca' });
  });

  it('records payments under the invoice, lists them as an array, and pays what is due with /pay', async () => {
    const inv = await invoice(f); // 2 x 100 + 21% = 242 lei
    const paid = await data('POST', `/invoices/${inv.id}/payments`, { amount: 42, date: '2026-11-20', method: 'card' }, 201);
    expect(paid).toMatchObject({ object: 'payment', amount: 42, type: 'card', date: '2026-11-20', invoice: { id: inv.id } });
    const rows = await db().selectFrom('payments').select(['amount_bani', 'type', 'date']).where('invoice_id', '=', inv.id).execute();
    expect(rows.map((r) => [Number(r.amount_bani), r.type, r.date])).toEqual([[4200, 'card', '2026-11-20']]);
    expect(expectError(await f.call('POST', `/invoices/${inv.id}/payments`, { amount: 1, method: 'cash' }), 422, 'validation_error').fields).toHaveProperty('method');
    expect(expectError(await f.call('POST', `/invoices/${inv.id}/payments`, { amount: 1, method: 'card', type: 'bank_order' }), 422, 'validation_error').fields).toHaveProperty('method');
    const after = await data('POST', `/invoices/${inv.id}/pay`, { method: 'bank_transfer' });
    expect(after).toMatchObject({ id: inv.id, paid_state: 'paid' });
    const all = await data('GET', `/invoices/${inv.id}/payments`);
    expect(all.map((p: { amount: number; type: string }) => [p.amount, p.type])).toEqual([[42, 'card'], [200, 'bank_order']]);
    const stored = await db().selectFrom('invoices').select(['amount_paid_bani', 'paid_state']).where('id', '=', inv.id).executeTakeFirstOrThrow();
    expect([Number(stored.amount_paid_bani), stored.paid_state]).toEqual([24200, 'paid']);
    expectError(await f.call('POST', `/invoices/${inv.id}/pay`, {}), 409, 'nothing_due');
    expectError(await f.call('GET', '/invoices/inv_doesnotexist123/payments'), 404, 'resource_missing');
  });

  it('voids an issued invoice by storno and a draft by deleting it', async () => {
    const issued = await invoice(f);
    const voided = await data('POST', `/invoices/${issued.id}/void`);
    expect(voided).toMatchObject({ id: issued.id, status: 'voided' });
    const storno = await db().selectFrom('invoices').selectAll().where('storno_of', '=', issued.id).executeTakeFirstOrThrow();
    expect(storno.status).toBe('storno');
    expect(voided.storno_id).toBe(storno.id);
    expect(Number(storno.total_bani)).toBe(-24200);
    expectError(await f.call('POST', `/invoices/${issued.id}/void`), 409, 'already_voided');
    expectError(await f.call('POST', `/invoices/${storno.id}/void`), 409, 'invoice_is_storno');
    const draft = await invoice(f, { is_draft: true });
    expect(await data('POST', `/invoices/${draft.id}/void`)).toMatchObject({ id: draft.id, status: 'draft' });
    expect(await db().selectFrom('invoices').select('id').where('id', '=', draft.id).executeTakeFirst()).toBeUndefined();
    expectError(await f.call('GET', `/invoices/${draft.id}`), 404, 'resource_missing');
  });

  it('duplicates an invoice into a new draft with the same lines, buyer and currency', async () => {
    const original = await invoice(f, {
      items: [{ description: 'Cafea', quantity: 3, price: 10, vat_rate: 21 }, { description: 'Carte', quantity: 1, price: 50, vat_rate: 11 }],
      observations: 'comanda 17',
    });
    const copy = await data('POST', `/invoices/${original.id}/duplicate`, { issue_date: '2026-12-01' }, 201);
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({ status: 'draft', number: null, issue_date: '2026-12-01', totals: original.totals, observations: 'comanda 17' });
    const lines = await db().selectFrom('invoice_lines').select(['description', 'quantity_milli', 'price_bani', 'vat_rate_bp']).where('invoice_id', '=', copy.id).orderBy('position').execute();
    expect(lines.map((l) => [l.description, Number(l.quantity_milli), Number(l.price_bani), Number(l.vat_rate_bp)])).toEqual([
      ['Cafea', 3000, 1000, 2100], ['Carte', 1000, 5000, 1100],
    ]);
    const stored = await db().selectFrom('invoices').select(['client_id', 'series_id', 'status']).where('id', '=', copy.id).executeTakeFirstOrThrow();
    const first = await db().selectFrom('invoices').select(['client_id', 'series_id']).where('id', '=', original.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ ...first, status: 'draft' });
    const storno = await data('POST', `/invoices/${original.id}/storno`, {}, 201);
    expectError(await f.call('POST', `/invoices/${storno.id}/duplicate`), 409, 'storno_not_duplicable');
  });

  it('marks an issued invoice as sent once, and refuses a draft', async () => {
    const inv = await invoice(f);
    const first = await data('POST', `/invoices/${inv.id}/mark-sent`);
    expect(first).toMatchObject({ id: inv.id, sent_at: env.clock.now() });
    env.clock.advance(60);
    expect((await data('POST', `/invoices/${inv.id}/mark-sent`)).sent_at).toBe(first.sent_at);
    const rows = await db().selectFrom('invoice_sent_marks').selectAll().where('invoice_id', '=', inv.id).execute();
    expect(rows.map((r) => [r.company_id, Number(r.sent_at)])).toEqual([[f.companyId, first.sent_at]]);
    const draft = await invoice(f, { is_draft: true });
    expectError(await f.call('POST', `/invoices/${draft.id}/mark-sent`), 409, 'invoice_is_draft');
  });

  it('converts a proforma under /convert-to-fiscal', async () => {
    await f.ok('POST', '/invoice-series', { name: 'CZF', document_type: 'fiscal', is_primary: true }, 201);
    const proforma = await invoice(f, { document_type: 'proforma' });
    const fiscal = await data('POST', `/invoices/${proforma.id}/convert-to-fiscal`, {}, 201);
    expect(fiscal).toMatchObject({ document_type: 'fiscal', status: 'issued', converted_from: proforma.id });
    const stored = await db().selectFrom('invoices').select('converted_to').where('id', '=', proforma.id).executeTakeFirstOrThrow();
    expect(stored.converted_to).toBe(fiscal.id);
  });

  it('answers stats of a period from the sales journal, to the ban', async () => {
    const today = new Date(env.clock.now() * 1000).toISOString().slice(0, 10);
    const period = `start_date=${today.slice(0, 8)}01&end_date=${today}`;
    const before = await data('GET', `/invoices/stats?${period}`);
    await invoice(f, { items: [{ description: 'Abonament', quantity: 1, price: 1000, vat_rate: 21 }] });
    const stats = await data('GET', `/invoices/stats?${period}`);
    const journal = await data('GET', `/accounting/journals/sales?${period}`);
    expect(stats).toMatchObject({ object: 'invoice_stats', currency: 'RON', document_count: journal.document_count, totals: journal.totals });
    expect(stats.document_count).toBe(before.document_count + 1);
    const grew = Object.keys(stats.totals).filter((c) => stats.totals[c] !== before.totals[c]);
    expect(grew.length).toBeGreaterThan(0);
    expect(await data('GET', '/invoices/stats')).toMatchObject({ start_date: `${today.slice(0, 8)}01`, end_date: today });
    expect(expectError(await f.call('GET', '/invoices/stats?start_date=2026-05-01&end_date=2026-04-01'), 422, 'validation_error').fields).toHaveProperty('end_date');
  });

  it('reads the settings and changes the company profile through PATCH /settings', async () => {
    const settings = await data('GET', '/settings');
    expect(settings).toMatchObject({
      object: 'settings', firm: { name: 'Tejghea Test SRL', city: 'Cluj-Napoca' },
      efactura: { enabled: true, oauth_configured: true }, subscription: { plan: 'self_hosted', invoices_limit: null },
    });
    expect(settings.primary_series.every((s: { is_primary: boolean }) => s.is_primary)).toBe(true);
    expect(settings.invoice_series.length).toBeGreaterThanOrEqual(settings.primary_series.length);
    const changed = await data('PATCH', '/settings', { city: 'Turda' });
    expect(changed.firm.city).toBe('Turda');
    const row = await db().selectFrom('company_profiles').select(['city', 'street']).where('company_id', '=', f.companyId).executeTakeFirstOrThrow();
    expect(row).toEqual({ city: 'Turda', street: 'Str. Memorandumului nr. 28' });
    const currencies = await data('GET', '/settings/currencies');
    expect(Array.isArray(currencies), 'a plain array, as the SDK reads it').toBe(true);
    expect(currencies.map((c: { code: string }) => c.code)).toContain('RON');
  });

  it('reads `[]` (json_encode of an empty PHP array) as `{}`, and still refuses any other array', async () => {
    const inv = await invoice(f);
    const copy = await f.call('POST', `/invoices/${inv.id}/duplicate`, []);
    expect(copy.status, copy.text).toBe(201);
    const stored = await db().selectFrom('invoices').select('status').where('id', '=', copy.body.data.id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('draft');
    expect((await f.call('POST', `/efactura/submit/${inv.id}`, [])).status).toBe(200);
    expect(await db().selectFrom('efactura_submissions').select('id').where('invoice_id', '=', inv.id).execute()).toHaveLength(1);
    expectError(await f.call('POST', `/invoices/${inv.id}/duplicate`, [1]), 422, 'validation_error');
    expectError(await f.call('POST', '/clients', []), 422, 'validation_error');
  });

  it('submits to e-Factura under /efactura/submit and serves the XML, the status and the history', async () => {
    const inv = await invoice(f, { client: RO_BUYER });
    const xmlAlias = await fetchRaw(env, f.key, `/efactura/xml/${inv.id}`);
    const xmlOwn = await fetchRaw(env, f.key, `/invoices/${inv.id}/efactura-xml`);
    expect(xmlAlias.status).toBe(200);
    expect(xmlAlias.type).toContain('application/xml');
    expect(xmlAlias.bytes.equals(xmlOwn.bytes)).toBe(true);
    expect(await data('GET', `/efactura/invoice/${inv.id}/status`)).toEqual({
      object: 'efactura_invoice_status', invoice_id: inv.id, efactura_status: 'not_sent', sent_to_anaf: false,
    });
    const submitted = await data('POST', `/efactura/submit/${inv.id}`);
    const row = await db().selectFrom('efactura_submissions').select(['id', 'invoice_id']).where('id', '=', submitted.submission_id).executeTakeFirstOrThrow();
    expect(row.invoice_id).toBe(inv.id);
    expect(await data('GET', `/efactura/status/${row.id}`)).toMatchObject({ id: row.id });
    const again = await data('POST', `/efactura/retry/${inv.id}`);
    expect(again.submission_id, 'a live submission is answered, not uploaded again').toBe(row.id);
    const history = await data('GET', `/efactura/invoice/${inv.id}/history`);
    expect(history.map((s: { id: string }) => s.id)).toEqual([row.id]);
    expect((await data('GET', `/efactura/invoice/${inv.id}/status`)).sent_to_anaf).toBe(true);
    const count = await db().selectFrom('efactura_submissions').select('id').where('invoice_id', '=', inv.id).execute();
    expect(count).toHaveLength(1);
  });

  it('starts and revokes the ANAF link under Contazen\'s OAuth names', async () => {
    const other = await firm(env, { link: false });
    const started = await other.ok('POST', '/efactura/oauth/initialize', { environment: 'test' });
    expect(started.body.data.authorize_url).toContain(started.body.data.state);
    const state = await db().selectFrom('anaf_oauth_states').select('company_id').where('state', '=', started.body.data.state).executeTakeFirstOrThrow();
    expect(state.company_id).toBe(other.companyId);
    const linkedBefore = await db().selectFrom('anaf_oauth_tokens').select('company_id').where('company_id', '=', f.companyId).execute();
    expect(linkedBefore).toHaveLength(1);
    const revoked = await f.ok('POST', '/efactura/oauth/revoke', { environment: 'test' });
    expect(revoked.body).toMatchObject({ success: true, object: 'efactura_oauth', deleted: true });
    expect(await db().selectFrom('anaf_oauth_tokens').select('company_id').where('company_id', '=', f.companyId).execute()).toHaveLength(0);
    expectError(await f.call('POST', '/efactura/oauth/revoke', {}), 404, 'resource_missing');
    expect(expectError(await f.call('POST', '/efactura/oauth/initialize', { environment: 'staging' }), 422, 'validation_error').fields).toHaveProperty('environment');
  });
});
