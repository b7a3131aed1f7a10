import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Storage } from '../../server/db/connect';

/**
 * Requests made from the served OpenAPI document (/v1/openapi.json), for property tests and the long
 * fuzz run (scripts/fuzz.ts): for every operation, path parameters from real ids or garbage, query
 * members and bodies that are valid, on a boundary (lengths, ranges, sizes at and past their limits),
 * or invalid (wrong types, null, arrays, missing or unknown members, broken JSON, other encodings).
 */

// The document is JSON whose shape we walk by keyword; a schema is any JSON object.
type Schema = Record<string, unknown>;
export type Mode = 'valid' | 'boundary' | 'invalid';

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  pathParams: string[];
  query: Array<{ name: string; required: boolean; schema: Schema }>;
  body: Schema | null;
  bodyRequired: boolean;
  create: boolean;
}

export interface FuzzRequest {
  operationId: string;
  method: string;
  path: string;
  body?: string | Buffer;
  headers: Record<string, string>;
  /** What the request was made to be, for the report of a failure. */
  modes: string;
  /** A member the operation does not know, added on purpose: the reply must refuse it by name. */
  unknownMember?: string;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
}

export function operationsOf(doc: OpenApiDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path === '/openapi.json') continue;
    for (const [method, op] of Object.entries(methods)) {
      const parameters = (op.parameters ?? []) as Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
      const content = (op.requestBody as { content?: Record<string, { schema?: Schema }>; required?: boolean } | undefined);
      const responses = Object.keys((op.responses ?? {}) as object);
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} })),
        body: content?.content?.['application/json']?.schema ?? null,
        bodyRequired: content?.required === true,
        create: method === 'post' && responses.includes('201'),
      });
    }
  }
  return ops;
}

const MAX_DEPTH = 6;

function resolve(schema: Schema, doc: OpenApiDoc): Schema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const name = (s.$ref as string).replace('#/components/schemas/', '');
    s = doc.components?.schemas?.[name] ?? {};
  }
  return s;
}

const ROMANIAN = fc.constantFrom('Ștefan', 'ȘTEFĂNEȘTI', 'Ţară', 'îăâ', 'Brașov', 'Popescu SRL', 'RO18547290', '  ', 'a"b\\c', '<x>', '😀', '\u0000', 'null');

function stringArb(s: Schema, mode: Mode): fc.Arbitrary<string> {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : 60;
  if (mode === 'boundary') {
    return fc.oneof(
      fc.constant('x'.repeat(max)),
      fc.constant('ș'.repeat(Math.min(max + 1, 5000))),
      fc.constant(min > 0 ? 'y'.repeat(min - 1) : ''),
      fc.constant(' '.repeat(Math.max(min, 1))),
      ROMANIAN,
    );
  }
  if (s.format === 'date' || (typeof s.pattern === 'string' && s.pattern.includes('\\d{4}-\\d{2}-\\d{2}'))) {
    return fc.oneof(fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), fc.constant('2026-11-21'));
  }
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'email') return fc.constantFrom('ana@exemplu.ro', 'contabil@firma.ro');
  if (typeof s.pattern === 'string') {
    try {
      const pattern = new RegExp(s.pattern);
      return fc.stringMatching(pattern).filter((v) => v.length >= min && v.length <= max);
    } catch {
      // a pattern JS cannot read: plain strings below
    }
  }
  return fc.oneof(fc.string({ minLength: min, maxLength: Math.min(max, 40), unit: 'grapheme' }), ROMANIAN.filter((v) => v.length >= min && v.length <= max));
}

