import type { Kysely } from 'kysely';

// `is_used` of a currency or a VAT rate asks whether any row of the firm holds that value: without an
// index on (company_id, value) that question read every product of the firm on each GET /currencies
// and GET /vat-rates (issue 17, bench/catalog-usage.ts). The documents' indexes are the invoicing
// module's (0290).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('products_company_currency').on('products').columns(['company_id', 'currency']).execute();
  await db.schema.createIndex('products_company_vat_rate').on('products').columns(['company_id', 'vat_rate_bp']).execute();
  await db.schema.createIndex('bank_accounts_company_currency').on('bank_accounts').columns(['company_id', 'currency']).execute();
}
