/**
 * SQL text with its values kept apart. The only way to build a `Sql` is the `sql` tag (values become
 * `?` parameters) or `ident` (an identifier checked against an allow-list), so a query can never be
 * assembled by concatenating user input.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;

const SQL_BRAND: unique symbol = Symbol('sql');

export interface Sql {
  readonly [SQL_BRAND]: true;
  readonly text: string;
  readonly values: readonly SqlValue[];
}

function make(text: string, values: readonly SqlValue[]): Sql {
  return { [SQL_BRAND]: true, text, values };
}

export function isSql(value: unknown): value is Sql {
  return typeof value === 'object' && value !== null && (value as Partial<Sql>)[SQL_BRAND] === true;
}

/** Interpolated `Sql` fragments are spliced in; any other value becomes a `?` parameter. */
export function sql(strings: TemplateStringsArray, ...args: ReadonlyArray<SqlValue | boolean | Sql>): Sql {
  let text = strings[0] ?? '';
  const values: SqlValue[] = [];
  args.forEach((arg, i) => {
    if (isSql(arg)) {
      text += arg.text;
      values.push(...arg.values);
    } else {
      text += '?';
      values.push(typeof arg === 'boolean' ? (arg ? 1 : 0) : arg);
    }
    text += strings[i + 1] ?? '';
  });
  return make(text, values);
}

/** An identifier (column, table, sort direction) that must be one of `allowed`; anything else throws. */
export function ident<T extends string>(name: string, allowed: readonly T[]): Sql {
  if (!(allowed as readonly string[]).includes(name)) throw new Error(`identifier not allowed: ${name}`);
  if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name)) throw new Error(`unsafe identifier: ${name}`);
  return make(name, []);
}

/** Fragments joined by a separator (e.g. several WHERE conditions with AND). */
export function join(parts: readonly Sql[], separator: ', ' | ' AND ' | ' OR ' = ', '): Sql {
  return make(parts.map((p) => p.text).join(separator), parts.flatMap((p) => p.values));
}

/** `(?, ?, ?)` for an IN list; an empty list becomes `(NULL)`, which matches nothing. */
export function inList(values: readonly SqlValue[]): Sql {
  if (values.length === 0) return make('(NULL)', []);
  return make(`(${values.map(() => '?').join(', ')})`, values);
}

export const empty: Sql = make('', []);

/** A fixed fragment of trusted, literal SQL text written in our code (never built from input). */
export function raw(text: 'ASC' | 'DESC' | '1'): Sql {
  return make(text, []);
}
