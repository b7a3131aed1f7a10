import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { conflict, notFound } from '../../platform/errors';
import { OPENAPI_VERSION } from '../../platform/openapi';
import { fromBani } from '../../../shared/money';
import { zDate, zPaymentMethodType, zTimestamp } from '../../../shared/schemas/common';
import { zInvoice, zInvoiceCreate, type Invoice } from '../../../shared/schemas/invoice';
import { zPayment, zPaymentCreate, type Payment } from '../../../shared/schemas/receipt';
import { DOCUMENT_TYPES, zInvoiceSeries, type InvoiceSeries } from '../../../shared/schemas/series';
import { zCompanyLookup } from '../../../shared/schemas/company-lookup';
import { zCompanyProfile, zCompanyProfileUpdate, zEfacturaSubmission, type CompanyProfile, type OAuthStatus } from '../../../shared/schemas/efactura';
import { zBankAccount } from '../../../shared/schemas/bank-account';
import { periodProblem } from '../../../shared/schemas/accounting';
import { invoicingRoutes } from '../invoicing/routes';
import { efacturaSpvRoutes } from '../efactura-spv/routes';
import { catalogRoutes } from '../catalog/routes';
import { findInvoice } from '../invoicing/invoice-store';
import { currentItems, storedWalkIn } from '../invoicing/invoice-routes';
import { todayAt } from '../invoicing/numbering';
import { journalTotals } from '../accounting/journal-build';
import { validationFailed } from '../../platform/errors';
import { aliasOf, allPages, callRoute, routeNamed } from './alias';
import { productsSdkRoutes } from './products-sdk';
import { paymentsSdkRoutes } from './payments-sdk';
import { invoicesBulkRoutes } from './invoices-bulk';
import './messages';

/**
 * Issue 18: the names Contazen's official SDK calls, on top of the routes we already have. Pure aliases
 * are the same route under another name (alias.ts); the rest map the SDK's request onto our routes'
 * handlers (callRoute) and add only what the mapping needs. docs/contazen-compatibility.md has the table.
 */

const route = (operationId: string) => routeNamed([...invoicingRoutes, ...efacturaSpvRoutes, ...catalogRoutes], operationId);

const idParams = z.object({ id: z.string().min(1).max(64) });
const INVOICE_MISSING = { resource_missing: 404 };

/** The invoice named by the path, of this company; another company's answers like a missing one. */
async function invoiceRow(ctx: { db: Parameters<typeof findInvoice>[0]; companyId: string }, id: string) {
  const row = await findInvoice(ctx.db, ctx.companyId, id);
  if (!row) throw notFound('id');
  return row;
}

// ---- Meta ----------------------------------------------------------------------------------------

const ping = defineRoute({
  method: 'GET', path: '/ping', operationId: 'ping', summary: 'Check that the service answers and the key is valid',
  description: 'Contazen\'s `GET /ping`. Needs a valid key, like every route; answers the service time.',
  tags: ['meta', 'compat'], scope: 'any',
  response: z.object({ object: z.literal('ping'), pong: z.literal(true), time: zTimestamp }),
  handler: async (ctx) => ({ object: 'ping' as const, pong: true as const, time: ctx.now }),
});

const version = defineRoute({
  method: 'GET', path: '/version', operationId: 'getVersion', summary: 'The API version',
  description: 'Contazen\'s `GET /version`: the API (`v1`) and the version of its OpenAPI document.',
  tags: ['meta', 'compat'], scope: 'any',
  response: z.object({ object: z.literal('version'), api_version: z.literal('v1'), openapi_version: z.string() }),
  handler: async () => ({ object: 'version' as const, api_version: 'v1' as const, openapi_version: OPENAPI_VERSION }),
});

const anafLookup = defineRoute({
  method: 'GET', path: '/clients/anaf/:cui', operationId: 'lookupCompanyForClient', summary: 'Look up a company by CUI in ANAF’s registry',
  description: 'Contazen\'s `GET /clients/anaf/{cui}`: the same lookup as `GET /fiscal/company-lookup?cui=`, with the CUI in the path.',
  tags: ['clients', 'fiscal', 'compat'], scope: 'fiscal_data:read',
  params: z.object({ cui: z.string().trim().min(1).max(20) }),
  response: zCompanyLookup,
  errors: route('lookupCompany').errors,
  handler: async (ctx) => callRoute(route('lookupCompany'), ctx, { query: { cui: ctx.params.cui } }),
});