function numberArb(s: Schema, mode: Mode, integer: boolean): fc.Arbitrary<number> {
  const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + (integer ? 1 : 0.01) : -1e6;
  const hi = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - (integer ? 1 : 0.01) : 1e6;
  const min = Math.max(lo, -Number.MAX_SAFE_INTEGER);
  const max = Math.min(hi, Number.MAX_SAFE_INTEGER);
  if (mode === 'boundary') {
    return fc.constantFrom(min, max, min - 1, max + 1, 0, -0.01, 0.001, 1e13, -1e13, 1e21, 1e308, Number.MAX_SAFE_INTEGER + 2, 99_999_999_999.99, 0.1 + 0.2);
  }
  if (integer) return fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9)) });
  // Money-like: cents, then the odd double.
  const cents = fc.integer({ min: Math.ceil(Math.max(min, -1e7) * 100), max: Math.floor(Math.min(max, 1e7) * 100) }).map((c) => c / 100);
  return fc.oneof({ weight: 4, arbitrary: cents }, { weight: 1, arbitrary: fc.double({ min: Math.max(min, -1e7), max: Math.min(max, 1e7), noNaN: true }) });
}

/** Anything but what the schema wants, or a nasty value of any type. */
const NASTY: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.constant(''),
  fc.constant('x'),
  fc.constant(-1),
  fc.constant(1e300),
  fc.constant(true),
  fc.constant('1e400'),
  fc.constant([[[[['adânc']]]]]),
  fc.constant({ __proto__: { polluted: true } }),
  fc.constant({ constructor: { prototype: { polluted: true } } }),
  fc.string({ maxLength: 20, unit: 'binary' }),
  fc.integer(),
);

export function valueArb(raw: Schema, doc: OpenApiDoc, mode: Mode, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(raw, doc);
  if (mode === 'invalid') return NASTY;
  if (depth > MAX_DEPTH) return fc.constant(null);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return mode === 'boundary' ? fc.oneof(fc.constantFrom(...(s.enum as unknown[])), fc.constant('nu-e-in-lista')) : fc.constantFrom(...(s.enum as unknown[]));
  const variants = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(variants) && variants.length) return fc.oneof(...variants.map((v) => valueArb(v, doc, mode, depth + 1)));
  if (Array.isArray(s.allOf)) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of s.allOf as Schema[]) {
      const r = resolve(part, doc);
      Object.assign(merged.properties as object, r.properties ?? {});
      (merged.required as string[]).push(...((r.required as string[] | undefined) ?? []));
    }
    return valueArb(merged, doc, mode, depth + 1);
  }
  const type = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t) => valueArb({ ...s, type: t }, doc, mode, depth + 1)));
  switch (type[0]) {
    case 'string':
      return stringArb(s, mode);
    case 'integer':
      return numberArb(s, mode, true);
    case 'number':
      return numberArb(s, mode, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (s.items as Schema | undefined) ?? {};
      const maxItems = typeof s.maxItems === 'number' ? s.maxItems : 3;
      const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
      if (mode === 'boundary') {
        return fc.oneof(
          fc.constant([]),
          // Past the limit, when the limit is small enough to build.
          maxItems <= 100 ? fc.array(valueArb(items, doc, 'valid', depth + 1), { minLength: maxItems + 1, maxLength: maxItems + 1 }) : fc.constant([]),
          fc.array(valueArb(items, doc, 'boundary', depth + 1), { minLength: Math.max(minItems, 1), maxLength: Math.max(minItems, 2) }),
        );
      }
      return fc.array(valueArb(items, doc, 'valid', depth + 1), { minLength: minItems, maxLength: Math.max(minItems, Math.min(maxItems, 3)) });
    }
    case 'object':
    default:
      return objectArb(s, doc, mode, depth);
  }
}

function objectArb(s: Schema, doc: OpenApiDoc, mode: Mode, depth: number): fc.Arbitrary<unknown> {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(props);
  if (!names.length) return mode === 'valid' ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 8 }), NASTY, { maxKeys: 3 });
  const required = new Set((s.required as string[] | undefined) ?? []);
  const members = Object.fromEntries(names.map((n) => [n, valueArb(props[n]!, doc, mode, depth + 1)]));
  return fc.record(members, { requiredKeys: names.filter((n) => required.has(n)) });
}

