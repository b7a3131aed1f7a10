import { isDeepStrictEqual } from 'node:util';

/**
 * Other names for our members: those Contazen's official PHP SDK sends (`q` for `search`, a product's
 * `sku` for `code`...). One layer, applied to the raw request before the unknown-member check and the
 * schema, so that a handler only ever sees the contract's names. Each route lists its own rules
 * (`aliases` of its RouteSpec); the module that owns the resource defines them. Every alias is
 * documented in docs/api-decisions.md ("Member aliases").
 *
 * When a request gives both an alias and the contract's name: the same value is accepted (the alias is
 * dropped); different values are refused (422 `alias_conflict`, both members named) rather than one of
 * them being dropped silently.
 */
export interface AliasRun {
  /** The service's calendar day in Bucharest, for aliases counted from "today" (`due_days`). */
  today(): string;
  /** Member path -> `English|Română` message, for the 422 `alias_conflict`. */
  conflicts: Record<string, string>;
  /** Member path -> message, for an alias whose value cannot be converted (a 422 `validation_error` on it). */
  invalid: Record<string, string>;
}

/** Rewrites one object (the body, the query, or an object inside them) at `path`; returns it or a copy. */
export type AliasRule = (input: Record<string, unknown>, run: AliasRun, path: string) => Record<string, unknown>;

export interface RouteAliases {
  query?: AliasRule[];
  body?: AliasRule[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

export const CONFLICT_MESSAGE = (alias: string, canonical: string) =>
  `\`${alias}\` is another name for \`${canonical}\`, which is also given with another value.|` +
  `\`${alias}\` este alt nume pentru \`${canonical}\`, trimis și el, cu altă valoare.`;

/**
 * `alias` names the member `canonical`; `convert` turns the alias's value into the canonical one, or
 * returns undefined when it cannot: the alias is then dropped, and the converter has said why in
 * `run.invalid` (or the request fails on the member it depended on), so nothing passes unreported.
 */
export function rename(
  alias: string,
  canonical: string,
  convert: (value: unknown, input: Record<string, unknown>, run: AliasRun, path: string) => unknown = (v) => v,
): AliasRule {
  return (input, run, path) => {
    if (!Object.hasOwn(input, alias)) return input;
    const { [alias]: given, ...rest } = input;
    const converted = convert(given, input, run, path);
    if (converted === undefined) return rest;
    if (Object.hasOwn(input, canonical) && !isDeepStrictEqual(input[canonical], converted)) {
      run.conflicts[at(path, alias)] = CONFLICT_MESSAGE(alias, canonical);
      return input;
    }
    return { ...rest, [canonical]: converted };
  };
}

/** Values of `member` given under other names (`sort=date` for `sort=issue_date`). */
export function renameValues(member: string, values: Readonly<Record<string, string>>): AliasRule {
  return (input) => {
    const value = input[member];
    if (typeof value !== 'string' || !Object.hasOwn(values, value)) return input;
    return { ...input, [member]: values[value] };
  };
}

/** Applies `rules` inside the object `member` (a nested object). */
export function inside(member: string, rules: AliasRule[]): AliasRule {
  return (input, run, path) => {
    const value = input[member];
    if (!isObject(value)) return input;
    const next = applyRules(rules, value, run, at(path, member));
    return next === value ? input : { ...input, [member]: next };
  };
}

/** Applies `rules` to each object of the array `member` (an invoice's lines). */
export function eachOf(member: string, rules: AliasRule[]): AliasRule {
  return (input, run, path) => {
    const value = input[member];
    if (!Array.isArray(value)) return input;
    let changed = false;
    const next = value.map((item, i) => {
      if (!isObject(item)) return item;
      const out = applyRules(rules, item, run, at(at(path, member), i));
      if (out !== item) changed = true;
      return out;
    });
    return changed ? { ...input, [member]: next } : input;
  };
}

export function applyRules(rules: AliasRule[], input: Record<string, unknown>, run: AliasRun, path = ''): Record<string, unknown> {
  let out = input;
  for (const rule of rules) out = rule(out, run, path);
  return out;
}

/** The rules of one part of a request, applied when the part is an object (anything else is the schema's to refuse). */
export function applyAliases(rules: AliasRule[] | undefined, input: unknown, run: AliasRun): unknown {
  if (!rules?.length || !isObject(input)) return input;
  return applyRules(rules, input, run);
}

/**
 * The query rules every route has: `q` (the SDK's search) for `search`, on the routes that search;
 * `firm_id` (the SDK's former name of the work point) for `work_point_id`.
 */
export function commonQueryRules(searches: boolean): AliasRule[] {
  return [...(searches ? [rename('q', 'search')] : []), rename('firm_id', 'work_point_id')];
}

/**
 * The SDK sends its configured work point inside the JSON body of every write (`work_point_id`, or
 * the older `firm_id`); we read it from the query. Moved there unless the route's body has a member of
 * that name itself; a different value in both places is a conflict.
 */
export function bodyWorkPointToQuery(
  body: unknown,
  query: Record<string, unknown>,
  bodyKnows: (member: string) => boolean,
  run: AliasRun,
): { body: unknown; query: Record<string, unknown> } {
  if (!isObject(body)) return { body, query };
  let b = body;
  let q = query;
  for (const member of ['work_point_id', 'firm_id'] as const) {
    if (!Object.hasOwn(b, member) || bodyKnows(member)) continue;
    const { [member]: value, ...rest } = b;
    b = rest;
    if (q.work_point_id !== undefined && q.work_point_id !== value) {
      run.conflicts[member] = CONFLICT_MESSAGE(member, 'work_point_id');
    } else {
      q = { ...q, work_point_id: value };
    }
  }
  return { body: b, query: q };
}
