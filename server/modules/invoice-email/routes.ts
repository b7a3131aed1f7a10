import { z } from 'zod';
import { ApiError, notFound, validationFailed } from '../../platform/errors';
import { defineRoute, type AnyRoute } from '../../platform/route';
import { newId } from '../../platform/ids';
import { formatBani, formatDate } from '../../../shared/format';
import { toBani } from '../../../shared/money';
import { findClient } from '../invoicing/catalog-bridge';
import { invoicePrintable } from '../documents-pdf/document-html';
import { pdfFileName, renderPdf } from '../documents-pdf/render-pdf';
import { invoiceEfacturaXml } from '../efactura-spv/submission-routes';
import { loadSmtpConfig, smtpSettingsRoutes } from './smtp-settings';
import { MailFailure, sendMail, type OutgoingMail } from './mailer';
import type { InvoiceEmailsTable } from './tables';
import type { Invoice } from '../../../shared/schemas/invoice';
import './messages';

const idParams = z.object({ id: z.string().min(1).max(64) });
const zAddress = z.email().max(320);
const zAddresses = z.array(zAddress).max(20);

/**
 * Contazen's SDK (`sendByEmail`) posts `recipients`, `cc`, `bcc`, `subject`, `message`; `to` is our
 * name for `recipients` (one address or several). Without either, the client's own address.
 */
const zSendBody = z.strictObject({
  to: z.union([zAddress, zAddresses.min(1)]).optional(),
  recipients: zAddresses.min(1).optional(),
  cc: zAddresses.optional(),
  bcc: zAddresses.optional(),
  subject: z.string().trim().min(1).max(300).optional(),
  message: z.string().max(20_000).optional(),
  /** Attach the e-Factura XML too (issued fiscal invoices only). */
  attach_xml: z.boolean().optional(),
});

const zInvoiceEmail = z.object({
  id: z.string(),
  object: z.literal('invoice_email'),
  invoice_id: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  status: z.enum(['sent', 'failed']),
  message_id: z.string().nullable(),
  error: z.object({ code: z.string(), detail: z.string().nullable() }).nullable(),
  attachments: z.array(z.string()),
  created_at: z.number().int(),
});

function emailView(row: InvoiceEmailsTable): z.infer<typeof zInvoiceEmail> {
  return {
    id: row.id,
    object: 'invoice_email',
    invoice_id: row.invoice_id,
    to: JSON.parse(row.to_json) as string[],
    cc: JSON.parse(row.cc_json) as string[],
    bcc: JSON.parse(row.bcc_json) as string[],
    subject: row.subject,
    status: row.status as 'sent' | 'failed',
    message_id: row.message_id,
    error: row.error_code ? { code: row.error_code, detail: row.error_detail } : null,
    attachments: JSON.parse(row.attachments_json) as string[],
    created_at: Number(row.created_at),
  };
}

/** The Romanian letter that goes with an invoice when the firm writes none. */
function defaultText(invoice: Invoice, sellerName: string): string {
  const total = `${formatBani(toBani(invoice.totals.total), 'ro')} ${invoice.currency === 'RON' ? 'lei' : invoice.currency}`;
  const number = invoice.full_number ?? '';
  return [
    'Bună ziua,',
    '',
    `Vă transmitem atașat factura ${number} din ${formatDate(invoice.issue_date)}, în valoare de ${total}${invoice.due_date ? `, cu scadența la ${formatDate(invoice.due_date)}` : ''}.`,
    '',
    'Cu stimă,',
    sellerName,
  ].join('\n');
}

/**
 * 424: the request was right, the firm's mail server failed it. Not a 5xx: nothing is wrong with the
 * service, and a 5xx invites blind retries. One literal code per case, so the message checks see each.
 */
function mailError(failure: MailFailure): ApiError {
  switch (failure.code) {
    case 'smtp_unreachable':
      return new ApiError(424, 'api_error', 'smtp_unreachable', { vars: { detail: failure.detail } });
    case 'smtp_auth_failed':
      return new ApiError(424, 'api_error', 'smtp_auth_failed', { vars: { detail: failure.detail } });
    case 'smtp_rejected':
      return new ApiError(424, 'api_error', 'smtp_rejected', { vars: { detail: failure.detail } });
  }
}

