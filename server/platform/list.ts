import { sql, type SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import { validationFailed } from './errors';
import { bucharestOffsetSeconds } from './bucharest-time';
import { foldTerm, searchBinding, searchCondition, type SearchBinding, type SearchIndexSpec, type SearchTarget } from './search';
import { prepared, type PreparedQuery } from '../db/prepared';
import type { Database, Db, Dialect } from '../db/types';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD|Se aștepta AAAA-LL-ZZ')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'Not a calendar date|Nu este o dată calendaristică');

/** The common list parameters of the contract; `sortable` and `expandable` are the route's own. */
export function listQuery<S extends string, E extends string = never>(sortable: readonly S[], expandable: readonly E[] = []) {
  return z.object({
    page: z.coerce.number().int().min(1).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(50),
    search: z.string().max(200).optional(),
    sort: (sortable.length ? z.enum(sortable as [S, ...S[]]) : z.never()).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    start_date: isoDate.optional(),
    end_date: isoDate.optional(),
    ...expandShape(expandable),
  });
}

/**
 * `updated_since`: Unix seconds, inclusive, on the instant a record last changed (its creation until
 * it first changes). Integers only; the desktop app's incremental pull sends the highest instant it
 * has applied, and takes the records of that second again rather than miss one written in it.
 */
export const zUpdatedSince = z.coerce
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .optional()
  .describe(
    'Unix seconds: only records changed at or after this instant (inclusive), on `COALESCE(updated_at, created_at)` ' +
      '(on `deleted_at` for GET /deleted-records). ' +
      'Soft deletes count as changes; hard deletes are listed by GET /deleted-records. With `sort=updated_at&order=asc` a client ' +
      'walks every change since its cursor.',
  );

/**
 * The list parameters of a resource whose rows record their last change: those of {@link listQuery},
 * plus `updated_since` and `updated_at` as a sort value. The route opts in to both here and gives
 * `paginate` the columns with `updatedColumn` (and `createdColumn` while `updated_at` starts null).
 */
export function changesListQuery<S extends string, E extends string = never>(sortable: readonly S[], expandable: readonly E[] = []) {
  return listQuery<S | 'updated_at', E>([...sortable, 'updated_at'], expandable).extend({ updated_since: zUpdatedSince });
}

function expandMembers<E extends string>(expandable: readonly [E, ...E[]]) {
  const name = z.enum(expandable);
  const many = z.union([name, z.array(name)]).transform((v) => (Array.isArray(v) ? v : [v]));
  return {
    'expand[]': many.optional(),
    expand: z
      .string()
      .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
      .pipe(z.array(name))
      .optional(),
  };
}

type ExpandMembers<E extends string> = [E] extends [never] ? Record<never, never> : ReturnType<typeof expandMembers<E>>;

/** `expand[]=lines&expand[]=client`, or `expand=lines,client`: both forms, each name checked. */
export function expandShape<E extends string>(expandable: readonly E[]): ExpandMembers<E> {
  return (expandable.length ? expandMembers(expandable as readonly [E, ...E[]]) : {}) as ExpandMembers<E>;
}

export function expansions(query: { 'expand[]'?: string[] | undefined; expand?: string[] | undefined }): Set<string> {
  return new Set([...(query['expand[]'] ?? []), ...(query.expand ?? [])]);
}

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  total: number;
  page: number;
  per_page: number;
  total_pages: number;
}

export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    total: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
    total_pages: z.number().int(),
  });
}

export interface ListOptions {
  /** sort parameter value -> column (qualified when the query joins). */
  sortColumns: Record<string, string>;
  defaultSort: string;
  defaultOrder?: 'asc' | 'desc';
  /** Columns matched by `search` anywhere in the text, case and diacritics ignored (a scan: small lists). */
  searchColumns?: string[];
  /**
   * Or the table's search index (server/platform/search.ts), for the lists that grow: its columns are
   * what `search` matches, looked up through the index. The query selects from `spec.table` unaliased.
   */
  searchIndex?: { spec: SearchIndexSpec; dialect: Dialect };
  /** Column holding a YYYY-MM-DD date, filtered by start_date/end_date. */
  dateColumn?: string;
  /**
   * Or a column of Unix seconds (`created_at`), filtered by the same parameters as days in
   * Europe/Bucharest: start_date from its midnight, end_date through its last second.
   */
  timestampColumn?: string;
  /** A unique column that breaks ties, so that pages never overlap. */
  tieBreaker?: string;
  /**
   * Column of the last change (Unix seconds), for `updated_since` and `sort=updated_at`; the route's
   * query must come from {@link changesListQuery}. The instant compared and sorted on is
   * `COALESCE(updatedColumn, createdColumn)` when `createdColumn` is given (tables whose `updated_at`
   * stays null until the first change); an index on that same expression serves both.
   */
  updatedColumn?: string;
  createdColumn?: string;
}

