import { z } from 'zod';
import type { Db } from '../../db/types';
import { toUblXml } from '../../efactura/index';
import { binaryReply, defineRoute } from '../../platform/route';
import { notFound } from '../../platform/errors';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import { SUBMISSION_STATUSES, zEfacturaSubmission, zSendToSpv, zSendToSpvResult } from '../../../shared/schemas/efactura';
import { invoiceToDocument, loadInvoiceSource } from './invoice-document';
import { assertLinked } from './oauth-routes';
import { requireOAuth } from './token-store';
import { activeKey, invoiceEnvironment, submissionMessage, submissionView } from './submission-store';
import { attemptError, submitInvoice } from './submissions';
import { SUBMISSION_MESSAGES } from './messages';

const idParams = z.object({ id: z.string().min(1).max(64) });

const efacturaXml = defineRoute({
  method: 'GET',
  path: '/invoices/:id/efactura-xml',
  operationId: 'getInvoiceEfacturaXml',
  summary: 'The invoice as e-Factura XML (UBL 2.1, CIUS-RO)',
  description:
    'Our design. Any issued fiscal invoice (a storno too: an Invoice 380 with negative quantities referencing the original, as ANAF’s guidance asks). Once the invoice was submitted, the XML exactly as sent. Drafts answer 409 `invoice_is_draft`, proformas 409 `invoice_is_proforma`; an invoice that cannot make a valid e-Factura (missing seller address, a 0% line without exemption reason…) answers 422 `efactura_invalid_invoice` with `fields`.',
  tags: ['efactura', 'invoices'],
  scope: 'invoices:read',
  params: idParams,
  response: z.string(),
  produces: 'application/xml',
  errors: { resource_missing: 404, invoice_is_draft: 409, invoice_is_proforma: 409, efactura_invalid_invoice: 422 },
  handler: async (ctx) => {
    const { xml, filename } = await invoiceEfacturaXml(ctx.db, ctx.companyId, ctx.params.id);
    return binaryReply('application/xml; charset=utf-8', xml, filename);
  },
});

/** The e-Factura XML of an issued invoice: as sent to ANAF once submitted, else built now (also e-mailed with the invoice). */
export async function invoiceEfacturaXml(db: Db, companyId: string, id: string): Promise<{ xml: string; filename: string }> {
  const source = await loadInvoiceSource(db, companyId, id);
  const sent = await db
    .selectFrom('efactura_submissions')
    .select('xml')
    .where('company_id', '=', companyId)
    .where('active_key', '=', activeKey(source.invoice.id, invoiceEnvironment(source.invoice.spv_environment)))
    .executeTakeFirst();
  const xml = sent?.xml ?? toUblXml(invoiceToDocument(source).document);
  const name = (source.invoice.full_number ?? source.invoice.id).replace(/[^\w.-]+/g, '_');
  return { xml, filename: `${name}.xml` };
}

const sendToSpv = defineRoute({
  method: 'POST',
  path: '/invoices/:id/send-to-spv',
  operationId: 'sendInvoiceToSpv',
  summary: 'Submit an issued invoice to e-Factura (SPV)',
  description:
    'Uploads the invoice’s e-Factura XML to ANAF and follows it until ANAF accepts or rejects it (GET /efactura/submissions/{id}; the invoice’s `efactura_status`). `status`: uploading, uploaded, processing, retrying, accepted, rejected, failed. Idempotent: while a submission of the invoice is live (not rejected or failed) in that environment, the same submission is returned and nothing is uploaded again. `test_mode` omitted follows the invoice’s `spv_environment`. Errors: 400 `oauth_not_configured` (type configuration_error) without an OAuth link, 409 `invoice_is_draft`, 502 `anaf_unavailable` / 504 `anaf_timeout` when ANAF fails (the submission is then retried automatically).',
  tags: ['efactura', 'invoices'],
  scope: 'efactura:write',
  params: idParams,
  body: zSendToSpv,
  response: zSendToSpvResult,
  errors: {
    resource_missing: 404, invoice_is_draft: 409, invoice_is_proforma: 409, oauth_not_configured: 400, oauth_reconsent_required: 400,
    efactura_invalid_invoice: 422, anaf_unavailable: 502, anaf_timeout: 504, anaf_not_configured: 503,
  },
  handler: async (ctx) => {
    const source = await loadInvoiceSource(ctx.db, ctx.companyId, ctx.params.id);
    requireOAuth(ctx.services);
    await assertLinked(ctx.db, ctx.companyId);
    const environment = ctx.body.test_mode === undefined ? invoiceEnvironment(source.invoice.spv_environment) : ctx.body.test_mode ? 'test' : 'prod';
    const result = await submitInvoice(ctx.services, source, environment, ctx.workPointId, ctx.now);
    if (result.error) throw attemptError(result.row, result.error);
    const message = submissionMessage(result.row, ctx.locale);
    return {
      submission_id: result.row.id,
      status: result.row.status,
      message: result.existing ? `${SUBMISSION_MESSAGES.already[ctx.locale]} ${message}` : message,
    };
  },
});

const getSubmission = defineRoute({
  method: 'GET',
  path: '/efactura/submissions/:id',
  operationId: 'getEfacturaSubmission',
  summary: 'Retrieve an e-Factura submission',
  tags: ['efactura'],
  scope: 'efactura:read',
  params: idParams,
  response: zEfacturaSubmission,
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await ctx.db.selectFrom('efactura_submissions').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', ctx.companyId).executeTakeFirst();
    if (!row) throw notFound('id');
    return submissionView(row, ctx.locale);
  },
});

const listSubmissions = defineRoute({
  method: 'GET',
  path: '/efactura/submissions',
  operationId: 'listEfacturaSubmissions',
  summary: 'List e-Factura submissions',
  description: 'Our design. Newest first; `invoice_id` and `status` filter; `search` matches the invoice number. The selected work point’s submissions.',
  tags: ['efactura'],
  scope: 'efactura:read',
  query: listQuery(['created_at', 'updated_at'] as const).extend({
    invoice_id: z.string().optional(),
    status: z.enum(SUBMISSION_STATUSES).optional(),
  }),
  response: listPageSchema(zEfacturaSubmission),
  handler: async (ctx) => {
    let q = ctx.db.selectFrom('efactura_submissions').selectAll().where('company_id', '=', ctx.companyId).where('work_point_id', '=', ctx.workPointId);
    if (ctx.query.invoice_id) q = q.where('invoice_id', '=', ctx.query.invoice_id);
    if (ctx.query.status) q = q.where('status', '=', ctx.query.status);
    const page = await paginate(q, ctx.query, {
      sortColumns: { created_at: 'created_at', updated_at: 'updated_at' },
      defaultSort: 'created_at',
      searchColumns: ['invoice_number'],
      timestampColumn: 'created_at',
      tieBreaker: 'id',
    });
    return mapPage(page, (row) => submissionView(row, ctx.locale));
  },
});

export const submissionRoutes = [efacturaXml, sendToSpv, getSubmission, listSubmissions];
