import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/storage';
import { startTestServer, type ApiReply, type TestServer } from '../support/server';
import { validCui } from './invoicing/helpers';

/**
 * `updated_since` and `sort=updated_at` on the lists the desktop app pulls, and GET /deleted-records,
 * over real HTTP. The service clock is moved between steps: each step's cursor is the clock when the
 * step starts, so a record belongs to a step's answer only if that step changed it.
 */

interface Firm {
  key: string;
  cui: string;
  companyId: string;
  workPointId: string;
  call(method: string, path: string, body?: unknown): Promise<ApiReply>;
  /** Expects a 2xx; answers `data`, or the whole body of a top-level reply. */
  ok(method: string, path: string, body?: unknown): Promise<ApiReply['body']>;
}

type Row = { id: string; updated_at: number | string | null; created_at: number | string } & Record<string, unknown>;
type Tombstone = { object: string; id: string; resource: string; work_point_id: string | null; deleted_at: number };

describe.each(DIALECTS)('changes since a cursor (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { rateLimits: { requestsPerHour: 1_000_000, createsPerMinute: 1_000_000 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function newFirm(options: { cui?: string; scopes?: string[]; workPointName?: string } = {}): Promise<Firm> {
    const cui = options.cui ?? validCui();
    const created = await server.key({ cui, ...(options.scopes ? { scopes: options.scopes } : {}), ...(options.workPointName ? { workPointName: options.workPointName } : {}) });
    const call: Firm['call'] = (method, path, body) => server.api(created.api_key, method, path, body);
    return {
      key: created.api_key,
      cui,
      companyId: created.company_id,
      workPointId: created.work_point_id,
      call,
      ok: async (method, path, body) => {
        const res = await call(method, path, body);
        if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
        return res.body.data ?? res.body;
      },
    };
  }

  /** A new step: the clock moves on, and the step's cursor is the new time. */
  function step(seconds = 7): number {
    server.clock.advance(seconds);
    return server.clock.now();
  }

  /** Every record of a list changed at or after `since`, in change order, across pages of 2 (pages must chain). */
  async function changed(f: Firm, path: string, since: number, extra = ''): Promise<Row[]> {
    const out: Row[] = [];
    for (let page = 1; ; page += 1) {
      const sep = path.includes('?') ? '&' : '?';
      const res = await f.call('GET', `${path}${sep}updated_since=${since}&sort=updated_at&order=asc&per_page=2&page=${page}${extra}`);
      expect(res.status, res.text).toBe(200);
      out.push(...(res.body.data.data as Row[]));
      if (!res.body.data.has_more) break;
    }
    return out;
  }
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

  async function tombstones(f: Firm, since: number, query = ''): Promise<Tombstone[]> {
    const res = await f.call('GET', `/deleted-records?updated_since=${since}${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data.data as Tombstone[];
  }

  async function invoicingSetup(f: Firm) {
    const client = await f.ok('POST', '/clients', { name: 'Cumpărător SRL', cui: `RO${validCui()}`, address: 'Str. Lungă 1', city: 'Brașov', county: 'Brașov' });
    await f.ok('POST', '/invoice-series', { name: 'TJ', is_primary: true });
    await f.ok('POST', '/invoice-series', { name: 'PF', document_type: 'proforma', is_primary: true });
    const issue = (extra: Record<string, unknown> = {}) =>
      f.ok('POST', '/invoices', { client_id: client.id, items: [{ description: 'Cafea', quantity: 1, price: 100, vat_rate: 21 }], ...extra });
    return { client, issue };
  }

  it('clients: an edit, a soft delete and a create after the cursor are listed, untouched clients are not; the cursor second is included', async () => {
    const f = await newFirm();
    const make = (name: string) => f.ok('POST', '/clients', { type: 'person', name, country: 'RO' });
    const a = await make('Ana');
    const b = await make('Bogdan');
    const c = await make('Cezar');
    const since = step();
    // Changed in the cursor's own second: `updated_since` is inclusive.
    await f.ok('PUT', `/clients/${a.id}`, { city: 'Cluj' });
    server.clock.advance(1);
    await f.ok('DELETE', `/clients/${c.id}`);
    server.clock.advance(1);
    const d = await make('Dan');
    const all = await changed(f, '/clients', since, '&include_deleted=true');
    expect(ids(all)).toEqual([a.id, c.id, d.id]);
    expect(all.map((r) => r.updated_at)).toEqual([since, since + 1, null]);
    expect(all[1]).toMatchObject({ is_deleted: true });
    expect(ids(all)).not.toContain(b.id);
    // Without include_deleted the soft-deleted client stays out, as in any list.
    expect(ids(await changed(f, '/clients', since))).toEqual([a.id, d.id]);
    expect(ids(await changed(f, '/clients', since + 3))).toEqual([]);
    // updated_since combines with the other parameters.
    expect(ids(await changed(f, '/clients', since, '&search=ana'))).toEqual([a.id]);
  });

  it('products: an edit is listed, an untouched product is not; a delete leaves a tombstone instead', async () => {
    const f = await newFirm();
    const p1 = await f.ok('POST', '/products', { name: 'Pâine', price: 4.5, vat_rate: 11 });
    const p2 = await f.ok('POST', '/products', { name: 'Lapte', price: 7, vat_rate: 11 });
    const p3 = await f.ok('POST', '/products', { name: 'Ouă', price: 12, vat_rate: 11 });
    const since = step();
    await f.ok('PUT', `/products/${p1.id}`, { price: 5 });
    await f.ok('DELETE', `/products/${p3.id}`);
    const rows = await changed(f, '/products', since);
    expect(ids(rows)).toEqual([p1.id]);
    expect(rows[0]).toMatchObject({ price: 5, updated_at: since });
    expect(ids(rows)).not.toContain(p2.id);
    expect(await tombstones(f, since)).toEqual([{ object: 'deleted_record', id: p3.id, resource: 'products', work_point_id: null, deleted_at: since }]);
    expect(await tombstones(f, since + 1)).toEqual([]);
  });

  it('invoices: money received or given back, storno, conversion and issue bump updated_at; payments and receipts follow', async () => {
    const f = await newFirm();
    const { client, issue } = await invoicingSetup(f);
    const paidByCard = await issue();
    const paidInCash = await issue();
    const voided = await issue();
    const untouched = await issue();
    const proforma = await issue({ document_type: 'proforma' });
    const draft = await issue({ is_draft: true });

    // A payment makes its invoice paid: the invoice is a change, the payment a new record.
    let since = step();
    const card = await f.ok('POST', '/payments', { invoice_id: paidByCard.id, amount: 121, type: 'card' });
    let invoices = await changed(f, '/invoices', since);
    expect(ids(invoices)).toEqual([paidByCard.id]);
    expect(invoices[0]).toMatchObject({ paid_state: 'paid', amount_paid: 121, updated_at: since });
    expect(ids(await changed(f, '/payments', since))).toEqual([card.id]);

    // A receipt paired with an invoice: the receipt, its payment and the invoice.
    since = step();
    const receipt = await f.ok('POST', '/receipts', { invoice_id: paidInCash.id, amount: 50 });
    expect(ids(await changed(f, '/invoices', since))).toEqual([paidInCash.id]);
    expect(ids(await changed(f, '/receipts', since))).toEqual([receipt.id]);
    expect(ids(await changed(f, '/payments', since))).toEqual([receipt.payment.id]);

    // Editing the receipt changes its payment row too (`updated_at` of the payment), and the invoice.
    since = step();
    await f.ok('PUT', `/receipts/${receipt.id}`, { amount: 60 });
    const payments = await changed(f, '/payments', since);
    expect(payments).toMatchObject([{ id: receipt.payment.id, amount: 60, updated_at: since }]);
    expect(payments[0]!.created_at).toBeLessThan(since);
    expect(await changed(f, '/receipts', since)).toMatchObject([{ id: receipt.id, amount: 60, updated_at: since }]);
    expect(await changed(f, '/invoices', since)).toMatchObject([{ id: paidInCash.id, amount_paid: 60, paid_state: 'partially_paid' }]);

    // Deleting the receipt: the receipt changes (soft), its payment is gone (tombstone), the invoice is unpaid again.
    since = step();
    await f.ok('DELETE', `/receipts/${receipt.id}`);
    expect(await changed(f, '/receipts', since, '&include_deleted=true')).toMatchObject([{ id: receipt.id, is_deleted: true, updated_at: since }]);
    expect(await changed(f, '/receipts', since)).toEqual([]);
    expect(await changed(f, '/invoices', since)).toMatchObject([{ id: paidInCash.id, paid_state: 'unpaid', amount_paid: 0 }]);
    expect(await changed(f, '/payments', since)).toEqual([]);
    expect(await tombstones(f, since)).toEqual([
      { object: 'deleted_record', id: receipt.payment.id, resource: 'payments', work_point_id: f.workPointId, deleted_at: since },
    ]);

    // Deleting a payment: the invoice changes, the payment leaves a tombstone.
    since = step();
    await f.ok('DELETE', `/payments/${card.id}`);
    expect(await changed(f, '/invoices', since)).toMatchObject([{ id: paidByCard.id, paid_state: 'unpaid' }]);
    expect(await tombstones(f, since, '&resource=payments')).toMatchObject([{ id: card.id, resource: 'payments' }]);

    // A storno voids the original: both are listed, the new storno and the original now voided.
    since = step();
    const storno = await f.ok('POST', `/invoices/${voided.id}/storno`, {});
    invoices = await changed(f, '/invoices', since);
    expect(new Set(ids(invoices))).toEqual(new Set([voided.id, storno.id]));
    expect(invoices.find((i) => i.id === voided.id)).toMatchObject({ status: 'voided', storno_id: storno.id, updated_at: since });

    // Converting a proforma changes it (`converted_to`).
    since = step();
    const fiscal = await f.ok('POST', `/invoices/${proforma.id}/convert`, {});
    invoices = await changed(f, '/invoices', since);
    expect(new Set(ids(invoices))).toEqual(new Set([proforma.id, fiscal.id]));
    expect(invoices.find((i) => i.id === proforma.id)).toMatchObject({ converted_to: fiscal.id });

    // A draft edited, then issued, then another draft deleted for good.
    const second = await issue({ is_draft: true });
    since = step();
    await f.ok('PUT', `/invoices/${draft.id}`, { observations: 'Livrare luni' });
    expect(ids(await changed(f, '/invoices', since))).toEqual([draft.id]);
    since = step();
    await f.ok('POST', `/invoices/${draft.id}/issue`, {});
    expect(await changed(f, '/invoices', since)).toMatchObject([{ id: draft.id, status: 'issued' }]);
    since = step();
    await f.ok('DELETE', `/invoices/${second.id}`);
    expect(await changed(f, '/invoices', since)).toEqual([]);
    expect(await tombstones(f, since)).toEqual([{ object: 'deleted_record', id: second.id, resource: 'invoices', work_point_id: f.workPointId, deleted_at: since }]);

    // The invoice never touched after its creation was in no step's answer; from the beginning, every
    // invoice comes once, in the order of its last change.
    const everything = await changed(f, '/invoices', 0);
    expect(ids(everything)).toContain(untouched.id);
    expect(new Set(ids(everything)).size).toBe(everything.length);
    const stamps = everything.map((i) => Number(i.updated_at ?? i.created_at));
    expect(stamps).toEqual([...stamps].sort((x, y) => x - y));
    expect(everything.at(-1)).toMatchObject({ id: draft.id, client_id: client.id });
  });

  it('suppliers and expenses: edits, payments and the closing of a month are changes; a supplier deleted leaves a tombstone', async () => {
    const f = await newFirm();
    const supplier = async (name: string) => (await f.ok('POST', '/suppliers', { name })).id as string;
    const s1 = await supplier('Alfa SRL');
    const s2 = await supplier('Beta SRL');
    const s3 = await supplier('Gama SRL');
    const october = await f.ok('POST', '/expenses', { supplier_id: s1, date: '2026-10-15', amount: 121, vat: 21 });
    const november = await f.ok('POST', '/expenses', { supplier_id: s2, date: '2026-11-10', amount: 50, vat: 0 });
    const paidLater = await f.ok('POST', '/expenses', { supplier_id: s2, date: '2026-11-11', amount: 20, vat: 0 });

    let since = step();
    await f.ok('PUT', `/suppliers/${s1}`, { phone: '0740000000' });
    await f.ok('DELETE', `/suppliers/${s3}`);
    expect(ids(await changed(f, '/suppliers', since))).toEqual([s1]);
    expect(await tombstones(f, since)).toMatchObject([{ id: s3, resource: 'suppliers', work_point_id: null, deleted_at: since }]);

    since = step();
    await f.ok('POST', `/expenses/${paidLater.id}/pay`, { paid_date: '2026-11-20', payment_type: 2 });
    expect(await changed(f, '/expenses', since)).toMatchObject([{ id: paidLater.id, is_paid: true }]);

    // Closing October locks the October expense: a change of it (is_locked), not of November's.
    since = step();
    await f.ok('POST', '/accounting/periods/close', { month: '2026-10' });
    expect(await changed(f, '/expenses', since)).toMatchObject([{ id: october.id, is_locked: true }]);
    // Closing it again changes nothing.
    since = step();
    await f.ok('POST', '/accounting/periods/close', { month: '2026-10' });
    expect(await changed(f, '/expenses', since)).toEqual([]);

    since = step();
    await f.ok('PUT', `/expenses/${november.id}`, { description: 'Corectat' });
    expect(ids(await changed(f, '/expenses', since))).toEqual([november.id]);
  });

  it('supplier bills: paying a bill and making an expense of it are changes; untouched bills are not listed', async () => {
    const f = await newFirm();
    const bill = (n: string) =>
      f.ok('POST', '/supplier-bills', { supplier: { name: 'Delta SRL' }, invoice_number: n, issue_date: '2026-11-02', tax_exclusive: 100, tax: 21 });
    const b1 = (await bill('D-1')).supplier_bill;
    const b2 = (await bill('D-2')).supplier_bill;
    const b3 = (await bill('D-3')).supplier_bill;
    let since = step();
    await f.ok('POST', `/supplier-bills/${b1.id}/pay`, { payment_date: '2026-11-20', amount: 21 });
    expect(await changed(f, '/supplier-bills', since)).toMatchObject([{ id: b1.id, status: 'partially_paid' }]);
    since = step();
    await f.ok('POST', `/supplier-bills/${b3.id}/expense`, {});
    const rows = await changed(f, '/supplier-bills', since, '&expand=supplier');
    expect(rows).toMatchObject([{ id: b3.id, expense_id: expect.stringMatching(/^exp_/), supplier: { name: 'Delta SRL' } }]);
    expect(ids(rows)).not.toContain(b2.id);
  });

  it('validates updated_since (422 for anything but whole non-negative seconds) and offers sort=updated_at only where it filters', async () => {
    const f = await newFirm();
    for (const bad of ['abc', '1.5', '-1', '2026-11-21', '1e400']) {
      for (const path of ['/clients', '/invoices', '/expenses', '/deleted-records']) {
        const res = await f.call('GET', `${path}?updated_since=${encodeURIComponent(bad)}`);
        expect({ path, bad, status: res.status, code: res.body.error?.code }).toEqual({ path, bad, status: 422, code: 'validation_error' });
        expect(res.body.error.fields).toHaveProperty('updated_since');
      }
    }
    const ro = await f.call('GET', '/products?updated_since=x&locale=ro');
    expect(ro.status).toBe(422);
    expect(ro.body.error.fields.updated_since).toMatch(/număr|se aștepta/i);
    // A list that does not record changes refuses the sort, so a client can tell (the desktop probes this).
    const series = await f.call('GET', '/invoice-series?sort=updated_at');
    expect(series.status).toBe(422);
    expect(series.body.error.fields).toHaveProperty('sort');
    for (const path of ['/clients', '/products', '/invoices', '/receipts', '/payments', '/suppliers', '/expenses', '/supplier-bills', '/deleted-records']) {
      const res = await f.call('GET', `${path}?sort=updated_at&order=asc&updated_since=0`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });

  it('GET /deleted-records: per-resource read scopes, the selected work point, never another company', async () => {
    const owner = await newFirm();
    const since = step();
    const { issue } = await invoicingSetup(owner);
    const product = await owner.ok('POST', '/products', { name: 'Sare', price: 3, vat_rate: 11 });
    const draft = await issue({ is_draft: true });
    await owner.ok('DELETE', `/products/${product.id}`);
    await owner.ok('DELETE', `/invoices/${draft.id}`);
    expect(new Set((await tombstones(owner, since)).map((t) => `${t.resource}:${t.id}`))).toEqual(new Set([`products:${product.id}`, `invoices:${draft.id}`]));

    // A key of the same company that may read products only: asked for invoices, 403; unasked, products only.
    const narrow = await newFirm({ cui: owner.cui, scopes: ['products:read'] });
    const refused = await narrow.call('GET', '/deleted-records?resource=invoices');
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 403, code: 'insufficient_permissions' });
    expect((await tombstones(narrow, since)).map((t) => t.id)).toEqual([product.id]);
    const none = await newFirm({ cui: owner.cui, scopes: ['expenses:read'] });
    expect(await tombstones(none, since)).toEqual([]);
    expect((await none.call('GET', '/deleted-records?resource=clients')).status).toBe(422);

    // Another work point of the company sees the company-wide tombstones, not the other point's documents.
    const branch = await newFirm({ cui: owner.cui, workPointName: 'Punct Cluj' });
    expect(branch.workPointId).not.toBe(owner.workPointId);
    expect((await tombstones(branch, since)).map((t) => t.id)).toEqual([product.id]);
    expect((await tombstones(branch, since, `&work_point_id=${owner.workPointId}`)).map((t) => t.resource).sort()).toEqual(['invoices', 'products']);

    // Another company: nothing, whatever it asks.
    const stranger = await newFirm();
    expect(await tombstones(stranger, 0)).toEqual([]);
    // Days filter on the deletion day (Europe/Bucharest), like every list.
    expect(await tombstones(owner, since, '&start_date=2026-11-21&end_date=2026-11-21')).toHaveLength(2);
    expect(await tombstones(owner, since, '&start_date=2026-11-22')).toEqual([]);
    const page = await owner.call('GET', `/deleted-records?updated_since=${since}&per_page=1&sort=updated_at&order=asc`);
    expect(page.body.data).toMatchObject({ object: 'list', total: 2, per_page: 1, has_more: true, total_pages: 2 });
  });

  it('documents updated_since and sort=updated_at in the OpenAPI document of every list that offers them', async () => {
    const res = await fetch(`${server.base}/openapi.json`);
    const doc = (await res.json()) as { paths: Record<string, { get?: { parameters?: Array<{ name: string; description?: string; schema: Record<string, unknown> }> } }> };
    for (const path of ['/clients', '/products', '/invoices', '/receipts', '/payments', '/suppliers', '/expenses', '/supplier-bills', '/deleted-records']) {
      const params = doc.paths[path]?.get?.parameters ?? [];
      const since = params.find((p) => p.name === 'updated_since');
      expect(since, path).toBeDefined();
      expect(since!.description, path).toMatch(/Unix seconds.*inclusive/);
      expect(since!.schema, path).toMatchObject({ type: 'integer', minimum: 0 });
      const sort = params.find((p) => p.name === 'sort');
      expect(JSON.stringify(sort?.schema), path).toContain('"updated_at"');
    }
    expect(doc.paths['/invoice-series']?.get?.parameters?.some((p) => p.name === 'updated_since')).toBe(false);
  });
});
