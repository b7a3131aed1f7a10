import { z } from 'zod';
import { toUblXml } from '../../efactura/index';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { ApiError, conflict, notFound } from '../../platform/errors';
import { pickLanguage } from '../../platform/zod-fields';
import { listPageSchema } from '../../platform/list';
import { todayAt } from '../invoicing/numbering';
import { findInvoice } from '../invoicing/invoice-store';
import { efacturaSpvRoutes } from '../efactura-spv/routes';
import { invoiceToDocument, loadInvoiceSource } from '../efactura-spv/invoice-document';
import { activeKey, invoiceEnvironment, mirrorOnInvoice } from '../efactura-spv/submission-store';
import type { OAuthStatus } from '../../../shared/schemas/efactura';
import { callRoute, routeNamed } from './alias';
import './efactura-sdk-messages';

/**
 * Issue 18, the e-Factura calls of Contazen's SDK that had no route: validate, the SPV messages and
 * their sync, the e-Factura settings, cancel. Each answers from what the e-Factura module already does
 * (the same checks, the same inbox, the same submissions); docs/contazen-compatibility.md has the rows.
 */

const route = (operationId: string) => routeNamed(efacturaSpvRoutes, operationId);
const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['efactura', 'compat'];

// ---- validate -----------------------------------------------------------------------------------

const zValidation = z.object({
  object: z.literal('efactura_validation'),
  invoice_id: z.string(),
  valid: z.boolean(),
  /** One entry per problem, as `GET /invoices/{id}/efactura-xml` would name it in `fields`. */
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
});

const validate = defineRoute({
  method: 'POST', path: '/efactura/validate/:id', operationId: 'validateInvoiceEfactura', summary: 'Check that an invoice makes a valid e-Factura',
  description:
    'Contazen\'s `POST /efactura/validate/{id}`: the checks `GET /invoices/{id}/efactura-xml` and `POST /invoices/{id}/send-to-spv` run ' +
    '(seller and buyer data, CIUS-RO rules, the UBL built), without sending anything. A problem is not an error of this call: the reply ' +
    'says `valid: false` and lists each problem. Drafts answer 409 `invoice_is_draft`, proformas 409 `invoice_is_proforma` (neither goes to ANAF).',
  tags, scope: 'invoices:read', params: idParams, body: z.object({}), response: zValidation,
  errors: { resource_missing: 404, invoice_is_draft: 409, invoice_is_proforma: 409 },
  handler: async (ctx) => {
    const source = await loadInvoiceSource(ctx.db, ctx.companyId, ctx.params.id);
    try {
      toUblXml(invoiceToDocument(source).document);
      return { object: 'efactura_validation' as const, invoice_id: source.invoice.id, valid: true, errors: [] };
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'efactura_invalid_invoice') throw error;
      const fields = error.options.fields ?? {};
      return {
        object: 'efactura_validation' as const, invoice_id: source.invoice.id, valid: false,
        errors: Object.entries(fields).map(([field, message]) => ({ field, message: pickLanguage(message, ctx.locale) })),
      };
    }
  },
});

// ---- SPV messages -------------------------------------------------------------------------------

const zSpvMessage = z.object({
  id: z.string(),
  object: z.literal('efactura_message'),
  /** ANAF's message id (`id` of its message list). */
  message_id: z.string(),
  environment: z.enum(['test', 'prod']),
  /** ANAF's type, e.g. `FACTURA PRIMITA`. */
  type: z.string(),
  cif: z.string(),
  seller_cif: z.string().nullable(),
  details: z.string(),
  /** ANAF's `data_creare`, ISO 8601 with offset. */
  creation_date: z.string(),
  /** imported: a supplier bill was made of it; failed: it could not be read, the next sync tries again. */
  status: z.enum(['imported', 'failed']),
  error: z.string().nullable(),
  supplier_bill_id: z.string().nullable(),
});

