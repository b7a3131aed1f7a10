import type { Compilable, CompiledQuery, Insertable, QueryResult, RawBuilder } from 'kysely';
import type { Database, Db } from './types';

/**
 * Queries of the hot paths, built and compiled once per dialect and then run with new values.
 * Kysely builds an immutable tree and compiles it to SQL on every call; for the small queries a
 * request makes that costs more than running them (SQLite keeps the prepared statement by its text,
 * see connect.ts). Here the query is built once with a marker in place of each parameter; the
 * compiled SQL is kept, and each run only puts the values where the markers were.
 *
 * Parameters must stand where a value is compared or written (`=`, `in` with a fixed count, values
 * of an insert): a marker is a string, so `null` would not turn `=` into `is null`, and an array
 * would not widen an `in` list. Anything else the query needs is fixed when it is built.
 */

const MARK = '\u0000tejghea-param:';

interface Template {
  sql: string;
  query: CompiledQuery['query'];
  queryId: CompiledQuery['queryId'];
  /** For each SQL parameter: the name of a run-time value, or null for a constant fixed at build time. */
  names: (string | null)[];
  constants: unknown[];
  /** The SQL parameters are exactly the names, in the order given to `prepared`. */
  inOrder: boolean;
}

export interface PreparedQuery<P extends object, R> {
  /** Runs the query on `db` (the database or a transaction) with `params`. */
  execute(db: Db, params: P): Promise<QueryResult<R>>;
  /** The rows of a select (or of `returning`). */
  rows(db: Db, params: P): Promise<R[]>;
  first(db: Db, params: P): Promise<R | undefined>;
  /** Runs it with the values of the names, in the order the names were given (every name used once, in order). */
  executeValues(db: Db, values: readonly unknown[]): Promise<QueryResult<R>>;
}

/**
 * `build` receives markers in place of the parameters (typed as the values they stand for) and
 * returns the query; it runs once per dialect.
 */
export function prepared<P extends object, R>(
  names: readonly (keyof P & string)[],
  build: (db: Db, p: P) => Compilable<R> | RawBuilder<R>,
): PreparedQuery<P, R> {
  // Keyed by the dialect's adapter, which a database and all its transactions share.
  const templates = new WeakMap<object, Template>();
  const template = (db: Db): Template => {
    const adapter = db.getExecutor().adapter;
    let t = templates.get(adapter);
    if (!t) {
      const markers = Object.fromEntries(names.map((name) => [name, `${MARK}${name}`])) as unknown as P;
      const query = build(db, markers);
      // A raw `sql` query compiles against a database; a query builder knows its own.
      const compiled = 'isRawBuilder' in query ? query.compile(db) : query.compile();
      const slotNames = compiled.parameters.map((value) => (typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : null));
      // A Set: an insert of many rows has tens of thousands of names, and includes() made this quadratic.
      const used = new Set(slotNames);
      const unused = names.filter((n) => !used.has(n));
      if (unused.length) throw new Error(`prepared query does not use ${unused.join(', ')}: ${compiled.sql}`);
      t = {
        sql: compiled.sql,
        query: compiled.query,
        queryId: compiled.queryId,
        names: slotNames,
        constants: compiled.parameters.map((value, i) => (slotNames[i] === null ? value : undefined)),
        inOrder: slotNames.length === names.length && slotNames.every((n, i) => n === names[i]),
      };
      templates.set(adapter, t);
    }
    return t;
  };
  const run = (db: Db, t: Template, parameters: readonly unknown[]): Promise<QueryResult<R>> =>
    db.executeQuery<R>({ sql: t.sql, query: t.query, queryId: t.queryId, parameters } as CompiledQuery<R>);
  const execute = (db: Db, params: P): Promise<QueryResult<R>> => {
    const t = template(db);
    const values = params as Record<string, unknown>;
    const parameters = new Array<unknown>(t.names.length);
    for (let i = 0; i < t.names.length; i += 1) {
      const name = t.names[i];
      parameters[i] = typeof name === 'string' ? values[name] : t.constants[i];
    }
    return run(db, t, parameters);
  };
  return {
    execute,
    rows: async (db, params) => (await execute(db, params)).rows,
    first: async (db, params) => (await execute(db, params)).rows[0],
    executeValues: (db, values) => {
      const t = template(db);
      if (!t.inOrder) throw new Error(`prepared query takes its parameters in another order: ${t.sql}`);
      return run(db, t, values);
    },
  };
}

type TableName = keyof Database & string;

const inserts = new Map<string, PreparedQuery<Record<string, unknown>, unknown>>();
/** Rows per insert statement: 250 rows of an invoice line's 22 columns bind 5,500 values. */
const INSERT_CHUNK_ROWS = 250;
/** Distinct (table, columns, row count) shapes kept; invoices have a handful of line counts in practice. */
const INSERT_SHAPES = 500;

/** The members of a row that are set (`undefined` leaves the column to its default, as in Kysely). */
function setColumns(row: object): string[] {
  const columns: string[] = [];
  for (const key in row) if ((row as Record<string, unknown>)[key] !== undefined) columns.push(key);
  return columns;
}

/**
 * Inserts `rows` (all with the same members) into `table` with one statement, prepared once per
 * table, column list and row count.
 */
export async function insertRows<T extends TableName>(db: Db, table: T, rows: readonly Insertable<Database[T]>[]): Promise<void> {
  if (!rows.length) return;
  // One statement binds at most a few thousand values: SQLite refuses more than 32,766 parameters and
  // PostgreSQL more than 65,535, and a 5,000-line invoice has 100,000. Chunks of a fixed size also keep
  // the prepared shapes few (a full chunk, and the remainder).
  if (rows.length > INSERT_CHUNK_ROWS) {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK_ROWS) {
      await insertRows(db, table, rows.slice(start, start + INSERT_CHUNK_ROWS));
    }
    return;
  }
  const columns = setColumns(rows[0]!);
  const key = columns.join(',');
  if (rows.some((row) => setColumns(row).join(',') !== key)) {
    // Rows of different shapes (rare): Kysely writes them as they are.
    await db.insertInto(table).values(rows as never).execute();
    return;
  }
  const shape = `${table}|${rows.length}|${key}`;
  let query = inserts.get(shape);
  if (!query) {
    const names = rows.flatMap((_row, i) => columns.map((c) => `${i}.${c}`));
    query = prepared(names, (builder, p) =>
      builder.insertInto(table).values(rows.map((_row, i) => Object.fromEntries(columns.map((c) => [c, p[`${i}.${c}`]]))) as never),
    );
    if (inserts.size >= INSERT_SHAPES) inserts.clear();
    inserts.set(shape, query);
  }
  // Kysely writes an insert's values row by row, column by column: the order the names were made in.
  const values: unknown[] = [];
  for (const row of rows) for (const c of columns) values.push((row as Record<string, unknown>)[c]);
  await query.executeValues(db, values);
}
