import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/types';

/**
 * Who points at a catalog entry. A currency cannot be disabled while a product, a bank account or
 * a document is in it; a custom VAT rate cannot be deleted while a product (or a line) uses it. The documents
 * belong to other modules, written at the same time as this one, so their columns are listed here
 * by name and checked only when the table (with `company_id` and that column) exists in the
 * database: a module that is not there yet simply references nothing. Another module may add its
 * own with `addReference`.
 */
export type ReferenceKind = 'currency' | 'vat_rate';

export interface Reference {
  table: string;
  /** Holds the referenced value: a currency code; for `vat_rate`, hundredths of a percent. */
  column: string;
}

const references: Record<ReferenceKind, Reference[]> = {
  currency: [
    { table: 'products', column: 'currency' },
    { table: 'bank_accounts', column: 'currency' },
    { table: 'invoices', column: 'currency' },
    { table: 'receipts', column: 'currency' },
    { table: 'payments', column: 'currency' },
  ],
  vat_rate: [{ table: 'products', column: 'vat_rate_bp' }],
};

export function addReference(kind: ReferenceKind, reference: Reference): void {
  const list = references[kind];
  if (!list.some((r) => r.table === reference.table && r.column === reference.column)) list.push(reference);
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** Whether `table` exists in this database (its own schema on PostgreSQL) with `company_id` and `column`. */
async function hasColumns(db: Db, dialect: Dialect, table: string, column: string): Promise<boolean> {
  const wanted = [...new Set(['company_id', column])];
  const found =
    dialect === 'postgres'
      ? await sql<{ n: number | string }>`select count(*) as n from information_schema.columns
          where table_schema = current_schema() and table_name = ${table} and column_name in (${sql.join(wanted)})`.execute(db)
      : await sql<{ n: number | string }>`select count(*) as n from pragma_table_info(${table})
          where name in (${sql.join(wanted)})`.execute(db);
  return Number(found.rows[0]?.n ?? 0) === wanted.length;
}

async function usableReferences(db: Db, dialect: Dialect, kind: ReferenceKind): Promise<Reference[]> {
  const usable: Reference[] = [];
  for (const ref of references[kind]) {
    // Names come from code, never from a request; checked anyway since they are spliced as identifiers.
    if (!IDENTIFIER.test(ref.table) || !IDENTIFIER.test(ref.column)) throw new Error(`bad reference ${ref.table}.${ref.column}`);
    if (await hasColumns(db, dialect, ref.table, ref.column)) usable.push(ref);
  }
  return usable;
}

/** Every value of `kind` some row of the company points at. */
export async function referencedValues(db: Db, dialect: Dialect, kind: ReferenceKind, companyId: string): Promise<Set<string>> {
  const values = new Set<string>();
  for (const ref of await usableReferences(db, dialect, kind)) {
    const rows = await sql<{ v: string | number | null }>`select distinct ${sql.ref(ref.column)} as v from ${sql.table(ref.table)}
      where company_id = ${companyId}`.execute(db);
    for (const row of rows.rows) if (row.v !== null) values.add(String(row.v));
  }
  return values;
}

/** Whether any row of the company points at `value`. */
export async function isReferenced(
  db: Db,
  dialect: Dialect,
  kind: ReferenceKind,
  companyId: string,
  value: string | number,
): Promise<boolean> {
  for (const ref of await usableReferences(db, dialect, kind)) {
    const rows = await sql<{ one: number }>`select 1 as one from ${sql.table(ref.table)}
      where company_id = ${companyId} and ${sql.ref(ref.column)} = ${value} limit 1`.execute(db);
    if (rows.rows.length) return true;
  }
  return false;
}
