import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/types';
import { scopeAllows, type Scope } from '../../platform/api-keys';
import { zDeleted } from '../../platform/envelope';
import { ApiError, notFound, validationFailed } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { binaryReply, defineRoute, type AnyRoute, type HandlerContext } from '../../platform/route';
import {
  ATTACHMENT_MAX_BYTES, ATTACHMENT_MAX_PER_DOCUMENT, ATTACHMENT_MAX_TOTAL_BYTES, zAttachment, zAttachmentListQuery,
  zAttachmentUpload, type Attachment, type AttachmentContentType, type AttachmentDocumentType,
} from '../../../shared/schemas/attachment';
import type { DocumentAttachmentsTable } from './tables';
import { sameKind, sniffContentType } from './sniff';
import './messages';

/**
 * Files attached to the firm's documents (issue 18, Contazen's `Documents` attachments). The bytes
 * live in the database beside the row that names them (docs/api-decisions.md, "Attachments on
 * documents"): one backup, one transaction, one tenancy rule. Every query filters by company: another
 * firm's attachment, or an attachment of another firm's document, answers 404 like a missing one.
 */

const MIB = 1024 * 1024;
/** base64 is 4 characters per 3 bytes; room for the other members. */
const ATTACHMENT_BODY_LIMIT = Math.ceil((ATTACHMENT_MAX_BYTES * 4) / 3) + 64 * 1024;

/** The table each document type lives in, and the scope of the key that may read or change it. */
const DOCUMENTS: Record<AttachmentDocumentType, { table: 'invoices' | 'clients' | 'products' | 'expenses' | 'supplier_bills'; resource: string }> = {
  invoice: { table: 'invoices', resource: 'invoices' },
  client: { table: 'clients', resource: 'clients' },
  product: { table: 'products', resource: 'products' },
  expense: { table: 'expenses', resource: 'expenses' },
  supplier_bill: { table: 'supplier_bills', resource: 'supplier_bills' },
};

type Ctx = HandlerContext<unknown, unknown, unknown>;

/** An attachment is read or changed with the scope of its document: a products-only key never sees an invoice's files. */
function requireScope(ctx: Ctx, type: AttachmentDocumentType, verb: 'read' | 'write'): void {
  const scope = `${DOCUMENTS[type].resource}:${verb}` as Scope;
  if (!scopeAllows(ctx.auth.scopes, scope)) {
    throw new ApiError(403, 'permission_error', 'insufficient_permissions', { vars: { scope } });
  }
}

async function requireDocument(db: Db, companyId: string, type: AttachmentDocumentType, id: string): Promise<void> {
  const row = await db.selectFrom(DOCUMENTS[type].table).select('id').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('document_id');
}

/**
 * Files of documents that are gone (a deleted draft, a voided invoice deleted later) are dropped before
 * the firm's quota is counted: they can no longer be listed (the list checks the document first), and
 * must not fill the quota. Soft-deleted clients and products still exist, and keep their files.
 */
async function sweepOrphans(db: Db, companyId: string): Promise<void> {
  for (const [type, { table }] of Object.entries(DOCUMENTS)) {
    await db.deleteFrom('document_attachments')
      .where('company_id', '=', companyId).where('document_type', '=', type)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom(table).select(sql.lit(1).as('one')).whereRef(`${table}.id`, '=', 'document_attachments.document_id').where(`${table}.company_id`, '=', companyId))))
      .execute();
  }
}

function tooLarge(bytes: number): ApiError {
  return new ApiError(413, 'invalid_request_error', 'attachment_too_large', {
    param: 'content', vars: { size_mb: Math.max(1, Math.round(bytes / MIB)), limit_mb: ATTACHMENT_MAX_BYTES / MIB },
  });
}

function decode(content: string): Buffer {
  const body = content.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (body.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw validationFailed({ content: 'Not base64 text|Nu este text base64' });
  // Checked before decoding: base64 is 4 characters per 3 bytes.
  if (Math.floor((body.length * 3) / 4) > ATTACHMENT_MAX_BYTES + 2) throw tooLarge(Math.floor((body.length * 3) / 4));
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length > ATTACHMENT_MAX_BYTES) throw tooLarge(bytes.length);
  if (bytes.length === 0) throw validationFailed({ content: 'The file is empty|Fișierul este gol' });
  return bytes;
}

/** The name as kept: its last path part, without control characters. */
function cleanName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!clean) throw validationFailed({ file_name: 'A file name is needed|Este nevoie de un nume de fișier' });
  return clean;
}

/** A name safe inside `Content-Disposition: attachment; filename="…"` (ASCII, no quotes). */
function headerName(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^\w.\- ]+/g, '_') || 'fisier';
}

