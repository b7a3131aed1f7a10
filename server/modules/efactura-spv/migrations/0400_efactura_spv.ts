import { sql, type Kysely } from 'kysely';

/** PostgreSQL numbers placeholders `$1`, SQLite writes `?`: tells the dialects apart without running anything. */
function isPostgres(db: Kysely<unknown>): boolean {
  return sql`select ${1}`.compile(db).sql.includes('$1');
}

// Migrations take Kysely<unknown>: they describe the schema at their point in history, not today's types.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Read by the invoicing module's assertEinvoicingReady (a row per linked company).
  await db.schema
    .createTable('anaf_oauth_tokens')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('access_token', 'text', (c) => c.notNull())
    .addColumn('refresh_token', 'text', (c) => c.notNull())
    .addColumn('encryption', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_expires_at', 'bigint')
    .addColumn('scope', 'text')
    .addColumn('reconsent_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('connected_at', 'bigint', (c) => c.notNull())
    .addColumn('refreshed_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('anaf_oauth_states')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('anaf_oauth_states_expires').on('anaf_oauth_states').column('expires_at').execute();

  await db.schema
    .createTable('company_profiles')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('name', 'text')
    .addColumn('vat_payer', 'integer', (c) => c.notNull())
    .addColumn('reg_com', 'text')
    .addColumn('street', 'text')
    .addColumn('city', 'text')
    .addColumn('county_code', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('iban', 'text')
    .addColumn('bank', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('efactura_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text', (c) => c.notNull())
    // The invoices table belongs to the invoicing module: referenced by id only.
    .addColumn('invoice_id', 'text', (c) => c.notNull())
    .addColumn('invoice_number', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // NULLs never collide: only live submissions take part, one per invoice and environment.
    .addColumn('active_key', 'text', (c) => c.unique())
    .addColumn('xml', 'text', (c) => c.notNull())
    .addColumn('upload_standard', 'text', (c) => c.notNull())
    .addColumn('upload_b2c', 'integer', (c) => c.notNull())
    .addColumn('upload_extern', 'integer', (c) => c.notNull())
    .addColumn('upload_index', 'text')
    .addColumn('download_id', 'text')
    .addColumn('uncertain', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('polls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('errors_json', 'text', (c) => c.notNull())
    .addColumn('answer_zip', 'text')
    .addColumn('next_check_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('attempt_started_at', 'bigint')
    .addColumn('uploaded_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('efactura_submissions_invoice').on('efactura_submissions').columns(['company_id', 'invoice_id']).execute();
  await db.schema.createIndex('efactura_submissions_due').on('efactura_submissions').columns(['status', 'next_check_at']).execute();

  await db.schema
    .createTable('efactura_messages')
    // The contract types efactura_message.id as an integer.
    .addColumn('id', 'integer', (c) => (isPostgres(db) ? c.generatedByDefaultAsIdentity().primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('upload_index', 'text')
    .addColumn('cif', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('creation_date', 'text', (c) => c.notNull())
    .addColumn('seller_cif', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('xml', 'text')
    .addColumn('signature', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // Importing the same message twice finds this row: one bill per message.
    .addUniqueConstraint('efactura_messages_once', ['company_id', 'environment', 'message_id'])
    .execute();

  await db.schema
    .createTable('supplier_bills')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('work_point_id', 'text', (c) => c.notNull().references('work_points.id'))
    // Suppliers and expenses belong to the expenses module, clients to the catalog: by id only.
    .addColumn('supplier_id', 'text', (c) => c.notNull())
    .addColumn('expense_id', 'text')
    .addColumn('client_id', 'text')
    .addColumn('efactura_message_id', 'integer', (c) => c.references('efactura_messages.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('invoice_number', 'text', (c) => c.notNull())
    .addColumn('invoice_type_code', 'text', (c) => c.notNull())
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('tax_exclusive_bani', 'bigint', (c) => c.notNull())
    .addColumn('tax_bani', 'bigint', (c) => c.notNull())
    .addColumn('tax_inclusive_bani', 'bigint', (c) => c.notNull())
    .addColumn('payable_bani', 'bigint', (c) => c.notNull())
    .addColumn('paid_bani', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_date', 'text')
    .addColumn('payment_amount_bani', 'bigint')
    .addColumn('order_reference', 'text')
    .addColumn('note', 'text')
    .addColumn('supplier_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('supplier_bills_message', ['company_id', 'efactura_message_id'])
    .execute();
  await db.schema.createIndex('supplier_bills_list').on('supplier_bills').columns(['company_id', 'work_point_id', 'issue_date']).execute();
  await db.schema.createIndex('supplier_bills_supplier').on('supplier_bills').columns(['company_id', 'supplier_id', 'status']).execute();

  await db.schema
    .createTable('supplier_bill_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bill_id', 'text', (c) => c.notNull().references('supplier_bills.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('line_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('quantity_milli', 'bigint', (c) => c.notNull())
    .addColumn('unit_code', 'text')
    .addColumn('unit_price_bani', 'bigint', (c) => c.notNull())
    .addColumn('price_amount', 'text')
    .addColumn('line_net_bani', 'bigint', (c) => c.notNull())
    .addColumn('allowance_bani', 'bigint', (c) => c.notNull())
    .addColumn('charge_bani', 'bigint', (c) => c.notNull())
    .addColumn('vat_category', 'text', (c) => c.notNull())
    .addColumn('vat_rate_bp', 'integer', (c) => c.notNull())
    .addUniqueConstraint('supplier_bill_lines_position', ['bill_id', 'position'])
    .execute();

  await db.schema
    .createTable('supplier_bill_pdfs')
    .addColumn('message_row_id', 'integer', (c) => c.primaryKey().references('efactura_messages.id'))
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('pdf', 'text', (c) => c.notNull())
    .addColumn('validated', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('balance_sheets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('subject_cui', 'text', (c) => c.notNull())
    .addColumn('an', 'integer', (c) => c.notNull())
    .addColumn('denumire', 'text', (c) => c.notNull())
    .addColumn('caen', 'integer')
    .addColumn('caen_name', 'text', (c) => c.notNull())
    .addColumn('cifra_afaceri', 'double precision')
    .addColumn('venituri_total', 'double precision')
    .addColumn('cheltuieli_total', 'double precision')
    .addColumn('profit_brut', 'double precision')
    .addColumn('pierdere_bruta', 'double precision')
    .addColumn('profit_net', 'double precision')
    .addColumn('pierdere_neta', 'double precision')
    .addColumn('capitaluri_proprii', 'double precision')
    .addColumn('datorii_total', 'double precision')
    .addColumn('active_imobilizate', 'double precision')
    .addColumn('active_circulante', 'double precision')
    .addColumn('active_total', 'double precision')
    .addColumn('nr_salariati', 'integer')
    .addColumn('indicators_json', 'text', (c) => c.notNull())
    .addColumn('derived_json', 'text', (c) => c.notNull())
    .addColumn('unmapped_json', 'text', (c) => c.notNull())
    .addColumn('synced_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('balance_sheets_company_year', ['company_id', 'an'])
    .execute();

  await db.schema
    .createTable('fiscal_profiles')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('cui', 'text', (c) => c.notNull())
    .addColumn('data_json', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .execute();
}
