import type { Migration } from './types';

/**
 * The invoice list's text search reads one narrow, indexed column instead of parsing every row's
 * buyer JSON: `search_text` is the number and the buyer's name (the client's, for a draft without a
 * buyer snapshot) folded by `tejghea_fold` (lower case, no diacritics: shared/text/search-fold.ts),
 * which the Store registers on every connection. Triggers keep it right on every write path (local
 * actions, pulls, the replies of pushes), and when a client is renamed for its drafts.
 *
 * `invoices_search` covers the search: a LIKE '%term%' cannot seek a B-tree, but scanning this index
 * reads a few megabytes instead of every full row. `invoices_list_order` is the list's exact order,
 * so a page deep in the list (the scrollbar dragged to row 50 000) skips index entries, not sorted rows.
 *
 * Query planner statistics: without them SQLite takes `is_deleted = 0` for a selective equality and
 * walks `invoices_list_order` for a status filter too, reading every row to count 2% of them. ANALYZE
 * measures what is there; a device that has almost no invoices yet (the table grows to 100 000 by
 * pulls) gets typical figures instead, written the way SQLite documents for hand-made statistics.
 * The Store's `optimize()` (PRAGMA optimize, after sync passes) replaces them once the real table
 * differs tenfold.
 */
export const migration0006: Migration = {
  id: 6,
  name: 'invoice_search',
  up: (exec) =>
    exec(`
ALTER TABLE invoices ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
UPDATE invoices SET search_text = tejghea_fold(COALESCE(full_number, '') || ' ' ||
  COALESCE(json_extract(buyer, '$.name'), (SELECT c.name FROM clients c WHERE c.id = invoices.client_id), ''));
CREATE INDEX invoices_search ON invoices (is_deleted, search_text);
CREATE INDEX invoices_list_order ON invoices (is_deleted, issue_date DESC, created_at DESC, id DESC);

CREATE TRIGGER invoices_search_insert AFTER INSERT ON invoices BEGIN
  UPDATE invoices SET search_text = tejghea_fold(COALESCE(NEW.full_number, '') || ' ' ||
    COALESCE(json_extract(NEW.buyer, '$.name'), (SELECT c.name FROM clients c WHERE c.id = NEW.client_id), ''))
  WHERE id = NEW.id;
END;
CREATE TRIGGER invoices_search_update AFTER UPDATE OF full_number, buyer, client_id ON invoices BEGIN
  UPDATE invoices SET search_text = tejghea_fold(COALESCE(NEW.full_number, '') || ' ' ||
    COALESCE(json_extract(NEW.buyer, '$.name'), (SELECT c.name FROM clients c WHERE c.id = NEW.client_id), ''))
  WHERE id = NEW.id;
END;
CREATE TRIGGER clients_name_search AFTER UPDATE OF name ON clients BEGIN
  UPDATE invoices SET search_text = tejghea_fold(COALESCE(full_number, '') || ' ' || NEW.name)
  WHERE client_id = NEW.id AND json_extract(buyer, '$.name') IS NULL;
END;

ANALYZE;
CREATE TEMP TABLE fresh_device AS SELECT (SELECT COUNT(*) FROM invoices) < 1000 AS yes;
DELETE FROM sqlite_stat1 WHERE tbl = 'invoices' AND (SELECT yes FROM fresh_device);
INSERT INTO sqlite_stat1 (tbl, idx, stat) SELECT tbl, idx, stat FROM (
  SELECT 'invoices' AS tbl, NULL AS idx, '100000' AS stat
  UNION ALL SELECT 'invoices', 'invoices_list_order', '100000 100000 140 1 1'
  UNION ALL SELECT 'invoices', 'invoices_search', '100000 100000 2'
  UNION ALL SELECT 'invoices', 'invoices_status', '100000 25000 8000'
  UNION ALL SELECT 'invoices', 'invoices_issue_date', '100000 140 1'
  UNION ALL SELECT 'invoices', 'invoices_client', '100000 250'
  UNION ALL SELECT 'invoices', 'invoices_series_number', '100000 20000 1'
) WHERE (SELECT yes FROM fresh_device);
DROP TABLE fresh_device;
ANALYZE sqlite_schema;
`),
};
