import type { Kysely } from 'kysely';

// Issue 18: the firm's own document templates (Contazen's `Documents` templates), HTML with
// placeholders, rendered by POST /documents/preview. At most one default per type: kept by the
// routes in one transaction (a partial unique index would differ between the dialects' syntax).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('document_templates_company').on('document_templates').columns(['company_id', 'type']).execute();
}
