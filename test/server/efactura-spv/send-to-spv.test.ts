import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollSubmissions, UNCERTAIN_GRACE_SECONDS } from '../../../server/modules/efactura-spv/submissions';
import { DIALECTS } from '../../support/storage';
import { expectError, fetchRaw, firm, invoice, storno, startEnv, type Env, type Firm } from './helpers';

describe.each(DIALECTS)('POST /invoices/{id}/send-to-spv on %s', (dialect) => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
  });

  const uploads = (cif?: string) => env.sim.state.requestsTo('/FCTEL/rest/upload').filter((r) => cif === undefined || r.query.cif === cif);
  const poll = () => pollSubmissions(env.services, env.clock.now());
  const submission = async (f: Firm, id: string) => (await f.ok('GET', `/efactura/submissions/${id}`)).body.data;
  const invoiceOf = async (f: Firm, id: string) => (await f.ok('GET', `/invoices/${id}`)).body.data;

  it('uploads, follows the submission to ANAF’s acceptance, and never uploads the same invoice twice', async () => {
    const f = await firm(env);
    const inv = await invoice(f);
    const sent = await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {});
    expect(sent.body).toMatchObject({ success: true, meta: { version: 'v1' } });
    expect(sent.body.data).toEqual({ submission_id: expect.stringMatching(/^efs_/), status: 'uploaded', message: expect.stringMatching(/^ANAF received the invoice \(upload index \d+\)/) });
    for (const v of Object.values(sent.body.data)) expect(typeof v).toBe('string');
    const id = sent.body.data.submission_id as string;
    const [upload] = uploads(f.cui);
    expect(upload).toMatchObject({ method: 'POST', path: '/api/prod/FCTEL/rest/upload', query: { standard: 'UBL', cif: f.cui } });
    expect((await invoiceOf(f, inv.id)).efactura_status).toBe('pending');

    // The XML ANAF got is the one the invoice serves from now on.
    const uploaded = env.sim.state.uploads.get((await submission(f, id)).upload_index)!;
    const served = await fetchRaw(env, f.key, `/invoices/${inv.id}/efactura-xml`);
    expect(Buffer.from(uploaded.xml).equals(served.bytes)).toBe(true);

    // Sending again returns the same submission and uploads nothing.
    const again = await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, { test_mode: false });
    expect(again.body.data).toMatchObject({ submission_id: id, status: 'uploaded', message: expect.stringMatching(/^The invoice was already submitted/) });
    expect(uploads(f.cui)).toHaveLength(1);

    // Nothing is due before its time; then ANAF says "in prelucrare", then "ok".
    expect((await poll()).checked).toBe(0);
    env.clock.advance(60);
    await poll();
    expect(await submission(f, id)).toMatchObject({ status: 'processing', next_check_at: env.clock.now() + 120 });
    env.clock.advance(120);
    await poll();
    const done = await submission(f, id);
    expect(done).toMatchObject({ object: 'efactura_submission', invoice_id: inv.id, environment: 'prod', status: 'accepted', errors: [], attempts: 1, finished_at: env.clock.now() });
    expect(done.download_id).toMatch(/^\d+$/);
    expect((await invoiceOf(f, inv.id)).efactura_status).toBe('accepted');
    const stored = await env.server.storage.db.selectFrom('efactura_submissions').select('answer_zip').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Buffer.from(stored.answer_zip!, 'base64').subarray(0, 2).toString()).toBe('PK');

    const third = await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {});
    expect(third.body.data).toMatchObject({ submission_id: id, status: 'accepted' });
    expect(uploads(f.cui)).toHaveLength(1);
    const listed = await f.ok('GET', `/efactura/submissions?invoice_id=${inv.id}`);
    expect(listed.body.data).toMatchObject({ object: 'list', total: 1, data: [{ id, status: 'accepted' }] });
    expect((await f.ok('GET', `/efactura/submissions/${id}?locale=ro`)).body.data.message).toMatch(/^ANAF a acceptat factura/);
  });

  it('parallel sends of one invoice make one submission and one upload', async () => {
    const f = await firm(env);
    const inv = await invoice(f);
    const replies = await Promise.all(Array.from({ length: 6 }, () => f.call('POST', `/invoices/${inv.id}/send-to-spv`, {})));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(replies.map((r) => r.body.data.submission_id)).size).toBe(1);
    expect(uploads(f.cui)).toHaveLength(1);
    expect((await f.ok('GET', `/efactura/submissions?invoice_id=${inv.id}`)).body.data.total).toBe(1);
  });

  it('an invoice accepted by ANAF can no longer be deleted', async () => {
    const f = await firm(env);
    const original = await invoice(f);
    const st = await storno(f, original.id);
    const sent = await f.ok('POST', `/invoices/${st.id}/send-to-spv`, {});
    env.clock.advance(60);
    await poll();
    env.clock.advance(120);
    await poll();
    expect((await submission(f, sent.body.data.submission_id)).status).toBe('accepted');
    // A storno may be deleted by the invoicing rules, but not once e-Factura holds it.
    expectError(await f.call('DELETE', `/invoices/${st.id}`), 409, 'invoice_in_efactura');
  });

  it('records ANAF’s rejection with its error report, and then allows a new submission', async () => {
    const f = await firm(env);
    const inv = await invoice(f);
    const sent = await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {});
    const id = sent.body.data.submission_id;
    // ANAF's validation finds a problem the simulator's few checks do not model: steer its verdict.
    const upload = env.sim.state.uploads.get((await submission(f, id)).upload_index)!;
    upload.errors = ['[BR-RO-A999]-Eroare de test a simulatorului.'];
    env.clock.advance(60);
    await poll();
    env.clock.advance(120);
    await poll();
    const rejected = await submission(f, id);
    expect(rejected).toMatchObject({ status: 'rejected', errors: ['[BR-RO-A999]-Eroare de test a simulatorului.'], message: 'ANAF rejected the invoice: [BR-RO-A999]-Eroare de test a simulatorului.' });
    expect((await invoiceOf(f, inv.id)).efactura_status).toBe('rejected');
    const retry = await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {});
    expect(retry.body.data.submission_id).not.toBe(id);
    expect(retry.body.data.status).toBe('uploaded');
    expect((await invoiceOf(f, inv.id)).efactura_status).toBe('pending');
  });

  it('reports an upload ANAF refuses at once (no SPV rights for the CIF) as rejected', async () => {
    const f = await firm(env, { spv: false });
    const inv = await invoice(f);
    const sent = await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {});
    expect(sent.body.data.status).toBe('rejected');
    expect(sent.body.data.message).toBe(`ANAF rejected the invoice: Nu aveti drept in SPV pentru CIF=${f.cui}`);
    expect((await invoiceOf(f, inv.id)).efactura_status).toBe('rejected');
  });

  it('answers oauth_not_configured, invoice_is_draft and resource_missing', async () => {
    const unlinked = await firm(env, { link: false });
    const inv = await invoice(unlinked);
    const error = expectError(await unlinked.call('POST', `/invoices/${inv.id}/send-to-spv`, {}), 400, 'oauth_not_configured');
    expect(error.type).toBe('configuration_error');
    const f = await firm(env);
    const draft = await invoice(f, { is_draft: true });
    expectError(await f.call('POST', `/invoices/${draft.id}/send-to-spv`, {}), 409, 'invoice_is_draft');
    expectError(await f.call('POST', '/invoices/inv_missing/send-to-spv', {}), 404, 'resource_missing');
    expectError(await f.call('POST', `/invoices/${inv.id}/send-to-spv`, {}), 404, 'resource_missing');
    expectError(await f.call('POST', `/invoices/${draft.id}/send-to-spv`, { test_mode: 'yes' }), 422, 'validation_error');
    expect(uploads(f.cui)).toHaveLength(0);
  });

  it('refreshes an access token ANAF no longer accepts, and stores the new tokens', async () => {
    const f = await firm(env);
    const inv = await invoice(f);
    const before = await env.server.storage.db.selectFrom('anaf_oauth_tokens').selectAll().where('company_id', '=', f.companyId).executeTakeFirstOrThrow();
    env.sim.state.expireAccessTokens();
    const grants = env.sim.state.tokenGrants.length;
    const sent = await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {});
    expect(sent.body.data.status).toBe('uploaded');
    expect(env.sim.state.tokenGrants.slice(grants)).toEqual(['refresh_token']);
    const after = await env.server.storage.db.selectFrom('anaf_oauth_tokens').selectAll().where('company_id', '=', f.companyId).executeTakeFirstOrThrow();
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(Number(after.refreshed_at)).toBe(env.clock.now());
    // Our own clock says the token is expiring: the next call refreshes before asking.
    env.clock.advance(90 * 86_400);
    const inv2 = await invoice(f);
    expect((await f.ok('POST', `/invoices/${inv2.id}/send-to-spv`, {})).body.data.status).toBe('uploaded');
    expect(env.sim.state.tokenGrants.slice(grants)).toEqual(['refresh_token', 'refresh_token']);
  });

  it('sends test_mode to ANAF’s test environment without touching the live status', async () => {
    const f = await firm(env);
    const inv = await invoice(f);
    const test = await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, { test_mode: true });
    expect(uploads(f.cui).map((r) => r.path)).toEqual(['/api/test/FCTEL/rest/upload']);
    expect((await invoiceOf(f, inv.id)).efactura_status).toBe('not_sent');
    expect((await submission(f, test.body.data.submission_id)).environment).toBe('test');
    const live = await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {});
    expect(live.body.data.submission_id).not.toBe(test.body.data.submission_id);
    expect(uploads(f.cui).map((r) => r.path)).toEqual(['/api/test/FCTEL/rest/upload', '/api/prod/FCTEL/rest/upload']);
    // An invoice marked for the test environment follows it by default.
    const testInvoice = await invoice(f, { spv_environment: 'test' });
    await f.ok('POST', `/invoices/${testInvoice.id}/send-to-spv`, {});
    expect(uploads(f.cui).at(-1)!.path).toBe('/api/test/FCTEL/rest/upload');
    expect((await invoiceOf(f, testInvoice.id)).efactura_status).toBe('pending');
  });

  it('B2C invoices go to uploadb2c, a buyer abroad with extern=DA', async () => {
    const f = await firm(env);
    const b2c = await invoice(f, { client: { type: 'person', name: 'Ion Popescu', address: 'Str. Florilor 3', city: 'Brașov', county: 'Brașov', country: 'RO' } });
    await f.ok('POST', `/invoices/${b2c.id}/send-to-spv`, {});
    expect(uploads(f.cui).at(-1)!.path).toBe('/api/prod/FCTEL/rest/uploadb2c');
    const abroad = await invoice(f, { client: { type: 'company', name: 'Beispiel GmbH', cui: 'DE123456789', address: 'Hauptstraße 1', city: 'Berlin', country: 'DE' } });
    await f.ok('POST', `/invoices/${abroad.id}/send-to-spv`, {});
    expect(uploads(f.cui).at(-1)!.query).toEqual({ standard: 'UBL', cif: f.cui, extern: 'DA' });
  });

  it('ANAF down (503): answers 502 anaf_unavailable, then the poller uploads when ANAF is back', async () => {
    const f = await firm(env);
    const inv = await invoice(f);
    env.sim.state.failNext(3, 503, '/upload');
    const error = expectError(await f.call('POST', `/invoices/${inv.id}/send-to-spv`, {}), 502, 'anaf_unavailable');
    expect(error.message).toMatch(/retried automatically/);
    const [sub] = (await f.ok('GET', `/efactura/submissions?invoice_id=${inv.id}`)).body.data.data;
    expect(sub).toMatchObject({ status: 'retrying', attempts: 1, upload_index: null });
    expect((await invoiceOf(f, inv.id)).efactura_status).toBe('pending');
    // A retry by the caller does not upload: the submission is already live.
    expect((await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {})).body.data).toMatchObject({ submission_id: sub.id, status: 'retrying' });
    expect(uploads(f.cui)).toHaveLength(3);
    env.clock.advance(300);
    await poll();
    // ANAF provably did not take it: no need to look for it in the message list first.
    expect(uploads(f.cui)).toHaveLength(4);
    expect(await submission(f, sub.id)).toMatchObject({ status: 'uploaded', attempts: 2 });
  });

  it('an answer lost after sending (500): the message list is checked before uploading again', async () => {
    const f = await firm(env);
    const inv = await invoice(f);
    env.sim.state.failNext(1, 500, '/upload');
    expectError(await f.call('POST', `/invoices/${inv.id}/send-to-spv`, {}), 502, 'anaf_unavailable');
    expect(uploads(f.cui)).toHaveLength(1);
    const [sub] = (await f.ok('GET', `/efactura/submissions?invoice_id=${inv.id}`)).body.data.data;
    const lists = () => env.sim.state.requestsTo('/listaMesajeFactura').filter((r) => r.query.cif === f.cui && r.query.filtru === 'T').length;

    env.clock.advance(300);
    await poll();
    // Looked, found nothing, and waits for ANAF rather than risk a second filing.
    expect(lists()).toBe(1);
    expect(uploads(f.cui)).toHaveLength(1);
    expect((await submission(f, sub.id)).status).toBe('retrying');

    env.clock.advance(UNCERTAIN_GRACE_SECONDS);
    await poll();
    expect(lists()).toBe(2);
    expect(uploads(f.cui)).toHaveLength(2);
    const listed = env.sim.state.requests.findIndex((r) => r.path.endsWith('/listaMesajeFactura') && r.query.cif === f.cui && r.query.filtru === 'T');
    const second = env.sim.state.requests.findLastIndex((r) => r.path.endsWith('/upload') && r.query.cif === f.cui);
    expect(listed).toBeLessThan(second);
    expect(await submission(f, sub.id)).toMatchObject({ status: 'uploaded', attempts: 2 });
  });

  it('a timed-out upload that ANAF did file is adopted from the message list, not filed again', async () => {
    const f = await firm(env);
    const inv = await invoice(f);
    env.sim.state.stallNext(3_000, 1, '/upload');
    const error = expectError(await f.call('POST', `/invoices/${inv.id}/send-to-spv`, {}), 504, 'anaf_timeout');
    expect(error.message).toMatch(/did not answer within 1500 ms/);
    const [sub] = (await f.ok('GET', `/efactura/submissions?invoice_id=${inv.id}`)).body.data.data;
    expect(sub.status).toBe('retrying');

    // ANAF had it after all: its sent list shows the invoice (as the real service would once processed).
    const xml = (await fetchRaw(env, f.key, `/invoices/${inv.id}/efactura-xml`)).bytes;
    const index = env.sim.state.newUploadIndex();
    const downloadId = env.sim.state.newDownloadId();
    env.sim.state.downloads.set(downloadId, { env: 'prod', uploadIndex: index, document: new Uint8Array(xml) });
    env.sim.state.addMessage({
      env: 'prod', id: downloadId, cif: f.cui, id_solicitare: index, tip: 'FACTURA TRIMISA',
      detalii: `Factura cu id_incarcare=${index} emisa de cif_emitent=${f.cui} pentru cif_beneficiar=76543210`,
    });
    const before = uploads(f.cui).length;
    env.clock.advance(300);
    await poll();
    expect(uploads(f.cui)).toHaveLength(before);
    expect(await submission(f, sub.id)).toMatchObject({ status: 'accepted', upload_index: index, download_id: downloadId });
    expect((await invoiceOf(f, inv.id)).efactura_status).toBe('accepted');
  });
});
