import { z } from 'zod';
import type { Db } from '../../db/types';
import { zDeleted } from '../../platform/envelope';
import { ApiError, notFound, validationFailed } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { binaryReply, defineRoute, type AnyRoute, type BinaryReply } from '../../platform/route';
import { formatBani, formatDate, formatQuantity } from '../../../shared/format';
import { toBani } from '../../../shared/money';
import { sellerFor } from '../../../shared/print/seller-from-profile';
import { loadCompanyProfile } from '../efactura-spv/company-profile';
import { invoicePrintable } from '../documents-pdf/document-html';
import { renderPdf, pdfFileName } from '../documents-pdf/render-pdf';
import { accountingRoutes } from '../accounting/routes';
import { callRoute, routeNamed } from '../compat/alias';
import type { Invoice } from '../../../shared/schemas/invoice';
import { ITEM_FIELDS, ROOT_FIELDS, parseTemplate, renderTemplate, unsafeContent, type TemplateData } from './template-engine';
import type { DocumentTemplatesTable } from './tables';
import './messages';

/**
 * Issue 18, the rest of Contazen's `Documents`: the firm's own templates, a preview of a document
 * through one of them (or through the template the desktop prints), and the export of the period's
 * documents (our `GET /accounting/exports/documents/{format}`). The PDFs of `GET /invoices/{id}/pdf`
 * and of the e-mailed invoice keep the printed template, which carries the mentions the law asks for.
 */

export const TEMPLATE_TYPES = ['invoice', 'proforma'] as const;
const MAX_TEMPLATES = 100;
const MAX_CONTENT = 200_000;

const zContent = z.string().min(1).max(MAX_CONTENT);
const zTemplateCreate = z.object({
  name: z.string().trim().min(1).max(120),
  type: z.enum(TEMPLATE_TYPES),
  content: zContent,
  is_default: z.boolean().optional(),
});
const zTemplateUpdate = zTemplateCreate.partial();

