import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { pdfText, squeezed } from '../documents-pdf/pdf-text';
import { expectError, firm, invoice, RO_BUYER, startEnv, type Env, type Firm } from '../efactura-spv/helpers';

/**
 * Issue 18, the rest of Contazen's `Documents`: the firm's templates (as the SDK calls them: POST,
 * GET, PATCH, DELETE under /documents/templates), a preview through them (HTML checked as text, PDF
 * checked through its text), and the export of the period's documents.
 */

const TEMPLATE = [
  '<html><body style="font-family: sans-serif">',
  '<h1>{{invoice.type}} {{invoice.number}}</h1><p>din {{ invoice.issue_date }}, client {{client.name}} ({{client.cui}})</p>',
  '<table>{{#items}}<tr><td>{{position}}</td><td>{{name}}</td><td>{{quantity}} {{unit}}</td><td>{{total}}</td></tr>{{/items}}</table>',
  '<p>Total: {{invoice.total}} {{invoice.currency}}</p><p>Emitent: {{seller.name}}, {{seller.cui}}</p>',
  '<img src="data:image/png;base64,iVBORw0KGgo=" alt="">',
  '</body></html>',
].join('');

async function raw(env: Env, f: Firm, path: string, body: unknown): Promise<{ status: number; type: string; bytes: Buffer; json: { error?: { code: string; param?: string } } | null }> {
  const res = await fetch(`${env.server.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, type, bytes, json: type.startsWith('application/json') ? JSON.parse(bytes.toString('utf8')) : null };
}

describe.each(DIALECTS)('document templates, preview and export on %s', (dialect) => {
  let env: Env;
  let f: Firm;
  let other: Firm;
  const db = () => env.server.storage.db;

  beforeAll(async () => {
    env = await startEnv(dialect);
    f = await firm(env);
    other = await firm(env, { link: false });
  }, 60_000);
  afterAll(async () => {
    await env?.close();
  });

  it('keeps the firm\'s templates: create, list, get, PATCH, one default per type, delete', async () => {
    const a = (await f.ok('POST', '/documents/templates', { name: 'Magazin', type: 'invoice', content: TEMPLATE, is_default: true }, 201)).body.data;
    expect(a).toMatchObject({ object: 'document_template', name: 'Magazin', type: 'invoice', content: TEMPLATE, is_default: true });
    const b = (await f.ok('POST', '/documents/templates', { name: 'Simplu', type: 'invoice', content: '<p>{{invoice.number}}</p>', is_default: true }, 201)).body.data;
    const defaults = await db().selectFrom('document_templates').select(['id', 'is_default']).where('company_id', '=', f.companyId).orderBy('created_at').orderBy('name').execute();
    expect(defaults.map((r) => [r.id, Number(r.is_default)])).toEqual([[a.id, 0], [b.id, 1]]);
    expect((await f.ok('GET', '/documents/templates')).body.data.map((t: { id: string }) => t.id).sort()).toEqual([a.id, b.id].sort());
    expect((await f.ok('GET', `/documents/templates/${a.id}`)).body.data).toMatchObject({ id: a.id, is_default: false });

    const patched = (await f.ok('PATCH', `/documents/templates/${a.id}`, { name: 'Magazin nou', is_default: true })).body.data;
    expect(patched).toMatchObject({ name: 'Magazin nou', content: TEMPLATE, is_default: true });
    const row = await db().selectFrom('document_templates').selectAll().where('id', '=', b.id).executeTakeFirstOrThrow();
    expect(Number(row.is_default)).toBe(0);

    expectError(await other.call('GET', `/documents/templates/${a.id}`), 404, 'resource_missing');
    expectError(await other.call('PATCH', `/documents/templates/${a.id}`, { name: 'x' }), 404, 'resource_missing');
    expect((await other.ok('GET', '/documents/templates')).body.data).toEqual([]);
    expect((await f.ok('DELETE', `/documents/templates/${b.id}`)).body).toMatchObject({ success: true, object: 'document_template', id: b.id, deleted: true });
    expect(await db().selectFrom('document_templates').select('id').where('id', '=', b.id).executeTakeFirst()).toBeUndefined();
  });

  it('refuses a template it could not print faithfully or safely, naming content', async () => {
    const bad = async (content: string, words: RegExp) => {
      const error = expectError(await f.call('POST', '/documents/templates?locale=ro', { name: 'x', type: 'invoice', content }), 422, 'validation_error');
      expect((error.fields as Record<string, string>).content).toMatch(words);
    };
    await bad('<p>{{invoice.numar}}</p>', /invoice\.numar/);
    await bad('{{#items}}<td>{{name}}</td>', /nu este închisă/);
    await bad('{{#lines}}{{/lines}}', /lines/);
    await bad('<p>{{name}}</p>', /\{\{name\}\}/);
    await bad('<script>alert(1)</script>', /script/);
    await bad('<img src="http://10.0.0.1/x.png">', /10\.0\.0\.1/);
    await bad('<div style="background: url(https://exemplu.ro/a.png)"></div>', /exemplu\.ro/);
    await bad('<body onload="x()">', /onload/);
    expectError(await f.call('POST', '/documents/templates', { name: 'x', type: 'receipt', content: '<p></p>' }), 422, 'validation_error');
    expect(await db().selectFrom('document_templates').select('id').where('name', '=', 'x').execute()).toHaveLength(0);
  });

  it('previews an invoice through a template (escaped, formatted), through the default, or as printed; HTML or PDF', async () => {
    const g = await firm(env);
    const inv = await invoice(g, {
      client: { ...RO_BUYER, name: 'Bistro <Mama> & Fiii SRL' },
      items: [
        { description: 'Cafea boabe Arabica 1kg', quantity: 4, price: 250, vat_rate: 21 },
        { description: 'Filtre hârtie nr. 4', quantity: 1, price: 20.3, vat_rate: 21 },
      ],
    });
    // No template of the firm: the template the desktop prints.
    const printed = await raw(env, g, '/documents/preview', { type: 'invoice', data: { invoice_id: inv.id } });
    expect(printed.status).toBe(200);
    expect(printed.type).toMatch(/^text\/html/);
    expect(printed.bytes.toString('utf8')).toContain(inv.full_number!);

    const t = (await g.ok('POST', '/documents/templates', { name: 'Magazin', type: 'invoice', content: TEMPLATE }, 201)).body.data;
    const html = (await raw(env, g, '/documents/preview', { type: 'invoice', data: { invoice_id: inv.id, template_id: t.id } })).bytes.toString('utf8');
    expect(html).toContain(`<h1>Factură ${inv.full_number}</h1>`);
    expect(html).toContain('client Bistro &lt;Mama&gt; &amp; Fiii SRL (RO76543210)');
    expect(html).toContain('<tr><td>1</td><td>Cafea boabe Arabica 1kg</td><td>4 buc</td><td>1.210,00</td></tr>');
    expect(html).toContain('<tr><td>2</td><td>Filtre hârtie nr. 4</td><td>1 buc</td><td>24,56</td></tr>');
    // 1.020,30 net + 214,26 VAT (the shared computation)
    expect(html).toContain('<p>Total: 1.234,56 lei</p>');
    expect(html).toMatch(/Emitent: Tejghea Test SRL, RO\d+/);

    // Made the default: used without naming it.
    await g.ok('PATCH', `/documents/templates/${t.id}`, { is_default: true });
    expect((await raw(env, g, '/documents/preview', { type: 'invoice', data: { invoice_id: inv.id } })).bytes.toString('utf8')).toBe(html);

    const pdf = await raw(env, g, '/documents/preview', { type: 'invoice', data: { invoice_id: inv.id, template_id: t.id, format: 'pdf' } });
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const text = squeezed(pdfText(pdf.bytes));
    expect(text).toContain(squeezed(`Factură ${inv.full_number}`));
    expect(text).toContain(squeezed('Total: 1.234,56 lei'));

    const proforma = await invoice(g, { document_type: 'proforma' });
    expect((await raw(env, g, '/documents/preview', { type: 'invoice', data: { invoice_id: proforma.id } })).json?.error).toMatchObject({ code: 'template_type_mismatch', param: 'type' });
    expect((await raw(env, g, '/documents/preview', { type: 'proforma', data: { invoice_id: proforma.id, template_id: t.id } })).json?.error).toMatchObject({ code: 'template_type_mismatch' });
    expect((await raw(env, other, '/documents/preview', { type: 'invoice', data: { invoice_id: inv.id } })).json?.error).toMatchObject({ code: 'resource_missing', param: 'data.invoice_id' });
    expect((await raw(env, other, '/documents/preview', { type: 'invoice', data: { invoice_id: (await invoice(other)).id, template_id: t.id } })).json?.error).toMatchObject({ code: 'resource_missing', param: 'data.template_id' });
    expect((await raw(env, g, '/documents/preview', { type: 'invoice', data: { invoice_id: inv.id, watermark: true } })).json?.error).toMatchObject({ code: 'unknown_parameter' });
  });

  it('exports the period\'s documents as the accounting export does, CSV or Excel; no PDF, no part of them', async () => {
    const h = await firm(env);
    const inv = await invoice(h);
    const period = { start_date: String(inv.issue_date).slice(0, 8) + '01', end_date: String(inv.issue_date) };
    const csv = await raw(env, h, '/documents/export', { ...period, format: 'csv' });
    expect(csv.status).toBe(200);
    expect(csv.type).toMatch(/^text\/csv/);
    const own = await fetch(`${env.server.base}/accounting/exports/documents/csv?start_date=${period.start_date}&end_date=${period.end_date}`, { headers: { authorization: `Bearer ${h.key}` } });
    expect(csv.bytes.equals(Buffer.from(await own.arrayBuffer()))).toBe(true);
    expect(csv.bytes.toString('utf8')).toContain(inv.full_number!);
    const xlsx = await raw(env, h, '/documents/export', { ...period, format: 'excel', type: 'all' });
    expect(xlsx.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    expect((await raw(env, h, '/documents/export', { ...period, format: 'pdf' })).json?.error).toMatchObject({ code: 'validation_error', param: 'format' });
    expect((await raw(env, h, '/documents/export', { ...period, type: 'invoice' })).json?.error).toMatchObject({ code: 'validation_error', param: 'type' });
    expect((await raw(env, h, '/documents/export', { start_date: '2026-01-01', end_date: '2025-01-01' })).status).toBe(422);
  });
});
