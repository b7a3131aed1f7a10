import type { Kysely } from 'kysely';

// Issue 18: files attached to documents, kept in the database itself (docs/api-decisions.md,
// "Attachments on documents"), base64 text as supplier_bill_pdfs keeps ANAF's PDFs: the same column on
// both dialects, and the firm's transfer (JSON lines, server/transfer) carries it unchanged, where a
// byte column would need its own encoding there. No foreign key to the document: it is one of several
// tables (document_type says which).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('document_attachments_document')
    .on('document_attachments')
    .columns(['company_id', 'document_type', 'document_id', 'created_at'])
    .execute();
}
