import { gs1CheckDigit } from '../../renderer/counter/barcode';
import type { ProductsTable } from '../../server/modules/catalog/tables';

/** The slice of better-sqlite3 the seeding needs (the device's own store handle). */
export interface SeedDb {
  prepare(sql: string): { run(...args: unknown[]): unknown };
  transaction(fn: () => void): () => void;
}

/** The EAN-13 of the i-th seeded product: a real one, check digit included, as a scanner reads it. */
export function benchBarcode(i: number): string {
  const body = `594${String(100_000_000 + i).padStart(9, '0')}`;
  return `${body}${gs1CheckDigit(body)}`;
}

/**
 * A shop's catalogue and history written straight into the device's local SQLite file, shaped as
 * pulls from the service leave them (the screens and the counter cannot tell them apart).
 */
export function seedCatalogueAndHistory(db: SeedDb, products: number, invoices: number): void {
  const product = db.prepare(`INSERT INTO products (id, server_id, name, code, barcode, unit, unit_code, price_bani, price_includes_vat, vat_rate_bp, currency,
      is_service, created_at, updated_at, server_updated_at) VALUES (?, ?, ?, ?, ?, 'buc', 'H87', ?, 1, 2100, 'RON', 0, 1, 1, 1)`);
  db.transaction(() => {
    for (let i = 0; i < products; i++) product.run(`prod_bench_${i}`, `prod_srv_${i}`, productName(i), `A${i}`, benchBarcode(i), 100 + (i % 5000));
  })();
  seedHistory(db, invoices);
}

function productName(i: number): string {
  return `Articol ${['cafea', 'ceai', 'lapte', 'pâine', 'brânză'][i % 5]} ${i}`;
}

/** A product as the service stores it: what a pull writes into the device's cache. */
export type ServiceProduct = Pick<ProductsTable, 'id' | 'name' | 'code' | 'barcode' | 'unit' | 'unit_code' | 'price' | 'price_includes_vat' | 'vat_rate_bp'>;

/**
 * The service's products written into the device's cache with their service ids, shaped as the pull
 * leaves them. The pull itself is paced to the contract's 1,000 requests an hour (100 products a
 * page), so 50,000 products would take half an hour to arrive; the bench is about the counter.
 */
export function cacheServiceProducts(db: SeedDb, products: readonly ServiceProduct[]): void {
  const insert = db.prepare(`INSERT INTO products (id, server_id, name, code, barcode, unit, unit_code, price_bani, price_includes_vat, vat_rate_bp, currency,
      is_service, created_at, updated_at, server_updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'RON', 0, 1, 1, 1)`);
  db.transaction(() => {
    for (const p of products) insert.run(`prod_cache_${p.id}`, p.id, p.name, p.code, p.barcode, p.unit, p.unit_code, p.price, p.price_includes_vat, p.vat_rate_bp);
  })();
}

/** The same catalogue as a CSV the service's product import reads (headers it maps by itself). */
export function catalogueCsv(products: number): string {
  const rows = ['Denumire,Cod,Cod de bare,UM,Preț cu TVA,Cota TVA'];
  for (let i = 0; i < products; i++) rows.push(`${productName(i)},A${i},${benchBarcode(i)},buc,${((100 + (i % 5000)) / 100).toFixed(2)},21`);
  return `${rows.join('\n')}\n`;
}

/** 100 000 issued invoices of earlier months, as pulls leave them. */
export function seedHistory(db: SeedDb, invoices: number): void {
  const invoice = db.prepare(`INSERT INTO invoices (id, server_id, document_type, status, series_id, series_name, number, full_number, numbering,
      issue_date, client_id, buyer, currency, net_bani, vat_bani, total_bani, discount_bani, vat_breakdown, paid_state, amount_paid_bani,
      spv_environment, issued_at, created_at, updated_at, server_updated_at)
    VALUES (?, ?, 'fiscal', 'issued', 'ser_old', 'OLD', ?, ?, 'server', '2026-01-15', NULL, ?, 'RON', 1000, 210, 1210, 0, '[]', 'paid', 1210, 'test', 1, 1, 1, 1)`);
  db.transaction(() => {
    for (let i = 0; i < invoices; i++) {
      invoice.run(`inv_bench_${i}`, `inv_srv_${i}`, i + 1, `OLD-2026-${String(i + 1).padStart(6, '0')}`, JSON.stringify({ name: `Client ${i % 400}`, cui: null, vat_payer: false, reg_com: null, cnp: null, address: null, city: null, county: null, country: 'RO', iban: null, bank: null }));
    }
  })();
}

/** The 99th percentile (nearest rank). */
export function p99(values: number[]): number {
  return percentile(values, 0.99);
}

/** The value that `share` of the samples do not exceed (nearest rank). */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * share) - 1))] ?? NaN;
}
