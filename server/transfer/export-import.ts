import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { z } from 'zod';
import { appliedMigrations, migrate, MIGRATION_TABLE, type Storage } from '../db/connect';

/**
 * Moving a firm's whole service database to another service: `npm run server -- export --out FILE`
 * on the embedded (or any) database, `npm run server -- import --from FILE` into a fresh service on
 * SQLite or PostgreSQL. Every table is copied as it is (companies, key hashes, series counters,
 * reservations, gaps, documents, ids), so every number and every gap stays what it was and a
 * desktop that synced with the old service finds its records under the same ids.
 *
 * The file is JSON lines: a header, then each table in chunks of rows (column names once per chunk),
 * so a large database never has to fit in one string.
 */

export const EXPORT_FORMAT = 'tejghea-service-export';
export const EXPORT_VERSION = 1;
const CHUNK_ROWS = 500;

const zHeader = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exported_at: z.string(),
  source_dialect: z.enum(['sqlite', 'postgres']),
  migrations: z.array(z.string()),
  tables: z.record(z.string(), z.number().int().nonnegative()),
});
export type ExportHeader = z.infer<typeof zHeader>;

const zCell = z.union([z.string(), z.number(), z.null()]);
const zChunk = z.object({ table: z.string(), columns: z.array(z.string()).min(1), rows: z.array(z.array(zCell)) });

export class TransferError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransferError';
  }
}

/** The service's own tables (never the migrator's nor the database's internal ones), with their columns. */
async function dataTables(storage: Storage): Promise<Map<string, string[]>> {
  const tables = await storage.db.introspection.getTables();
  const schema = storage.dialect === 'postgres' ? (storage.schema ?? (await currentSchema(storage))) : undefined;
  // SQLite's full-text search indexes (virtual tables and their shadow tables) are derived data: the
  // target's own triggers (or PostgreSQL's trigram indexes) rebuild them from the rows imported.
  const derived = storage.dialect === 'sqlite' ? await virtualTables(storage) : [];
  const isDerived = (name: string) => derived.some((v) => name === v || name.startsWith(`${v}_`));
  return new Map(
    tables
      .filter((t) => (schema === undefined || t.schema === schema) && !t.name.startsWith('sqlite_') && !t.name.startsWith(MIGRATION_TABLE) && !isDerived(t.name))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((t) => [t.name, t.columns.map((c) => c.name)]),
  );
}

async function virtualTables(storage: Storage): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and sql like 'CREATE VIRTUAL TABLE%'`.execute(storage.db);
  return rows.rows.map((r) => r.name);
}

async function currentSchema(storage: Storage): Promise<string> {
  const row = await sql<{ schema: string }>`select current_schema() as schema`.execute(storage.db);
  return row.rows[0]?.schema ?? 'public';
}

/** Parent tables before the tables that reference them, so inserts never wait on a missing row. */
async function foreignKeyOrder(storage: Storage, tables: string[]): Promise<string[]> {
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  if (storage.dialect === 'sqlite') {
    for (const t of tables) {
      const fks = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${t})`.execute(storage.db);
      for (const fk of fks.rows) if (fk.table !== t && parents.has(fk.table)) parents.get(t)!.add(fk.table);
    }
  } else {
    const fks = await sql<{ child: string; parent: string }>`
      select tc.table_name as child, ccu.table_name as parent
      from information_schema.table_constraints tc
      join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.constraint_schema = tc.constraint_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(storage.db);
    for (const fk of fks.rows) if (fk.child !== fk.parent && parents.has(fk.child) && parents.has(fk.parent)) parents.get(fk.child)!.add(fk.parent);
  }
  const done: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (seen.has(t)) return;
    if (path.has(t)) throw new TransferError(`foreign keys form a cycle through ${t}`);
    path.add(t);
    for (const p of parents.get(t) ?? []) visit(p, path);
    path.delete(t);
    seen.add(t);
    done.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return done;
}

function assertNumberSafe(table: string, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) throw new TransferError(`${table}: an integer beyond 2^53 cannot be copied exactly`);
    return value;
  }
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  throw new TransferError(`${table}: a value of type ${typeof value} cannot be exported`);
}

/** Writes every table of `storage` to `path` (migrating it first, so the file matches this build). */
export async function exportDatabase(storage: Storage, path: string, now = new Date()): Promise<ExportHeader> {
  await migrate(storage);
  const columnsOf = await dataTables(storage);
  const tables = await foreignKeyOrder(storage, [...columnsOf.keys()]);
  const counts: Record<string, number> = {};
  for (const t of tables) {
    const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t)}`.execute(storage.db);
    counts[t] = Number(row.rows[0]?.n ?? 0);
  }
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: now.toISOString(),
    source_dialect: storage.dialect,
    migrations: await appliedMigrations(storage),
    tables: counts,
  };
  const out = createWriteStream(path, { encoding: 'utf8', mode: 0o600 });
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  try {
    await write(JSON.stringify(header));
    // One read transaction: the copy is one moment of the database, even while it serves.
    await storage.db.transaction().execute(async (trx) => {
      for (const t of tables) {
        const columns = columnsOf.get(t)!;
        // Ordered by every column: a stable order for paging, whatever the table's key.
        const orderBy = sql.join(columns.map((c) => sql.ref(c)));
        let offset = 0;
        for (;;) {
          const page = await sql<Record<string, unknown>>`select ${orderBy} from ${sql.table(t)} order by ${orderBy} limit ${CHUNK_ROWS} offset ${offset}`.execute(trx);
          if (page.rows.length === 0) break;
          await write(JSON.stringify({ table: t, columns, rows: page.rows.map((r) => columns.map((c) => assertNumberSafe(t, r[c]))) }));
          offset += page.rows.length;
          if (page.rows.length < CHUNK_ROWS) break;
        }
      }
    });
  } finally {
    out.end();
    await once(out, 'close');
  }
  return header;
}

