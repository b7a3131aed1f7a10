import { z } from 'zod';
import { binaryReply, defineRoute, type AnyRoute } from '../../platform/route';
import { invoicePrintable, receiptPrintable } from './document-html';
import { pdfFileName, renderPdf } from './render-pdf';
import { pdfLinkFor, zPdfLink } from '../compat/pdf-link';
import './messages';

const idParams = z.object({ id: z.string() });
const PDF_ERRORS = { resource_missing: 404, pdf_not_available: 501, pdf_renderer_unavailable: 503 } as const;

const invoicePdf = defineRoute({
  method: 'GET',
  path: '/invoices/:id/pdf',
  operationId: 'getInvoicePdf',
  summary: 'The invoice as a PDF',
  description:
    'Our addition (the path Contazen’s SDK calls). The PDF is printed from the same templates as the desktop app (A4, Romanian; bilingual for an invoice in English), with the seller as it stood at issue. A draft prints marked as a draft. Content type `application/pdf`. With `mode=url` (Contazen’s `getPdfUrl`) the reply is JSON instead: `{ url, filename, expires_at, authentication_required: false }`, a link signed with HMAC-SHA256 that serves this PDF without the API key for 15 minutes (docs/api-decisions.md, “PDF links”). 501 `pdf_not_available` when this service has no PDF renderer; 503 `pdf_renderer_unavailable` when it could not start now.',
  tags: ['invoices'],
  scope: 'invoices:read',
  params: idParams,
  // `mode` is what Contazen's SDK sends: download (the bytes), or url for a signed link (compat/pdf-link.ts).
  query: z.object({ mode: z.enum(['download', 'url', 'inline']).optional() }),
  // The bytes; with `mode=url`, JSON: the signed link.
  response: z.union([z.string(), zPdfLink]),
  produces: 'application/pdf',
  errors: PDF_ERRORS,
  handler: async (ctx) => {
    if (ctx.query.mode === 'url') return pdfLinkFor(ctx, ctx.params.id);
    const { invoice, html } = await invoicePrintable(ctx.db, ctx.companyId, ctx.params.id, ctx.locale);
    const pdf = await renderPdf(ctx.services, html);
    return binaryReply('application/pdf', pdf, pdfFileName(invoice.full_number, invoice.id));
  },
});

const receiptPdf = defineRoute({
  method: 'GET',
  path: '/receipts/:id/pdf',
  operationId: 'getReceiptPdf',
  summary: 'The receipt (chitanță) as a PDF',
  description:
    'Our addition. The chitanță with its stub, printed from the desktop app’s template. Content type `application/pdf`; 501 `pdf_not_available` / 503 `pdf_renderer_unavailable` as for invoices.',
  tags: ['receipts'],
  scope: 'receipts:read',
  params: idParams,
  response: z.string(),
  produces: 'application/pdf',
  errors: PDF_ERRORS,
  handler: async (ctx) => {
    const { number, html } = await receiptPrintable(ctx.db, ctx.companyId, ctx.params.id, ctx.locale);
    const pdf = await renderPdf(ctx.services, html);
    return binaryReply('application/pdf', pdf, pdfFileName(number, ctx.params.id));
  },
});

export const documentsPdfRoutes: AnyRoute[] = [invoicePdf, receiptPdf];
