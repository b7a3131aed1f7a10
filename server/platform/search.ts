import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { foldForSearch } from '../../shared/text/search-fold';

/**
 * Search as people type: case and Romanian diacritics ignored (ș/ş, ț/ţ, ă, â, î and their capitals),
 * anywhere in the text. Both sides of a comparison are folded by the same rule as the desktop's
 * (shared/text/search-fold.ts): the term here in JS, the stored text in the database by a function
 * named `tejghea_fold` (registered from foldForSearch on every SQLite connection; on PostgreSQL an SQL
 * function that does the same: NFD, combining marks removed, lower case, blanks collapsed).
 *
 * The big lists are backed by a trigram index, not a scan:
 * - SQLite: an FTS5 table `<table>_search` (tokenizer `trigram`) of the folded text, keyed by the
 *   row's rowid and kept by triggers on every insert, update and delete of the table;
 * - PostgreSQL: a GIN index (pg_trgm's `gin_trgm_ops`) on the folded expression itself.
 */

export const FOLD_FUNCTION = 'tejghea_fold';

/** Between the columns of one row's folded text: no term contains it, so no match spans two columns. */
export const COLUMN_SEPARATOR = '\u001f';

/** What a module's search index covers. Its migration keeps its own copy: indexes are history. */
export interface SearchIndexSpec {
  table: string;
  columns: readonly string[];
}

/** The search term as compared: folded, without the column separator, LIKE's wildcards escaped. */
export function foldTerm(term: string): string {
  return foldForSearch(term.replaceAll(COLUMN_SEPARATOR, ' '));
}

function likePattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The folded text of a row, as one SQL expression over its columns (qualified by `alias` when given).
 * PostgreSQL's index is on exactly this expression, so the query must build it the same way.
 */
export function foldedRow(columns: readonly string[], alias?: string): RawBuilder<string> {
  const parts = columns.map((c) => sql`coalesce(${sql.ref(alias ? `${alias}.${c}` : c)}, '')`);
  return sql<string>`${sql.raw(FOLD_FUNCTION)}(${sql.join(parts, sql` || chr(31) || `)})`;
}

/** SQLite spells chr() as char(); the same expression otherwise. */
function foldedRowSqlite(columns: readonly string[], prefix: string): RawBuilder<string> {
  const parts = columns.map((c) => sql`coalesce(${sql.raw(`${prefix}.${quoteIdent(c)}`)}, '')`);
  return sql<string>`${sql.raw(FOLD_FUNCTION)}(${sql.join(parts, sql` || char(31) || `)})`;
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe identifier: ${name}`);
  return `"${name}"`;
}

/** Any column matches the term, each folded (small lists: no index, a scan of a few rows). */
export function foldedColumnsMatch(columns: readonly string[], term: string): RawBuilder<SqlBool> {
  return searchCondition('sqlite', { columns }, '', searchBinding('sqlite', { columns }, term));
}

/**
 * The rows of `spec.table` (as `alias` in the query) whose folded text contains the term, through the
 * index. Trigram lookups need 3 characters; a shorter term (the first keystrokes) reads the index's
 * own folded text instead, which is still far narrower than the table.
 */
export function indexedSearch(dialect: 'sqlite' | 'postgres', spec: SearchIndexSpec, alias: string, term: string): Expression<SqlBool> {
  return searchCondition(dialect, { index: spec }, alias, searchBinding(dialect, { index: spec }, term));
}

/** What a search looks in: a table's search index, or a few columns scanned (small lists). */
export type SearchTarget = { index: SearchIndexSpec } | { columns: readonly string[] };

/**
 * A search as a query shape and the one value it binds: `form` decides the SQL (so that a list can
 * keep its SQL compiled per form, server/platform/list.ts), `value` is the pattern or FTS phrase.
 */
export interface SearchBinding {
  form: 'columns' | 'fts' | 'folded-like' | 'row-like';
  value: string;
}

export function searchBinding(dialect: 'sqlite' | 'postgres', target: SearchTarget, term: string): SearchBinding {
  const folded = foldTerm(term);
  if (!('index' in target)) return { form: 'columns', value: likePattern(folded) };
  if (dialect === 'postgres') return { form: 'row-like', value: likePattern(folded) };
  // An FTS5 phrase is matched as a substring by the trigram tokenizer; quotes inside are doubled.
  if ([...folded].length >= 3) return { form: 'fts', value: `"${folded.replaceAll('"', '""')}"` };
  return { form: 'folded-like', value: likePattern(folded) };
}