export interface ImportResult {
  header: ExportHeader;
  /** Rows now in each table of the target, read back after the import. */
  counts: Record<string, number>;
}

/**
 * Reads an export into `storage`: migrated to this build first, and refused unless every table the
 * file fills is empty there (no firm's data is ever merged into or overwritten). All in one
 * transaction: a file that breaks half-way leaves the target as it was.
 */
export async function importDatabase(storage: Storage, path: string): Promise<ImportResult> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new TransferError('the file is empty');
  let headerJson: unknown;
  try {
    headerJson = JSON.parse(first.value);
  } catch {
    throw new TransferError('not a Tejghea service export (the first line is not JSON)');
  }
  const parsedHeader = zHeader.safeParse(headerJson);
  if (!parsedHeader.success) throw new TransferError('not a Tejghea service export, or one of another version');
  const header = parsedHeader.data;

  await migrate(storage);
  const known = new Set(await appliedMigrations(storage));
  const unknown = header.migrations.filter((m) => !known.has(m));
  if (unknown.length) throw new TransferError(`the export was made by a newer service (migrations ${unknown.join(', ')}): update this one first`);
  const missing = [...known].filter((m) => !header.migrations.includes(m));
  if (missing.length) throw new TransferError(`the export was made by an older service (without ${missing.join(', ')}): export again with this version`);

  const targetTables = new Set((await dataTables(storage)).keys());
  for (const t of Object.keys(header.tables)) if (!targetTables.has(t)) throw new TransferError(`the target has no table ${t}`);
  for (const t of Object.keys(header.tables)) {
    const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t)}`.execute(storage.db);
    if (Number(row.rows[0]?.n ?? 0) > 0) throw new TransferError(`the target service already has data (table ${t}): import into a new, empty database`);
  }
  const order = await foreignKeyOrder(storage, Object.keys(header.tables));
  const position = new Map(order.map((t, i) => [t, i]));

  const counts: Record<string, number> = {};
  await storage.db.transaction().execute(async (trx) => {
    let lastPosition = -1;
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (!next.value.trim()) continue;
      const chunk = zChunk.safeParse(JSON.parse(next.value));
      if (!chunk.success) throw new TransferError('a damaged line in the file');
      const { table, columns, rows } = chunk.data;
      const at = position.get(table);
      if (at === undefined) throw new TransferError(`rows for a table the header does not list: ${table}`);
      // The file is written parents first; a file out of that order would fail on a foreign key.
      if (at < lastPosition) throw new TransferError(`table ${table} comes after a table that references it`);
      lastPosition = at;
      const width = columns.length;
      // Few enough parameters per statement for both SQLite and PostgreSQL.
      const perInsert = Math.max(1, Math.floor(4000 / width));
      for (let i = 0; i < rows.length; i += perInsert) {
        const values = rows.slice(i, i + perInsert).map((r) => {
          if (r.length !== width) throw new TransferError(`${table}: a row with ${r.length} values for ${width} columns`);
          return sql`(${sql.join(r.map((v) => sql`${v}`))})`;
        });
        await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(values)}`.execute(trx);
      }
    }
    if (storage.dialect === 'postgres') {
      // Identity columns (the e-Factura message ids) continue after the ids copied, not from 1.
      const identities = await sql<{ table_name: string; column_name: string }>`
        select table_name, column_name from information_schema.columns where table_schema = current_schema() and is_identity = 'YES'`.execute(trx);
      for (const c of identities.rows) {
        await sql`select setval(pg_get_serial_sequence(${c.table_name}, ${c.column_name}), coalesce((select max(${sql.ref(c.column_name)}) from ${sql.table(c.table_name)}), 0) + 1, false)`.execute(trx);
      }
    }
    // Read back before committing: a file cut short (a lost chunk) leaves the target untouched.
    for (const t of Object.keys(header.tables)) {
      const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t)}`.execute(trx);
      counts[t] = Number(row.rows[0]?.n ?? 0);
      if (counts[t] !== header.tables[t]) throw new TransferError(`table ${t}: ${counts[t]} rows read from the file, ${header.tables[t]} announced`);
    }
  });
  return { header, counts };
}
