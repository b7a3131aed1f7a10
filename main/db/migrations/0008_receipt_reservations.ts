import type { Migration } from './types';

/**
 * Receipt series reserve numbers like invoice series: a receipt printed offline may carry a reserved
 * number (`numbering = 'reservation'`, with its `reservation_token`). SQLite cannot change a CHECK
 * constraint in place, so the table is made again with the wider one and every row copied.
 */
export const migration0008: Migration = {
  id: 8,
  name: 'receipt_reservations',
  up: (exec) =>
    exec(`
CREATE TABLE receipts_new (
  id TEXT PRIMARY KEY,
  server_id TEXT UNIQUE,
  client_local_uuid TEXT UNIQUE,
  receipt_number TEXT,
  series_id TEXT,
  number INTEGER,
  numbering TEXT CHECK (numbering IN ('lock', 'server', 'reservation')),
  reservation_token TEXT,
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
INSERT INTO receipts_new (id, server_id, client_local_uuid, receipt_number, series_id, number, numbering, amount_bani,
  amount_without_vat_bani, amount_vat_bani, currency, date, observations, language, type, is_draft, is_deleted, exchange_rate,
  exchange_currency, client_id, client_name, invoice_id, payment_id, created_at, updated_at, server_updated_at)
SELECT id, server_id, client_local_uuid, receipt_number, series_id, number, numbering, amount_bani,
  amount_without_vat_bani, amount_vat_bani, currency, date, observations, language, type, is_draft, is_deleted, exchange_rate,
  exchange_currency, client_id, client_name, invoice_id, payment_id, created_at, updated_at, server_updated_at
FROM receipts;
DROP TABLE receipts;
ALTER TABLE receipts_new RENAME TO receipts;
CREATE INDEX receipts_date ON receipts (date, created_at);
CREATE INDEX receipts_invoice ON receipts (invoice_id);
`),
};
