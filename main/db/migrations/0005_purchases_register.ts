import type { Migration } from './types';

/**
 * The supplier register and expenses made on this device. Suppliers come from GET /suppliers (keyed
 * like clients: the server id, or the `client_local_uuid`-style local id of one made here, with
 * `server_id` filled when it reaches the server). Expenses were a read-only mirror keyed by the
 * server id; they gain `server_id` (equal to `id` for every row pulled so far) so one recorded here
 * keeps its local id, and `paid_date`. Supplier bills gain their supplier's id, for the unpaid totals
 * per supplier.
 */
export const migration0005: Migration = {
  id: 5,
  name: 'purchases_register',
  up: (exec) =>
    exec(`
CREATE TABLE suppliers (
  id TEXT PRIMARY KEY,
  server_id TEXT UNIQUE,
  name TEXT NOT NULL,
  cui TEXT,
  vat_payer INTEGER NOT NULL DEFAULT 0,
  reg_com TEXT,
  address TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  server_updated_at INTEGER
) STRICT;
CREATE INDEX suppliers_name ON suppliers (name COLLATE NOCASE);
CREATE INDEX suppliers_cui ON suppliers (cui);

ALTER TABLE expenses ADD COLUMN server_id TEXT;
ALTER TABLE expenses ADD COLUMN paid_date TEXT;
UPDATE expenses SET server_id = id, paid_date = json_extract(data, '$.paid_date');
CREATE UNIQUE INDEX expenses_server_id ON expenses (server_id);
CREATE INDEX expenses_supplier ON expenses (supplier_id);

ALTER TABLE supplier_bills ADD COLUMN supplier_id TEXT;
UPDATE supplier_bills SET supplier_id = json_extract(data, '$.supplier_id');
CREATE INDEX supplier_bills_supplier ON supplier_bills (supplier_id, unpaid_bani);
`),
};
