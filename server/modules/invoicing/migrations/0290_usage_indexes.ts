import type { Kysely } from 'kysely';

// Whether a firm's documents hold a currency or a VAT rate (`is_used` in GET /currencies and
// GET /vat-rates, and the refusal to disable one in use) is a probe of one index per table: without
// these, GET /currencies read every invoice and payment of the firm (317 ms at 100,000 invoices on
// SQLite) and GET /vat-rates every invoice line of every firm (issue 17, bench/catalog-usage.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('invoices_company_currency').on('invoices').columns(['company_id', 'currency']).execute();
  await db.schema.createIndex('payments_company_currency').on('payments').columns(['company_id', 'currency']).execute();
  await db.schema.createIndex('receipts_company_currency').on('receipts').columns(['company_id', 'currency']).execute();
  await db.schema.createIndex('invoice_lines_company_vat_rate').on('invoice_lines').columns(['company_id', 'vat_rate_bp']).execute();
}