/** A valid object with one member made wrong, dropped, or an unknown one added (then named in `unknown`). */
function brokenObjectArb(s: Schema, doc: OpenApiDoc): fc.Arbitrary<{ value: unknown; unknown?: string }> {
  const r = resolve(s, doc);
  const names = Object.keys((r.properties ?? {}) as object);
  const base = valueArb(r, doc, 'valid');
  if (!names.length) return base.map((value) => ({ value }));
  return fc.tuple(base, fc.constantFrom(...names), NASTY, fc.constantFrom('replace', 'drop', 'extra')).map(([value, name, nasty, how]) => {
    const obj = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
    if (how === 'replace') obj[name] = nasty;
    else if (how === 'drop') delete obj[name];
    else {
      obj[`necunoscut_${name}`] = nasty;
      return { value: obj, unknown: `necunoscut_${name}` };
    }
    return { value: obj };
  });
}

/** The query member no operation knows, added to some requests: each must be refused naming it. */
export const UNKNOWN_QUERY_MEMBER = 'necunoscut_q';

/** Ids a path parameter takes: real ones of the seeded firm (to reach deep code), or garbage. */
export type IdPool = Record<string, string[]>;

const GARBAGE_ID = fc.oneof(
  fc.constantFrom('nu_exista', '0', '-1', '..', '%2e%2e', 'x'.repeat(300), 'ș', '%00', 'null', 'lang_ro', '2024', '99999999999999999999'),
  fc.string({ minLength: 1, maxLength: 30 }).map((v) => encodeURIComponent(v)),
);

function pathParamArb(op: Operation, name: string, pool: IdPool): fc.Arbitrary<string> {
  const known = pool[`${op.path.split('/')[1]}:${name}`] ?? pool[name] ?? [];
  return known.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: GARBAGE_ID }) : GARBAGE_ID;
}

function queryString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

export function requestArb(op: Operation, doc: OpenApiDoc, pool: IdPool): fc.Arbitrary<FuzzRequest> {
  const pathArb = fc.tuple(...op.pathParams.map((p) => pathParamArb(op, p, pool))).map((values) => {
    let path = op.path;
    op.pathParams.forEach((p, i) => (path = path.replace(`{${p}}`, values[i]!)));
    return path;
  });
  const queryArb = fc.tuple(
    ...op.query.map((q) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: valueArb(q.schema, doc, 'valid') },
        { weight: 1, arbitrary: valueArb(q.schema, doc, 'boundary') },
        { weight: 1, arbitrary: valueArb(q.schema, doc, 'invalid') },
      ),
    ),
  );
  const extraQueryArb = fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
  type Query = { text: string; unknown?: string };
  const withExtraArb = fc.tuple(queryArb, extraQueryArb).map(([values, extra]): Query => {
    const parts: string[] = [];
    op.query.forEach((q, i) => {
      const v = values[i];
      if (v !== undefined) parts.push(`${encodeURIComponent(q.name)}=${encodeURIComponent(queryString(v))}`);
    });
    if (extra) parts.push(`${UNKNOWN_QUERY_MEMBER}=1`);
    return { text: parts.join('&'), ...(extra ? { unknown: UNKNOWN_QUERY_MEMBER } : {}) };
  });
  type Body = { text?: string | Buffer; contentType?: string; mode: string; unknown?: string };
  const json = (mode: string) => (v: unknown): Body => ({ text: JSON.stringify(v), contentType: 'application/json', mode });
  const bodyArb: fc.Arbitrary<Body> = op.body
    ? fc.oneof(
        { weight: 4, arbitrary: valueArb(op.body, doc, 'valid').map(json('valid')) },
        { weight: 2, arbitrary: valueArb(op.body, doc, 'boundary').map(json('boundary')) },
        { weight: 2, arbitrary: brokenObjectArb(op.body, doc).map(({ value, unknown }) => ({ ...json('broken member')(value), ...(unknown ? { unknown } : {}) })) },
        { weight: 1, arbitrary: NASTY.map(json('nasty body')) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<Body>(
            { text: '{"a":', contentType: 'application/json', mode: 'malformed' },
            { text: '{}', contentType: 'text/plain', mode: 'text/plain' },
            { text: '{}', contentType: 'application/json; charset=utf-16', mode: 'utf-16' },
            { text: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xaa, 0x22, 0x7d]), contentType: 'application/json', mode: 'bad utf-8' },
            { text: `${'['.repeat(5000)}${']'.repeat(5000)}`, contentType: 'application/json', mode: 'deep' },
            { mode: 'no body' },
          ),
        },
      )
    : op.method === 'GET'
      ? fc.constant<Body>({ mode: 'no body' }) // fetch sends no body with a GET
      : fc.oneof({ weight: 5, arbitrary: fc.constant<Body>({ mode: 'no body' }) }, { weight: 1, arbitrary: NASTY.map(json('unexpected body')) });
  const idemArb = op.create
    ? fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('', 'k'.repeat(256), 'cheie-fuzz-1', 'cheie fuzz') })
    : fc.constant(undefined);
  return fc.record({ path: pathArb, query: withExtraArb, body: bodyArb, idem: idemArb }).map(({ path, query: q, body, idem }) => {
    const query = q.text;
    const unknownMember = q.unknown ?? body.unknown;
    const headers: Record<string, string> = {};
    if (body.contentType) headers['content-type'] = body.contentType;
    if (idem !== undefined) headers['idempotency-key'] = idem;
    return {
      operationId: op.operationId,
      method: op.method,
      path: query ? `${path}?${query}` : path,
      ...(body.text !== undefined ? { body: body.text } : {}),
      headers,
      modes: `body: ${body.mode}${idem !== undefined ? `, idempotency-key: ${JSON.stringify(idem.slice(0, 20))}` : ''}${unknownMember ? `, unknown: ${unknownMember}` : ''}`,
      ...(unknownMember ? { unknownMember } : {}),
    };
  });
}