// ---- Series: /series beside /invoice-series ----------------------------------------------------

const listSeriesArray = defineRoute({
  method: 'GET', path: '/series', operationId: 'listSeriesCompat', summary: 'Every invoice series of the work point, as a plain array',
  description:
    'Contazen\'s `GET /series`, which its SDK reads as a plain array: every series of the work point (they are few), not a page. ' +
    'The paginated list is `GET /invoice-series`.',
  tags: ['invoice_series', 'compat'], scope: 'invoice_series:read',
  query: z.object({ document_type: z.enum(DOCUMENT_TYPES).optional() }),
  response: z.array(zInvoiceSeries),
  handler: async (ctx) => allPages<InvoiceSeries>(route('listInvoiceSeries'), ctx, ctx.query.document_type ? { document_type: ctx.query.document_type } : {}),
});

const setPrimarySeries = defineRoute({
  method: 'POST', path: '/series/:id/set-primary', operationId: 'setPrimarySeries', summary: 'Make a series the primary one of its document type',
  description: 'Contazen\'s `POST /series/{id}/set-primary`: `PUT /invoice-series/{id}` with `is_primary: true`.',
  tags: ['invoice_series', 'compat'], scope: 'invoice_series:write', params: idParams, response: zInvoiceSeries,
  errors: INVOICE_MISSING,
  handler: async (ctx) => callRoute(route('updateInvoiceSeries'), ctx, { params: ctx.params, body: { is_primary: true } }),
});

const seriesAliases: AnyRoute[] = [
  aliasOf(route('createInvoiceSeries'), { path: '/series', operationId: 'createSeriesCompat' }),
  aliasOf(route('getInvoiceSeries'), { path: '/series/:id', operationId: 'getSeriesCompat' }),
  aliasOf(route('updateInvoiceSeries'), { path: '/series/:id', operationId: 'updateSeriesCompat' }),
  aliasOf(route('deleteInvoiceSeries'), { path: '/series/:id', operationId: 'deleteSeriesCompat' }),
  listSeriesArray,
  setPrimarySeries,
];

// ---- Invoices: void, duplicate, mark as sent, stats, convert ------------------------------------

const voidInvoice = defineRoute({
  method: 'POST', path: '/invoices/:id/void', operationId: 'voidInvoice', summary: 'Void an invoice: storno when issued, deletion when a draft',
  description:
    'Contazen\'s `POST /invoices/{id}/void`, with our semantics (docs/api-decisions.md, Compatibility with Contazen\'s SDK). ' +
    'An issued invoice is voided by storno exactly as `POST /invoices/{id}/storno` with no members (a storno invoice with the next ' +
    'number of the original\'s series); the reply is the original, now `voided`, whose `storno_id` names the storno. A draft has ' +
    'nothing to void: it is deleted as `DELETE /invoices/{id}` deletes it (no number, no gap) and the reply is the draft as it was. ' +
    'Already voided: 409 `already_voided`; a storno invoice: 409 `invoice_is_storno`.',
  tags: ['invoices', 'compat'], scope: 'invoices:write', create: true, successStatus: 200, params: idParams, response: zInvoice,
  errors: { ...route('stornoInvoice').errors, ...route('deleteInvoice').errors },
  handler: async (ctx) => {
    const row = await invoiceRow(ctx, ctx.params.id);
    const params = { id: row.id };
    if (row.status === 'draft') {
      const before = await callRoute<Invoice>(route('getInvoice'), ctx, { params });
      await callRoute(route('deleteInvoice'), ctx, { params });
      return before;
    }
    await callRoute(route('stornoInvoice'), ctx, { params, body: {} });
    return callRoute<Invoice>(route('getInvoice'), ctx, { params });
  },
});

const zDuplicateOverrides = zInvoiceCreate.pick({ issue_date: true, due_date: true, series_id: true, observations: true });

