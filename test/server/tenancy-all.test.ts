import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUblXml } from '../../server/efactura/index';
import { allRoutes } from '../../server/modules/index';
import { ALIAS_OF } from '../../server/modules/compat/alias';
import { randomBase62 } from '../../server/platform/ids';
import type { AnyRoute } from '../../server/platform/route';
import { finish, seller as exampleSupplier } from '../efactura/fixtures/documents';
import { DIALECTS } from '../support/storage';
import type { ApiReply, TestServer } from '../support/server';
import { expectIsolated, type IsolationCase } from '../support/tenancy';
import { invoice, link, SELLER_PROFILE, startEnv, type Env, type Firm } from './efactura-spv/helpers';

/**
 * Issue 3: a key of one company never sees a row of another. Every route that names a resource in
 * its path is probed here with another company's key, on both dialects: it must answer exactly what
 * a never-existing id answers (404 `resource_missing`), lists must not show the row, and the owner
 * must find the row unchanged afterwards. Actions (issue, storno, pay, lock, release…) are also run
 * by the owner afterwards, so the refusal can only have come from tenancy.
 *
 * COVERED names every route with a path parameter; the first test below fails when a route is added
 * without being named here, and the last test of each dialect fails when a named route was not
 * actually probed (a probe counts only when the route itself answered `resource_missing` for its
 * path parameter).
 */
const COVERED = [
  'getWorkPoint', 'updateWorkPoint', 'deleteWorkPoint',
  'getClient', 'updateClient', 'deleteClient',
  'getProduct', 'updateProduct', 'deleteProduct',
  'getBankAccount', 'updateBankAccount', 'deleteBankAccount',
  'getVatRate', 'updateVatRate', 'deleteVatRate',
  'getCurrency', 'disableCurrency',
  'getLanguage', 'updateLanguage', 'disableLanguage',
  'getInvoiceSeries', 'updateInvoiceSeries', 'deleteInvoiceSeries', 'lockInvoiceSeries', 'unlockInvoiceSeries',
  'reserveNumbers', 'listReservations', 'releaseReservation', 'listInvoiceSeriesGaps',
  'getInvoice', 'updateInvoice', 'deleteInvoice', 'issueInvoice', 'stornoInvoice', 'convertProforma',
  'getInvoiceEfacturaXml', 'sendInvoiceToSpv', 'getEfacturaSubmission',
  'getPayment', 'updatePayment', 'deletePayment',
  'getReceipt', 'updateReceipt', 'deleteReceipt',
  'getReceiptSeries', 'updateReceiptSeries', 'deleteReceiptSeries', 'lockReceiptSeries', 'unlockReceiptSeries', 'listReceiptSeriesGaps',
  'reserveReceiptNumbers', 'listReceiptReservations', 'releaseReceiptReservation',
  'getSupplier', 'updateSupplier', 'deleteSupplier',
  'getExpenseCategory', 'updateExpenseCategory', 'deleteExpenseCategory',
  'getExpense', 'updateExpense', 'payExpense', 'listExpenseEvents',
  'getSupplierBill', 'paySupplierBill', 'createExpenseFromSupplierBill', 'getSupplierBillEfacturaPdf',
  'getBalanceSheet',
  'getProductImport', 'previewProductImport', 'commitProductImport',
  'getClientImport', 'previewClientImport', 'commitClientImport',
  'getWarehouse', 'updateWarehouse', 'getNir',
  'getAccountingExportJob', 'getAccountingExportJobFile',
  'getInvoicePdf', 'getReceiptPdf', 'sendInvoiceByEmail', 'listInvoiceEmails',
  // Contazen's names (issue 18) that do more than rename a route; pure aliases are covered by their original (ALIAS_OF).
  'setPrimarySeries', 'voidInvoice', 'duplicateInvoice', 'markInvoiceSent', 'listInvoicePayments', 'createInvoicePayment', 'payInvoice',
  'getInvoiceEfacturaStatus', 'listInvoiceEfacturaSubmissions',
  'setProductStock',
  'getWebhook', 'updateWebhook', 'deleteWebhook', 'testWebhook', 'listWebhookDeliveries', 'listWebhookLogs',
  'getWebhookDelivery', 'replayWebhookDelivery', 'retryWebhookLog',
  // Contazen's documents and e-Factura calls (issue 18, part B).
  'getAttachment', 'downloadAttachment', 'deleteAttachment', 'getDocumentTemplate', 'updateDocumentTemplate', 'deleteDocumentTemplate',
  'validateInvoiceEfactura', 'cancelEfacturaSubmission',
] as const;

/** Routes whose path parameter names nothing of a company: ANAF's public registry, keyed by any CUI. */
const PUBLIC_PARAMS = ['lookupCompanyForClient'] as const;

/** Per-company resources without an id in the path, proved by their own test below. */
const SINGLETONS = ['getCompanyProfile', 'updateCompanyProfile'] as const;

const DEVICE = { device_id: 'dev-a', device_name: 'Casa 1', device_platform: 'win32' };
/** The simulator's fixture firm: ANAF publishes its balance sheets for 2023 and 2024. */
const FIXTURE_CUI = '12345674';