const zTemplate = z.object({
  id: z.string(),
  object: z.literal('document_template'),
  name: z.string(),
  type: z.enum(TEMPLATE_TYPES),
  content: z.string(),
  is_default: z.boolean(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

const view = (r: DocumentTemplatesTable): z.infer<typeof zTemplate> => ({
  id: r.id, object: 'document_template', name: r.name, type: r.type as (typeof TEMPLATE_TYPES)[number], content: r.content,
  is_default: Number(r.is_default) === 1, created_at: Number(r.created_at), updated_at: Number(r.updated_at),
});

/** The content's problem as a 422 on `content`, before anything is stored. */
function checkContent(content: string): void {
  const unsafe = unsafeContent(content);
  if (unsafe) throw validationFailed({ content: unsafe });
  const parsed = parseTemplate(content);
  if ('problem' in parsed) throw validationFailed({ content: parsed.problem });
}

async function findTemplate(db: Db, companyId: string, id: string): Promise<DocumentTemplatesTable> {
  const row = await db.selectFrom('document_templates').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('id');
  return row;
}

const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['documents', 'compat'];
const PLACEHOLDERS =
  `Placeholders: ${ROOT_FIELDS.map((f) => `\`{{${f}}}\``).join(', ')}; the lines inside \`{{#items}}…{{/items}}\`: ` +
  `${ITEM_FIELDS.map((f) => `\`{{${f}}}\``).join(', ')}. Values are HTML-escaped and formatted as printed (\`1.234,56\`, \`25.11.2026\`). ` +
  'An unknown placeholder, an unclosed section, a script, an event attribute or anything fetched from elsewhere (images go as `data:` URLs) is a ' +
  '422 on `content`.';

const listTemplates = defineRoute({
  method: 'GET', path: '/documents/templates', operationId: 'listDocumentTemplates', summary: 'The firm’s document templates, as a plain array',
  description: `Contazen's \`GET /documents/templates\`: every template of the firm (at most ${MAX_TEMPLATES}, so a plain array), oldest first.`,
  tags, scope: 'invoices:read', response: z.array(zTemplate),
  handler: async (ctx) =>
    (await ctx.db.selectFrom('document_templates').selectAll().where('company_id', '=', ctx.companyId).orderBy('created_at').orderBy('id').execute()).map(view),
});

const getTemplate = defineRoute({
  method: 'GET', path: '/documents/templates/:id', operationId: 'getDocumentTemplate', summary: 'Retrieve a document template',
  tags, scope: 'invoices:read', params: idParams, response: zTemplate, errors: { resource_missing: 404 },
  handler: async (ctx) => view(await findTemplate(ctx.db, ctx.companyId, ctx.params.id)),
});

const createTemplate = defineRoute({
  method: 'POST', path: '/documents/templates', operationId: 'createDocumentTemplate', summary: 'Create a document template',
  description:
    `Contazen's \`POST /documents/templates\`: \`name\`, \`type\` (invoice or proforma), \`content\` (HTML, at most ${MAX_TEMPLATES * 2000} characters), ` +
    `\`is_default\` (the template \`POST /documents/preview\` uses for its type; the previous default stops being one). ${PLACEHOLDERS} ` +
    `At most ${MAX_TEMPLATES} templates per firm (409 \`template_limit_reached\`).`,
  tags, scope: 'invoices:write', create: true, body: zTemplateCreate, response: zTemplate, errors: { template_limit_reached: 409 },
  handler: async (ctx) => {
    const b = ctx.body;
    checkContent(b.content);
    const row: DocumentTemplatesTable = {
      id: newId('tpl'), company_id: ctx.companyId, name: b.name, type: b.type, content: b.content, is_default: b.is_default ? 1 : 0,
      created_at: ctx.now, updated_at: ctx.now,
    };
    await ctx.db.transaction().execute(async (trx) => {
      if (ctx.dialect === 'postgres') await trx.selectFrom('companies').select('id').where('id', '=', ctx.companyId).forUpdate().execute();
      const count = await trx.selectFrom('document_templates').select((eb) => eb.fn.countAll<number>().as('n')).where('company_id', '=', ctx.companyId).executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_TEMPLATES) throw new ApiError(409, 'invalid_request_error', 'template_limit_reached', { vars: { max: MAX_TEMPLATES } });
      if (row.is_default) {
        await trx.updateTable('document_templates').set({ is_default: 0, updated_at: ctx.now })
          .where('company_id', '=', ctx.companyId).where('type', '=', row.type).where('is_default', '=', 1).execute();
      }
      await trx.insertInto('document_templates').values(row).execute();
    });
    return view(row);
  },
});

const updateTemplate = defineRoute({
  method: 'PUT', path: '/documents/templates/:id', operationId: 'updateDocumentTemplate', summary: 'Update a document template',
  description: `Contazen's \`PATCH /documents/templates/{id}\` (PUT and PATCH alike): the members sent change, the others stay. ${PLACEHOLDERS}`,
  tags, scope: 'invoices:write', params: idParams, body: zTemplateUpdate, response: zTemplate, errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const b = ctx.body;
    if (b.content !== undefined) checkContent(b.content);
    return ctx.db.transaction().execute(async (trx) => {
      const row = await findTemplate(trx, ctx.companyId, ctx.params.id);
      const next: DocumentTemplatesTable = {
        ...row, name: b.name ?? row.name, type: b.type ?? row.type, content: b.content ?? row.content,
        is_default: b.is_default === undefined ? Number(row.is_default) : b.is_default ? 1 : 0, updated_at: ctx.now,
      };
      if (next.is_default) {
        await trx.updateTable('document_templates').set({ is_default: 0, updated_at: ctx.now })
          .where('company_id', '=', ctx.companyId).where('type', '=', next.type).where('is_default', '=', 1).where('id', '!=', row.id).execute();
      }
      await trx.updateTable('document_templates')
        .set({ name: next.name, type: next.type, content: next.content, is_default: next.is_default, updated_at: ctx.now })
        .where('company_id', '=', ctx.companyId).where('id', '=', row.id).execute();
      return view(next);
    });
  },
});

