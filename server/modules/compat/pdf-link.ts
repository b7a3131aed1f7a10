import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/types';
import type { Services } from '../../platform/services';
import type { HandlerContext } from '../../platform/route';
import { ApiError, notFound } from '../../platform/errors';
import { addMessages } from '../../platform/messages';
import { resolveLocale } from '../../platform/locale';
import { zTimestamp } from '../../../shared/schemas/common';
import { findInvoice } from '../invoicing/invoice-store';
import { invoicePrintable } from '../documents-pdf/document-html';
import { pdfFileName, renderPdf } from '../documents-pdf/render-pdf';

/**
 * Issue 18: `GET /invoices/{id}/pdf?mode=url`, Contazen's "PDF URL". The reply is a link that serves
 * the invoice's PDF without the API key, for a short while: a browser, a shop's "download invoice"
 * button or an e-mail can open it, and the key never leaves the server that asked for it.
 *
 * The link is `/v1/pdf-links/{company}/{invoice}?expires=<unix seconds>&signature=<hex>`, the signature
 * an HMAC-SHA256 of company, invoice and expiry under the company's own random key (pdf_link_keys,
 * made on first use). Nothing of the link can be changed without breaking the signature; after
 * `expires` it answers 410. The PDF is printed when the link is opened, from the same templates as
 * `GET /invoices/{id}/pdf`, so it shows the invoice as it is then (a voided invoice prints voided).
 */

/** How long a link serves its PDF: long enough to hand it to a browser, short enough not to matter if it leaks. */
export const PDF_LINK_SECONDS = 15 * 60;

addMessages({
  pdf_link_invalid: {
    en: 'This PDF link is not valid (its signature does not match). Ask the service for a new one (GET /invoices/ID/pdf?mode=url).',
    ro: 'Acest link de PDF nu este valid (semnătura nu se potrivește). Cereți serviciului unul nou (GET /invoices/ID/pdf?mode=url).',
  },
  pdf_link_expired: {
    en: 'This PDF link has expired. Ask the service for a new one (GET /invoices/ID/pdf?mode=url).',
    ro: 'Acest link de PDF a expirat. Cereți serviciului unul nou (GET /invoices/ID/pdf?mode=url).',
  },
});

export const zPdfLink = z.object({
  object: z.literal('pdf_link'),
  invoice_id: z.string(),
  /** Absolute; opens the PDF without the API key until `expires_at`. */
  url: z.string(),
  filename: z.string(),
  expires_at: zTimestamp,
  /** False: the link carries its own signature. */
  authentication_required: z.literal(false),
});

async function companyKey(db: Db, companyId: string, now: number): Promise<Buffer> {
  const read = () => db.selectFrom('pdf_link_keys').select('secret').where('company_id', '=', companyId).executeTakeFirst();
  let row = await read();
  if (!row) {
    // Two first links at once: one key wins, both then read it.
    await db.insertInto('pdf_link_keys').values({ company_id: companyId, secret: randomBytes(32).toString('base64url'), created_at: now })
      .onConflict((oc) => oc.column('company_id').doNothing()).execute();
    row = await read();
  }
  return Buffer.from(row!.secret, 'base64url');
}

function sign(key: Buffer, companyId: string, invoiceId: string, expires: number): string {
  return createHmac('sha256', key).update(`pdf-link\n${companyId}\n${invoiceId}\n${expires}`).digest('hex');
}

/** Where this request came from (scheme and host, TRUST_PROXY honoured), for an absolute link. */
function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The signed link of an invoice of the company (404 for another company's or a missing one). */
export async function pdfLinkFor(ctx: HandlerContext<unknown, unknown, unknown>, invoiceId: string): Promise<z.infer<typeof zPdfLink>> {
  const row = await findInvoice(ctx.db, ctx.companyId, invoiceId);
  if (!row) throw notFound('id');
  const expires = ctx.now + PDF_LINK_SECONDS;
  const signature = sign(await companyKey(ctx.db, ctx.companyId, ctx.now), ctx.companyId, row.id, expires);
  const path = `/v1/pdf-links/${encodeURIComponent(ctx.companyId)}/${encodeURIComponent(row.id)}?expires=${expires}&signature=${signature}`;
  return {
    object: 'pdf_link', invoice_id: row.id, url: `${origin(ctx.request)}${path}`, filename: pdfFileName(row.full_number, row.id),
    expires_at: expires, authentication_required: false,
  };
}

const zLinkParams = z.object({ company: z.string().min(1).max(64), invoice: z.string().min(1).max(64) });
const zLinkQuery = z.object({ expires: z.string().regex(/^\d{1,12}$/), signature: z.string().regex(/^[0-9a-f]{64}$/) });

/**
 * The public side: `GET /v1/pdf-links/{company}/{invoice}`, outside the API's key check (the
 * signature is the credential). Anything wrong answers the API's error envelope: a link that was
 * never signed by us 403 `pdf_link_invalid`, an expired one 410 `pdf_link_expired`.
 */
export function registerPdfLinkRoute(app: FastifyInstance, services: Services): void {
  app.get('/v1/pdf-links/:company/:invoice', async (request, reply) => {
    const locale = resolveLocale((request.query as Record<string, unknown>)?.locale, request.headers['accept-language']);
    const params = zLinkParams.safeParse(request.params);
    const query = zLinkQuery.safeParse(request.query);
    if (!params.success || !query.success) throw new ApiError(403, 'permission_error', 'pdf_link_invalid');
    const { company, invoice } = params.data;
    const expires = Number(query.data.expires);
    const db = services.storage.db;
    const keyRow = await db.selectFrom('pdf_link_keys').select('secret').where('company_id', '=', company).executeTakeFirst();
    const expected = keyRow ? Buffer.from(sign(Buffer.from(keyRow.secret, 'base64url'), company, invoice, expires), 'hex') : null;
    const given = Buffer.from(query.data.signature, 'hex');
    if (!expected || !timingSafeEqual(expected, given)) throw new ApiError(403, 'permission_error', 'pdf_link_invalid');
    if (services.clock.now() > expires) throw new ApiError(410, 'invalid_request_error', 'pdf_link_expired');
    const { invoice: view, html } = await invoicePrintable(db, company, invoice, locale);
    const pdf = await renderPdf(services, html);
    return reply
      .code(200)
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${pdfFileName(view.full_number, view.id)}"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
}
