import type { Migration } from './types';

/**
 * What the counter finds things by. `products.barcode`: the barcode printed on the article, apart
 * from its code (SKU), as the service keeps it (catalog migration 0130). `search_text` on products
 * and clients: the name (and code, barcode or CUI) folded by `tejghea_fold` (lower case, no
 * diacritics, both the comma and the cedilla ș/ş ț/ţ: shared/text/search-fold.ts), kept right by
 * triggers on every write path, so "stefan" finds "Ștefan" and "Ştefan" alike.
 */
export const migration0012: Migration = {
  id: 12,
  name: 'counter_search',
  up: (exec) =>
    exec(`
ALTER TABLE products ADD COLUMN barcode TEXT;
CREATE INDEX products_barcode ON products (barcode);
ALTER TABLE products ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
UPDATE products SET search_text = tejghea_fold(name || ' ' || COALESCE(code, '') || ' ' || COALESCE(barcode, ''));
CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN
  UPDATE products SET search_text = tejghea_fold(NEW.name || ' ' || COALESCE(NEW.code, '') || ' ' || COALESCE(NEW.barcode, '')) WHERE id = NEW.id;
END;
CREATE TRIGGER products_search_update AFTER UPDATE OF name, code, barcode ON products BEGIN
  UPDATE products SET search_text = tejghea_fold(NEW.name || ' ' || COALESCE(NEW.code, '') || ' ' || COALESCE(NEW.barcode, '')) WHERE id = NEW.id;
END;

ALTER TABLE clients ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
UPDATE clients SET search_text = tejghea_fold(name || ' ' || COALESCE(cui, ''));
CREATE TRIGGER clients_search_insert AFTER INSERT ON clients BEGIN
  UPDATE clients SET search_text = tejghea_fold(NEW.name || ' ' || COALESCE(NEW.cui, '')) WHERE id = NEW.id;
END;
CREATE TRIGGER clients_search_update AFTER UPDATE OF name, cui ON clients BEGIN
  UPDATE clients SET search_text = tejghea_fold(NEW.name || ' ' || COALESCE(NEW.cui, '')) WHERE id = NEW.id;
END;
`),
};
