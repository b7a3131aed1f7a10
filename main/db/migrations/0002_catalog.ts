import type { Migration } from './types';

/**
 * Clients, products, currencies and VAT rates. `id` is the local, stable key the UI uses: the server id
 * for a row that came from the server, the `client_local_uuid` for one made here. `server_id` is filled
 * when a local row reaches the server. Money in bani, VAT rates in basis points.
 */
export const migration0002: Migration = {
  id: 2,
  name: 'catalog',
  up: (exec) =>
    exec(`
CREATE TABLE clients (
  id TEXT PRIMARY KEY,
  server_id TEXT UNIQUE,
  client_local_uuid TEXT UNIQUE,
  type TEXT NOT NULL CHECK (type IN ('company', 'person')),
  name TEXT NOT NULL,
  cui TEXT,
  vat_payer INTEGER NOT NULL DEFAULT 0,
  reg_com TEXT,
  cnp TEXT,
  address TEXT,
  city TEXT,
  county TEXT,
  country TEXT NOT NULL DEFAULT 'RO',
  postal_code TEXT,
  email TEXT,
  phone TEXT,
  iban TEXT,
  bank TEXT,
  notes TEXT,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  server_updated_at INTEGER
) STRICT;
CREATE INDEX clients_name ON clients (name COLLATE NOCASE);
CREATE INDEX clients_cui ON clients (cui);

CREATE TABLE products (
  id TEXT PRIMARY KEY,
  server_id TEXT UNIQUE,
  client_local_uuid TEXT UNIQUE,
  name TEXT NOT NULL,
  code TEXT,
  unit TEXT NOT NULL,
  unit_code TEXT NOT NULL,
  price_bani INTEGER NOT NULL,
  price_includes_vat INTEGER NOT NULL DEFAULT 0,
  vat_rate_bp INTEGER NOT NULL,
  currency TEXT NOT NULL DEFAULT 'RON',
  is_service INTEGER NOT NULL DEFAULT 0,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  server_updated_at INTEGER
) STRICT;
CREATE INDEX products_name ON products (name COLLATE NOCASE);
CREATE INDEX products_code ON products (code);

CREATE TABLE currencies (
  code TEXT PRIMARY KEY,
  server_id TEXT,
  description TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0,
  is_used INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE vat_rates (
  id TEXT PRIMARY KEY,
  rate_bp INTEGER NOT NULL,
  name TEXT NOT NULL,
  is_custom INTEGER NOT NULL DEFAULT 0,
  is_deleted INTEGER NOT NULL DEFAULT 0
) STRICT;
INSERT INTO currencies (code, description, is_default, is_used) VALUES ('RON', 'Leu românesc', 1, 1);
INSERT INTO vat_rates (id, rate_bp, name) VALUES
  ('std_2100', 2100, '21%'), ('std_1100', 1100, '11%'), ('std_1900', 1900, '19%'),
  ('std_900', 900, '9%'), ('std_500', 500, '5%'), ('std_0', 0, '0%');
`),
};
