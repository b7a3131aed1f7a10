import { z } from 'zod';

/** Documents a file can be attached to (Contazen's SDK names invoice, client and product). */
export const ATTACHMENT_DOCUMENT_TYPES = ['invoice', 'client', 'product', 'expense', 'supplier_bill'] as const;
export type AttachmentDocumentType = (typeof ATTACHMENT_DOCUMENT_TYPES)[number];

/** The kinds of file kept: what a firm attaches to a document (a signed contract, a delivery note, a photo, a spreadsheet). */
export const ATTACHMENT_CONTENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'text/plain',
  'text/csv',
  'application/xml',
  'text/xml',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;
export type AttachmentContentType = (typeof ATTACHMENT_CONTENT_TYPES)[number];

/** Largest file: 10 MiB. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Files on one document. */
export const ATTACHMENT_MAX_PER_DOCUMENT = 50;
/** All the firm's attachments together: 1 GiB. */
export const ATTACHMENT_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;

export const zAttachmentUpload = z.object({
  document_type: z.enum(ATTACHMENT_DOCUMENT_TYPES),
  document_id: z.string().trim().min(1).max(64),
  /** The file's name as the firm knows it; a path is cut to its last part. */
  file_name: z.string().trim().min(1).max(255),
  /** Optional: the bytes decide when omitted; when sent, the bytes must agree. */
  content_type: z.enum(ATTACHMENT_CONTENT_TYPES).optional(),
  /** The file's bytes, base64 (the contract's bodies are JSON). At most 10 MiB decoded. */
  content: z.string().min(1),
  description: z.string().trim().max(500).optional(),
});

export const zAttachmentListQuery = z.object({
  document_type: z.enum(ATTACHMENT_DOCUMENT_TYPES),
  document_id: z.string().trim().min(1).max(64),
});

export const zAttachment = z.object({
  id: z.string(),
  object: z.literal('attachment'),
  document_type: z.enum(ATTACHMENT_DOCUMENT_TYPES),
  document_id: z.string(),
  file_name: z.string(),
  content_type: z.enum(ATTACHMENT_CONTENT_TYPES),
  size: z.number().int(),
  sha256: z.string(),
  description: z.string().nullable(),
  /** Unix seconds. */
  created_at: z.number().int(),
  /** Path of the download under /v1. */
  download_path: z.string(),
});
export type Attachment = z.infer<typeof zAttachment>;