const deleteTemplate = defineRoute({
  method: 'DELETE', path: '/documents/templates/:id', operationId: 'deleteDocumentTemplate', summary: 'Delete a document template',
  description: 'Answers at top level `{ success: true, object: "document_template", id, deleted: true }`.',
  tags, scope: 'invoices:write', params: idParams, response: zDeleted('document_template'), envelope: 'top', errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await findTemplate(ctx.db, ctx.companyId, ctx.params.id);
    await ctx.db.deleteFrom('document_templates').where('company_id', '=', ctx.companyId).where('id', '=', row.id).execute();
    return { object: 'document_template' as const, id: row.id, deleted: true as const };
  },
});

// ---- preview ------------------------------------------------------------------------------------

/** An invoice's values as a template prints them (the printed template's formats). */
async function templateData(db: Db, companyId: string, invoice: Invoice): Promise<TemplateData> {
  const seller = invoice.seller ? sellerFor(invoice.seller, undefined) : sellerFor(await loadCompanyProfile(db, companyId), undefined);
  const money = (n: number) => formatBani(toBani(n), 'ro');
  const place = (...parts: Array<string | null | undefined>) => parts.filter(Boolean).join(', ');
  const buyer = invoice.buyer;
  return {
    root: {
      'invoice.type': invoice.document_type === 'proforma' ? 'Factură proformă' : invoice.status === 'storno' ? 'Factură de stornare' : 'Factură',
      'invoice.number': invoice.full_number ?? 'Ciornă',
      'invoice.issue_date': formatDate(invoice.issue_date),
      'invoice.due_date': invoice.due_date ? formatDate(invoice.due_date) : '',
      'invoice.currency': invoice.currency === 'RON' ? 'lei' : invoice.currency,
      'invoice.net': money(invoice.totals.net),
      'invoice.vat': money(invoice.totals.vat),
      'invoice.total': money(invoice.totals.total),
      'invoice.amount_due': money(invoice.amount_due),
      'invoice.observations': invoice.observations ?? '',
      'seller.name': seller.name,
      'seller.cui': seller.vat_payer ? `RO${seller.cui}` : seller.cui,
      'seller.reg_com': seller.reg_com ?? '',
      'seller.address': place(seller.address, seller.city, seller.county),
      'seller.iban': seller.iban ?? '',
      'seller.bank': seller.bank ?? '',
      'seller.email': seller.email ?? '',
      'seller.phone': seller.phone ?? '',
      'client.name': buyer?.name ?? '',
      'client.cui': buyer?.cui ? `${buyer.vat_payer ? 'RO' : ''}${buyer.cui}` : buyer?.cnp ?? '',
      'client.reg_com': buyer?.reg_com ?? '',
      'client.address': place(buyer?.address, buyer?.city, buyer?.county),
    },
    items: (invoice.lines ?? []).map((l) => ({
      position: String(l.position), name: l.description, quantity: formatQuantity(l.quantity, 'ro'), unit: l.unit, price: money(l.price),
      vat_rate: `${String(l.vat_rate).replace('.', ',')}%`, net: money(l.net), vat: money(l.vat), total: money(l.total),
    })),
  };
}

const zPreview = z.object({
  /** invoice (a fiscal invoice, a storno too) or proforma: the document's own type. */
  type: z.enum(TEMPLATE_TYPES),
  data: z.object({
    invoice_id: z.string().min(1).max(64),
    /** A template of the firm; default: the firm's default template of the type, else the template the desktop prints. */
    template_id: z.string().min(1).max(64).optional(),
    /** html (default) or pdf. */
    format: z.enum(['html', 'pdf']).optional(),
  }),
});

