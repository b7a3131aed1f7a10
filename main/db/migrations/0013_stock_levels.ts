import type { Migration } from './types';

/**
 * Stock on the desktop (issue 15). `stock_levels`: the service's levels of this work point's
 * warehouses (GET /stock), keyed by the service's warehouse and product ids, as pulled; the service
 * is the authority. `stock_pending`: the local fiscal documents (sales, storno) the service's levels
 * do not include yet. The counter shows level minus what those documents' lines took, so an offline
 * sale lowers the figure at once; a document leaves this table once it is on the service AND a stock
 * pull that started after that has finished (main/local/stock/levels.ts), so a sale is never
 * counted twice nor forgotten in between. Triggers record every way a local document becomes fiscal
 * (issued at the counter, a draft issued, a storno numbered), whichever code path does it.
 */
export const migration0013: Migration = {
  id: 13,
  name: 'stock_levels',
  up: (exec) =>
    exec(`
CREATE TABLE stock_levels (
  warehouse_id TEXT NOT NULL,
  product_id TEXT NOT NULL,
  -- As the service names the product: the stock list shows products this device has not pulled yet.
  product_name TEXT NOT NULL,
  product_code TEXT,
  unit TEXT NOT NULL,
  quantity_milli INTEGER NOT NULL,
  unit_cost REAL NOT NULL,
  value_bani INTEGER NOT NULL,
  server_updated_at INTEGER NOT NULL,
  PRIMARY KEY (warehouse_id, product_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX stock_levels_product ON stock_levels (product_id);

CREATE TABLE stock_warehouses (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE stock_pending (
  invoice_id TEXT PRIMARY KEY REFERENCES invoices (id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

CREATE TRIGGER stock_pending_insert AFTER INSERT ON invoices
WHEN NEW.server_id IS NULL AND NEW.document_type = 'fiscal' AND NEW.status IN ('issued', 'storno') BEGIN
  INSERT OR IGNORE INTO stock_pending (invoice_id) VALUES (NEW.id);
END;
CREATE TRIGGER stock_pending_issue AFTER UPDATE OF status ON invoices
WHEN OLD.status = 'draft' AND NEW.status IN ('issued', 'storno') AND NEW.document_type = 'fiscal' BEGIN
  INSERT OR IGNORE INTO stock_pending (invoice_id) VALUES (NEW.id);
END;
-- An issue given back before it reached the service (the invoice is a draft again) took nothing.
CREATE TRIGGER stock_pending_unissue AFTER UPDATE OF status ON invoices
WHEN NEW.status = 'draft' BEGIN
  DELETE FROM stock_pending WHERE invoice_id = NEW.id;
END;
CREATE TRIGGER stock_pending_delete AFTER DELETE ON invoices BEGIN
  DELETE FROM stock_pending WHERE invoice_id = OLD.id;
END;
`),
};