const duplicateInvoice = defineRoute({
  method: 'POST', path: '/invoices/:id/duplicate', operationId: 'duplicateInvoice', summary: 'A new draft copying an invoice',
  description:
    'Contazen\'s `POST /invoices/{id}/duplicate`. A new draft (no number) with the invoice\'s document type, client (or walk-in buyer), ' +
    'currency and rate, language, reverse charge, payment method, observations, e-Factura setting and lines, made by `POST /invoices` ' +
    '(`is_draft: true`), so it is priced again with today\'s rules. Its issue date is today unless `issue_date` is sent; the series ' +
    'is the original\'s unless `series_id` is sent; the due date is only the one sent. A storno invoice is not duplicated (409 ' +
    '`storno_not_duplicable`).',
  tags: ['invoices', 'compat'], scope: 'invoices:write', create: true, params: idParams, body: zDuplicateOverrides, response: zInvoice,
  errors: { ...route('createInvoice').errors, storno_not_duplicable: 409 },
  handler: async (ctx) => {
    const row = await invoiceRow(ctx, ctx.params.id);
    if (row.status === 'storno') throw conflict('storno_not_duplicable', 'id');
    const o = ctx.body;
    const copy = {
      is_draft: true,
      document_type: row.document_type,
      ...(row.client_id ? { client_id: row.client_id } : storedWalkIn(row.buyer_json) ? { walk_in: true } : {}),
      currency: row.currency,
      ...(row.exchange_rate !== null && row.currency !== 'RON' ? { exchange_rate: Number(row.exchange_rate) } : {}),
      language: row.language,
      reverse_charge: Boolean(Number(row.reverse_charge)),
      efactura_enabled: Boolean(Number(row.efactura_enabled)),
      spv_environment: row.spv_environment,
      ...(row.payment_method ? { payment_method: row.payment_method } : {}),
      ...(o.observations ?? row.observations ? { observations: o.observations ?? row.observations } : {}),
      ...(o.series_id ?? row.series_id ? { series_id: o.series_id ?? row.series_id } : {}),
      ...(o.issue_date ? { issue_date: o.issue_date } : {}),
      ...(o.due_date ? { due_date: o.due_date } : {}),
      items: await currentItems(ctx.db, row.id),
    };
    return callRoute<Invoice>(route('createInvoice'), ctx, { body: copy });
  },
});

const markSent = defineRoute({
  method: 'POST', path: '/invoices/:id/mark-sent', operationId: 'markInvoiceSent', summary: 'Record that an issued invoice was sent to its client',
  description:
    'Contazen\'s `POST /invoices/{id}/mark-sent`: the firm says the invoice reached its client outside the service (by hand, by post). ' +
    'The first mark stays: marking again answers the same `sent_at`. Drafts: 409 `invoice_is_draft`. The reply is the invoice with `sent_at`.',
  tags: ['invoices', 'compat'], scope: 'invoices:write', params: idParams, response: zInvoice.extend({ sent_at: zTimestamp }),
  errors: { ...INVOICE_MISSING, invoice_is_draft: 409 },
  handler: async (ctx) => {
    const row = await invoiceRow(ctx, ctx.params.id);
    if (row.status === 'draft') throw conflict('invoice_is_draft', 'id');
    await ctx.db
      .insertInto('invoice_sent_marks')
      .values({ invoice_id: row.id, company_id: ctx.companyId, sent_at: ctx.now })
      .onConflict((oc) => oc.column('invoice_id').doNothing())
      .execute();
    const mark = await ctx.db.selectFrom('invoice_sent_marks').select('sent_at').where('invoice_id', '=', row.id).executeTakeFirstOrThrow();
    const invoice = await callRoute<Invoice>(route('getInvoice'), ctx, { params: { id: row.id } });
    return { ...invoice, sent_at: Number(mark.sent_at) };
  },
});

const zStatsQuery = z.object({ start_date: zDate.optional(), end_date: zDate.optional() });

const invoiceStats = defineRoute({
  method: 'GET', path: '/invoices/stats', operationId: 'getInvoiceStats', summary: 'Sales totals of a period',
  description:
    'Contazen\'s `GET /invoices/stats`, answered from the sales VAT journal (`GET /accounting/journals/sales`): the same computation, ' +
    'so these sums are the accountant\'s to the ban. `start_date`/`end_date` (both ends inclusive, at most a year) default to the ' +
    'current month. Company-wide, in lei (RON at each document\'s rate): `totals` per journal column, `document_count` rows.',
  tags: ['invoices', 'accounting', 'compat'], scope: 'accounting:read', query: zStatsQuery,
  response: z.object({
    object: z.literal('invoice_stats'),
    start_date: z.string(),
    end_date: z.string(),
    currency: z.literal('RON'),
    document_count: z.number().int(),
    columns: z.array(z.string()),
    column_titles: z.record(z.string(), z.string().optional()),
    totals: z.record(z.string(), z.number()),
    warnings: z.array(z.object({ document_id: z.string(), number: z.string(), code: z.string(), message: z.string() })),
  }),
  handler: async (ctx) => {
    const today = todayAt(ctx.now);
    const period = { start_date: ctx.query.start_date ?? `${today.slice(0, 8)}01`, end_date: ctx.query.end_date ?? today };
    const problem = periodProblem(period);
    if (problem) throw validationFailed({ end_date: problem });
    const journal = await journalTotals(ctx.db, ctx.companyId, 'sales', period, ctx.locale);
    return {
      object: 'invoice_stats' as const, start_date: period.start_date, end_date: period.end_date, currency: 'RON' as const,
      document_count: journal.document_count, columns: journal.columns, column_titles: journal.column_titles, totals: journal.totals,
      warnings: journal.warnings,
    };
  },
});

