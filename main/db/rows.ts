import type { LineVatCategory } from '../../shared/schemas/invoice';

/** Row shapes of the local tables, as better-sqlite3 returns them (booleans are 0/1 integers). */

export interface ClientRow {
  id: string;
  server_id: string | null;
  client_local_uuid: string | null;
  type: 'company' | 'person';
  name: string;
  cui: string | null;
  vat_payer: number;
  reg_com: string | null;
  cnp: string | null;
  address: string | null;
  city: string | null;
  county: string | null;
  country: string;
  postal_code: string | null;
  email: string | null;
  phone: string | null;
  iban: string | null;
  bank: string | null;
  notes: string | null;
  is_deleted: number;
  created_at: number;
  updated_at: number;
  server_updated_at: number | null;
}

export interface ProductRow {
  id: string;
  server_id: string | null;
  client_local_uuid: string | null;
  name: string;
  code: string | null;
  barcode: string | null;
  unit: string;
  unit_code: string;
  price_bani: number;
  price_includes_vat: number;
  vat_rate_bp: number;
  currency: string;
  is_service: number;
  is_deleted: number;
  created_at: number;
  updated_at: number;
  server_updated_at: number | null;
}

export interface SeriesRow {
  id: string;
  kind: 'invoice' | 'receipt';
  name: string;
  document_type: 'fiscal' | 'proforma' | 'receipt';
  description: string;
  format: string;
  start_number: number;
  next_number: number;
  year: number;
  is_primary: number;
  is_used: number;
  is_locked: number;
  lock: string | null;
  numbering_mode: 'shared' | 'exclusive' | null;
  local_next_number: number | null;
  lock_tail: string | null;
  pool_target: number;
  low_water: number;
  created_at: number;
  pulled_at: number | null;
}

export interface ReservationRow {
  token: string;
  series_id: string;
  number: number;
  full_number: string;
  year: number;
  status: 'pending' | 'used' | 'releasing' | 'released' | 'consumed';
  device_id: string;
  reserved_at: number;
  expires_at: number;
  used_by: string | null;
  updated_at: number;
}

export interface InvoiceRow {
  id: string;
  server_id: string | null;
  client_local_uuid: string | null;
  document_type: 'fiscal' | 'proforma';
  status: 'draft' | 'issued' | 'voided' | 'storno';
  series_id: string | null;
  series_name: string | null;
  number: number | null;
  full_number: string | null;
  numbering: 'reservation' | 'lock' | 'server' | null;
  reservation_token: string | null;
  issue_date: string;
  due_date: string | null;
  /** Delivery or service date when it is not the issue date (desktop migration 0009). */
  delivery_date: string | null;
  client_id: string | null;
  buyer: string | null;
  /** The seller copied at issue (zSellerSnapshot JSON, desktop migration 0010); null on drafts and older rows. */
  seller: string | null;
  /** Discounts and charges on the whole invoice (JSON of StoredAdjustment[], main/local/invoices.ts; desktop migration 0014); null when none. */
  allowances_charges: string | null;
  /** References (JSON of InvoiceReferencesView; desktop migration 0014); null when none. */
  references_json: string | null;
  currency: string;
  exchange_rate: number | null;
  language: string;
  reverse_charge: number;
  net_bani: number;
  vat_bani: number;
  total_bani: number;
  discount_bani: number;
  vat_breakdown: string;
  paid_state: 'unpaid' | 'partially_paid' | 'paid';
  amount_paid_bani: number;
  payment_method: string | null;
  observations: string | null;
  storno_of: string | null;
  storno_id: string | null;
  converted_from: string | null;
  converted_to: string | null;
  efactura_enabled: number;
  spv_environment: 'live' | 'test';
  efactura_status: string;
  device_id: string | null;
  is_deleted: number;
  issued_at: number | null;
  created_at: number;
  updated_at: number;
  server_updated_at: number | null;
}

export interface InvoiceLineRow {
  invoice_id: string;
  position: number;
  product_id: string | null;
  description: string;
  quantity_milli: number;
  unit: string;
  unit_code: string;
  price_bani: number;
  vat_rate_bp: number;
  discount_bp: number;
  vat_exemption_reason: string | null;
  /** A 0% line's category as given or pulled; null reads as E (migration 0007). */
  vat_category: LineVatCategory | null;
  /** 1 when price_bani includes VAT (a shelf price; migration 0010). */
  price_includes_vat: number;
  /** The price in ten-thousandths of a leu (up to 4 decimals); null on lines from before migration 0014 (= price_bani x 100). */
  price_e4: number | null;
  /** The quantity the price is for, in thousandths; null before migration 0014 (= 1000). */
  base_quantity_milli: number | null;
  /** 1 when the line sells a service, as it was when written (migration 0016; 0 on lines from before). */
  is_service: number;
  discount_bani: number;
  net_bani: number;
  vat_bani: number;
  total_bani: number;
}

export interface ReceiptRow {
  id: string;
  server_id: string | null;
  client_local_uuid: string | null;
  receipt_number: string | null;
  series_id: string | null;
  number: number | null;
  numbering: 'lock' | 'server' | 'reservation' | null;
  /** The reserved number's token, when numbered offline from this device's pool (desktop migration 0008). */
  reservation_token: string | null;
  amount_bani: number;
  amount_without_vat_bani: number;
  amount_vat_bani: number;
  currency: string;
  date: string | null;
  observations: string | null;
  language: string | null;
  type: 'receipt' | 'bank_order' | 'card' | 'fiscal_receipt' | 'other';
  is_draft: number;
  is_deleted: number;
  exchange_rate: number | null;
  exchange_currency: string | null;
  client_id: string | null;
  client_name: string;
  invoice_id: string | null;
  payment_id: string | null;
  created_at: number;
  updated_at: number;
  server_updated_at: number | null;
}

export interface PaymentRow {
  id: string;
  server_id: string | null;
  client_local_uuid: string | null;
  amount_bani: number;
  currency: string;
  date: string | null;
  type: string;
  invoice_id: string | null;
  receipt_id: string | null;
  client_name: string | null;
  created_at: number;
}
