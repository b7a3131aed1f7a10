import type { ExportJobFormat, ExportJobState } from '../../../shared/schemas/accounting';

/**
 * Tables of the accounting module (Kysely row types). Money integer bani, timestamps Unix seconds,
 * dates `YYYY-MM-DD` text, like the rest of the service.
 */

export type CashMovementKind = 'opening' | 'bank_deposit' | 'bank_withdrawal' | 'payment' | 'receipt' | 'correction';

/**
 * Cash that moves without a document of another module: the opening balance, deposits to and
 * withdrawals from the bank, other payments and receipts, and corrections of a closed day.
 */
export interface CashMovementsTable {
  id: string;
  company_id: string;
  work_point_id: string;
  currency: string;
  date: string;
  kind: CashMovementKind;
  /** Signed: positive cash in, negative cash out. */
  amount_bani: number;
  /** The supporting document (dispoziție de plată/încasare, foaie de vărsământ), as printed. */
  document_number: string | null;
  description: string;
  /** A correction names the entry (any source: `rcp_…`, `exp_…`, `cash_…`) it corrects. */
  corrects_id: string | null;
  created_at: number;
}

/** A closed day of a register: after it, its entries change only through a correction on an open day. */
export interface CashDaysTable {
  company_id: string;
  work_point_id: string;
  currency: string;
  date: string;
  opening_bani: number;
  closing_bani: number;
  closed_at: number;
  closed_by_key: string;
}

/** The daily cash ceilings of a company (Legea 70/2015 art. 3-4; the law changes them, so they are settings). */
export interface CashSettingsTable {
  company_id: string;
  /** Cash received in one day from one company or other legal person (B2B). */
  b2b_daily_limit_bani: number;
  /** Cash received in one day from one natural person (B2C). */
  b2c_daily_limit_bani: number;
  updated_at: number;
}

/** A long export made in the background (export-jobs.ts): its progress in documents, then its file. */
export interface ExportJobsTable {
  id: string;
  company_id: string;
  format: ExportJobFormat;
  start_date: string;
  end_date: string;
  state: ExportJobState;
  done: number;
  total: number;
  file_name: string;
  content_type: string;
  /** Set once ready: the file's size and SHA-256 (a file on disk that disagrees is never served). */
  bytes: number | null;
  sha256: string | null;
  error_code: string | null;
  /** Renewed while the job runs: a running job that stopped beating died with its process. */
  heartbeat_at: number;
  created_at: number;
  finished_at: number | null;
}

export interface AccountingTables {
  accounting_export_jobs: ExportJobsTable;
  cash_movements: CashMovementsTable;
  cash_days: CashDaysTable;
  cash_settings: CashSettingsTable;
}
