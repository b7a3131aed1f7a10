import type { z } from 'zod';

/**
 * The members of a request the route's schema does not know. zod's objects strip them silently; a
 * client that misspells a member (or sends another service's name for it) would then get a 2xx and
 * lose what it sent. The walk follows the schema and the input together, so nested objects and the
 * objects of arrays are checked too, without making any schema strict (docs/api-decisions.md,
 * "Unknown members").
 *
 * Open on purpose: records (their keys are data), `passthrough`/`catchall` objects, `any`/`unknown`/
 * custom types, and the input of a preprocess (its function may rename members before the schema
 * sees them). A union knows a member when any option that takes this kind of input knows it; a
 * discriminated union first narrows to the options its discriminator value selects.
 */
export function unknownMembers(schema: z.ZodType, input: unknown, prefix = ''): string[] {
  const found: string[] = [];
  walk(schema as unknown as Node, input, prefix, found);
  return found;
}

/** zod 4's definition of a schema, as much of it as the walk reads. */
interface Def {
  type: string;
  shape?: Record<string, Node>;
  catchall?: Node;
  innerType?: Node;
  in?: Node;
  out?: Node;
  element?: Node;
  items?: Node[];
  rest?: Node | null;
  valueType?: Node;
  options?: Node[];
  discriminator?: string;
  left?: Node;
  right?: Node;
  getter?: () => Node;
}
interface Node {
  _zod: { def: Def };
  safeParse?(value: unknown): { success: boolean };
}

/** Wrappers whose input is their inner type's. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional', 'success']);
/** Types that take any member: nothing under them is unknown. */
const OPEN = new Set(['any', 'unknown', 'custom', 'transform']);

function unwrap(schema: Node): Node {
  let node = schema;
  for (let guard = 0; guard < 64; guard++) {
    const def = node._zod.def;
    if (WRAPPERS.has(def.type) && def.innerType) node = def.innerType;
    else if (def.type === 'lazy' && def.getter) node = def.getter();
    // A pipe is checked by what reads the raw input: `in` (a preprocess's function is open).
    else if (def.type === 'pipe' && def.in) node = def.in;
    else return node;
  }
  return node;
}

/** What kind of JSON value a schema takes as input: `open` takes anything. */
function kindOf(schema: Node): 'object' | 'array' | 'open' | 'other' {
  const def = unwrap(schema)._zod.def;
  if (OPEN.has(def.type)) return 'open';
  if (def.type === 'object' || def.type === 'record') return 'object';
  if (def.type === 'array' || def.type === 'tuple') return 'array';
  if (def.type === 'union') {
    const kinds = new Set((def.options ?? []).map(kindOf));
    if (kinds.has('open')) return 'open';
    return kinds.has('object') ? 'object' : kinds.has('array') ? 'array' : 'other';
  }
  if (def.type === 'intersection') return kindOf(def.left!);
  return 'other';
}

const join = (prefix: string, key: string | number) => (prefix ? `${prefix}.${key}` : String(key));

function walk(schema: Node, input: unknown, path: string, found: string[]): void {
  if (typeof input !== 'object' || input === null) return;
  const node = unwrap(schema);
  const def = node._zod.def;
  switch (def.type) {
    case 'object': {
      if (Array.isArray(input)) return;
      const shape = def.shape ?? {};
      // `passthrough()`/`catchall(x)` accept any member; `strict()` has a `never` catchall and zod says so too.
      const open = def.catchall !== undefined && def.catchall._zod.def.type !== 'never';
      for (const key of Object.keys(input)) {
        const member = Object.prototype.hasOwnProperty.call(shape, key) ? shape[key] : undefined;
        if (member) walk(member, (input as Record<string, unknown>)[key], join(path, key), found);
        else if (open) walk(def.catchall!, (input as Record<string, unknown>)[key], join(path, key), found);
        else found.push(join(path, key));
      }
      return;
    }
    case 'record':
      if (Array.isArray(input)) return;
      for (const [key, value] of Object.entries(input)) walk(def.valueType!, value, join(path, key), found);
      return;
    case 'array':
      if (!Array.isArray(input)) return;
      input.forEach((item, i) => walk(def.element!, item, join(path, i), found));
      return;
    case 'tuple':
      if (!Array.isArray(input)) return;
      input.forEach((item, i) => {
        const element = def.items?.[i] ?? def.rest ?? undefined;
        if (element) walk(element, item, join(path, i), found);
      });
      return;
    case 'union':
      return walkOptions(unionCandidates(def, input), input, path, found);
    case 'intersection':
      // A member is unknown only when neither side knows it.
      return walkOptions([def.left!, def.right!], input, path, found);
    default:
      // Scalars, enums, literals: the input's type is zod's to refuse. Open types take anything.
      return;
  }
}

/** The options a union may have meant for this input: those of its kind, narrowed by the discriminator. */
function unionCandidates(def: Def, input: object): Node[] {
  const kind = Array.isArray(input) ? 'array' : 'object';
  const options = (def.options ?? []).filter((option) => {
    const k = kindOf(option);
    return k === kind || k === 'open';
  });
  if (def.discriminator === undefined || Array.isArray(input)) return options;
  const tag = (input as Record<string, unknown>)[def.discriminator];
  const chosen = options.filter((option) => {
    const member = unwrap(option)._zod.def.shape?.[def.discriminator!];
    return member?.safeParse?.(tag).success === true;
  });
  // An unmatched tag is zod's to refuse; the members are then judged against every option.
  return chosen.length ? chosen : options;
}

/** Unknown paths under several readings of one input: only those no reading knows. */
function walkOptions(options: Node[], input: unknown, path: string, found: string[]): void {
  if (options.length === 0) return;
  let common: Set<string> | null = null;
  for (const option of options) {
    if (kindOf(option) === 'open') return;
    const mine: string[] = [];
    walk(option, input, path, mine);
    common = common === null ? new Set(mine) : new Set(mine.filter((p) => common!.has(p)));
    if (common.size === 0) return;
  }
  found.push(...common!);
}