const messages = defineRoute({
  method: 'GET', path: '/efactura/messages', operationId: 'listEfacturaMessages', summary: 'The SPV inbox: messages downloaded from ANAF',
  description:
    'Contazen\'s `GET /efactura/messages?days=`: the messages of the company\'s SPV inbox that `POST /efactura/sync-messages` (our ' +
    '`POST /supplier-bills/sync`) downloaded, created in the last `days` (1-60, default 7; ANAF keeps 60), newest first, each with the ' +
    'supplier bill made of it. `type` filters ANAF\'s message type, `status` ours (imported, failed). A page, as every list of the contract.',
  tags, scope: 'supplier_bills:read',
  query: z.object({
    days: z.coerce.number().int().min(1).max(60).default(7),
    type: z.string().trim().min(1).max(60).optional(),
    status: z.enum(['imported', 'failed']).optional(),
    page: z.coerce.number().int().min(1).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(50),
  }),
  response: listPageSchema(zSpvMessage),
  handler: async (ctx) => {
    const q = ctx.query;
    // ANAF's creation dates carry Bucharest's offset: comparing their date part with Bucharest's calendar date is exact to the day.
    const since = todayAt(ctx.now - (q.days - 1) * 86_400);
    let base = ctx.db.selectFrom('efactura_messages').where('efactura_messages.company_id', '=', ctx.companyId).where('efactura_messages.creation_date', '>=', since);
    if (q.type) base = base.where('efactura_messages.type', '=', q.type);
    if (q.status) base = base.where('efactura_messages.status', '=', q.status);
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await base
      .leftJoin('supplier_bills', (j) => j.onRef('supplier_bills.efactura_message_id', '=', 'efactura_messages.id').onRef('supplier_bills.company_id', '=', 'efactura_messages.company_id'))
      .select([
        'efactura_messages.id', 'efactura_messages.message_id', 'efactura_messages.environment', 'efactura_messages.type', 'efactura_messages.cif',
        'efactura_messages.seller_cif', 'efactura_messages.details', 'efactura_messages.creation_date', 'efactura_messages.status',
        'efactura_messages.error', 'supplier_bills.id as supplier_bill_id',
      ])
      .orderBy('efactura_messages.creation_date', 'desc').orderBy('efactura_messages.id', 'desc')
      .limit(q.per_page).offset((q.page - 1) * q.per_page)
      .execute();
    return {
      object: 'list' as const,
      data: rows.map((r) => ({
        id: String(r.id), object: 'efactura_message' as const, message_id: r.message_id, environment: r.environment, type: r.type, cif: r.cif,
        seller_cif: r.seller_cif, details: r.details, creation_date: r.creation_date, status: r.status, error: r.error, supplier_bill_id: r.supplier_bill_id ?? null,
      })),
      has_more: q.page * q.per_page < total, total, page: q.page, per_page: q.per_page, total_pages: Math.ceil(total / q.per_page),
    };
  },
});

const syncMessages = defineRoute({
  method: 'POST', path: '/efactura/sync-messages', operationId: 'syncEfacturaMessages', summary: 'Download the new messages of the SPV inbox',
  description:
    'Contazen\'s `POST /efactura/sync-messages`: `POST /supplier-bills/sync` with its defaults (the last 60 days, the company\'s ' +
    'environment): every new received invoice becomes a supplier bill. Same reply, same errors.',
  tags, scope: 'supplier_bills:write', body: z.object({}), response: route('syncSupplierBills').response,
  errors: route('syncSupplierBills').errors,
  handler: async (ctx) => callRoute(route('syncSupplierBills'), ctx, { body: {} }),
});

// ---- settings -----------------------------------------------------------------------------------

/**
 * What a Tejghea service does about e-Factura, in the members Contazen's SDK names. Nothing here is
 * stored: each value is how the service works (an invoice names its own environment; nothing is sent
 * to ANAF without a call), so a change to another value is refused, never kept and then ignored.
 */
const OUR_SETTINGS = { environment: 'live', auto_send: false, auto_send_timing: null, send_to_public_institutions: false } as const;

const zEfacturaSettings = z.object({
  object: z.literal('efactura_settings'),
  /** The environment of a new invoice when it names none (`spv_environment`); each invoice keeps its own. */
  environment: z.literal('live'),
  /** Nothing is sent to ANAF by itself: `POST /efactura/submit/{id}` (or `send-to-spv`) sends. */
  auto_send: z.literal(false),
  auto_send_timing: z.null(),
  send_to_public_institutions: z.literal(false),
  oauth_configured: z.boolean(),
  oauth_status: z.string(),
});

async function settingsNow(ctx: Parameters<typeof callRoute>[1]): Promise<z.input<typeof zEfacturaSettings>> {
  const oauth = await callRoute<OAuthStatus>(route('getEfacturaOAuthStatus'), ctx);
  return { object: 'efactura_settings', ...OUR_SETTINGS, oauth_configured: oauth.linked && oauth.status === 'linked', oauth_status: oauth.status };
}

const SETTINGS_DOC =
  'Contazen\'s e-Factura settings, as this service works: a new invoice goes to the `live` environment unless it names `spv_environment: ' +
  '"test"`; nothing is sent by itself (`auto_send: false`), an invoice goes to ANAF when `POST /efactura/submit/{id}` is called; ' +
  '`oauth_configured` and `oauth_status` are those of `GET /efactura/oauth/status`.';

