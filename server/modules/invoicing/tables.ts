import type { LineVatCategory } from '../../../shared/schemas/invoice';

/**
 * Tables of the invoicing module (Kysely row types). Booleans are integers 0/1 on both dialects,
 * money is integer bani, timestamps Unix seconds, dates `YYYY-MM-DD` text.
 */

/** Invoice series and receipt series share one table, so locks, counters and gaps have one engine. */
export type SeriesKind = 'invoice' | 'receipt';

export interface NumberSeriesTable {
  id: string;
  company_id: string;
  work_point_id: string;
  kind: SeriesKind;
  /** The prefix (`TJ`, `CH`). */
  name: string;
  /** `fiscal` or `proforma` for invoice series; `receipt` for receipt series. */
  document_type: string;
  description: string;
  start_number: number;
  format: string;
  is_primary: number;
  /** Exclusive holder (contract: the series' `lock` object); all null when unlocked. */
  lock_device_id: string | null;
  lock_session_id: number | null;
  lock_user_id: number | null;
  lock_device_name: string | null;
  lock_device_platform: string | null;
  locked_at: number | null;
  created_at: number;
  updated_at: number | null;
}

/**
 * The next number of a series in a year. A row exists once a number of that year was taken, so
 * "the series is used" is "it has a counter row". Receipt series count in year 0 (no yearly restart).
 */
export interface SeriesCountersTable {
  series_id: string;
  year: number;
  next_number: number;
}

export type ReservationStatus = 'pending' | 'released' | 'consumed';

export interface NumberReservationsTable {
  token: string;
  company_id: string;
  series_id: string;
  year: number;
  number: number;
  device_id: string;
  /** `expired` is never stored: it is a pending reservation read after expires_at. */
  status: ReservationStatus;
  reserved_at: number;
  expires_at: number;
  consumed_at: number | null;
  released_at: number | null;
  client_local_uuid: string | null;
  invoice_id: string | null;
  /** The receipt that consumed a receipt series' reservation (migration 0206). */
  receipt_id: string | null;
}

/**
 * Stored gaps: released reservations, numbers set aside at a lock takeover, numbers of deleted
 * issued invoices. Expired reservations are gaps too, but derived at read time from the reservations.
 */
export interface NumberGapsTable {
  id: string;
  company_id: string;
  series_id: string;
  year: number;
  number: number;
  reason: 'released' | 'lock_takeover' | 'deleted';
  device_id: string | null;
  reservation_token: string | null;
  recorded_at: number;
}

export interface InvoicesTable {
  id: string;
  company_id: string;
  work_point_id: string;
  document_type: 'fiscal' | 'proforma';
  status: 'draft' | 'issued' | 'voided' | 'storno';
  series_id: string | null;
  series_name: string | null;
  /** Numbering year (the counter the number came from); null on a draft. */
  year: number | null;
  number: number | null;
  full_number: string | null;
  issue_date: string;
  due_date: string | null;
  /** Delivery or service date when it is not the issue date (migration 0207). */
  delivery_date: string | null;
  client_id: string | null;
  /** JSON of the buyer snapshot (zPartySnapshot), null when there is no client. */
  buyer_json: string | null;
  buyer_name: string | null;
  /** JSON of the seller copied at issue (zSellerSnapshot, migration 0250); null on drafts and older invoices. */
  seller_json: string | null;
  /** Discounts and charges on the whole invoice (JSON of StoredAdjustment[], pricing.ts); null when none. */
  allowances_charges_json: string | null;
  /** Order, contract, buyer, despatch, receipt, project, tender and invoiced-object references (JSON of InvoiceReferencesView); null when none. */
  references_json: string | null;
  currency: string;
  exchange_rate: number | null;
  language: string;
  reverse_charge: number;
  net_bani: number;
  vat_bani: number;
  total_bani: number;
  discount_bani: number;
  /** JSON array of { vat_rate_bp, net_bani, vat_bani, total_bani }. */
  vat_breakdown_json: string;
  amount_paid_bani: number;
  paid_state: 'unpaid' | 'partially_paid' | 'paid';
  payment_method: string | null;
  observations: string | null;
  storno_of: string | null;
  storno_id: string | null;
  converted_from: string | null;
  converted_to: string | null;
  efactura_enabled: number;
  spv_environment: 'live' | 'test';
  efactura_status: 'not_sent' | 'pending' | 'accepted' | 'rejected';
  client_local_uuid: string | null;
  device_id: string | null;
  reservation_token: string | null;
  issued_at: number | null;
  created_at: number;
  updated_at: number | null;
}

export interface InvoiceLinesTable {
  id: string;
  invoice_id: string;
  company_id: string;
  position: number;
  product_id: string | null;
  description: string;
  quantity_milli: number;
  unit: string;
  unit_code: string;
  /** The price rounded to the ban; `price_e4` is the price itself. */
  price_bani: number;
  /**
   * The unit price in ten-thousandths of a leu, as given (up to 4 decimals). Null on lines stored before
   * migration 0270, whose price is `price_bani` (see storedPriceE4 in pricing.ts).
   */
  price_e4: number | null;
  /** The quantity the price is for, in thousandths (1000 = per unit); null before migration 0270 (= 1000). */
  base_quantity_milli: number | null;
  vat_rate_bp: number;
  discount_bp: number;
  vat_exemption_reason: string | null;
  /** E, Z, K or G on a 0% line; null = E (and on every line with a rate above 0). Migration 0205. */
  vat_category: LineVatCategory | null;
  /** 1 when `price_bani` includes VAT (a shelf price, computed per docs/shelf-prices.md). Migration 0230. */
  price_includes_vat: number;
  /** 1 when the line sells a service, as it was when written (migration 0280; 0 on lines from before). */
  is_service: number;
  discount_bani: number;
  net_bani: number;
  vat_bani: number;
  total_bani: number;
}

export interface PaymentsTable {
  id: string;
  company_id: string;
  work_point_id: string;
  invoice_id: string;
  amount_bani: number;
  amount_without_vat_bani: number;
  amount_vat_bani: number;
  currency: string;
  date: string | null;
  type: string;
  exchange_rate: number | null;
  exchange_currency: string | null;
  client_id: string | null;
  client_name: string;
  receipt_id: string | null;
  client_local_uuid: string | null;
  created_at: number;
  /** Migration 0203: a receipt's payment changes with its receipt; null until then. */
  updated_at: number | null;
}

export interface ReceiptsTable {
  id: string;
  company_id: string;
  work_point_id: string;
  series_id: string;
  number: number;
  receipt_number: string;
  amount_bani: number;
  amount_without_vat_bani: number;
  amount_vat_bani: number;
  currency: string;
  date: string | null;
  observations: string | null;
  language: string | null;
  is_draft: number;
  is_deleted: number;
  exchange_rate: number | null;
  exchange_currency: string | null;
  type: string;
  client_id: string | null;
  client_name: string;
  invoice_id: string | null;
  payment_id: string | null;
  client_local_uuid: string | null;
  device_id: string | null;
  created_at: number;
  updated_at: number | null;
  deleted_at: number | null;
}

export interface InvoicingTables {
  number_series: NumberSeriesTable;
  series_counters: SeriesCountersTable;
  number_reservations: NumberReservationsTable;
  number_gaps: NumberGapsTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  payments: PaymentsTable;
  receipts: ReceiptsTable;
}