/** The condition of a {@link searchBinding}; `value` may be a prepared query's marker. */
export function searchCondition(dialect: 'sqlite' | 'postgres', target: SearchTarget, alias: string, { form, value }: SearchBinding): RawBuilder<SqlBool> {
  if (!('index' in target)) {
    const tests = target.columns.map((c) => sql`${sql.raw(FOLD_FUNCTION)}(${sql.ref(c)}) like ${value} escape '\\'`);
    return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
  }
  const spec = target.index;
  if (dialect === 'postgres' || form === 'row-like') return sql<SqlBool>`${foldedRow(spec.columns, alias)} like ${value} escape '\\'`;
  const fts = sql.raw(`${quoteIdent(`${spec.table}_search`)}`);
  if (form === 'fts') return sql<SqlBool>`${sql.ref(`${alias}.rowid`)} in (select rowid from ${fts} where ${fts} match ${value})`;
  return sql<SqlBool>`${sql.ref(`${alias}.rowid`)} in (select rowid from ${fts} where folded like ${value} escape '\\')`;
}

/**
 * PostgreSQL: `tejghea_fold` (its cost set high, so that the planner prefers the index to folding
 * every row) and, where the server may install it, pg_trgm (in `public`, shared by
 * every schema of the database). Without pg_trgm the searches still fold; they scan instead.
 */
export async function createFoldFunction(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  // plpgsql, not sql: an SQL function is inlined into the query, where its cost is lost and the planner
  // then prefers folding every row to the index.
  await sql`
    create or replace function tejghea_fold(t text) returns text
    language plpgsql immutable strict parallel safe cost 1000
    as $$ begin return btrim(regexp_replace(lower(regexp_replace(normalize(t, NFD), '[\u0300-\u036f]', '', 'g')), '\\s+', ' ', 'g')); end $$
  `.execute(db);
  if (await hasTrigrams(db)) return;
  // A savepoint: a refused CREATE EXTENSION (no privilege, not installed) must not abort the migration.
  await sql`savepoint tejghea_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint tejghea_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint tejghea_trgm`.execute(db);
  }
}

async function hasTrigrams(db: Kysely<unknown>): Promise<boolean> {
  const rows = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
  return (rows.rows[0]?.n ?? 0) > 0;
}

/** A module's migration: the search index of one table, filled from the rows already there. */
export async function createSearchIndex(db: Kysely<unknown>, spec: SearchIndexSpec): Promise<void> {
  const table = quoteIdent(spec.table);
  const fts = quoteIdent(`${spec.table}_search`);
  if (isPostgres(db)) {
    if (!(await hasTrigrams(db))) return;
    await sql`create index ${sql.raw(quoteIdent(`${spec.table}_search_idx`))} on ${sql.raw(table)} using gin ((${foldedRow(spec.columns)}) public.gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`create virtual table ${sql.raw(fts)} using fts5(folded, tokenize = 'trigram')`.execute(db);
  const fresh = foldedRowSqlite(spec.columns, 'new');
  const columns = spec.columns.map(quoteIdent).join(', ');
  await sql`create trigger ${sql.raw(quoteIdent(`${spec.table}_search_ai`))} after insert on ${sql.raw(table)} begin
    insert into ${sql.raw(fts)}(rowid, folded) values (new.rowid, ${fresh}); end`.execute(db);
  await sql`create trigger ${sql.raw(quoteIdent(`${spec.table}_search_au`))} after update of ${sql.raw(columns)} on ${sql.raw(table)} begin
    delete from ${sql.raw(fts)} where rowid = old.rowid;
    insert into ${sql.raw(fts)}(rowid, folded) values (new.rowid, ${fresh}); end`.execute(db);
  await sql`create trigger ${sql.raw(quoteIdent(`${spec.table}_search_ad`))} after delete on ${sql.raw(table)} begin
    delete from ${sql.raw(fts)} where rowid = old.rowid; end`.execute(db);
  await sql`insert into ${sql.raw(fts)}(rowid, folded) select rowid, ${foldedRowSqlite(spec.columns, table)} from ${sql.raw(table)}`.execute(db);
}

/** Removes what {@link createSearchIndex} made for `table`, so a migration can make it again over other columns. */
export async function dropSearchIndex(db: Kysely<unknown>, table: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists ${sql.raw(quoteIdent(`${table}_search_idx`))}`.execute(db);
    return;
  }
  for (const suffix of ['ai', 'au', 'ad']) await sql`drop trigger if exists ${sql.raw(quoteIdent(`${table}_search_${suffix}`))}`.execute(db);
  await sql`drop table if exists ${sql.raw(quoteIdent(`${table}_search`))}`.execute(db);
}

/** PostgreSQL numbers placeholders `$1`, SQLite writes `?` (public API only, nothing run). */
function isPostgres(db: Kysely<unknown>): boolean {
  return sql`select ${1}`.compile(db).sql.includes('$1');
}
