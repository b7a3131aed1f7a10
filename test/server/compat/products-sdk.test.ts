import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { databaseFingerprint } from '../../support/openapi-fuzz';
import { expectError, newFirm, newSeries, startInvoicingServer, validCui, type Firm } from '../invoicing/helpers';
import { SELLER_PROFILE } from '../efactura-spv/helpers';
import { pdfText, squeezed } from '../documents-pdf/pdf-text';

/**
 * Issue 18, part A: the product, client, stock, import, bulk-invoice, PDF-link, payment-statistics and
 * unit calls of Contazen's PHP SDK, each made as the SDK makes it (method, path, members: read from its
 * src/Resources), and what the service then holds read from the database.
 */
describe.each(DIALECTS)('Contazen SDK: products, clients, stock, bulk, PDF links, payments (%s)', (dialect) => {
  let server: TestServer;
  let f: Firm;
  const db = () => server.storage.db;
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const product = (id: string) => db().selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const level = async (productId: string) =>
    Number((await db().selectFrom('stock_levels').select('quantity_milli').where('product_id', '=', productId).executeTakeFirst())?.quantity_milli ?? -1);

  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
    f = await newFirm(server);
    await f.ok('PUT', '/company/profile', SELLER_PROFILE);
    await newSeries(f, { name: 'CZK', is_primary: true });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Goods enter stock by a NIR, which gives them their cost. */
  const receive = (productId: string, quantity: number, unitCost = 5) =>
    f.ok('POST', '/nirs', { supplier: { name: 'Furnizor SRL' }, lines: [{ supplier_item: 'Marfă', product_id: productId, quantity_invoiced: quantity, unit_cost: unitCost }] });

  it('answers `sku` beside `code` in every product reply, so findBySku and upsert find the product', async () => {
    // Products::create: sku, unit_of_measure, ubl_um, sell_price, currency, vat_rate 19.
    const made = await f.ok('POST', '/products', { name: 'Ceai verde', price: 12.5, sell_price: 12.5, sku: 'CEAI-1', unit_of_measure: 'buc', ubl_um: 'H87', currency: 'RON', vat_rate: 19 });
    expect(made).toMatchObject({ code: 'CEAI-1', sku: 'CEAI-1' });
    expect((await product(made.id)).code).toBe('CEAI-1');
    expect(await f.ok('GET', `/products/${made.id}`)).toMatchObject({ code: 'CEAI-1', sku: 'CEAI-1' });
    // findBySku: GET /products?search=… then the item whose `sku` is the one asked.
    const page = await f.ok('GET', '/products?page=1&per_page=50&search=CEAI-1');
    expect(page.data.find((p: { sku: string | null }) => p.sku === 'CEAI-1')?.id).toBe(made.id);
    // upsert → update: PATCH with the SDK's names; the reply still says sku.
    expect(await f.ok('PATCH', `/products/${made.id}`, { sku: 'CEAI-1', name: 'Ceai verde bio', price: 13 })).toMatchObject({ sku: 'CEAI-1', name: 'Ceai verde bio', price: 13 });
    const bare = await f.ok('POST', '/products', { name: 'Fără cod', price: 1 });
    expect(bare).toHaveProperty('sku', null);
    expect(bare.code).toBeNull();
  });

  it('syncs a catalogue by SKU: updates what exists, creates the rest, all or nothing', async () => {
    const existing = await f.ok('POST', '/products', { name: 'Cafea', price: 40, sku: 'SYNC-CAF' });
    const reply = await f.ok('POST', '/products/sync', {
      products: [{ sku: 'SYNC-CAF', price: 42.5 }, { sku: 'SYNC-MIERE', name: 'Miere', price: 30, unit_of_measure: 'kg', ubl_um: 'KGM' }],
    });
    expect(reply).toMatchObject({ object: 'product_sync', created: 1, updated: 1 });
    expect(reply.products.map((p: { sku: string }) => p.sku)).toEqual(['SYNC-CAF', 'SYNC-MIERE']);
    expect(await product(existing.id)).toMatchObject({ price: 4250, name: 'Cafea' });
    const miere = await db().selectFrom('products').selectAll().where('company_id', '=', f.companyId).where('code', '=', 'SYNC-MIERE').executeTakeFirstOrThrow();
    expect(miere).toMatchObject({ name: 'Miere', price: 3000, unit: 'kg', unit_code: 'KGM' });
    // The second is new and has no price: refused under its index, and the first not written either.
    const before = await databaseFingerprint(server.storage);
    const res = await f.call('POST', '/products/sync', { products: [{ sku: 'SYNC-CAF', price: 1 }, { sku: 'SYNC-NOU', name: 'Nou' }] });
    expectError(res, 422, 'validation_error');
    expect(res.body.error.fields).toHaveProperty(['products.1.price']);
    expect(await databaseFingerprint(server.storage)).toBe(before);
    expect((await product(existing.id)).price).toBe(4250);
    // An unknown member inside an item is named, not dropped.
    const unknown = await f.call('POST', '/products/sync', { products: [{ sku: 'SYNC-CAF', track_stock: true }] });
    expectError(unknown, 422, 'unknown_parameter');
    expect(unknown.body.error.fields).toHaveProperty(['products.0.track_stock']);
  });

  it('imports products and clients from a CSV in one call (importCsv), through our import', async () => {
    const products = await f.ok('POST', '/products/import', { format: 'csv', content: b64('Denumire;Cod;Preț;UM;TVA\nZahăr;IMP-ZAH;5,50;kg;11\nSare;IMP-SARE;2,00;kg;21\n') });
    expect(products).toMatchObject({ object: 'import', status: 'committed', result: { created: 2, updated: 0 } });
    const zahar = await db().selectFrom('products').selectAll().where('company_id', '=', f.companyId).where('code', '=', 'IMP-ZAH').executeTakeFirstOrThrow();
    expect(zahar).toMatchObject({ name: 'Zahăr', price: 550, unit: 'kg', vat_rate_bp: 1100 });
    // A bad row: 422 naming it, nothing written.
    const bad = await f.call('POST', '/products/import', { format: 'csv', content: b64('Denumire;Cod;Preț\nUlei;IMP-ULEI;abc\n') });
    expectError(bad, 422, 'import_rows_invalid');
    expect(await db().selectFrom('products').select('id').where('company_id', '=', f.companyId).where('code', '=', 'IMP-ULEI').executeTakeFirst()).toBeUndefined();

    const cui = validCui();
    const clients = await f.ok('POST', '/clients/import', { format: 'csv', content: b64(`Nume,CUI,Oraș,Județ,Adresă\nImport Client SRL,RO${cui},Iași,Iași,Str. A 1\n`) });
    expect(clients).toMatchObject({ object: 'import', status: 'committed', result: { created: 1 } });
    expect(await db().selectFrom('clients').select(['name', 'vat_payer', 'city']).where('company_id', '=', f.companyId).where('cui', '=', cui).executeTakeFirstOrThrow())
      .toEqual({ name: 'Import Client SRL', vat_payer: 1, city: 'Iași' });
    // The same file again matches by CUI: updated or unchanged, never a second client.
    const again = await f.ok('POST', '/clients/import', { format: 'csv', content: b64(`Nume,CUI,Oraș,Județ,Adresă\nImport Client SRL,RO${cui},Iași,Iași,Str. A 1\n`) });
    expect(again.result.created).toBe(0);
    expect((await db().selectFrom('clients').select('id').where('company_id', '=', f.companyId).where('cui', '=', cui).execute()).length).toBe(1);
  });

  it('creates many clients with importBulk, all or nothing, under the SDK\'s names', async () => {
    const cui = validCui();
    const made = await f.ok('POST', '/clients/import', {
      clients: [
        { name: 'Ion Pop', type: 'b2c', email: 'ion@example.ro' },
        { name: 'Bulk Exemplu SRL', cui, cui_prefix: 'RO', rc: 'J12/2/2020', address: 'Str. Scurtă 2', city: 'Cluj-Napoca', county: 'Cluj' },
      ],
    });
    expect(made.map((c: { name: string }) => c.name)).toEqual(['Ion Pop', 'Bulk Exemplu SRL']);
    const stored = await db().selectFrom('clients').selectAll().where('id', 'in', made.map((c: { id: string }) => c.id)).orderBy('name').execute();
    expect(stored.map((c) => [c.name, c.type, c.cui, c.reg_com, c.vat_payer])).toEqual([
      ['Bulk Exemplu SRL', 'company', cui, 'J12/2/2020', 1],
      ['Ion Pop', 'person', null, null, 0],
    ]);
    const before = await databaseFingerprint(server.storage);
    const bad = await f.call('POST', '/clients/import', { clients: [{ name: 'Bun SRL', cui: validCui() }, { name: 'Rău SRL', cui: '12345678' }] });
    expectError(bad, 422, 'validation_error');
    expect(Object.keys(bad.body.error.fields)).toEqual(['clients.1.cui']);
    expect(await databaseFingerprint(server.storage)).toBe(before);
    expectError(await f.call('POST', '/clients/import', { clients: [{ name: 'X', type: 'b2c' }], content: b64('a') }), 422, 'validation_error');
    expectError(await f.call('POST', '/clients/import', {}), 422, 'validation_error');
    const unknown = await f.call('POST', '/clients/import', { clients: [{ name: 'Y', type: 'b2c', contact_person: 'Ana' }] });
    expectError(unknown, 422, 'unknown_parameter');
    expect(unknown.body.error.fields).toHaveProperty(['clients.0.contact_person']);
  });

  it('sets stock by a one-product count (updateStock), by SKU or id, after the goods were received', async () => {
    const p = await f.ok('POST', '/products', { name: 'Biscuiți', price: 4, sku: 'STK-BIS' });
    // Never received: no cost to count it at; said so, nothing booked.
    const fresh = await f.call('POST', '/products/STK-BIS/stock', { quantity: 5 });
    expectError(fresh, 422, 'validation_error');
    expect(fresh.body.error.fields.quantity).toMatch(/NIR/);
    expect(await level(p.id)).toBe(-1);
    await receive(p.id, 10, 2);
    expect(await level(p.id)).toBe(10_000);
    const reply = await f.ok('POST', '/products/STK-BIS/stock', { quantity: 7 });
    expect(reply).toMatchObject({ id: p.id, sku: 'STK-BIS', track_stock: true, stock_quantity: 7 });
    expect(await level(p.id)).toBe(7_000);
    const count = await db().selectFrom('stock_documents').selectAll().where('id', '=', reply.stock_count_id).executeTakeFirstOrThrow();
    expect(count.kind).toBe('count');
    expect(JSON.parse(count.lines_json)).toEqual([{ product_id: p.id, quantity: 7, expected: 10, difference: -3 }]);
    // By id too; the shortage left at the average cost (2 lei): value 4 x 2.
    await f.ok('POST', `/products/${p.id}/stock`, { quantity: 4 });
    const row = await db().selectFrom('stock_levels').selectAll().where('product_id', '=', p.id).executeTakeFirstOrThrow();
    expect([Number(row.quantity_milli), Number(row.value_bani)]).toEqual([4_000, 800]);
    expectError(await f.call('POST', '/products/NIMENI/stock', { quantity: 1 }), 404, 'resource_missing');
    expectError(await f.call('POST', '/products/STK-BIS/stock', { quantity: -1 }), 422, 'validation_error');
    // Beside our own import route of the same shape (redocly.yaml): both answer.
    expectError(await f.call('GET', '/products/imports/stock'), 404, 'resource_missing');
  });

  it('sets many stocks in one count (updateStockBulk) and reads them by SKU (getStockLevels)', async () => {
    const a = await f.ok('POST', '/products', { name: 'Apă', price: 3, sku: 'BULK-APA' });
    const b = await f.ok('POST', '/products', { name: 'Suc', price: 6, sku: 'BULK-SUC' });
    await receive(a.id, 20);
    await receive(b.id, 3);
    const reply = await f.ok('POST', '/products/stock-bulk', { updates: [{ sku: 'BULK-APA', quantity: 18 }, { sku: 'BULK-SUC', quantity: 2.5 }] });
    expect(reply.map((r: { sku: string; previous_quantity: number; quantity: number }) => [r.sku, r.previous_quantity, r.quantity])).toEqual([
      ['BULK-APA', 20, 18], ['BULK-SUC', 3, 2.5],
    ]);
    expect(new Set(reply.map((r: { stock_count_id: string }) => r.stock_count_id)).size).toBe(1);
    expect([await level(a.id), await level(b.id)]).toEqual([18_000, 2_500]);
    // One unknown SKU: nothing counted.
    const bad = await f.call('POST', '/products/stock-bulk', { updates: [{ sku: 'BULK-APA', quantity: 1 }, { sku: 'BULK-NU', quantity: 1 }] });
    expectError(bad, 422, 'validation_error');
    expect(Object.keys(bad.body.error.fields)).toEqual(['updates.1.sku']);
    expect(await level(a.id)).toBe(18_000);
    const levels = await f.ok('POST', '/products/stock-levels', { skus: ['BULK-APA', 'BULK-SUC', 'BULK-NU'] });
    expect(levels).toEqual({
      'BULK-APA': { object: 'product_stock', product_id: a.id, sku: 'BULK-APA', name: 'Apă', unit: 'buc', is_service: false, quantity: 18 },
      'BULK-SUC': { object: 'product_stock', product_id: b.id, sku: 'BULK-SUC', name: 'Suc', unit: 'buc', is_service: false, quantity: 2.5 },
      'BULK-NU': null,
    });
  });

  it('creates invoices in bulk: drafts first, then issued in order; one refused leaves nothing', async () => {
    const client = await f.ok('POST', '/clients', { name: 'Bulk Client SRL', cui: `RO${validCui()}`, address: 'Str. B 2', city: 'Iași', county: 'Iași' });
    const made = await f.call('POST', '/invoices/bulk', {
      invoices: [
        { client_id: client.id, date: '2026-11-20', due_days: 15, items: [{ name: 'Consultanță', quantity: 2, price: 100, vat_rate: 21 }] },
        { client_id: client.id, items: [{ name: 'Abonament', quantity: 1, price: 50, vat_rate: 21, unit_of_measure: 'luna' }] },
        { client_id: client.id, is_draft: true, items: [{ name: 'Ofertă', quantity: 1, price: 10, vat_rate: 21 }] },
      ],
    });
    expect(made.status, made.text).toBe(201);
    const [first, second, draft] = made.body.data;
    expect([first.status, second.status, draft.status]).toEqual(['issued', 'issued', 'draft']);
    expect(second.number).toBe(first.number + 1);
    const stored = await db().selectFrom('invoices').selectAll().where('id', 'in', [first.id, second.id]).orderBy('number').execute();
    expect(stored.map((i) => [i.issue_date, i.due_date, Number(i.total_bani)])).toEqual([['2026-11-20', '2026-12-05', 24200], ['2026-11-21', null, 6050]]);
    const line = await db().selectFrom('invoice_lines').selectAll().where('invoice_id', '=', second.id).executeTakeFirstOrThrow();
    expect([line.description, line.unit]).toEqual(['Abonament', 'luna']);

    const bad = await f.call('POST', '/invoices/bulk', {
      invoices: [
        { client_id: client.id, items: [{ name: 'Bun', quantity: 1, price: 1, vat_rate: 21 }] },
        { client_id: 'cli_doesnotexist123', items: [{ name: 'Rău', quantity: 1, price: 1, vat_rate: 21 }] },
      ],
    });
    expect(bad.status, bad.text).toBeGreaterThanOrEqual(400);
    expect(bad.body.error.param).toMatch(/^invoices\.1/);
    const numbers = await db().selectFrom('invoices').select('id').where('company_id', '=', f.companyId).where('status', '=', 'issued').execute();
    expect(numbers.length).toBe(2);
    // The first was made as a draft, then deleted (a tombstone and webhook events remain): no invoice is left behind.
    expect((await db().selectFrom('invoices').select('id').where('company_id', '=', f.companyId).execute()).length).toBe(3);
    // Refused only when issuing (a client without an address cannot be on an e-Factura): the one issued
    // before it keeps its number, every draft of the call is deleted, the error names the invoice.
    const noAddress = await f.ok('POST', '/clients', { name: 'Fără Adresă SRL', cui: `RO${validCui()}` });
    const issuedBefore = (await db().selectFrom('invoices').select('id').where('company_id', '=', f.companyId).execute()).length;
    const midway = await f.call('POST', '/invoices/bulk', {
      invoices: [
        { client_id: client.id, items: [{ name: 'Întâi', quantity: 1, price: 1, vat_rate: 21 }] },
        { client_id: noAddress.id, items: [{ name: 'Apoi', quantity: 1, price: 1, vat_rate: 21 }] },
        { client_id: client.id, is_draft: true, items: [{ name: 'Ciornă', quantity: 1, price: 1, vat_rate: 21 }] },
      ],
    });
    expectError(midway, 422, 'efactura_invalid_invoice');
    expect(midway.body.error.param).toBe('invoices.1.buyer.address.street');
    const now = await db().selectFrom('invoices').selectAll().where('company_id', '=', f.companyId).orderBy('created_at').orderBy('number').execute();
    expect(now.length).toBe(issuedBefore + 1);
    const kept = now.filter((i) => !stored.some((s) => s.id === i.id) && i.status === 'issued' && Number(i.number) === second.number + 1);
    expect(kept.length).toBe(1);
    expect(now.filter((i) => i.status === 'draft').map((i) => i.id)).toEqual([draft.id]);

    const unknown = await f.call('POST', '/invoices/bulk', { invoices: [{ client_id: client.id, shipping: 10, items: [{ name: 'X', quantity: 1, price: 1, vat_rate: 21 }] }] });
    expectError(unknown, 422, 'unknown_parameter');
    expect(unknown.body.error.fields).toHaveProperty(['invoices.0.shipping']);
  });

  it('gives a signed PDF link (getPdfUrl) that serves the PDF without the key, for 15 minutes only', async () => {
    const client = await f.ok('POST', '/clients', { name: 'Link Client SRL', cui: `RO${validCui()}`, address: 'Str. C 3', city: 'Cluj-Napoca', county: 'Cluj' });
    const inv = await f.ok('POST', '/invoices', { client_id: client.id, items: [{ description: 'Cafea boabe', quantity: 3, price: 50, vat_rate: 21 }] });
    const link = await f.ok('GET', `/invoices/${inv.id}/pdf?mode=url`);
    expect(link).toMatchObject({ object: 'pdf_link', invoice_id: inv.id, authentication_required: false, expires_at: server.clock.now() + 900 });
    expect(link.filename).toContain(inv.full_number);
    expect(link.url.startsWith(server.base)).toBe(true);
    const res = await fetch(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = squeezed(pdfText(Buffer.from(await res.arrayBuffer())));
    expect(text).toContain(inv.full_number);
    expect(text).toContain('Link Client SRL');
    expect(text).toContain('Cafea boabe');
    // Another invoice, the signature of this one: refused. So is a link changed in any part.
    const other = await f.ok('POST', '/invoices', { client_id: client.id, items: [{ description: 'Altceva', quantity: 1, price: 1, vat_rate: 21 }] });
    const swapped = link.url.replace(inv.id, other.id);
    const refused = await fetch(swapped);
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([403, 'pdf_link_invalid']);
    const later = await fetch(link.url.replace(/expires=(\d+)/, (_m: string, e: string) => `expires=${Number(e) + 3600}`));
    expect(later.status).toBe(403);
    // Another company's invoice has no link for this key.
    const stranger = await newFirm(server);
    expectError(await stranger.call('GET', `/invoices/${inv.id}/pdf?mode=url`), 404, 'resource_missing');
    // After 15 minutes the link is gone.
    server.clock.advance(901);
    try {
      const expired = await fetch(link.url);
      expect([expired.status, ((await expired.json()) as { error: { code: string } }).error.code]).toEqual([410, 'pdf_link_expired']);
    } finally {
      server.clock.advance(-901);
    }
  });

  it('filters payments by client (getForClient) and sums them per currency and method (getStatistics)', async () => {
    const a = await f.ok('POST', '/clients', { name: 'Plătitor A SRL', cui: `RO${validCui()}`, address: 'Str. D 4', city: 'Iași', county: 'Iași' });
    const b = await f.ok('POST', '/clients', { name: 'Plătitor B SRL', cui: `RO${validCui()}`, address: 'Str. E 5', city: 'Iași', county: 'Iași' });
    const ia = await f.ok('POST', '/invoices', { client_id: a.id, items: [{ description: 'X', quantity: 1, price: 100, vat_rate: 21 }] });
    const ib = await f.ok('POST', '/invoices', { client_id: b.id, items: [{ description: 'Y', quantity: 1, price: 100, vat_rate: 21 }] });
    await f.ok('POST', `/invoices/${ia.id}/payments`, { amount: 21, date: '2026-11-10', method: 'card' });
    await f.ok('POST', `/invoices/${ia.id}/payments`, { amount: 100, date: '2026-11-11', method: 'bank_transfer' });
    await f.ok('POST', `/invoices/${ib.id}/payments`, { amount: 0.05, date: '2026-10-30', method: 'bank_transfer' });
    // Payments::getForClient → list(['client_id' => …]) with the SDK's default page.
    const forA = await f.ok('GET', `/payments?page=1&per_page=50&client_id=${a.id}`);
    expect(forA.data.map((p: { amount: number }) => p.amount).sort()).toEqual([100, 21]);
    expect(forA.data.every((p: { client: { id: string } }) => p.client.id === a.id)).toBe(true);
    const stats = await f.ok('GET', '/payments/stats?start_date=2026-11-01&end_date=2026-11-30');
    const mine = await db().selectFrom('payments').select(['amount_bani', 'type']).where('company_id', '=', f.companyId)
      .where('date', '>=', '2026-11-01').where('date', '<=', '2026-11-30').execute();
    const sum = mine.reduce((s, p) => s + Number(p.amount_bani), 0);
    expect(stats).toMatchObject({ object: 'payment_stats', start_date: '2026-11-01', count: mine.length });
    expect(stats.by_currency).toEqual([{ currency: 'RON', count: mine.length, total: sum / 100 }]);
    expect(await f.ok('GET', `/payments/stats?client_id=${b.id}`)).toMatchObject({ count: 1, by_currency: [{ currency: 'RON', count: 1, total: 0.05 }], by_type: [{ type: 'bank_order', total: 0.05 }] });
    expect(await f.ok('GET', `/payments/stats?client_id=${a.id}&type=card`)).toMatchObject({ count: 1, by_type: [{ type: 'card', currency: 'RON', count: 1, total: 21 }] });
    expectError(await f.call('GET', '/payments/stats?start_date=2026-12-01&end_date=2026-11-01'), 422, 'validation_error');
  });

  it('lists the units of measure with their e-Factura codes, the firm\'s own units too', async () => {
    await f.ok('POST', '/products', { name: 'Vin', price: 30, unit: 'sticla', unit_code: 'C62' });
    const units = await f.ok('GET', '/settings/units');
    expect(Array.isArray(units)).toBe(true);
    expect(units[0]).toEqual({ object: 'unit_of_measure', code: 'buc', name: 'bucată', name_en: 'piece', ubl_um: 'H87', in_use: true });
    expect(units.find((u: { code: string }) => u.code === 'ore')).toMatchObject({ ubl_um: 'HUR', in_use: false });
    expect(units.find((u: { code: string }) => u.code === 'sticla')).toEqual({ object: 'unit_of_measure', code: 'sticla', name: 'sticla', name_en: null, ubl_um: 'C62', in_use: true });
  });
});
