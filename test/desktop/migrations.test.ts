import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MigrationMismatchError, appliedMigrations, migrate } from '../../main/db/migrate';
import { MIGRATIONS } from '../../main/db/migrations/index';
import { sql } from '../../main/db/sql';
import { Store } from '../../main/db/store';

const dirs: string[] = [];
function freshStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'tejghea-mig-'));
  dirs.push(dir);
  return new Store({ path: join(dir, 'db.sqlite') });
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tables(store: Store): Map<string, boolean> {
  const rows = store.reader.all<{ name: string; strict: number; type: string }>(sql`SELECT name, strict, type FROM pragma_table_list WHERE schema = 'main'`);
  return new Map(rows.filter((r) => r.type === 'table').map((r) => [r.name, r.strict === 1]));
}

function upTo(n: number) {
  return MIGRATIONS.slice(0, n);
}

describe('migrations', () => {
  it('are numbered 1..n without holes', () => {
    expect(MIGRATIONS.map((m) => m.id)).toEqual(MIGRATIONS.map((_m, i) => i + 1));
  });

  it('0001 core: settings, sync state, outbox with state check and dependencies', () => {
    const store = freshStore();
    expect(migrate(store, upTo(1))).toEqual([1]);
    const t = tables(store);
    for (const name of ['settings', 'sync_state', 'outbox', 'outbox_deps', 'refresh_queue']) expect(t.get(name)).toBe(true);
    store.write((db) => {
      db.run(sql`INSERT INTO outbox (id, seq, kind, entity_type, entity_id, payload, state, created_at, updated_at) VALUES ('a', 1, 'k', 'client', 'x', '{}', 'pending', 0, 0)`);
    });
    expect(() =>
      store.write((db) => db.run(sql`INSERT INTO outbox (id, seq, kind, entity_type, entity_id, payload, state, created_at, updated_at) VALUES ('b', 2, 'k', 'client', 'x', '{}', 'sent', 0, 0)`)),
    ).toThrow(/CHECK/);
    // STRICT: a text in an INTEGER column is refused, not coerced.
    expect(() =>
      store.write((db) => db.run(sql`INSERT INTO outbox (id, seq, kind, entity_type, entity_id, payload, state, created_at, updated_at) VALUES ('c', 'three', 'k', 'client', 'x', '{}', 'pending', 0, 0)`)),
    ).toThrow(/cannot store TEXT value in INTEGER column/);
    // A dependency on an item that does not exist is refused (foreign keys are on).
    expect(() => store.write((db) => db.run(sql`INSERT INTO outbox_deps (item_id, depends_on) VALUES ('a', 'nope')`))).toThrow(/FOREIGN KEY/);
    store.close();
  });

  it('0002 catalog: clients and products are strict; RON and the standard VAT rates are seeded', () => {
    const store = freshStore();
    migrate(store, upTo(1));
    expect(migrate(store, upTo(2))).toEqual([2]);
    const t = tables(store);
    for (const name of ['clients', 'products', 'currencies', 'vat_rates']) expect(t.get(name)).toBe(true);
    expect(store.reader.all(sql`SELECT code FROM currencies`)).toEqual([{ code: 'RON' }]);
    expect(store.reader.all<{ rate_bp: number }>(sql`SELECT rate_bp FROM vat_rates ORDER BY rate_bp DESC`).map((r) => r.rate_bp)).toEqual([2100, 1900, 1100, 900, 500, 0]);
    expect(() =>
      store.write((db) => db.run(sql`INSERT INTO products (id, name, unit, unit_code, price_bani, vat_rate_bp, created_at, updated_at) VALUES ('p', 'x', 'buc', 'H87', '12.5', 2100, 0, 0)`)),
    ).toThrow(/cannot store/);
    store.close();
  });

  it('0003 invoicing: lines go with their invoice; reservation states are checked', () => {
    const store = freshStore();
    migrate(store, upTo(2));
    expect(migrate(store, upTo(3))).toEqual([3]);
    const t = tables(store);
    for (const name of ['series', 'reservations', 'refill_intents', 'invoices', 'invoice_lines', 'receipts', 'payments']) expect(t.get(name)).toBe(true);
    store.write((db) => {
      db.run(sql`INSERT INTO invoices (id, document_type, status, issue_date, net_bani, vat_bani, total_bani, vat_breakdown, created_at, updated_at)
                 VALUES ('i', 'fiscal', 'draft', '2026-11-21', 100, 21, 121, '[]', 0, 0)`);
      db.run(sql`INSERT INTO invoice_lines (invoice_id, position, description, quantity_milli, unit, unit_code, price_bani, vat_rate_bp, discount_bani, net_bani, vat_bani, total_bani)
                 VALUES ('i', 1, 'x', 1000, 'buc', 'H87', 100, 2100, 0, 100, 21, 121)`);
    });
    store.write((db) => db.run(sql`DELETE FROM invoices WHERE id = 'i'`));
    expect(store.reader.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM invoice_lines`)?.n).toBe(0);
    store.write((db) => db.run(sql`INSERT INTO series (id, name, document_type, format, start_number, next_number, year, created_at) VALUES ('s', 'TJ', 'fiscal', '{name}-{number}', 1, 1, 2026, 0)`));
    expect(() =>
      store.write((db) => db.run(sql`INSERT INTO reservations (token, series_id, number, full_number, year, status, device_id, reserved_at, expires_at, updated_at)
                                     VALUES ('t', 's', 1, 'TJ-1', 2026, 'lost', 'd', 0, 0, 0)`)),
    ).toThrow(/CHECK/);
    store.close();
  });

  it('0004 purchases: expense and supplier bill mirrors', () => {
    const store = freshStore();
    migrate(store, upTo(3));
    expect(migrate(store, upTo(4))).toEqual([4]);
    const t = tables(store);
    expect(t.get('expenses')).toBe(true);
    expect(t.get('supplier_bills')).toBe(true);
    store.write((db) => db.run(sql`INSERT INTO expenses (id, reference, description, total_bani, currency, date, status, data) VALUES ('e', NULL, NULL, 100, 'RON', '2026-11-21', 'unpaid', '{}')`));
    store.close();
  });

  it('0007 line VAT category: lines written before it read as none; only E, Z, K or G are stored', () => {
    const store = freshStore();
    migrate(store, upTo(6));
    store.write((db) => {
      db.run(sql`INSERT INTO invoices (id, document_type, status, issue_date, net_bani, vat_bani, total_bani, vat_breakdown, created_at, updated_at)
                 VALUES ('i', 'fiscal', 'issued', '2026-11-21', 100, 0, 100, '[]', 0, 0)`);
      db.run(sql`INSERT INTO invoice_lines (invoice_id, position, description, quantity_milli, unit, unit_code, price_bani, vat_rate_bp, vat_exemption_reason, discount_bani, net_bani, vat_bani, total_bani)
                 VALUES ('i', 1, 'Carte', 1000, 'buc', 'H87', 100, 0, 'art. 292', 0, 100, 0, 100)`);
    });
    expect(migrate(store, upTo(7))).toEqual([7]);
    expect(store.reader.get(sql`SELECT vat_exemption_reason, vat_category FROM invoice_lines WHERE invoice_id = 'i'`)).toEqual({ vat_exemption_reason: 'art. 292', vat_category: null });
    store.write((db) => {
      db.run(sql`INSERT INTO invoice_lines (invoice_id, position, description, quantity_milli, unit, unit_code, price_bani, vat_rate_bp, vat_category, discount_bani, net_bani, vat_bani, total_bani)
                 VALUES ('i', 2, 'Livrare UE', 1000, 'buc', 'H87', 100, 0, 'K', 0, 100, 0, 100)`);
    });
    expect(store.reader.all<{ vat_category: string | null }>(sql`SELECT vat_category FROM invoice_lines ORDER BY position`).map((r) => r.vat_category)).toEqual([null, 'K']);
    expect(() =>
      store.write((db) => db.run(sql`INSERT INTO invoice_lines (invoice_id, position, description, quantity_milli, unit, unit_code, price_bani, vat_rate_bp, vat_category, discount_bani, net_bani, vat_bani, total_bani)
                                     VALUES ('i', 3, 'x', 1000, 'buc', 'H87', 100, 0, 'AE', 0, 100, 0, 100)`)),
    ).toThrow(/CHECK/);
    store.close();
  });

  it('0008 receipt reservations: every receipt row is kept as it was, and a receipt may now carry a reserved number', () => {
    const store = freshStore();
    migrate(store, upTo(7));
    store.write((db) => {
      db.run(sql`INSERT INTO receipts (id, server_id, client_local_uuid, receipt_number, series_id, number, numbering, amount_bani, amount_without_vat_bani,
                 amount_vat_bani, currency, date, observations, language, type, is_draft, is_deleted, exchange_rate, exchange_currency, client_id, client_name,
                 invoice_id, payment_id, created_at, updated_at, server_updated_at)
                 VALUES ('r1', 'rcpt_1', 'u1', 'CH-7', 's1', 7, 'lock', 1500, 1200, 300, 'EUR', '2026-11-21', 'obs', 'en', 'receipt', 0, 1, 4.97, 'RON',
                 'c1', 'Ion Popescu', 'i1', 'p1', 10, 11, 12)`);
      db.run(sql`INSERT INTO receipts (id, amount_bani, client_name, created_at, updated_at) VALUES ('r2', 5, 'Trecător', 1, 1)`);
    });
    const before = store.reader.all(sql`SELECT * FROM receipts ORDER BY id`);
    expect(() => store.write((db) => db.run(sql`UPDATE receipts SET numbering = 'reservation' WHERE id = 'r2'`))).toThrow(/CHECK/);
    expect(migrate(store, upTo(8))).toEqual([8]);
    const after = store.reader.all<Record<string, unknown>>(sql`SELECT * FROM receipts ORDER BY id`);
    expect(after).toEqual(before.map((row) => ({ ...(row as Record<string, unknown>), reservation_token: null })));
    store.write((db) => db.run(sql`UPDATE receipts SET numbering = 'reservation', reservation_token = 'rsv_x' WHERE id = 'r2'`));
    expect(store.reader.get(sql`SELECT numbering, reservation_token FROM receipts WHERE id = 'r2'`)).toEqual({ numbering: 'reservation', reservation_token: 'rsv_x' });
    expect(() => store.write((db) => db.run(sql`UPDATE receipts SET numbering = 'other' WHERE id = 'r2'`))).toThrow(/CHECK/);
    const indexes = store.reader.all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'receipts' AND name NOT LIKE 'sqlite_%' ORDER BY name`);
    expect(indexes.map((i) => i.name)).toEqual(['receipts_date', 'receipts_invoice']);
    expect(tables(store).get('receipts')).toBe(true);
    store.close();
  });

  it('applies only what is missing, and nothing the second time', () => {
    const store = freshStore();
    expect(migrate(store)).toEqual(MIGRATIONS.map((m) => m.id));
    expect(migrate(store)).toEqual([]);
    expect(appliedMigrations(store).map((m) => m.id)).toEqual(MIGRATIONS.map((m) => m.id));
    store.close();
  });

  it('refuses a database migrated by a newer build (more migrations than known)', () => {
    const store = freshStore();
    migrate(store);
    store.write((db) => db.run(sql`INSERT INTO schema_migrations (id, name, applied_at) VALUES (${MIGRATIONS.length + 1}, 'future', 0)`));
    expect(() => migrate(store)).toThrow(MigrationMismatchError);
    store.close();
  });

  it('refuses applied migrations that are not a prefix of the known ones (another branch)', () => {
    const store = freshStore();
    migrate(store, upTo(2));
    store.write((db) => db.run(sql`UPDATE schema_migrations SET name = 'something_else' WHERE id = 2`));
    expect(() => migrate(store)).toThrow(/is not this build's/);
    // Nothing was applied past the mismatch.
    expect(tables(store).has('invoices')).toBe(false);
    store.close();
  });

  it('a failing migration leaves no trace (its own transaction)', () => {
    const store = freshStore();
    const broken = [...upTo(1), { id: 2, name: 'broken', up: (exec: (s: string) => void) => exec('CREATE TABLE half (a INTEGER) STRICT; SELECT * FROM nowhere;') }];
    expect(() => migrate(store, broken)).toThrow();
    expect(tables(store).has('half')).toBe(false);
    expect(appliedMigrations(store).map((m) => m.id)).toEqual([1]);
    store.close();
  });
});