/**
 * A fingerprint of every row of every table: equal before and after a refused request means the
 * request changed nothing. (No table is written by a request's mere arrival: keys are not stamped.)
 */
/**
 * Tables a background task keeps writing after the request that started it has answered: only the
 * columns that request set are fingerprinted (an export job's progress and state move on their own; a
 * refused request that inserted a job would still show).
 */
const STABLE_COLUMNS: Record<string, string[]> = {
  accounting_export_jobs: ['id', 'company_id', 'format', 'start_date', 'end_date', 'total', 'file_name', 'content_type', 'created_at'],
};

const rowsOf = (name: string) => {
  const columns = STABLE_COLUMNS[name];
  return columns ? sql`(select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(name)})` : sql.table(name);
};

export async function databaseFingerprint(storage: Storage): Promise<string> {
  const tables =
    storage.dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%_search%' order by name`.execute(storage.db)).rows
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(storage.db)).rows;
  const hash = createHash('sha256');
  if (storage.dialect === 'postgres') {
    // One round trip: every table's rows as text, hashed by the database.
    const parts = tables
      .filter(({ name }) => /^[a-z_0-9]+$/.test(name))
      .map(({ name }) => sql`select ${name} as t, count(*)::int as n, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as h from ${rowsOf(name)} x`);
    const rows = await sql<{ t: string; n: number; h: string }>`${sql.join(parts, sql` union all `)}`.execute(storage.db);
    for (const r of rows.rows.sort((a, b) => a.t.localeCompare(b.t))) hash.update(`${r.t}:${r.n}:${r.h}\n`);
    return hash.digest('hex');
  }
  for (const { name } of tables) {
    if (!/^[a-z_0-9]+$/.test(name)) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${rowsOf(name)} x`.execute(storage.db);
    const lines = rows.rows.map((r) => JSON.stringify(r)).sort();
    hash.update(`${name}:${lines.length}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}
