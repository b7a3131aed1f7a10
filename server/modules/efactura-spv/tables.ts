import type { Generated } from 'kysely';
import type { BalanceSheetData } from '../../anaf/public-data-client';

/**
 * Tables of the efactura-spv module (Kysely row types). Flags are 0/1 integers, money integer bani,
 * timestamps Unix seconds, dates `YYYY-MM-DD` text, like the rest of the service.
 */

/**
 * One row per company linked with ANAF. The invoicing module's `assertEinvoicingReady` reads this
 * table by `company_id`: a row means "linked"; unlinking deletes it. Tokens are stored encrypted
 * (`encryption` = `aes-256-gcm`) when the server has ANAF_TOKEN_KEY, in clear (`none`) otherwise.
 */
export interface AnafOauthTokensTable {
  company_id: string;
  access_token: string;
  refresh_token: string;
  encryption: 'aes-256-gcm' | 'none';
  expires_at: number;
  refresh_expires_at: number | null;
  scope: string | null;
  /** 1 when ANAF refused the refresh token (expired or revoked): the company must consent again. */
  reconsent_required: number;
  connected_at: number;
  refreshed_at: number | null;
  updated_at: number;
  /** Until when (Unix seconds) one process holds the right to refresh the tokens. Migration 0411. */
  refresh_lease_until: number | null;
  /** Moved on every save of the tokens: how a process sees that another one refreshed. Migration 0411. */
  token_version: Generated<number>;
}

/** The `state` of an authorize URL, single use, so a callback proves it started here for this company. */
export interface AnafOauthStatesTable {
  state: string;
  company_id: string;
  key_id: string;
  created_at: number;
  expires_at: number;
}

/** The seller data of an e-Factura (address, trade register number, bank account). */
export interface CompanyProfilesTable {
  company_id: string;
  name: string | null;
  vat_payer: number;
  reg_com: string | null;
  street: string | null;
  city: string | null;
  /** ISO 3166-2:RO for Romania. */
  county_code: string | null;
  postal_code: string | null;
  country_code: string;
  iban: string | null;
  bank: string | null;
  email: string | null;
  phone: string | null;
  /** Share capital in bani (Legea 31/1990 art. 74); null when not given (PFA, II). Migration 0401. */
  capital_social_bani: number | null;
  /** 1 while the company applies "TVA la încasare" (Codul fiscal art. 282). Migration 0401. */
  vat_on_collection: number;
  created_at: number;
  updated_at: number;
}

export type SubmissionStatusColumn = 'uploading' | 'uploaded' | 'processing' | 'retrying' | 'accepted' | 'rejected' | 'failed';

/** An invoice sent (or being sent) to e-Factura: one row per attempt to obtain a verdict. */
export interface EfacturaSubmissionsTable {
  id: string;
  company_id: string;
  work_point_id: string;
  invoice_id: string;
  invoice_number: string;
  environment: 'test' | 'prod';
  status: SubmissionStatusColumn;
  /**
   * `<invoice id>:<environment>` while the submission is live (uploading to accepted), null once it
   * is rejected or failed. Unique: the database itself refuses a second live submission of an invoice.
   */
  active_key: string | null;
  /** The XML exactly as sent: a retry sends the same bytes, and it is the document of record. */
  xml: string;
  upload_standard: string;
  upload_b2c: number;
  upload_extern: number;
  upload_index: string | null;
  download_id: string | null;
  /** 1 when the last upload may have reached ANAF without us learning its index. */
  uncertain: number;
  attempts: number;
  /** Status polls made (stareMesaj), for the backoff. */
  polls: number;
  message: string;
  /** JSON array of ANAF's messages. */
  errors_json: string;
  /** The signed answer ZIP (base64), kept as the legal original once accepted. */
  answer_zip: string | null;
  next_check_at: number | null;
  last_error: string | null;
  attempt_started_at: number | null;
  uploaded_at: number | null;
  finished_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A message of the SPV inbox (a received invoice), downloaded once. */
export interface EfacturaMessagesTable {
  id: Generated<number>;
  company_id: string;
  environment: 'test' | 'prod';
  message_id: string;
  upload_index: string | null;
  cif: string;
  type: string;
  details: string;
  /** ISO 8601 with offset, from ANAF's `data_creare`. */
  creation_date: string;
  seller_cif: string | null;
  /** imported: a bill was made; failed: download or parse failed, retried by the next sync. */
  status: 'imported' | 'failed';
  error: string | null;
  xml: string | null;
  signature: string | null;
  created_at: number;
  updated_at: number;
}

export interface SupplierBillsTable {
  id: string;
  company_id: string;
  work_point_id: string;
  supplier_id: string;
  expense_id: string | null;
  client_id: string | null;
  efactura_message_id: number | null;
  source: 'spv' | 'manual';
  kind: 'invoice' | 'credit_note';
  invoice_number: string;
  invoice_type_code: string;
  issue_date: string;
  due_date: string | null;
  currency: string;
  /** Signed: a credit note is negative. */
  tax_exclusive_bani: number;
  tax_bani: number;
  tax_inclusive_bani: number;
  /** What is to be paid (BT-115): total - prepaid + rounding. */
  payable_bani: number;
  paid_bani: number;
  status: 'unpaid' | 'partially_paid' | 'paid';
  payment_date: string | null;
  payment_amount_bani: number | null;
  order_reference: string | null;
  note: string | null;
  /** JSON of the supplier party as the XML names it (kept even if the supplier row changes). */
  supplier_json: string | null;
  /** JSON of the document references as read from the XML (DocumentReferences); null when entered by hand. Migration 0420. */
  references_json: string | null;
  created_at: number;
  updated_at: number;
}

export interface SupplierBillLinesTable {
  id: string;
  bill_id: string;
  position: number;
  line_id: string;
  name: string;
  description: string | null;
  quantity_milli: number;
  unit_code: string | null;
  unit_price_bani: number;
  price_amount: string | null;
  line_net_bani: number;
  allowance_bani: number;
  charge_bani: number;
  vat_category: string;
  vat_rate_bp: number;
}

/** ANAF's PDF rendering of a received invoice, fetched once. */
export interface SupplierBillPdfsTable {
  message_row_id: number;
  company_id: string;
  /** base64: one column type on both dialects. */
  pdf: string;
  /** 0 when ANAF rendered it without validation (the XML failed its validator). */
  validated: number;
  created_at: number;
}

/** The ANAF summary as the client returns it, with its lists kept as JSON text. */
export interface BalanceSheetsTable extends Omit<BalanceSheetData, 'indicators' | 'derived' | 'unmapped'> {
  id: string;
  company_id: string;
  /** JSON: ANAF's indicators verbatim, and which summary members were derived. */
  indicators_json: string;
  derived_json: string;
  unmapped_json: string;
  synced_at: number;
}

/** The firm's own registry entry, cached. */
export interface FiscalProfilesTable {
  company_id: string;
  cui: string;
  data_json: string;
  fetched_at: number;
}

export interface EfacturaSpvTables {
  anaf_oauth_tokens: AnafOauthTokensTable;
  anaf_oauth_states: AnafOauthStatesTable;
  company_profiles: CompanyProfilesTable;
  efactura_submissions: EfacturaSubmissionsTable;
  efactura_messages: EfacturaMessagesTable;
  supplier_bills: SupplierBillsTable;
  supplier_bill_lines: SupplierBillLinesTable;
  supplier_bill_pdfs: SupplierBillPdfsTable;
  balance_sheets: BalanceSheetsTable;
  fiscal_profiles: FiscalProfilesTable;
}
