import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/types';
import { prepared, type PreparedQuery } from '../../db/prepared';

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

/**
 * What a database has of each kind: the references whose tables exist there, and the two queries
 * over them, compiled once. Looked up once per database: its tables do not change while the service
 * runs (migrations run before it listens), and the look-up is one schema query per reference, which
 * `GET /currencies` would otherwise pay on every request. `addReference` starts the look-ups over.
 */
interface Usable {
  refs: Reference[];
  /** Whether some row of the company holds `value`. */
  holds: PreparedQuery<{ companyId: string; value: string | number }, { used: number | boolean }>;
}

let usable = new WeakMap<Db, Map<ReferenceKind, Promise<Usable>>>();

/** The tables and columns that may point at an entry of `kind` (for tests of their indexes). */
export function referencesOf(kind: ReferenceKind): readonly Reference[] {
  return references[kind];
}

export function addReference(kind: ReferenceKind, reference: Reference): void {
  const list = references[kind];
  if (!list.some((r) => r.table === reference.table && r.column === reference.column)) list.push(reference);
  // Even when already listed: its table may have been created since the last look-up.
  usable = new WeakMap();
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

async function findUsable(db: Db, dialect: Dialect, kind: ReferenceKind): Promise<Usable> {
  const refs: Reference[] = [];
  for (const ref of references[kind]) {
    // Names come from code, never from a request; checked anyway since they are spliced as identifiers.
    if (!IDENTIFIER.test(ref.table) || !IDENTIFIER.test(ref.column)) throw new Error(`bad reference ${ref.table}.${ref.column}`);
    if (await hasColumns(db, dialect, ref.table, ref.column)) refs.push(ref);
  }
  const holds = prepared(['companyId', 'value'], (_db, p: { companyId: string; value: string | number }) => {
    const probes = refs.map(
      (ref) => sql`exists (select 1 from ${sql.table(ref.table)} where company_id = ${p.companyId} and ${sql.ref(ref.column)} = ${p.value})`,
    );
    return sql<{ used: number | boolean }>`select (${sql.join(probes, sql` or `)}) as used`;
  });
  return { refs, holds };
}

function usableReferences(db: Db, dialect: Dialect, kind: ReferenceKind): Promise<Usable> {
  let perKind = usable.get(db);
  if (!perKind) {
    perKind = new Map();
    usable.set(db, perKind);
  }
  let found = perKind.get(kind);
  if (!found) {
    const lookup = findUsable(db, dialect, kind);
    const cache = perKind;
    // A look-up that failed (a dropped connection) is tried again by the next request.
    lookup.catch(() => {
      if (cache.get(kind) === lookup) cache.delete(kind);
    });
    cache.set(kind, lookup);
    found = lookup;
  }
  return found;
}

/**
 * Which of `candidates` (the entries a list shows) some row of the company points at, as strings.
 * One indexed probe per candidate and table (migrations 0140, 0290), never a read of the firm's
 * history: asking for every value the firm's rows hold read all its invoices on each list.
 */
export async function referencedValues(
  db: Db,
  dialect: Dialect,
  kind: ReferenceKind,
  companyId: string,
  candidates: readonly (string | number)[],
): Promise<Set<string>> {
  const answers = await Promise.all(candidates.map((value) => isReferenced(db, dialect, kind, companyId, value)));
  return new Set(candidates.filter((_, i) => answers[i]).map(String));
}

/** Whether any row of the company points at `value`, in one query. */
export async function isReferenced(
  db: Db,
  dialect: Dialect,
  kind: ReferenceKind,
  companyId: string,
  value: string | number,
): Promise<boolean> {
  const { refs, holds } = await usableReferences(db, dialect, kind);
  if (!refs.length) return false;
  const used = (await holds.first(db, { companyId, value }))?.used;
  return used === true || Number(used) === 1;
}