const getEfacturaSettings = defineRoute({
  method: 'GET', path: '/efactura/settings', operationId: 'getEfacturaSettings', summary: 'How e-Factura works for the company',
  description: SETTINGS_DOC, tags, scope: 'efactura:read', response: zEfacturaSettings,
  handler: async (ctx) => settingsNow(ctx),
});

const updateEfacturaSettings = defineRoute({
  method: 'PATCH', path: '/efactura/settings', operationId: 'updateEfacturaSettings', summary: 'Confirm the e-Factura settings',
  description:
    `${SETTINGS_DOC} A value the service works by is accepted (\`environment: "live"\` or \`"production"\`, \`auto_send: false\`…); another is ` +
    'refused with 422 `efactura_setting_unsupported` naming the member, never stored and ignored: a test invoice says `spv_environment: "test"` ' +
    'itself, and an invoice is submitted by a call.',
  tags, scope: 'efactura:write',
  body: z.object({
    environment: z.enum(['test', 'live', 'prod', 'production']).optional(),
    auto_send: z.boolean().optional(),
    auto_send_timing: z.enum(['immediate', 'daily']).nullable().optional(),
    send_to_public_institutions: z.boolean().optional(),
  }),
  response: zEfacturaSettings, errors: { efactura_setting_unsupported: 422 },
  handler: async (ctx) => {
    const b = ctx.body;
    if (b.environment === 'test') throw new ApiError(422, 'invalid_request_error', 'efactura_setting_unsupported', { param: 'environment' });
    if (b.auto_send === true) throw new ApiError(422, 'invalid_request_error', 'efactura_setting_unsupported', { param: 'auto_send' });
    if (b.auto_send_timing !== undefined && b.auto_send_timing !== null) {
      throw new ApiError(422, 'invalid_request_error', 'efactura_setting_unsupported', { param: 'auto_send_timing' });
    }
    if (b.send_to_public_institutions === true) {
      throw new ApiError(422, 'invalid_request_error', 'efactura_setting_unsupported', { param: 'send_to_public_institutions' });
    }
    return settingsNow(ctx);
  },
});

// ---- cancel -------------------------------------------------------------------------------------

const zCancellation = z.object({
  object: z.literal('efactura_cancellation'),
  invoice_id: z.string(),
  submission_id: z.string(),
  /** The submission ends `failed`, the invoice's `efactura_status` is `not_sent` again. */
  status: z.literal('failed'),
});

const cancel = defineRoute({
  method: 'POST', path: '/efactura/cancel/:id', operationId: 'cancelEfacturaSubmission', summary: 'Stop a submission that has not reached ANAF',
  description:
    'Contazen\'s `POST /efactura/cancel/{id}`. ANAF has no cancel: once it received an invoice, only a storno corrects it ' +
    '(`POST /invoices/{id}/storno`, or `/void`). What can be stopped is a submission ANAF never received: one waiting to retry its upload ' +
    'after ANAF failed (`retrying` with no upload index, and no upload of unknown fate). It ends `failed`, the retries stop, and the invoice ' +
    'is `not_sent` again. A submission ANAF has (or may have) answers 409 `efactura_not_cancellable`; an invoice with no live submission 409 ' +
    '`efactura_not_submitted`.',
  tags, scope: 'efactura:write', params: idParams, body: z.object({}), response: zCancellation,
  errors: { resource_missing: 404, efactura_not_cancellable: 409, efactura_not_submitted: 409 },
  handler: async (ctx) => {
    const invoice = await findInvoice(ctx.db, ctx.companyId, ctx.params.id);
    if (!invoice) throw notFound('id');
    const key = activeKey(invoice.id, invoiceEnvironment(invoice.spv_environment));
    const live = await ctx.db.selectFrom('efactura_submissions').selectAll().where('company_id', '=', ctx.companyId).where('active_key', '=', key).executeTakeFirst();
    if (!live) throw conflict('efactura_not_submitted', 'id');
    // One conditional write: the poller may be retrying this very row; if it moved on, nothing is changed here.
    const done = await ctx.db
      .updateTable('efactura_submissions')
      .set({ status: 'failed', active_key: null, finished_at: ctx.now, next_check_at: null, message: 'Cancelled before ANAF received it.', updated_at: ctx.now })
      .where('id', '=', live.id).where('status', '=', 'retrying').where('uncertain', '=', 0).where('upload_index', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw conflict('efactura_not_cancellable', 'id');
    await mirrorOnInvoice(ctx.db, live, 'failed', ctx.now);
    return { object: 'efactura_cancellation' as const, invoice_id: invoice.id, submission_id: live.id, status: 'failed' as const };
  },
});

export const efacturaSdkRoutes: AnyRoute[] = [validate, messages, syncMessages, getEfacturaSettings, updateEfacturaSettings, cancel];