type Row = Omit<DocumentAttachmentsTable, 'content'>;
const META = ['id', 'company_id', 'document_type', 'document_id', 'file_name', 'content_type', 'size', 'sha256', 'description', 'created_at'] as const;

function view(row: Row): Attachment {
  return {
    id: row.id, object: 'attachment', document_type: row.document_type as AttachmentDocumentType, document_id: row.document_id,
    file_name: row.file_name, content_type: row.content_type as AttachmentContentType, size: Number(row.size), sha256: row.sha256,
    description: row.description, created_at: Number(row.created_at), download_path: `/documents/attachments/${row.id}/download`,
  };
}

async function findAttachment(ctx: Ctx, id: string, verb: 'read' | 'write'): Promise<Row> {
  const row = await ctx.db.selectFrom('document_attachments').select(META).where('company_id', '=', ctx.companyId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('id');
  requireScope(ctx, row.document_type as AttachmentDocumentType, verb);
  return row;
}

const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['attachments', 'compat'];
const SCOPE_NOTE = 'The key needs the scope of the document (`invoices:write` to attach to an invoice, `invoices:read` to list or download its files).';

const uploadAttachment = defineRoute({
  method: 'POST', path: '/documents/attachments', operationId: 'createAttachment', summary: 'Attach a file to a document',
  description:
    'Contazen\'s `POST /documents/attachments`, in the contract\'s style: a JSON body with the file base64 in `content` (Contazen\'s SDK ' +
    'builds a multipart body inside JSON and fails before sending; docs/contazen-compatibility.md). `document_type`: invoice, client, ' +
    'product, expense or supplier_bill; `document_id` a document of the firm (else 404 on `document_id`). The file: at most ' +
    `${ATTACHMENT_MAX_BYTES / MIB} MB (413 \`attachment_too_large\`), not empty, of a kind we keep (PDF, PNG, JPEG, WebP, text, CSV, XML, ZIP, ` +
    '.xlsx, .docx; else 422 `attachment_type_not_allowed`). `content_type` is optional: the bytes decide, and a `content_type` the bytes ' +
    `contradict is a 422 \`attachment_type_mismatch\`. At most ${ATTACHMENT_MAX_PER_DOCUMENT} files per document (409 ` +
    `\`attachment_limit_reached\`) and ${ATTACHMENT_MAX_TOTAL_BYTES / MIB / 1024} GB per firm (413 \`attachment_quota_exceeded\`). ${SCOPE_NOTE}`,
  tags, scope: 'any', create: true, body: zAttachmentUpload, response: zAttachment,
  bodyLimit: ATTACHMENT_BODY_LIMIT,
  bodyTooLarge: (length) => tooLarge(Math.floor((length * 3) / 4)),
  errors: {
    resource_missing: 404, insufficient_permissions: 403, attachment_too_large: 413, attachment_type_not_allowed: 422, attachment_type_mismatch: 422,
    attachment_limit_reached: 409, attachment_quota_exceeded: 413,
  },
  handler: async (ctx) => {
    const b = ctx.body;
    requireScope(ctx, b.document_type, 'write');
    const bytes = decode(b.content);
    const fileName = cleanName(b.file_name);
    const sniffed = sniffContentType(bytes, fileName);
    if (!sniffed) throw new ApiError(422, 'invalid_request_error', 'attachment_type_not_allowed', { param: 'content' });
    if (b.content_type && !sameKind(b.content_type, sniffed)) {
      throw new ApiError(422, 'invalid_request_error', 'attachment_type_mismatch', { param: 'content_type', vars: { sniffed } });
    }
    await requireDocument(ctx.db, ctx.companyId, b.document_type, b.document_id);
    const row: DocumentAttachmentsTable = {
      id: newId('att'), company_id: ctx.companyId, document_type: b.document_type, document_id: b.document_id, file_name: fileName,
      content_type: b.content_type ?? sniffed, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'),
      description: b.description ?? null, content: bytes.toString('base64'), created_at: ctx.now,
    };
    await ctx.db.transaction().execute(async (trx) => {
      // On PostgreSQL two uploads to one firm could both pass the checks: the firm's row serializes them.
      if (ctx.dialect === 'postgres') await trx.selectFrom('companies').select('id').where('id', '=', ctx.companyId).forUpdate().execute();
      await sweepOrphans(trx, ctx.companyId);
      const onDocument = await trx.selectFrom('document_attachments').select(sql<number>`count(*)`.as('n'))
        .where('company_id', '=', ctx.companyId).where('document_type', '=', b.document_type).where('document_id', '=', b.document_id)
        .executeTakeFirstOrThrow();
      if (Number(onDocument.n) >= ATTACHMENT_MAX_PER_DOCUMENT) {
        throw new ApiError(409, 'invalid_request_error', 'attachment_limit_reached', { param: 'document_id', vars: { max: ATTACHMENT_MAX_PER_DOCUMENT } });
      }
      const total = await trx.selectFrom('document_attachments').select(sql<number>`coalesce(sum(size), 0)`.as('bytes'))
        .where('company_id', '=', ctx.companyId).executeTakeFirstOrThrow();
      if (Number(total.bytes) + bytes.length > ATTACHMENT_MAX_TOTAL_BYTES) {
        throw new ApiError(413, 'invalid_request_error', 'attachment_quota_exceeded', { param: 'content', vars: { limit_mb: ATTACHMENT_MAX_TOTAL_BYTES / MIB } });
      }
      await trx.insertInto('document_attachments').values(row).execute();
    });
    return view(row);
  },
});

const listAttachments = defineRoute({
  method: 'GET', path: '/documents/attachments', operationId: 'listAttachments', summary: 'The files attached to a document, as a plain array',
  description:
    `Contazen's \`GET /documents/attachments?document_type=&document_id=\`: every file of the document (at most ${ATTACHMENT_MAX_PER_DOCUMENT}, ` +
    `so a plain array, not a page), oldest first (by id within a second), without their bytes. A document of another firm answers 404 on \`document_id\`. ${SCOPE_NOTE}`,
  tags, scope: 'any', query: zAttachmentListQuery, response: z.array(zAttachment), errors: { resource_missing: 404, insufficient_permissions: 403 },
  handler: async (ctx) => {
    requireScope(ctx, ctx.query.document_type, 'read');
    await requireDocument(ctx.db, ctx.companyId, ctx.query.document_type, ctx.query.document_id);
    const rows = await ctx.db.selectFrom('document_attachments').select(META).where('company_id', '=', ctx.companyId)
      .where('document_type', '=', ctx.query.document_type).where('document_id', '=', ctx.query.document_id)
      .orderBy('created_at').orderBy('id').execute();
    return rows.map(view);
  },
});

const getAttachment = defineRoute({
  method: 'GET', path: '/documents/attachments/:id', operationId: 'getAttachment', summary: 'Retrieve an attachment (without its bytes)',
  description: `The attachment's name, type, size and SHA-256; the bytes are at \`download_path\`. ${SCOPE_NOTE}`,
  tags, scope: 'any', params: idParams, response: zAttachment, errors: { resource_missing: 404, insufficient_permissions: 403 },
  handler: async (ctx) => view(await findAttachment(ctx, ctx.params.id, 'read')),
});

const downloadAttachment = defineRoute({
  method: 'GET', path: '/documents/attachments/:id/download', operationId: 'downloadAttachment', summary: 'The bytes of an attachment',
  description:
    'Contazen\'s `GET /documents/attachments/{id}/download`: the file exactly as uploaded, with its content type and name ' +
    `(\`Content-Disposition: attachment\`). ${SCOPE_NOTE}`,
  tags, scope: 'any', params: idParams, response: z.string(), produces: 'application/octet-stream',
  errors: { resource_missing: 404, insufficient_permissions: 403 },
  handler: async (ctx) => {
    const row = await findAttachment(ctx, ctx.params.id, 'read');
    const file = await ctx.db.selectFrom('document_attachments').select('content').where('company_id', '=', ctx.companyId).where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    return binaryReply(row.content_type, Buffer.from(file.content, 'base64'), headerName(row.file_name));
  },
});

const deleteAttachment = defineRoute({
  method: 'DELETE', path: '/documents/attachments/:id', operationId: 'deleteAttachment', summary: 'Delete an attachment',
  description: `Removes the file for good. Answers at top level \`{ success: true, object: "attachment", id, deleted: true }\`. ${SCOPE_NOTE}`,
  tags, scope: 'any', params: idParams, response: zDeleted('attachment'), envelope: 'top', errors: { resource_missing: 404, insufficient_permissions: 403 },
  handler: async (ctx) => {
    const row = await findAttachment(ctx, ctx.params.id, 'write');
    await ctx.db.deleteFrom('document_attachments').where('company_id', '=', ctx.companyId).where('id', '=', row.id).execute();
    return { object: 'attachment' as const, id: row.id, deleted: true as const };
  },
});

export const attachmentsRoutes: AnyRoute[] = [uploadAttachment, listAttachments, getAttachment, downloadAttachment, deleteAttachment];
