import type { Migration } from './types';

/**
 * Series, number reservations, invoices with their lines, receipts and payments. References between
 * local rows (`client_id`, `invoice_id`, `product_id`) hold local ids, never server ids, so a record
 * made offline can point at another made offline; the sync engine maps them when it sends.
 */
export const migration0003: Migration = {
  id: 3,
  name: 'invoicing',
  up: (exec) =>
    exec(`
-- Invoice series and receipt series (kind): a receipt series prints <prefix>-<number>, never
-- restarts yearly (year 0) and numbers offline only under this device's lock (no reservations).
CREATE TABLE series (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL DEFAULT 'invoice' CHECK (kind IN ('invoice', 'receipt')),
  name TEXT NOT NULL,
  document_type TEXT NOT NULL CHECK (document_type IN ('fiscal', 'proforma', 'receipt')),
  description TEXT NOT NULL DEFAULT '',
  format TEXT NOT NULL,
  start_number INTEGER NOT NULL,
  next_number INTEGER NOT NULL,
  year INTEGER NOT NULL,
  is_primary INTEGER NOT NULL DEFAULT 0,
  is_used INTEGER NOT NULL DEFAULT 0,
  is_locked INTEGER NOT NULL DEFAULT 0,
  lock TEXT,
  numbering_mode TEXT CHECK (numbering_mode IN ('shared', 'exclusive')),
  local_next_number INTEGER,
  -- The outbox item of the last number taken under this device's lock: the next one waits for it,
  -- because the server checks continuity. Kept here so that finding it costs one lookup.
  lock_tail TEXT,
  pool_target INTEGER NOT NULL DEFAULT 20,
  low_water INTEGER NOT NULL DEFAULT 5,
  created_at INTEGER NOT NULL,
  pulled_at INTEGER
) STRICT;

CREATE TABLE reservations (
  token TEXT PRIMARY KEY,
  series_id TEXT NOT NULL REFERENCES series (id),
  number INTEGER NOT NULL,
  full_number TEXT NOT NULL,
  year INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'used', 'releasing', 'released', 'consumed')),
  device_id TEXT NOT NULL,
  reserved_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_by TEXT,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX reservations_pool ON reservations (series_id, status, number);

-- A refill request written before it is sent: after a crash the same Idempotency-Key is reused, so
-- the numbers the server reserved for a lost reply are replayed instead of orphaned.
CREATE TABLE refill_intents (
  id TEXT PRIMARY KEY,
  series_id TEXT NOT NULL REFERENCES series (id),
  count INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE invoices (
  id TEXT PRIMARY KEY,
  server_id TEXT UNIQUE,
  client_local_uuid TEXT UNIQUE,
  document_type TEXT NOT NULL CHECK (document_type IN ('fiscal', 'proforma')),
  status TEXT NOT NULL CHECK (status IN ('draft', 'issued', 'voided', 'storno')),
  series_id TEXT,
  series_name TEXT,
  number INTEGER,
  full_number TEXT,
  numbering TEXT CHECK (numbering IN ('reservation', 'lock', 'server')),
  reservation_token TEXT,
  issue_date TEXT NOT NULL,
  due_date TEXT,
  client_id TEXT,
  buyer TEXT,
  currency TEXT NOT NULL DEFAULT 'RON',
  exchange_rate REAL,
  language TEXT NOT NULL DEFAULT 'ro',
  reverse_charge INTEGER NOT NULL DEFAULT 0,
  net_bani INTEGER NOT NULL,
  vat_bani INTEGER NOT NULL,
  total_bani INTEGER NOT NULL,
  discount_bani INTEGER NOT NULL DEFAULT 0,
  vat_breakdown TEXT NOT NULL,
  paid_state TEXT NOT NULL DEFAULT 'unpaid' CHECK (paid_state IN ('unpaid', 'partially_paid', 'paid')),
  amount_paid_bani INTEGER NOT NULL DEFAULT 0,
  payment_method TEXT,
  observations TEXT,
  storno_of TEXT,
  storno_id TEXT,
  converted_from TEXT,
  converted_to TEXT,
  efactura_enabled INTEGER NOT NULL DEFAULT 0,
  spv_environment TEXT NOT NULL DEFAULT 'live',
  efactura_status TEXT NOT NULL DEFAULT 'not_sent',
  device_id TEXT,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  issued_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  server_updated_at INTEGER
) STRICT;
CREATE INDEX invoices_issue_date ON invoices (issue_date, created_at);
CREATE INDEX invoices_client ON invoices (client_id);
CREATE INDEX invoices_series_number ON invoices (series_id, number);
CREATE INDEX invoices_status ON invoices (status, paid_state);

CREATE TABLE invoice_lines (
  invoice_id TEXT NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  product_id TEXT,
  description TEXT NOT NULL,
  quantity_milli INTEGER NOT NULL,
  unit TEXT NOT NULL,
  unit_code TEXT NOT NULL,
  price_bani INTEGER NOT NULL,
  vat_rate_bp INTEGER NOT NULL,
  discount_bp INTEGER NOT NULL DEFAULT 0,
  vat_exemption_reason TEXT,
  discount_bani INTEGER NOT NULL,
  net_bani INTEGER NOT NULL,
  vat_bani INTEGER NOT NULL,
  total_bani INTEGER NOT NULL,
  PRIMARY KEY (invoice_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE receipts (
  id TEXT PRIMARY KEY,
  server_id TEXT UNIQUE,
  client_local_uuid TEXT UNIQUE,
  receipt_number TEXT,
  series_id TEXT,
  number INTEGER,
  numbering TEXT CHECK (numbering IN ('lock', 'server')),
  amount_bani INTEGER NOT NULL,
  amount_without_vat_bani INTEGER NOT NULL DEFAULT 0,
  amount_vat_bani INTEGER NOT NULL DEFAULT 0,
  currency TEXT NOT NULL DEFAULT 'RON',
  date TEXT,
  observations TEXT,
  language TEXT,
  type TEXT NOT NULL DEFAULT 'receipt',
  is_draft INTEGER NOT NULL DEFAULT 0,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  exchange_rate REAL,
  exchange_currency TEXT,
  client_id TEXT,
  client_name TEXT NOT NULL,
  invoice_id TEXT,
  payment_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  server_updated_at INTEGER
) STRICT;
CREATE INDEX receipts_date ON receipts (date, created_at);
CREATE INDEX receipts_invoice ON receipts (invoice_id);

CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  server_id TEXT UNIQUE,
  client_local_uuid TEXT UNIQUE,
  amount_bani INTEGER NOT NULL,
  currency TEXT NOT NULL,
  date TEXT,
  type TEXT NOT NULL,
  invoice_id TEXT,
  receipt_id TEXT,
  client_name TEXT,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX payments_invoice ON payments (invoice_id);
`),
};
