/**
 * Tables of the catalog module (Kysely row types). Every table carries `company_id`: catalogs are
 * company-wide, shared by all work points. Flags are integers 0/1 (one column type on both
 * dialects; better-sqlite3 cannot bind booleans). `created_on` is the Bucharest calendar day of
 * `created_at`, kept beside it so that `start_date`/`end_date` filter on a plain text column.
 *
 * What is NOT stored, by design: the always-present entries (RON, the language `ro`, the standard
 * VAT rates). They exist for every firm without a row; use `lookups.ts` rather than querying
 * `currencies`, `languages` or `vat_rates` directly.
 */

export interface ClientsTable {
  id: string;
  company_id: string;
  type: 'company' | 'person';
  name: string;
  /** Digits only, no `RO` prefix, for a Romanian company; a foreign company's number as given. */
  cui: string | null;
  vat_payer: number;
  reg_com: string | null;
  cnp: string | null;
  address: string | null;
  city: string | null;
  county: string | null;
  /** ISO 3166 alpha-2. */
  country: string;
  postal_code: string | null;
  email: string | null;
  phone: string | null;
  iban: string | null;
  bank: string | null;
  notes: string | null;
  /** Unique per company: the desktop app's offline id, which makes a create safe to repeat. */
  client_local_uuid: string | null;
  /** Soft delete: invoices keep pointing at a deleted client. */
  is_deleted: number;
  deleted_at: number | null;
  created_at: number;
  created_on: string;
  updated_at: number | null;
}

export interface ProductsTable {
  id: string;
  company_id: string;
  name: string;
  /** Unique per company when set (SKU or barcode). */
  code: string | null;
  /** The barcode printed on the article (EAN-13...), unique per company when set; apart from the SKU `code`. */
  barcode: string | null;
  unit: string;
  unit_code: string;
  /** Bani. */
  price: number;
  price_includes_vat: number;
  /** Hundredths of a percent (21% = 2100): exact for custom rates such as 9.5%. */
  vat_rate_bp: number;
  currency: string;
  is_service: number;
  created_at: number;
  created_on: string;
  updated_at: number | null;
}

export interface BankAccountsTable {
  id: string;
  company_id: string;
  /** Uppercase, no spaces; unique per company. */
  iban: string;
  bank: string | null;
  name: string | null;
  currency: string;
  /** At most one default per (company, currency). */
  is_default: number;
  created_at: number;
  created_on: string;
  updated_at: number | null;
}

/** The firm's custom VAT rates only; the standard set is not stored. */
export interface VatRatesTable {
  id: string;
  company_id: string;
  /** Hundredths of a percent; unique per company. */
  rate_bp: number;
  name: string;
  created_at: number;
  created_on: string;
  updated_at: number | null;
}

/** Currencies enabled beyond RON (which is always enabled and never stored). */
export interface CurrenciesTable {
  id: string;
  company_id: string;
  /** ISO 4217 alpha-3; unique per company. */
  code: string;
  created_at: number;
}

/** Languages enabled beyond `ro` (always enabled, never stored). */
export interface LanguagesTable {
  id: string;
  company_id: string;
  code: string;
  created_at: number;
}

export interface CatalogTables {
  clients: ClientsTable;
  products: ProductsTable;
  bank_accounts: BankAccountsTable;
  vat_rates: VatRatesTable;
  currencies: CurrenciesTable;
  languages: LanguagesTable;
}