// ---- Payments under the invoice -----------------------------------------------------------------

/** The SDK's payment methods we can keep: cash is a chitanță (POST /receipts), never a plain payment. */
const SDK_METHODS = { bank_transfer: 'bank_order', card: 'card', other: 'other' } as const;

const zInvoicePayment = zPaymentCreate.omit({ invoice_id: true }).extend({
  type: zPaymentMethodType.optional(),
  /** Contazen's name of `type`: bank_transfer, card or other (cash is received with POST /receipts). */
  method: z.enum(Object.keys(SDK_METHODS) as [keyof typeof SDK_METHODS, ...(keyof typeof SDK_METHODS)[]]).optional(),
});
type InvoicePayment = z.output<typeof zInvoicePayment>;

/** The body of POST /payments for a payment of invoice `id`: `method` read as `type`; both, disagreeing, refused. */
function paymentBody(id: string, b: Partial<InvoicePayment>): Record<string, unknown> {
  const { method, type, ...rest } = b;
  const mapped = method ? SDK_METHODS[method] : undefined;
  if (mapped && type && mapped !== type) {
    throw validationFailed({ method: `Says ${mapped}, while type says ${type}: send one of them.|Spune ${mapped}, iar type spune ${type}: trimiteți doar unul.` });
  }
  return { ...rest, invoice_id: id, type: type ?? mapped ?? 'bank_order' };
}

const listInvoicePayments = defineRoute({
  method: 'GET', path: '/invoices/:id/payments', operationId: 'listInvoicePayments', summary: 'Every payment of an invoice, as a plain array',
  description: 'The payments of one invoice (few), all of them, oldest first; the paginated list is `GET /payments?invoice_id=`.',
  tags: ['payments', 'invoices', 'compat'], scope: 'payments:read', params: idParams, response: z.array(zPayment), errors: INVOICE_MISSING,
  handler: async (ctx) => {
    const row = await invoiceRow(ctx, ctx.params.id);
    return allPages<Payment>(route('listPayments'), ctx, { invoice_id: row.id, sort: 'date', order: 'asc' });
  },
});

const createInvoicePayment = defineRoute({
  method: 'POST', path: '/invoices/:id/payments', operationId: 'createInvoicePayment', summary: 'Record a payment of the invoice',
  description:
    'Contazen\'s `POST /invoices/{id}/payments`: `POST /payments` with the invoice from the path. `method` is Contazen\'s name of ' +
    '`type` (bank_transfer is our bank_order; card; other); cash is a chitanță, received with `POST /receipts`.',
  tags: ['payments', 'invoices', 'compat'], scope: 'payments:write', create: true, params: idParams, body: zInvoicePayment, response: zPayment,
  errors: route('createPayment').errors,
  handler: async (ctx) => {
    const row = await invoiceRow(ctx, ctx.params.id);
    return callRoute<Payment>(route('createPayment'), ctx, { body: paymentBody(row.id, ctx.body) });
  },
});

const payInvoice = defineRoute({
  method: 'POST', path: '/invoices/:id/pay', operationId: 'payInvoice', summary: 'Mark an invoice as paid: record a payment of what is due',
  description:
    'Contazen\'s `POST /invoices/{id}/pay`: records a payment (as `POST /invoices/{id}/payments`) of `amount`, by default everything ' +
    'still due, and answers the invoice with its new paid state. Nothing due: 409 `nothing_due`.',
  tags: ['payments', 'invoices', 'compat'], scope: 'payments:write', create: true, successStatus: 200, params: idParams,
  body: zInvoicePayment.partial({ amount: true }), response: zInvoice,
  errors: { ...route('createPayment').errors, nothing_due: 409 },
  handler: async (ctx) => {
    const row = await invoiceRow(ctx, ctx.params.id);
    const due = Number(row.total_bani) - Number(row.amount_paid_bani);
    if (ctx.body.amount === undefined && row.status !== 'draft' && due <= 0) throw conflict('nothing_due', 'id');
    const amount = ctx.body.amount ?? fromBani(due);
    await callRoute(route('createPayment'), ctx, { body: paymentBody(row.id, { ...ctx.body, amount }) });
    return callRoute<Invoice>(route('getInvoice'), ctx, { params: { id: row.id } });
  },
});