interface ListParams {
  page: number;
  per_page: number;
  search?: string | undefined;
  sort?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
  updated_since?: number | undefined;
}

/** The instant a row last changed, as the list options name it; null when the list does not opt in. */
function changedAt(options: ListOptions) {
  if (!options.updatedColumn) return null;
  return options.createdColumn
    ? sql<number>`coalesce(${sql.ref(options.updatedColumn)}, ${sql.ref(options.createdColumn)})`
    : sql<number>`${sql.ref(options.updatedColumn)}`;
}

/**
 * What decides a list query's SQL (as opposed to the values it binds): which filters are present,
 * the search's form, the sort and the order.
 */
interface ListShape {
  search: SearchBinding['form'] | null;
  start: boolean;
  end: boolean;
  since: boolean;
  sort: string;
  order: 'asc' | 'desc';
}

/** The values a list query binds besides its base query's. */
interface ListValues {
  search: string;
  start: string | number;
  end: string | number;
  since: number;
  limit: number;
  offset: number;
}

function searchTarget(options: ListOptions): SearchTarget | null {
  if (options.searchIndex) return { index: options.searchIndex.spec };
  return options.searchColumns?.length ? { columns: options.searchColumns } : null;
}

/** The shape and values of a request's list parameters; refuses what no query can answer. */
function listRequest(dialect: Dialect, params: ListParams, options: ListOptions): { shape: ListShape; values: ListValues } {
  if (params.start_date && params.end_date && params.start_date > params.end_date) {
    throw validationFailed({ end_date: 'Must not be before start_date.|Nu poate fi înainte de start_date.' });
  }
  // Our bug, not the caller's: a route offered the parameter without saying which column it filters.
  if (params.updated_since !== undefined && !options.updatedColumn) throw new Error('updated_since on a list without updatedColumn');
  const target = searchTarget(options);
  // A term that folds to nothing (blanks) filters nothing.
  const search = target && params.search && foldTerm(params.search) !== '' ? searchBinding(dialect, target, params.search) : null;
  const dated = Boolean(options.dateColumn || options.timestampColumn);
  const asTime = !options.dateColumn && options.timestampColumn;
  const sort = params.sort ?? options.defaultSort;
  return {
    shape: {
      search: search?.form ?? null,
      start: dated && params.start_date !== undefined,
      end: dated && params.end_date !== undefined,
      since: params.updated_since !== undefined,
      sort: sort in options.sortColumns || (sort === 'updated_at' && options.updatedColumn) ? sort : options.defaultSort,
      order: params.order ?? options.defaultOrder ?? 'desc',
    },
    values: {
      search: search?.value ?? '',
      start: params.start_date === undefined ? '' : asTime ? bucharestMidnight(params.start_date) : params.start_date,
      end: params.end_date === undefined ? '' : asTime ? bucharestMidnight(nextDay(params.end_date)) : params.end_date,
      since: params.updated_since ?? 0,
      limit: params.per_page,
      offset: (params.page - 1) * params.per_page,
    },
  };
}

/**
 * The count and page queries of a shape over `base`. `v` holds the values, or a prepared query's
 * markers in their place: the SQL depends only on the shape.
 */
function listQueries<DB, TB extends keyof DB, O>(base: SelectQueryBuilder<DB, TB, O>, dialect: Dialect, shape: ListShape, v: ListValues, options: ListOptions) {
  let qb = base;
  const target = searchTarget(options);
  if (shape.search && target) {
    const alias = options.searchIndex?.spec.table ?? '';
    qb = qb.where(searchCondition(dialect, target, alias, { form: shape.search, value: v.search })) as typeof qb;
  }
  const col = options.dateColumn ?? options.timestampColumn;
  if (col && shape.start) qb = qb.where(sql.ref(col), '>=', v.start) as typeof qb;
  if (col && shape.end) qb = qb.where(sql.ref(col), options.dateColumn ? '<=' : '<', v.end) as typeof qb;
  const changed = changedAt(options);
  if (shape.since && changed) qb = qb.where(changed, '>=', v.since) as typeof qb;
  const count = qb
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll<number>().as('n'));
  const sortBy = shape.sort === 'updated_at' && changed && !(shape.sort in options.sortColumns) ? changed : sql.ref(options.sortColumns[shape.sort]!);
  let ordered = qb.orderBy(sortBy, shape.order);
  if (options.tieBreaker) ordered = ordered.orderBy(sql.ref(options.tieBreaker), shape.order);
  return { count, page: ordered.limit(v.limit).offset(v.offset) };
}