/** The route that serves `method path`, literal segments before parameters (as Fastify matches). */
function routeOf(method: string, url: string): AnyRoute | undefined {
  const path = (url.split('?')[0] ?? '').replace(/^\/v1/, '');
  const candidates = allRoutes
    .filter((r) => r.method === method)
    .filter((r) => new RegExp(`^${r.path.replace(/:\w+/g, '[^/]+')}$`).test(path))
    .sort((a, b) => (a.path.match(/:/g)?.length ?? 0) - (b.path.match(/:/g)?.length ?? 0));
  return candidates[0];
}

const pathParams = (route: AnyRoute) => [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/** An id shaped like `id` (same prefix, same length) that names nothing. */
function lookalike(id: string): string {
  const cut = id.lastIndexOf('_');
  const prefix = cut >= 0 ? id.slice(0, cut + 1) : '';
  return `${prefix}${randomBase62(Math.max(8, id.length - prefix.length))}`;
}

const gist = (reply: ApiReply) => ({ status: reply.status, body: reply.body?.success === false ? reply.body.error : (reply.body?.data ?? reply.text) });

/** A supplier's e-Factura addressed to `buyerCui`, as it lands in the SPV inbox. */
function supplierXml(buyerCui: string, number: string): string {
  return toUblXml(
    finish(
      {
        kind: 'invoice',
        number,
        issue_date: '2026-11-02',
        due_date: '2026-12-02',
        currency: 'RON',
        seller: exampleSupplier,
        buyer: {
          name: 'Tejghea Test SRL',
          vat_id: `RO${buyerCui}`,
          cui: buyerCui,
          address: { street: 'Str. Memorandumului nr. 28', city: 'Cluj-Napoca', county_code: 'RO-CJ', country_code: 'RO' },
        },
        payment: { means_code: '30', iban: 'RO49AAAA1B31007593840000' },
      },
      [{ name: 'Hârtie A4', quantity_milli: 10_000, unit_price_bani: 2_500, vat_category: 'S', vat_rate_bp: 2100, unit_code: 'H87' }],
    ),
  );
}

describe('tenancy coverage', () => {
  it('names every route with a path parameter, and only routes that exist', () => {
    const withParams = allRoutes.filter((r) => r.path.includes(':')).map((r) => r.operationId);
    const covered = new Set<string>([...COVERED, ...PUBLIC_PARAMS]);
    // An alias is the very route it repeats (same handler, same parameters): proved with its original.
    expect(withParams.filter((id) => !covered.has(ALIAS_OF.get(id) ?? id)), 'routes without an isolation proof in tenancy-all.test.ts').toEqual([]);
    const known = new Set(allRoutes.map((r) => r.operationId));
    expect([...COVERED, ...SINGLETONS, ...PUBLIC_PARAMS].filter((id) => !known.has(id)), 'names of routes that no longer exist').toEqual([]);
  });
});

describe.each(DIALECTS)('every resource is isolated between companies on %s', (dialect) => {
  let env: Env;
  let server: TestServer;
  /** The routes that answered resource_missing for their own path parameter to a probe. */
  const proved = new Set<string>();

  beforeAll(async () => {
    env = await startEnv(dialect);
    const inner = env.server;
    // The same server, with every reply looked at: which route refused which probe.
    server = {
      ...inner,
      api: async (key, method, path, body, headers) => {
        const res = await inner.api(key, method, path, body, headers);
        const route = routeOf(method, path);
        if (route && res.status === 404 && res.body?.error?.code === 'resource_missing' && pathParams(route).includes(res.body.error.param)) {
          proved.add(route.operationId);
        }
        return res;
      },
    };
  });
  afterAll(async () => {
    await env?.close();
  });

  /** A Firm of the efactura-spv helpers for a key made by expectIsolated. */
  async function asFirm(key: string): Promise<Firm> {
    const me = await server.api(key, 'GET', '/me');
    expect(me.status, me.text).toBe(200);
    const call: Firm['call'] = (method, path, body, headers) => server.api(key, method, path, body, headers);
    return {
      key,
      cui: me.body.data.company.cui,
      companyId: me.body.data.company.id,
      workPointId: me.body.data.work_point.id,
      call,
      ok: async (method, path, body, status = 200) => {
        const res = await call(method, path, body);
        if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}, expected ${status}: ${res.text}`);
        return res;
      },
    };
  }

  /** A firm that can send to e-Factura: seller profile filled, SPV rights, OAuth link. */
  async function sellerFirm(key: string): Promise<Firm> {
    const f = await asFirm(key);
    env.sim.state.spvCifs.add(f.cui);
    await f.ok('PUT', '/company/profile', { ...SELLER_PROFILE, vat_payer: true });
    await link(env, f);
    return f;
  }

  const created = async (key: string, path: string, body: unknown): Promise<Record<string, unknown> & { id: string }> => {
    const res = await server.api(key, 'POST', path, body);
    expect(res.status, `POST ${path}: ${res.text}`).toBe(201);
    return res.body.data;
  };

  const isolated = (c: IsolationCase) => expectIsolated(server, c);

  interface ActionProbe {
    /** Makes the resource with the owner's key; answers its id. */
    create: (owner: string) => Promise<string>;
    method: 'POST' | 'GET';
    path: (id: string) => string;
    body?: unknown;
    /** GET paths the owner reads before and after: the stranger's attempt changed nothing there. */
    witness: (id: string) => string[];
    /** The owner then does the same successfully (with this status): what refused the stranger was tenancy. */
    ownerStatus: number;
    ownerBody?: unknown;
  }

  /** Another company's key on an action route answers like an unknown id, and changes nothing. */
  async function expectActionIsolated(p: ActionProbe): Promise<void> {
    const owner = (await env.server.key()).api_key;
    const stranger = (await env.server.key()).api_key;
    const id = await p.create(owner);
    const witnesses = p.witness(id);
    const before = await Promise.all(witnesses.map(async (w) => gist(await server.api(owner, 'GET', w))));
    for (const b of before) expect(b.status).toBe(200);
    const foreign = await server.api(stranger, p.method, p.path(id), p.body);
    const missing = await server.api(stranger, p.method, p.path(lookalike(id)), p.body);
    expect(foreign.status, `${p.method} ${p.path(id)} with another company's key: ${foreign.text}`).toBe(404);
    expect(foreign.body.error.code).toBe('resource_missing');
    expect(gist(foreign), `${p.method} ${p.path(id)} answers exactly like a missing id`).toEqual(gist(missing));
    const after = await Promise.all(witnesses.map(async (w) => gist(await server.api(owner, 'GET', w))));
    expect(after, 'the owner sees the resource unchanged').toEqual(before);
    const own = await server.api(owner, p.method, p.path(id), p.ownerBody ?? p.body);
    expect(own.status, `${p.method} ${p.path(id)} by the owner: ${own.text}`).toBe(p.ownerStatus);
  }

  /** Another company's reservation token (invoice or receipt series) answers resource_missing on release and stays pending. */
  async function expectReleaseIsolated(base: '/invoice-series' | '/receipt-series', seriesBody: Record<string, unknown>): Promise<void> {
    let seriesOf = '';
    await expectActionIsolated({
      create: async (key) => {
        seriesOf = (await created(key, base, seriesBody)).id;
        const res = await server.api(key, 'POST', `${base}/${seriesOf}/reservations`, { device_id: 'dev-a' });
        expect(res.status).toBe(201);
        return res.body.data.data[0].token as string;
      },
      method: 'POST', path: (token) => `${base}/reservations/${token}/release?device_id=dev-a`,
      witness: () => [`${base}/${seriesOf}/reservations`, `${base}/${seriesOf}/gaps`], ownerStatus: 200,
    });
  }

  it('isolates work points', async () => {
    await isolated({
      create: async (key) => (await created(key, '/work-points', { name: 'Punct izolat' })).id,
      paths: (id) => [`/work-points/${id}`],
      update: { name: 'Redenumit' },
      lists: ['/work-points'],
    });
  });

  it('isolates clients, products, bank accounts and custom VAT rates', async () => {
    await isolated({
      create: async (key) => (await created(key, '/clients', { name: 'Confidențial SRL', cui: 'RO18547290' })).id,
      paths: (id) => [`/clients/${id}`],
      update: { name: 'Schimbat SRL' },
      lists: ['/clients', '/clients?include_deleted=true'],
    });
    await isolated({
      create: async (key) => (await created(key, '/products', { name: 'Cafea', code: 'SKU-1', price: 12.5 })).id,
      paths: (id) => [`/products/${id}`],
      update: { name: 'Ceai' },
      lists: ['/products'],
    });
    await isolated({
      create: async (key) => (await created(key, '/bank-accounts', { iban: 'RO49AAAA1B31007593840000' })).id,
      paths: (id) => [`/bank-accounts/${id}`],
      update: { name: 'Cont furat' },
      lists: ['/bank-accounts'],
    });
    await isolated({
      create: async (key) => (await created(key, '/vat-rates', { rate: 7.5 })).id,
      paths: (id) => [`/vat-rates/${id}`],
      update: { name: 'Cotă furată' },
      lists: ['/vat-rates'],
    });
  });

  it('isolates enabled currencies and languages', async () => {
    const currency = await isolated({
      create: async (key) => (await created(key, '/currencies', { code: 'CHF' })).id,
      paths: (id) => [`/currencies/${id}`],
      methods: ['GET', 'DELETE'],
    });
    // GET /currencies answers at top level (no paged list): checked here rather than by the helper.
    const theirs = await server.api(currency.stranger.api_key, 'GET', '/currencies');
    expect(theirs.body.data.map((c: { code: string }) => c.code)).toEqual(['RON']);
    expect((await server.api(currency.owner.api_key, 'GET', '/currencies')).body.data.map((c: { code: string }) => c.code)).toEqual(['RON', 'CHF']);
    const language = await isolated({
      create: async (key) => (await created(key, '/languages', { code: 'fr' })).id,
      paths: (id) => [`/languages/${id}`],
      update: { code: 'it' },
    });
    expect((await server.api(language.stranger.api_key, 'GET', '/languages')).body.data.map((l: { code: string }) => l.code)).toEqual(['ro']);
  });

  it('isolates invoice series, their locks, reservations and gap register', async () => {
    await isolated({
      create: async (key) => (await created(key, '/invoice-series', { name: 'IZ' })).id,
      paths: (id) => [`/invoice-series/${id}`, `/invoice-series/${id}/reservations`, `/invoice-series/${id}/gaps`],
      methods: ['GET'],
      lists: ['/invoice-series'],
    });
    await isolated({
      create: async (key) => (await created(key, '/invoice-series', { name: 'IZ' })).id,
      paths: (id) => [`/invoice-series/${id}`],
      methods: ['PUT', 'DELETE'],
      update: { description: 'schimbată' },
    });
    await expectActionIsolated({
      create: async (key) => (await created(key, '/invoice-series', { name: 'LK' })).id,
      method: 'POST', path: (id) => `/invoice-series/${id}/lock`, body: DEVICE,
      witness: (id) => [`/invoice-series/${id}`], ownerStatus: 200,
    });
    await expectActionIsolated({
      create: async (key) => {
        const id = (await created(key, '/invoice-series', { name: 'UL' })).id;
        expect((await server.api(key, 'POST', `/invoice-series/${id}/lock`, DEVICE)).status).toBe(200);
        return id;
      },
      method: 'POST', path: (id) => `/invoice-series/${id}/unlock`, body: { device_id: DEVICE.device_id },
      witness: (id) => [`/invoice-series/${id}`], ownerStatus: 200,
    });
    await expectActionIsolated({
      create: async (key) => (await created(key, '/invoice-series', { name: 'RZ' })).id,
      method: 'POST', path: (id) => `/invoice-series/${id}/reservations`, body: { device_id: 'dev-a', count: 2 },
      witness: (id) => [`/invoice-series/${id}`, `/invoice-series/${id}/reservations`], ownerStatus: 201,
    });
  });

  it('refuses to release another company’s reservation token (resource_missing) and leaves it pending', async () => {
    await expectReleaseIsolated('/invoice-series', { name: 'RL' });
  });

  it('isolates invoices: read, change, delete, issue, storno, convert', async () => {
    await isolated({
      create: async (key) => (await invoice(await asFirm(key), { is_draft: true })).id,
      paths: (id) => [`/invoices/${id}`, `/invoices/${id}?expand[]=lines&expand[]=payments&expand[]=client`],
      update: { observations: 'schimbată de altcineva' },
      lists: ['/invoices', '/invoices?status=draft&expand[]=lines'],
    });
    await expectActionIsolated({
      create: async (key) => (await invoice(await asFirm(key), { is_draft: true })).id,
      method: 'POST', path: (id) => `/invoices/${id}/issue`, body: {},
      witness: (id) => [`/invoices/${id}`], ownerStatus: 200,
    });
    await expectActionIsolated({
      create: async (key) => (await invoice(await asFirm(key))).id,
      method: 'POST', path: (id) => `/invoices/${id}/storno`, body: {},
      witness: (id) => [`/invoices/${id}`], ownerStatus: 201,
    });
    let fiscalSeries = '';
    await expectActionIsolated({
      create: async (key) => {
        const f = await asFirm(key);
        fiscalSeries = (await created(key, '/invoice-series', { name: 'FX', is_primary: true })).id;
        return (await invoice(f, { document_type: 'proforma' })).id;
      },
      method: 'POST', path: (id) => `/invoices/${id}/convert`, body: {},
      witness: (id) => [`/invoices/${id}`], ownerStatus: 201,
    });
    expect(fiscalSeries).not.toBe('');
  });

  it('isolates the e-Factura XML of an invoice, its submission to SPV and the submissions', async () => {
    await isolated({
      create: async (key) => {
        const f = await asFirm(key);
        await f.ok('PUT', '/company/profile', { ...SELLER_PROFILE, vat_payer: true });
        return (await invoice(f)).id;
      },
      paths: (id) => [`/invoices/${id}/efactura-xml`],
      methods: ['GET'],
    });
    await expectActionIsolated({
      create: async (key) => (await invoice(await sellerFirm(key))).id,
      method: 'POST', path: (id) => `/invoices/${id}/send-to-spv`, body: {},
      witness: (id) => [`/invoices/${id}`, '/efactura/submissions'], ownerStatus: 200,
    });
    await isolated({
      create: async (key) => {
        const f = await sellerFirm(key);
        const inv = await invoice(f);
        return (await f.ok('POST', `/invoices/${inv.id}/send-to-spv`, {})).body.data.submission_id as string;
      },
      paths: (id) => [`/efactura/submissions/${id}`],
      methods: ['GET'],
      lists: ['/efactura/submissions'],
    });
  });

  it('isolates the PDFs of an invoice and a receipt, sending an invoice by e-mail and its e-mail log', async () => {
    const issued = async (key: string) => (await invoice(await asFirm(key))).id;
    await expectActionIsolated({ create: issued, method: 'GET', path: (id) => `/invoices/${id}/pdf`, witness: (id) => [`/invoices/${id}`], ownerStatus: 200 });
    await expectActionIsolated({ create: issued, method: 'GET', path: (id) => `/invoices/${id}/emails`, witness: (id) => [`/invoices/${id}`], ownerStatus: 200 });
    await expectActionIsolated({
      create: async (key) => (await created(key, '/receipts', { client_name: 'Trecător', amount: 15 })).id,
      method: 'GET', path: (id) => `/receipts/${id}/pdf`, witness: (id) => [`/receipts/${id}`], ownerStatus: 200,
    });
    // The owner has no mail server set: 409 smtp_not_configured, past the invoice's tenancy check (a stranger gets 404).
    await expectActionIsolated({
      create: issued, method: 'POST', path: (id) => `/invoices/${id}/send`, body: { to: 'contabil@client.test' },
      witness: (id) => [`/invoices/${id}`, `/invoices/${id}/emails`], ownerStatus: 409,
    });
  });

  it('isolates the Contazen aliases that act on an invoice or a series', async () => {
    await expectActionIsolated({
      create: async (key) => (await created(key, '/series', { name: 'CZP', document_type: 'fiscal' })).id,
      method: 'POST', path: (id) => `/series/${id}/set-primary`, witness: (id) => [`/invoice-series/${id}`], ownerStatus: 200,
    });
    const issued = async (key: string) => (await invoice(await asFirm(key))).id;
    const witness = (id: string) => [`/invoices/${id}`, `/invoices/${id}/payments`];
    await expectActionIsolated({ create: issued, method: 'POST', path: (id) => `/invoices/${id}/void`, witness, ownerStatus: 200 });
    await expectActionIsolated({ create: issued, method: 'POST', path: (id) => `/invoices/${id}/duplicate`, witness, ownerStatus: 201 });
    await expectActionIsolated({ create: issued, method: 'POST', path: (id) => `/invoices/${id}/mark-sent`, witness, ownerStatus: 200 });
    await expectActionIsolated({ create: issued, method: 'GET', path: (id) => `/invoices/${id}/payments`, witness, ownerStatus: 200 });
    await expectActionIsolated({
      create: issued, method: 'POST', path: (id) => `/invoices/${id}/payments`, body: { amount: 1, method: 'card' }, witness, ownerStatus: 201,
    });
    await expectActionIsolated({ create: issued, method: 'POST', path: (id) => `/invoices/${id}/pay`, body: {}, witness, ownerStatus: 200 });
    await expectActionIsolated({ create: issued, method: 'GET', path: (id) => `/efactura/invoice/${id}/status`, witness, ownerStatus: 200 });
    await expectActionIsolated({ create: issued, method: 'GET', path: (id) => `/efactura/invoice/${id}/history`, witness, ownerStatus: 200 });
  });

  it('isolates the Contazen calls of part A: a product\'s stock by id or SKU, an invoice\'s PDF link', async () => {
    const received = async (key: string) => {
      const id = (await created(key, '/products', { name: 'Zahăr izolat', code: 'SKU-IZOLAT', price: 5 })).id;
      const nir = await server.api(key, 'POST', '/nirs', { supplier: { name: 'Furnizor SRL' }, lines: [{ supplier_item: 'Zahăr', product_id: id, quantity_invoiced: 4, unit_cost: 2 }] });
      expect(nir.status, nir.text).toBe(201);
      return id;
    };
    const witness = (id: string) => [`/products/${id}`, `/stock?product_id=${id}`];
    await expectActionIsolated({ create: received, method: 'POST', path: (id) => `/products/${id}/stock`, body: { quantity: 1 }, witness, ownerStatus: 200 });
    // By SKU: another firm's code names nothing of the stranger's.
    await expectActionIsolated({ create: received, method: 'POST', path: () => '/products/SKU-IZOLAT/stock', body: { quantity: 1 }, witness, ownerStatus: 200 });
    const issued = async (key: string) => (await invoice(await asFirm(key))).id;
    await expectActionIsolated({ create: issued, method: 'GET', path: (id) => `/invoices/${id}/pdf?mode=url`, witness: (id) => [`/invoices/${id}`], ownerStatus: 200 });
  });

  it('isolates accounting export jobs and their files', async () => {
    await isolated({
      create: async (key) => {
        const res = await server.api(key, 'POST', '/accounting/exports/jobs', { format: 'documents_csv', start_date: '2026-10-01', end_date: '2026-10-31' });
        expect(res.status, res.text).toBe(202);
        const id = res.body.data.id as string;
        // Its file is read too: wait until the (empty) export is written.
        for (let i = 0; i < 100 && (await server.api(key, 'GET', `/accounting/exports/jobs/${id}`)).body.data.state === 'running'; i += 1) await new Promise((r) => setTimeout(r, 50));
        return id;
      },
      paths: (id) => [`/accounting/exports/jobs/${id}`, `/accounting/exports/jobs/${id}/file`],
      methods: ['GET'],
    });
  });

  it('isolates warehouses and NIRs, and another firm\'s warehouse in stock queries', async () => {
    await isolated({
      create: async (key) => (await created(key, '/warehouses', { name: 'Depozit izolat' })).id,
      paths: (id) => [`/warehouses/${id}`],
      methods: ['GET', 'PUT'],
      update: { name: 'Depozit furat' },
      lists: ['/warehouses'],
    });
    const nir = await isolated({
      create: async (key) => {
        const product = await created(key, '/products', { name: 'Marfă', price: 10 });
        return (await created(key, '/nirs', {
          supplier: { name: 'Furnizor SRL' }, lines: [{ supplier_item: 'Marfă', product_id: product.id, quantity_invoiced: 3, unit_cost: 4 }],
        })).id;
      },
      paths: (id) => [`/nirs/${id}`],
      methods: ['GET'],
      lists: ['/nirs'],
    });
    // Levels and movements carry no id of their own: the owner sees the NIR's, the stranger sees none.
    for (const list of ['/stock', '/stock/movements', '/stock-counts', '/stock-transfers']) {
      const theirs = await server.api(nir.stranger.api_key, 'GET', list);
      expect(theirs.status, list).toBe(200);
      expect(theirs.body.data.total, list).toBe(0);
    }
    expect((await server.api(nir.owner.api_key, 'GET', '/stock/movements')).body.data.data[0].document_id).toBe(nir.id);
    const ownWarehouse = (await server.api(nir.owner.api_key, 'GET', '/warehouses')).body.data.data[0].id as string;
    for (const path of [`/stock?warehouse_id=${ownWarehouse}`, `/stock/value?warehouse_id=${ownWarehouse}`]) {
      const res = await server.api(nir.stranger.api_key, 'GET', path);
      expect({ status: res.status, code: res.body.error?.code, param: res.body.error?.param }, path).toEqual({ status: 404, code: 'resource_missing', param: 'warehouse_id' });
    }
    const strangerProduct = await created(nir.stranger.api_key, '/products', { name: 'Altă marfă', price: 1 });
    const foreign = await server.api(nir.stranger.api_key, 'POST', '/nirs', {
      supplier: { name: 'X SRL' }, warehouse_id: ownWarehouse, lines: [{ supplier_item: 'Y', product_id: strangerProduct.id, quantity_invoiced: 1, unit_cost: 1 }],
    });
    expect(foreign.status, foreign.text).toBe(404);
  });

  it('isolates payments and receipts, and receipt series', async () => {
    await isolated({
      create: async (key) => {
        const inv = await invoice(await asFirm(key));
        return (await created(key, '/payments', { invoice_id: inv.id, amount: 10 })).id;
      },
      paths: (id) => [`/payments/${id}`],
      update: { amount: 5 },
      lists: ['/payments'],
    });
    await isolated({
      create: async (key) => (await created(key, '/receipts', { client_name: 'Trecător', amount: 15 })).id,
      paths: (id) => [`/receipts/${id}`],
      update: { observations: 'schimbată' },
      lists: ['/receipts', '/receipts?include_deleted=true'],
    });
    await isolated({
      create: async (key) => (await created(key, '/receipt-series', { prefix: 'CHZ' })).id,
      paths: (id) => [`/receipt-series/${id}`, `/receipt-series/${id}/gaps`, `/receipt-series/${id}/reservations`],
      methods: ['GET'],
      lists: ['/receipt-series'],
    });
    await isolated({
      create: async (key) => (await created(key, '/receipt-series', { prefix: 'CHP' })).id,
      paths: (id) => [`/receipt-series/${id}`],
      methods: ['PUT', 'DELETE'],
      update: { prefix: 'CHX', description: 'schimbată' },
    });
    await expectActionIsolated({
      create: async (key) => (await created(key, '/receipt-series', { prefix: 'CHL' })).id,
      method: 'POST', path: (id) => `/receipt-series/${id}/lock`, body: DEVICE,
      witness: (id) => [`/receipt-series/${id}`], ownerStatus: 200,
    });
    await expectActionIsolated({
      create: async (key) => {
        const id = (await created(key, '/receipt-series', { prefix: 'CHU' })).id;
        expect((await server.api(key, 'POST', `/receipt-series/${id}/lock`, DEVICE)).status).toBe(200);
        return id;
      },
      method: 'POST', path: (id) => `/receipt-series/${id}/unlock`, body: { device_id: DEVICE.device_id },
      witness: (id) => [`/receipt-series/${id}`], ownerStatus: 200,
    });
    await expectActionIsolated({
      create: async (key) => (await created(key, '/receipt-series', { prefix: 'CHR' })).id,
      method: 'POST', path: (id) => `/receipt-series/${id}/reservations`, body: { device_id: 'dev-a', count: 2 },
      witness: (id) => [`/receipt-series/${id}`, `/receipt-series/${id}/reservations`], ownerStatus: 201,
    });
    await expectReleaseIsolated('/receipt-series', { prefix: 'CHT' });
  });

  it('isolates suppliers, expense categories, expenses, their payment and audit trail', async () => {
    await isolated({
      create: async (key) => (await created(key, '/suppliers', { name: 'Furnizor izolat SRL', cui: 'RO14399840' })).id,
      paths: (id) => [`/suppliers/${id}`],
      update: { name: 'Schimbat' },
      lists: ['/suppliers'],
    });
    const category = await isolated({
      create: async (key) => String((await created(key, '/expense-categories', { name: 'Izolată' })).id),
      paths: (id) => [`/expense-categories/${id}`],
      update: { name: 'Schimbată' },
    });
    // Category ids are integers, which the helper's list check (string ids) does not match: checked here.
    const listed = await server.api(category.stranger.api_key, 'GET', '/expense-categories');
    expect(listed.body.data.data.map((c: { id: number }) => String(c.id))).not.toContain(category.id);
    expect((await server.api(category.owner.api_key, 'GET', '/expense-categories')).body.data.data.map((c: { id: number }) => String(c.id))).toContain(category.id);
    const newExpense = async (key: string) => {
      const supplier = (await created(key, '/suppliers', { name: 'Izolat SRL' })).id;
      return (await created(key, '/expenses', { supplier_id: supplier, amount: 12.1, vat: 21, reference: 'ISO-1' })).id;
    };
    await isolated({
      create: newExpense,
      paths: (id) => [`/expenses/${id}`, `/expenses/${id}/events`],
      methods: ['GET'],
      lists: ['/expenses'],
    });
    await isolated({ create: newExpense, paths: (id) => [`/expenses/${id}`], methods: ['PUT'], update: { description: 'Schimbată' } });
    await expectActionIsolated({
      create: newExpense,
      method: 'POST', path: (id) => `/expenses/${id}/pay`, body: { paid_date: '2026-11-02', payment_type: 1 },
      witness: (id) => [`/expenses/${id}`, `/expenses/${id}/events`], ownerStatus: 200,
    });
  });

  it('isolates supplier bills: read, pay, turn into an expense, ANAF’s PDF', async () => {
    const manualBill = async (key: string) => {
      const res = await server.api(key, 'POST', '/supplier-bills', {
        supplier: { name: 'Furnizor de mână SRL' }, invoice_number: 'MAN-1', issue_date: '2026-11-02', tax_exclusive: 100, tax: 21,
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data.supplier_bill.id as string;
    };
    await isolated({ create: manualBill, paths: (id) => [`/supplier-bills/${id}`], methods: ['GET'], lists: ['/supplier-bills'] });
    await expectActionIsolated({
      create: manualBill,
      method: 'POST', path: (id) => `/supplier-bills/${id}/pay`, body: { payment_date: '2026-11-03' },
      witness: (id) => [`/supplier-bills/${id}`], ownerStatus: 200,
    });
    await expectActionIsolated({
      create: manualBill,
      method: 'POST', path: (id) => `/supplier-bills/${id}/expense`, body: { description: 'Birotică' },
      witness: (id) => [`/supplier-bills/${id}`, '/expenses'], ownerStatus: 201,
    });
    await isolated({
      create: async (key) => {
        const f = await sellerFirm(key);
        env.sim.state.addReceivedInvoice({ buyerCif: f.cui, sellerCif: FIXTURE_CUI, xml: supplierXml(f.cui, 'SPV-1'), env: 'prod' });
        const sync = await f.ok('POST', '/supplier-bills/sync', {});
        expect(sync.body.data.imported).toBe(1);
        return sync.body.data.bill_ids[0] as string;
      },
      paths: (id) => [`/supplier-bills/${id}/efactura-pdf`, `/supplier-bills/${id}`],
      methods: ['GET'],
      lists: ['/supplier-bills?source=spv'],
    });
  });

  it('isolates imports of products and clients: read, preview, commit', async () => {
    const file = (header: string) => Buffer.from(`Denumire;${header}\r\nCafea;12,50\r\n`).toString('base64');
    for (const [kind, header, mapping] of [
      ['products', 'Preț', { name: 0, price: 1 }],
      ['clients', 'Localitate', { name: 0, city: 1 }],
    ] as const) {
      const newImport = async (key: string) => (await created(key, `/${kind}/imports`, { content: file(header) })).id;
      await isolated({ create: newImport, paths: (id) => [`/${kind}/imports/${id}`], methods: ['GET'] });
      await expectActionIsolated({
        create: newImport,
        method: 'POST', path: (id) => `/${kind}/imports/${id}/preview`, body: { mapping },
        witness: (id) => [`/${kind}/imports/${id}`], ownerStatus: 200,
      });
      await expectActionIsolated({
        create: newImport,
        method: 'POST', path: (id) => `/${kind}/imports/${id}/commit`, body: {},
        witness: (id) => [`/${kind}/imports/${id}`, `/${kind}`], ownerStatus: 200,
      });
    }
  });

  it('isolates balance sheets: another company’s year answers like a year never synced', async () => {
    const owner = await env.server.key({ cui: FIXTURE_CUI });
    const stranger = await env.server.key();
    const synced = await server.api(owner.api_key, 'POST', '/accounting/balance-sheets/sync', { year: 2024 });
    expect(synced.status, synced.text).toBe(200);
    const before = gist(await server.api(owner.api_key, 'GET', '/accounting/balance-sheets/2024'));
    expect(before.status).toBe(200);
    const foreign = await server.api(stranger.api_key, 'GET', '/accounting/balance-sheets/2024');
    const never = await server.api(stranger.api_key, 'GET', '/accounting/balance-sheets/2019');
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 'resource_missing', param: 'year' });
    expect(gist(foreign)).toEqual(gist(never));
    const theirs = await server.api(stranger.api_key, 'GET', '/accounting/balance-sheets');
    expect(theirs.body.data.total).toBe(0);
    expect((await server.api(owner.api_key, 'GET', '/accounting/balance-sheets')).body.data.total).toBe(1);
    expect(gist(await server.api(owner.api_key, 'GET', '/accounting/balance-sheets/2024'))).toEqual(before);
  });

  it('keeps the company profile to its company: another key reads and writes only its own', async () => {
    const owner = await env.server.key();
    const stranger = await env.server.key();
    const mine = await server.api(owner.api_key, 'PUT', '/company/profile', { ...SELLER_PROFILE, name: 'Proprietar SRL' });
    expect(mine.status, mine.text).toBe(200);
    const theirs = await server.api(stranger.api_key, 'GET', '/company/profile');
    expect(theirs.body.data).toMatchObject({ company_id: stranger.company_id, street: null, reg_com: null, iban: null });
    expect(JSON.stringify(theirs.body.data)).not.toContain('Proprietar');
    const written = await server.api(stranger.api_key, 'PUT', '/company/profile', { name: 'Intrus SRL', street: 'Altă stradă 1' });
    expect(written.body.data).toMatchObject({ company_id: stranger.company_id, name: 'Intrus SRL' });
    expect((await server.api(owner.api_key, 'GET', '/company/profile')).body.data).toEqual(mine.body.data);
    for (const id of SINGLETONS) proved.add(id);
  });

  it('isolates webhook endpoints and their delivery logs', async () => {
    // Port 9 (discard) refuses at once: the owner's own pings fail fast, which is all these probes need.
    const url = 'http://127.0.0.1:9/hooks';
    const hook = async (key: string) => (await created(key, '/webhooks', { url })).id as string;
    await isolated({
      create: hook, paths: (id) => [`/webhooks/${id}`], methods: ['GET', 'PUT', 'PATCH', 'DELETE'],
      update: { description: 'Furat', rotate_secret: true }, lists: ['/webhooks'],
    });
    await isolated({ create: hook, paths: (id) => [`/webhooks/${id}/deliveries`, `/webhooks/${id}/logs`], methods: ['GET'] });
    await expectActionIsolated({
      create: hook, method: 'POST', path: (id) => `/webhooks/${id}/test`, witness: (id) => [`/webhooks/${id}/deliveries`], ownerStatus: 200,
    });
    let hookId = '';
    const delivery = async (key: string) => {
      hookId = await hook(key);
      const ping = await server.api(key, 'POST', `/webhooks/${hookId}/test`);
      expect(ping.status, ping.text).toBe(200);
      return ping.body.data.id as string;
    };
    await isolated({ create: delivery, paths: (id) => [`/webhooks/${hookId}/deliveries/${id}`], methods: ['GET'] });
    for (const path of [(id: string) => `/webhooks/${hookId}/deliveries/${id}/replay`, (id: string) => `/webhooks/${hookId}/logs/${id}/retry`]) {
      await expectActionIsolated({
        create: delivery, method: 'POST', path, witness: (id) => [`/webhooks/${hookId}/deliveries/${id}`], ownerStatus: 200,
      });
    }
  });

  it('isolates attachments, document templates, and the e-Factura validate and cancel of an invoice', async () => {
    const attachment = async (key: string) => {
      const client = await created(key, '/clients', { type: 'person', name: 'Ion Popescu' });
      return (await created(key, '/documents/attachments', {
        document_type: 'client', document_id: client.id, file_name: 'act.pdf', content: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'),
      })).id;
    };
    await isolated({ create: attachment, paths: (id) => [`/documents/attachments/${id}`, `/documents/attachments/${id}/download`], methods: ['GET'] });
    await isolated({ create: attachment, paths: (id) => [`/documents/attachments/${id}`], methods: ['DELETE'] });
    const template = async (key: string) => (await created(key, '/documents/templates', { name: 'Magazin', type: 'invoice', content: '<p>{{invoice.number}}</p>' })).id;
    const t = await isolated({ create: template, paths: (id) => [`/documents/templates/${id}`], methods: ['GET', 'PUT', 'PATCH', 'DELETE'], update: { name: 'Furat' } });
    const theirs = await server.api(t.stranger.api_key, 'GET', '/documents/templates');
    expect(theirs.body.data.map((x: { id: string }) => x.id)).not.toContain(t.id);
    const issued = async (key: string) => (await invoice(await asFirm(key))).id;
    const witness = (id: string) => [`/invoices/${id}`, `/efactura/invoice/${id}/status`];
    await expectActionIsolated({ create: issued, method: 'POST', path: (id) => `/efactura/validate/${id}`, body: {}, witness, ownerStatus: 200 });
    // The owner's invoice was never submitted: its own cancel reaches the route and is refused for that (409), not for tenancy.
    await expectActionIsolated({ create: issued, method: 'POST', path: (id) => `/efactura/cancel/${id}`, body: {}, witness, ownerStatus: 409 });
  });

  it('probed every route named in COVERED', () => {
    expect(COVERED.filter((id) => !proved.has(id)), 'named but never refused to another company').toEqual([]);
  });
});