const invoiceAliases: AnyRoute[] = [
  aliasOf(route('convertProforma'), { path: '/invoices/:id/convert-to-fiscal', operationId: 'convertProformaCompat' }),
];

// ---- e-Factura ----------------------------------------------------------------------------------

const efacturaInvoiceStatus = defineRoute({
  method: 'GET', path: '/efactura/invoice/:id/status', operationId: 'getInvoiceEfacturaStatus', summary: 'Whether an invoice was sent to ANAF',
  description: 'Contazen\'s `GET /efactura/invoice/{id}/status`: the invoice\'s `efactura_status`, and `sent_to_anaf` unless it is `not_sent`.',
  tags: ['efactura', 'compat'], scope: 'invoices:read', params: idParams, errors: INVOICE_MISSING,
  response: z.object({ object: z.literal('efactura_invoice_status'), invoice_id: z.string(), efactura_status: zInvoice.shape.efactura_status, sent_to_anaf: z.boolean() }),
  handler: async (ctx) => {
    const invoice = await callRoute<Invoice>(route('getInvoice'), ctx, { params: { id: ctx.params.id } });
    return {
      object: 'efactura_invoice_status' as const, invoice_id: invoice.id, efactura_status: invoice.efactura_status,
      sent_to_anaf: invoice.efactura_status !== 'not_sent',
    };
  },
});

const efacturaInvoiceHistory = defineRoute({
  method: 'GET', path: '/efactura/invoice/:id/history', operationId: 'listInvoiceEfacturaSubmissions', summary: 'Every e-Factura submission of an invoice, as a plain array',
  description: 'Contazen\'s `GET /efactura/invoice/{id}/history`: `GET /efactura/submissions?invoice_id=`, every page, newest first.',
  tags: ['efactura', 'compat'], scope: 'efactura:read', params: idParams, response: z.array(zEfacturaSubmission), errors: INVOICE_MISSING,
  handler: async (ctx) => {
    const row = await invoiceRow(ctx, ctx.params.id);
    return allPages<z.infer<typeof zEfacturaSubmission>>(route('listEfacturaSubmissions'), ctx, { invoice_id: row.id });
  },
});

/** ANAF's OAuth grant serves its test and production e-Factura APIs alike: one link per company, whatever environment is named. */
const zOAuthEnvironment = z.object({ environment: z.enum(['test', 'prod', 'production', 'live']).optional() });
const ONE_LINK = 'The `environment` Contazen\'s SDK sends is accepted and changes nothing: ANAF\'s grant serves its test and production APIs alike, so a company has one link.';

const initializeOAuth = defineRoute({
  method: 'POST', path: '/efactura/oauth/initialize', operationId: 'initializeEfacturaOAuth', summary: 'Start linking the company with ANAF (OAuth)',
  description: `Contazen's \`POST /efactura/oauth/initialize\`: \`GET /efactura/oauth/authorize-url\`. ${ONE_LINK}`,
  tags: ['efactura', 'compat'], scope: 'efactura:write', body: zOAuthEnvironment, response: route('getEfacturaAuthorizeUrl').response,
  errors: route('getEfacturaAuthorizeUrl').errors,
  handler: async (ctx) => callRoute(route('getEfacturaAuthorizeUrl'), ctx),
});

const revokeOAuth = defineRoute({
  method: 'POST', path: '/efactura/oauth/revoke', operationId: 'revokeEfacturaOAuth', summary: 'Unlink the company from ANAF',
  description: `Contazen's \`POST /efactura/oauth/revoke\`: \`DELETE /efactura/oauth\`. ${ONE_LINK}`,
  tags: ['efactura', 'compat'], scope: 'efactura:write', body: zOAuthEnvironment, response: route('deleteEfacturaOAuth').response, envelope: 'top',
  errors: route('deleteEfacturaOAuth').errors,
  handler: async (ctx) => callRoute(route('deleteEfacturaOAuth'), ctx),
});