function listPage<O>(rows: O[], countRow: { n: number | string } | undefined, params: ListParams): ListPage<O> {
  const total = Number(countRow?.n ?? 0);
  const totalPages = Math.ceil(total / params.per_page);
  return {
    object: 'list',
    data: rows,
    has_more: params.page < totalPages,
    total,
    page: params.page,
    per_page: params.per_page,
    total_pages: totalPages,
  };
}

/** Applies search, date range, sort and page to a query, and counts the whole set. */
export async function paginate<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  params: ListParams,
  options: ListOptions,
): Promise<ListPage<O>> {
  const dialect = options.searchIndex?.dialect ?? 'sqlite';
  const { shape, values } = listRequest(dialect, params, options);
  const { count, page } = listQueries(base, dialect, shape, values, options);
  const countRow = (await count.executeTakeFirst()) as { n: number | string } | undefined;
  return listPage((await page.execute()) as O[], countRow, params);
}

/** Shapes kept per list: filters × search forms × sorts × orders stay in the low hundreds. */
const LIST_SHAPES = 200;

/**
 * A list whose count and page queries are built and compiled once per shape (db/prepared.ts) instead
 * of on every request: Kysely builds and compiles a query's tree each time, which for a list page cost
 * more than the two small queries themselves. `base` builds the route's own query from the values it
 * is given, markers in their place: it must put a value where one is compared (`=`), add a condition
 * only when its value is defined (an undefined value is left out of the shape), and nothing else may
 * depend on the values. The search index's dialect is the one of the call.
 */
export function preparedList<P extends Record<string, string | number | undefined>, TB extends keyof Database, O>(
  base: (db: Db, p: P) => SelectQueryBuilder<Database, TB, O>,
  options: ListOptions,
): (db: Db, dialect: Dialect, p: P, params: ListParams) => Promise<ListPage<O>> {
  const shapes = new Map<string, { count: PreparedQuery<Record<string, unknown>, { n: number | string }>; page: PreparedQuery<Record<string, unknown>, O> }>();
  return async (db, dialect, p, params) => {
    const opts: ListOptions = options.searchIndex ? { ...options, searchIndex: { spec: options.searchIndex.spec, dialect } } : options;
    const { shape, values } = listRequest(dialect, params, opts);
    const given = Object.keys(p).filter((k) => p[k] !== undefined).sort();
    const key = `${dialect}|${given.join(',')}|${shape.search ?? ''}|${Number(shape.start)}${Number(shape.end)}${Number(shape.since)}|${shape.sort}|${shape.order}`;
    let queries = shapes.get(key);
    if (!queries) {
      const listNames = [
        ...(shape.search ? ['search'] : []), ...(shape.start ? ['start'] : []), ...(shape.end ? ['end'] : []), ...(shape.since ? ['since'] : []),
      ];
      // Markers stand in for the values: typed as the values, they are strings until the run.
      const build = (on: Db, markers: Record<string, unknown>) =>
        listQueries(base(on, markers as P), dialect, shape, markers as unknown as ListValues, opts);
      queries = {
        count: prepared([...given, ...listNames], (on, m: Record<string, unknown>) => build(on, m).count as never),
        page: prepared([...given, ...listNames, 'limit', 'offset'], (on, m: Record<string, unknown>) => build(on, m).page as never),
      };
      if (shapes.size >= LIST_SHAPES) shapes.clear();
      shapes.set(key, queries);
    }
    const all: Record<string, unknown> = { ...p, ...values };
    const countRow = await queries.count.first(db, all);
    return listPage(await queries.page.rows(db, all), countRow, params);
  };
}

/** Maps the rows of a page, keeping the list members. */
export function mapPage<A, B>(page: ListPage<A>, fn: (row: A) => B): ListPage<B> {
  return { ...page, data: page.data.map(fn) };
}

/** Unix seconds of 00:00 in Europe/Bucharest on `date` (YYYY-MM-DD); Romania never changes clocks at midnight. */
export function bucharestMidnight(date: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`) / 1000;
  return utcMidnight - bucharestOffsetSeconds(utcMidnight - bucharestOffsetSeconds(utcMidnight));
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
