import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES } from '../../../shared/schemas/attachment';
import { DIALECTS } from '../../support/storage';
import { expectError, fetchRaw, firm, invoice, startEnv, type Env, type Firm } from '../efactura-spv/helpers';

/**
 * Issue 18: files attached to documents (Contazen's `Documents` attachments). Real bytes go up base64
 * and come back byte for byte; the row in the database holds them; another firm gets 404 everywhere.
 */

/** A small but real PDF, with binary bytes after the header as PDFs have. */
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\n', 'latin1'), randomBytes(2048), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(300)]);
const CSV = Buffer.from('cod;denumire;cantitate\nA1;Hârtie A4;10\n', 'utf8');
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), randomBytes(200)]);

describe.each(DIALECTS)('attachments on documents on %s', (dialect) => {
  let env: Env;
  let f: Firm;
  let other: Firm;
  const db = () => env.server.storage.db;
  const upload = (who: Firm, body: Record<string, unknown>) => who.call('POST', '/documents/attachments', body);

  beforeAll(async () => {
    env = await startEnv(dialect);
    f = await firm(env);
    other = await firm(env, { link: false });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  it('keeps a file on an invoice and gives back the same bytes; the list, the row and the delete agree', async () => {
    const inv = await invoice(f);
    const made = await upload(f, { document_type: 'invoice', document_id: inv.id, file_name: 'C:\\acte\\contract semnat.pdf', content: PDF.toString('base64'), description: 'Contract' });
    expect(made.status).toBe(201);
    const a = made.body.data;
    expect(a).toMatchObject({
      object: 'attachment', document_type: 'invoice', document_id: inv.id, file_name: 'contract semnat.pdf', content_type: 'application/pdf',
      size: PDF.length, sha256: createHash('sha256').update(PDF).digest('hex'), description: 'Contract', created_at: env.clock.now(),
      download_path: `/documents/attachments/${a.id}/download`,
    });
    const row = await db().selectFrom('document_attachments').selectAll().where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(row.company_id).toBe(f.companyId);
    expect(Buffer.from(row.content, 'base64').equals(PDF), 'the bytes in the database').toBe(true);

    const down = await fetchRaw(env, f.key, `/documents/attachments/${a.id}/download`);
    expect(down.status).toBe(200);
    expect(down.type).toBe('application/pdf');
    expect(down.disposition).toBe('attachment; filename="contract semnat.pdf"');
    expect(down.bytes.equals(PDF), 'the bytes downloaded').toBe(true);

    env.clock.advance(1);
    const png = (await f.ok('POST', '/documents/attachments', { document_type: 'invoice', document_id: inv.id, file_name: 'bon.png', content_type: 'image/png', content: PNG.toString('base64') }, 201)).body.data;
    expect(png.content_type).toBe('image/png');
    expect((await fetchRaw(env, f.key, `/documents/attachments/${png.id}/download`)).bytes.equals(PNG)).toBe(true);

    // As the SDK lists them: document_type and document_id in the query; a plain array, oldest first.
    const list = (await f.ok('GET', `/documents/attachments?document_type=invoice&document_id=${inv.id}`)).body.data;
    expect(list.map((x: { id: string }) => x.id)).toEqual([a.id, png.id]);
    expect(list[0]).not.toHaveProperty('content');
    expect((await f.ok('GET', `/documents/attachments/${a.id}`)).body.data).toEqual(a);

    expect((await f.ok('DELETE', `/documents/attachments/${a.id}`)).body).toMatchObject({ success: true, object: 'attachment', id: a.id, deleted: true });
    expect(await db().selectFrom('document_attachments').select('id').where('id', '=', a.id).executeTakeFirst()).toBeUndefined();
    expectError(await f.call('GET', `/documents/attachments/${a.id}/download`), 404, 'resource_missing');
    expect((await f.ok('GET', `/documents/attachments?document_type=invoice&document_id=${inv.id}`)).body.data.map((x: { id: string }) => x.id)).toEqual([png.id]);
  });

  it('attaches to a client and a product too, the type read from the bytes when not sent', async () => {
    const client = (await f.ok('POST', '/clients', { type: 'person', name: 'Ion Popescu' }, 201)).body.data;
    const product = (await f.ok('POST', '/products', { name: 'Ceai verde', price: 12 }, 201)).body.data;
    const c = (await f.ok('POST', '/documents/attachments', { document_type: 'client', document_id: client.id, file_name: 'stoc.csv', content: CSV.toString('base64') }, 201)).body.data;
    expect(c.content_type).toBe('text/csv');
    expect((await fetchRaw(env, f.key, `/documents/attachments/${c.id}/download`)).bytes.toString('utf8')).toBe('cod;denumire;cantitate\nA1;Hârtie A4;10\n');
    const p = (await f.ok('POST', '/documents/attachments', { document_type: 'product', document_id: product.id, file_name: 'poza.png', content: PNG.toString('base64') }, 201)).body.data;
    expect(p).toMatchObject({ document_type: 'product', document_id: product.id, content_type: 'image/png' });
    // The same id under another document type is another document.
    expectError(await upload(f, { document_type: 'invoice', document_id: product.id, file_name: 'x.png', content: PNG.toString('base64') }), 404, 'resource_missing');
  });

  it('refuses a file it does not keep, one that is not what it claims, an empty or too large one', async () => {
    const inv = await invoice(f);
    const base = { document_type: 'invoice', document_id: inv.id };
    expect(expectError(await upload(f, { ...base, file_name: 'setup.exe', content: EXE.toString('base64') }), 422, 'attachment_type_not_allowed').param).toBe('content');
    const mismatch = expectError(await upload(f, { ...base, file_name: 'factura.pdf', content_type: 'application/pdf', content: PNG.toString('base64') }), 422, 'attachment_type_mismatch');
    expect(mismatch).toMatchObject({ param: 'content_type' });
    expect(mismatch.message).toContain('image/png');
    expect(expectError(await upload(f, { ...base, file_name: 'x.pdf', content_type: 'application/x-msdownload', content: PDF.toString('base64') }), 422, 'validation_error').fields).toHaveProperty('content_type');
    expect(expectError(await upload(f, { ...base, file_name: 'x.pdf', content: 'not base64!' }), 422, 'validation_error').fields).toHaveProperty('content');
    expect(expectError(await upload(f, { ...base, file_name: 'gol.txt', content: '====' }), 422, 'validation_error').fields).toHaveProperty('content');
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(ATTACHMENT_MAX_BYTES)]);
    const tooBig = expectError(await upload(f, { ...base, file_name: 'mare.pdf', content: big.toString('base64') }), 413, 'attachment_too_large');
    expect(tooBig.message).toContain('10 MB');
    expectError(await upload(f, { ...base, file_name: 'x.pdf', content: PDF.toString('base64'), metadata: 'x' }), 422, 'unknown_parameter');
    expect(await db().selectFrom('document_attachments').select('id').where('document_id', '=', inv.id).execute()).toHaveLength(0);
  });

  it('drops the files of a document that is gone before counting the firm\'s quota; a deleted client keeps its files', async () => {
    const draft = await invoice(f, { is_draft: true });
    const lost = (await f.ok('POST', '/documents/attachments', { document_type: 'invoice', document_id: draft.id, file_name: 'ciorna.pdf', content: PDF.toString('base64') }, 201)).body.data;
    const client = (await f.ok('POST', '/clients', { type: 'person', name: 'Maria Ionescu' }, 201)).body.data;
    const kept = (await f.ok('POST', '/documents/attachments', { document_type: 'client', document_id: client.id, file_name: 'ci.png', content: PNG.toString('base64') }, 201)).body.data;
    await f.ok('DELETE', `/invoices/${draft.id}`);
    await f.ok('DELETE', `/clients/${client.id}`);
    expect(await db().selectFrom('document_attachments').select('id').where('id', '=', lost.id).executeTakeFirst(), 'not yet swept').toBeDefined();
    await f.ok('POST', '/documents/attachments', { document_type: 'client', document_id: client.id, file_name: 'ci-verso.png', content: PNG.toString('base64') }, 201);
    expect(await db().selectFrom('document_attachments').select('id').where('id', '=', lost.id).executeTakeFirst()).toBeUndefined();
    expect(await db().selectFrom('document_attachments').select('id').where('id', '=', kept.id).executeTakeFirst()).toBeDefined();
    expectError(await f.call('GET', `/documents/attachments/${lost.id}`), 404, 'resource_missing');
  });

  it('answers 404 to another firm, for its documents and its files, and asks the document\'s scope', async () => {
    const inv = await invoice(f);
    const a = (await f.ok('POST', '/documents/attachments', { document_type: 'invoice', document_id: inv.id, file_name: 'a.pdf', content: PDF.toString('base64') }, 201)).body.data;
    expectError(await other.call('GET', `/documents/attachments/${a.id}`), 404, 'resource_missing');
    expectError(await other.call('GET', `/documents/attachments/${a.id}/download`), 404, 'resource_missing');
    expect((await fetchRaw(env, other.key, `/documents/attachments/${a.id}/download`)).bytes.includes(PDF.subarray(0, 20))).toBe(false);
    expectError(await other.call('DELETE', `/documents/attachments/${a.id}`), 404, 'resource_missing');
    expect(expectError(await other.call('GET', `/documents/attachments?document_type=invoice&document_id=${inv.id}`), 404, 'resource_missing').param).toBe('document_id');
    expect(expectError(await upload(other, { document_type: 'invoice', document_id: inv.id, file_name: 'b.pdf', content: PDF.toString('base64') }), 404, 'resource_missing').param).toBe('document_id');
    expect(await db().selectFrom('document_attachments').select('id').where('document_id', '=', inv.id).execute()).toHaveLength(1);

    // A key of the same firm that may only touch products sees no invoice's files.
    const created = await env.server.key({ cui: f.cui, scopes: ['products:write'] });
    const narrow = (method: string, path: string, body?: unknown) => env.server.api(created.api_key, method, path, body);
    expectError(await narrow('GET', `/documents/attachments/${a.id}/download`), 403, 'insufficient_permissions');
    expectError(await narrow('POST', '/documents/attachments', { document_type: 'invoice', document_id: inv.id, file_name: 'c.pdf', content: PDF.toString('base64') }), 403, 'insufficient_permissions');
    const readOnly = await env.server.key({ cui: f.cui, scopes: ['invoices:read'] });
    expect((await env.server.api(readOnly.api_key, 'GET', `/documents/attachments/${a.id}`)).status).toBe(200);
    expectError(await env.server.api(readOnly.api_key, 'DELETE', `/documents/attachments/${a.id}`), 403, 'insufficient_permissions');
  });
});