const efacturaAliases: AnyRoute[] = [
  initializeOAuth,
  revokeOAuth,
  aliasOf(route('sendInvoiceToSpv'), { path: '/efactura/submit/:id', operationId: 'submitEfacturaCompat' }),
  aliasOf(route('sendInvoiceToSpv'), {
    path: '/efactura/retry/:id', operationId: 'retryEfacturaCompat',
    summary: 'Submit an invoice to e-Factura again after a rejection or failure (a live submission is answered as it is)',
  }),
  aliasOf(route('getInvoiceEfacturaXml'), { path: '/efactura/xml/:id', operationId: 'getEfacturaXmlCompat' }),
  aliasOf(route('getEfacturaSubmission'), { path: '/efactura/status/:id', operationId: 'getEfacturaStatusCompat' }),
  efacturaInvoiceStatus,
  efacturaInvoiceHistory,
];

// ---- Settings -----------------------------------------------------------------------------------

const zSettings = z.object({
  object: z.literal('settings'),
  /** GET /company/profile. */
  firm: zCompanyProfile,
  /** Every invoice series of the work point; `primary_series` the primary one of each document type. */
  invoice_series: z.array(zInvoiceSeries),
  primary_series: z.array(zInvoiceSeries),
  bank_accounts: z.array(zBankAccount),
  efactura: z.object({ enabled: z.boolean(), oauth_configured: z.boolean(), status: z.string() }),
  /** A Tejghea service is the firm's own: no plan, no quota. */
  subscription: z.object({ plan: z.literal('self_hosted'), status: z.literal('active'), invoices_limit: z.null() }),
});

async function settingsOf(ctx: Parameters<typeof callRoute>[1]): Promise<z.input<typeof zSettings>> {
  const firm = await callRoute<CompanyProfile>(route('getCompanyProfile'), ctx);
  const series = await allPages<InvoiceSeries>(route('listInvoiceSeries'), ctx);
  const bankAccounts = await allPages<z.infer<typeof zBankAccount>>(route('listBankAccounts'), ctx);
  const oauth = await callRoute<OAuthStatus>(route('getEfacturaOAuthStatus'), ctx);
  return {
    object: 'settings', firm, invoice_series: series, primary_series: series.filter((s) => s.is_primary), bank_accounts: bankAccounts,
    efactura: { enabled: oauth.linked, oauth_configured: oauth.linked && oauth.status === 'linked', status: oauth.status },
    subscription: { plan: 'self_hosted', status: 'active', invoices_limit: null },
  };
}

const SETTINGS_DOC =
  'Contazen\'s settings, made of what we already have: the company profile (`GET /company/profile`), the invoice series, the bank ' +
  'accounts and the e-Factura link. Each part needs the scope of its own route.';

const getSettings = defineRoute({
  method: 'GET', path: '/settings', operationId: 'getSettings', summary: 'The firm’s settings in one reply',
  description: SETTINGS_DOC, tags: ['company', 'compat'], scope: 'fiscal_data:read', response: zSettings,
  handler: async (ctx) => settingsOf(ctx),
});

const updateSettings = defineRoute({
  method: 'PUT', path: '/settings', operationId: 'updateSettings', summary: 'Update the firm’s settings (its company profile)',
  description: `${SETTINGS_DOC} What changes is the company profile: the members of \`PUT /company/profile\`; the reply is the settings.`,
  tags: ['company', 'compat'], scope: 'fiscal_data:write', body: zCompanyProfileUpdate, response: zSettings,
  handler: async (ctx) => {
    await callRoute(route('updateCompanyProfile'), ctx, { body: ctx.body });
    return settingsOf(ctx);
  },
});

const settingsAliases: AnyRoute[] = [
  aliasOf(route('listCurrencies'), { path: '/settings/currencies', operationId: 'listCurrenciesCompat' }),
  getSettings,
  updateSettings,
];

/** Every route of the compat layer (the PATCH twins of every PUT are added in modules/index.ts). */
export const compatRoutes: AnyRoute[] = [
  ping, version, anafLookup,
  ...seriesAliases,
  invoiceStats, voidInvoice, duplicateInvoice, markSent, listInvoicePayments, createInvoicePayment, payInvoice, ...invoiceAliases,
  ...efacturaAliases,
  ...settingsAliases,
  // Issue 18, part A: products, clients, stock, imports, bulk invoices, payment stats, units.
  ...productsSdkRoutes, ...paymentsSdkRoutes, ...invoicesBulkRoutes,
];
