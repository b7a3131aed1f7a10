import type { Migration } from './types';

/**
 * Expenses and supplier bills: read-only mirrors for the counter (what is due, to whom). The server
 * owns them entirely, so the whole reply is kept in `data` beside the columns the lists sort on.
 */
export const migration0004: Migration = {
  id: 4,
  name: 'purchases',
  up: (exec) =>
    exec(`
CREATE TABLE expenses (
  id TEXT PRIMARY KEY,
  reference TEXT,
  description TEXT,
  total_bani INTEGER NOT NULL,
  currency TEXT NOT NULL,
  date TEXT NOT NULL,
  due_date TEXT,
  status TEXT NOT NULL,
  supplier_id TEXT,
  data TEXT NOT NULL,
  updated_at TEXT
) STRICT;
CREATE INDEX expenses_date ON expenses (date);

CREATE TABLE supplier_bills (
  id TEXT PRIMARY KEY,
  invoice_number TEXT NOT NULL,
  supplier_name TEXT NOT NULL,
  issue_date TEXT,
  due_date TEXT,
  currency TEXT NOT NULL,
  tax_inclusive_bani INTEGER NOT NULL,
  unpaid_bani INTEGER NOT NULL,
  status TEXT NOT NULL,
  data TEXT NOT NULL,
  updated_at INTEGER
) STRICT;
CREATE INDEX supplier_bills_due ON supplier_bills (due_date);
`),
};
