import type { Kysely } from 'kysely';

// Sending invoices by e-mail (issue 18): the firm's SMTP server, and the log of what was sent.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('smtp_settings')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('security', 'text', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('password', 'text')
    .addColumn('password_encryption', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invoice_emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text', (c) => c.notNull().references('work_points.id'))
    // No foreign key: the log outlives a deleted draft (and a delete must not fail on it).
    .addColumn('invoice_id', 'text', (c) => c.notNull())
    .addColumn('to_json', 'text', (c) => c.notNull())
    .addColumn('cc_json', 'text', (c) => c.notNull())
    .addColumn('bcc_json', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_detail', 'text')
    .addColumn('attachments_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invoice_emails_company_invoice').on('invoice_emails').columns(['company_id', 'invoice_id', 'created_at']).execute();
  await db.schema.createIndex('invoice_emails_company_created').on('invoice_emails').columns(['company_id', 'created_at']).execute();
}