const sendInvoice = defineRoute({
  method: 'POST',
  path: '/invoices/:id/send',
  operationId: 'sendInvoiceByEmail',
  summary: 'E-mail the invoice (PDF attached) through the company’s mail server',
  description:
    'Our addition (the path and members of Contazen’s SDK `sendByEmail`). The invoice’s PDF (the printed template) is attached, and with `attach_xml` its e-Factura XML. Sent through the SMTP server of PUT /settings/email (409 `smtp_not_configured` without one). Recipients: `to` or `recipients`, else the client’s e-mail (422 `email_no_recipient`). Every attempt is logged (GET /invoices/{id}/emails). When the mail server cannot be reached, refuses the login or refuses the message, the reply is 424 with `smtp_unreachable`, `smtp_auth_failed` or `smtp_rejected` and the server’s words; nothing was sent.',
  tags: ['invoices'],
  scope: 'invoices:write',
  params: idParams,
  body: zSendBody,
  response: zInvoiceEmail,
  errors: {
    resource_missing: 404, smtp_not_configured: 409, smtp_password_unreadable: 409, email_no_recipient: 422, invoice_is_draft: 409,
    invoice_is_proforma: 409, efactura_invalid_invoice: 422, smtp_unreachable: 424, smtp_auth_failed: 424, smtp_rejected: 424,
    pdf_not_available: 501, pdf_renderer_unavailable: 503,
  },
  handler: async (ctx) => {
    const b = ctx.body;
    const { invoice, html } = await invoicePrintable(ctx.db, ctx.companyId, ctx.params.id, ctx.locale);
    const config = await loadSmtpConfig(ctx.db, ctx.services, ctx.companyId);
    let to = b.to === undefined ? (b.recipients ?? []) : typeof b.to === 'string' ? [b.to] : b.to;
    if (b.to !== undefined && b.recipients !== undefined) {
      throw validationFailed({ recipients: 'Send `to` or `recipients`, not both.|Trimiteți `to` sau `recipients`, nu pe amândouă.' });
    }
    if (!to.length && invoice.client_id) {
      const client = await findClient(ctx.db, ctx.companyId, invoice.client_id);
      if (client?.email) to = [client.email];
    }
    if (!to.length) throw new ApiError(422, 'validation_error', 'email_no_recipient', { param: 'to' });
    const attachments: OutgoingMail['attachments'] = [
      { filename: pdfFileName(invoice.full_number, invoice.id), contentType: 'application/pdf', content: await renderPdf(ctx.services, html) },
    ];
    if (b.attach_xml) {
      const { xml, filename } = await invoiceEfacturaXml(ctx.db, ctx.companyId, invoice.id);
      attachments.push({ filename, contentType: 'application/xml', content: xml });
    }
    const sellerName = invoice.seller?.name ?? config.fromName ?? config.fromAddress;
    const isDraft = invoice.status === 'draft';
    const mail: OutgoingMail = {
      to,
      cc: b.cc ?? [],
      bcc: b.bcc ?? [],
      subject: b.subject ?? (isDraft ? `Ciornă de factură de la ${sellerName}` : `Factura ${invoice.full_number ?? ''} de la ${sellerName}`),
      text: b.message ?? defaultText(invoice, sellerName),
      attachments,
    };
    let outcome: { messageId: string } | MailFailure;
    try {
      outcome = await sendMail(config, mail);
    } catch (error) {
      if (!(error instanceof MailFailure)) throw error;
      outcome = error;
    }
    const row: InvoiceEmailsTable = {
      id: newId('eml'),
      company_id: ctx.companyId,
      work_point_id: ctx.workPointId,
      invoice_id: invoice.id,
      to_json: JSON.stringify(mail.to),
      cc_json: JSON.stringify(mail.cc),
      bcc_json: JSON.stringify(mail.bcc),
      subject: mail.subject,
      status: outcome instanceof MailFailure ? 'failed' : 'sent',
      message_id: outcome instanceof MailFailure ? null : outcome.messageId,
      error_code: outcome instanceof MailFailure ? outcome.code : null,
      error_detail: outcome instanceof MailFailure ? outcome.detail : null,
      attachments_json: JSON.stringify(attachments.map((a) => a.filename)),
      created_at: ctx.now,
    };
    await ctx.db.insertInto('invoice_emails').values(row).execute();
    if (outcome instanceof MailFailure) throw mailError(outcome);
    return emailView(row);
  },
});

const listInvoiceEmails = defineRoute({
  method: 'GET',
  path: '/invoices/:id/emails',
  operationId: 'listInvoiceEmails',
  summary: 'The e-mails sent (or tried) with this invoice, newest first (within one second, in no set order)',
  description: 'Our addition: the log of POST /invoices/{id}/send, failures included with their error.',
  tags: ['invoices'],
  scope: 'invoices:read',
  params: idParams,
  response: z.array(zInvoiceEmail),
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const invoice = await ctx.db.selectFrom('invoices').select('id').where('id', '=', ctx.params.id).where('company_id', '=', ctx.companyId).executeTakeFirst();
    if (!invoice) throw notFound('id');
    const rows = await ctx.db
      .selectFrom('invoice_emails')
      .selectAll()
      .where('company_id', '=', ctx.companyId)
      .where('invoice_id', '=', invoice.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
    return rows.map(emailView);
  },
});

export const invoiceEmailRoutes: AnyRoute[] = [...smtpSettingsRoutes, sendInvoice, listInvoiceEmails];