const preview = defineRoute({
  method: 'POST', path: '/documents/preview', operationId: 'previewDocument', summary: 'A document printed through a template, as HTML or PDF',
  description:
    'Contazen\'s `POST /documents/preview` `{type, data}`: the invoice `data.invoice_id` printed through `data.template_id`, or through the firm\'s ' +
    'default template of `type`, or, with neither, through the template the desktop prints (the one of `GET /invoices/{id}/pdf`). `data.format`: ' +
    '`html` (default, `text/html`) or `pdf` (printed by the service\'s Chromium: 501 `pdf_not_available` without one). A `type` that is not the ' +
    'invoice\'s (a proforma previewed as invoice) or a template of the other type is a 422 `template_type_mismatch`. Nothing is stored.',
  tags, scope: 'invoices:read', body: zPreview, response: z.string(), produces: 'text/html',
  errors: { resource_missing: 404, template_type_mismatch: 422, pdf_not_available: 501, pdf_renderer_unavailable: 503 },
  handler: async (ctx): Promise<BinaryReply> => {
    const { type, data } = ctx.body;
    const printable = await invoicePrintable(ctx.db, ctx.companyId, data.invoice_id, ctx.locale).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'resource_missing') throw notFound('data.invoice_id');
      throw error;
    });
    const invoiceType = printable.invoice.document_type === 'proforma' ? 'proforma' : 'invoice';
    const mismatch = (templateType: string) =>
      new ApiError(422, 'invalid_request_error', 'template_type_mismatch', { param: 'type', vars: { template_type: templateType, document_type: invoiceType } });
    if (type !== invoiceType) throw mismatch(type);
    let template: DocumentTemplatesTable | undefined;
    if (data.template_id) {
      template = await ctx.db.selectFrom('document_templates').selectAll().where('company_id', '=', ctx.companyId).where('id', '=', data.template_id).executeTakeFirst();
      if (!template) throw notFound('data.template_id');
      if (template.type !== invoiceType) throw mismatch(template.type);
    } else {
      template = await ctx.db.selectFrom('document_templates').selectAll().where('company_id', '=', ctx.companyId).where('type', '=', type)
        .where('is_default', '=', 1).executeTakeFirst();
    }
    let html = printable.html;
    if (template) {
      const parsed = parseTemplate(template.content);
      // Checked when saved; a template that no longer parses is our bug, not the caller's.
      if ('problem' in parsed) throw new Error(`stored template ${template.id} does not parse`);
      html = renderTemplate(parsed.nodes, await templateData(ctx.db, ctx.companyId, printable.invoice));
    }
    if (data.format === 'pdf') {
      return binaryReply('application/pdf', await renderPdf(ctx.services, html), pdfFileName(printable.invoice.full_number, printable.invoice.id));
    }
    return binaryReply('text/html; charset=utf-8', html);
  },
});

// ---- export -------------------------------------------------------------------------------------

const accountingRoute = (operationId: string) => routeNamed(accountingRoutes, operationId);

const exportDocuments = defineRoute({
  method: 'POST', path: '/documents/export', operationId: 'exportDocuments', summary: 'The period’s documents as CSV or Excel',
  description:
    'Contazen\'s `POST /documents/export` `{start_date, end_date, format}`: `csv` is `GET /accounting/exports/documents/csv`, `excel` ' +
    '`GET /accounting/exports/documents/xlsx`, the same file (every document of the period, one row each: invoices and stornos, expenses and ' +
    'received invoices, chitanțe). `pdf` is refused on `format` (the PDFs of a month are in `GET /accounting/archive`); `type`, when sent, ' +
    'must be `all`: the export holds every kind, never a part of them silently.',
  tags: ['documents', 'accounting', 'compat'], scope: 'accounting:read',
  body: z.object({
    type: z.literal('all').optional(),
    start_date: z.string(),
    end_date: z.string(),
    format: z.enum(['csv', 'excel', 'pdf']).default('csv'),
  }),
  response: z.unknown(), produces: 'text/csv',
  handler: async (ctx): Promise<BinaryReply> => {
    const { start_date, end_date, format } = ctx.body;
    if (format === 'pdf') {
      throw validationFailed({ format: 'No PDF export of many documents: csv or excel; a month\'s PDFs are in GET /accounting/archive|Nu există export PDF al mai multor documente: csv sau excel; PDF-urile unei luni sunt în GET /accounting/archive' });
    }
    return callRoute<BinaryReply>(accountingRoute(format === 'csv' ? 'getDocumentsCsv' : 'getDocumentsXlsx'), ctx, { query: { start_date, end_date } });
  },
});

export const documentTemplatesRoutes: AnyRoute[] = [listTemplates, getTemplate, createTemplate, updateTemplate, deleteTemplate, preview, exportDocuments];
