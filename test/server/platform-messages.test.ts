import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../server/modules/index';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../server/platform/errors';
import { allMessageCodes, hasMessage, messageTexts } from '../../server/platform/messages';
import { PROJECT_ROOT } from '../support/server';

/**
 * Every error message with a `{placeholder}` must get its value wherever it is thrown. This reads the
 * service's source for every place that makes an error (`new ApiError(…)`, `notFound(…)`,
 * `conflict(…)`, `badRequest(…)`, `forbidden(…)`, `unauthenticated(…)`), builds the same error with
 * the `param` and `vars` that place gives, and renders it in both languages. (A code chosen at run
 * time, e.g. an ANAF failure mapped to a code, is not visible here: test/support/server.ts refuses
 * any reply whose message still has a placeholder, in every test.)
 */

const PLACEHOLDER = /\{(\w+)\}/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The text between the parenthesis at `open` and its match, skipping string literals. */
function argumentText(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i += 1) {
    const c = source[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i += 1; i < source.length && source[i] !== c; i += 1) if (source[i] === '\\') i += 1;
      continue;
    }
    if (c === '(' || c === '{' || c === '[') depth += 1;
    if (c === ')' || c === '}' || c === ']') depth -= 1;
    if (depth === 0) return source.slice(open + 1, i);
  }
  throw new Error(`unbalanced call at ${open}`);
}

/** Top-level arguments of a call, split on commas outside brackets and strings. */
function splitArguments(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i += 1; i < text.length && text[i] !== c; i += 1) if (text[i] === '\\') i += 1;
      continue;
    }
    if (c === '(' || c === '{' || c === '[') depth += 1;
    else if (c === ')' || c === '}' || c === ']') depth -= 1;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last) out.push(last);
  return out;
}

const literal = (arg: string | undefined): string | undefined => /^'([^']*)'$/.exec(arg ?? '')?.[1];

/** The names given in `vars: { … }` of an options object (`name: value` or shorthand `name`). */
function varNames(options: string | undefined): string[] {
  if (!options) return [];
  const at = options.search(/\bvars\s*:\s*\{/);
  if (at < 0) return [];
  const body = argumentText(options, options.indexOf('{', at));
  return splitArguments(body)
    .filter((member) => !member.startsWith('...'))
    .map((member) => /^(\w+)/.exec(member)?.[1])
    .filter((name): name is string => Boolean(name));
}

interface ErrorSite {
  where: string;
  code: string;
  error: ApiError;
}

/** The errors a source text makes with a literal code, as it makes them (placeholder values are dummies). */
function errorSites(source: string, file: string): ErrorSite[] {
  const sites: ErrorSite[] = [];
  const calls = /\b(new ApiError|notFound|conflict|badRequest|forbidden|unauthenticated)\(/g;
  for (const match of source.matchAll(calls)) {
    const open = match.index + match[0].length - 1;
    const args = splitArguments(argumentText(source, open));
    const where = `${file}:${source.slice(0, match.index).split('\n').length}`;
    const dummy = (names: string[]) => Object.fromEntries(names.map((n) => [n, `<${n}>`]));
    const kind = match[1];
    if (kind === 'new ApiError') {
      const code = literal(args[2]);
      if (!code) continue;
      const options = args[3];
      const param = options && /\bparam\s*:/.test(options) ? '<param>' : undefined;
      sites.push({ where, code, error: new ApiError(400, 'invalid_request_error', code, { ...(param ? { param } : {}), vars: dummy(varNames(options)) }) });
    } else if (kind === 'notFound') {
      const code = args[1] === undefined ? 'resource_missing' : literal(args[1]);
      if (!code) continue;
      sites.push({ where, code, error: notFound(args[0] === undefined ? undefined : '<param>', code) });
    } else if (kind === 'unauthenticated') {
      const code = literal(args[0]);
      if (!code) continue;
      const vars = args[1] ? dummy(splitArguments(argumentText(args[1], 0)).map((m) => /^(\w+)/.exec(m)?.[1] ?? '')) : {};
      sites.push({ where, code, error: new ApiError(401, 'authentication_error', code, { vars }) });
    } else {
      const code = kind === 'forbidden' && args[0] === undefined ? 'forbidden' : literal(args[0]);
      if (!code) continue;
      const param = args[1] === undefined ? undefined : '<param>';
      const make = { conflict, badRequest, forbidden }[kind as 'conflict' | 'badRequest' | 'forbidden'];
      sites.push({ where, code, error: make(code, param) });
    }
  }
  return sites;
}

function unfilled(site: ErrorSite): string[] {
  return (['en', 'ro'] as const).flatMap((locale) => {
    const message = site.error.toBody(locale, 'https://docs.example/errors').message;
    return PLACEHOLDER.test(message) ? [`${site.where} ${site.code} (${locale}): ${message}`] : [];
  });
}

describe('error messages and their placeholders', () => {
  it('fills `{param}` from the param of notFound and the other helpers', () => {
    expect(notFound('id').toBody('en', 'x').message).toBe('No such resource: `id`.');
    expect(notFound('work_point_id').toBody('ro', 'x').message).toBe('Resursa nu există: `work_point_id`.');
    // vars win over param when a message wants other words than the member name.
    const missing = new ApiError(400, 'invalid_request_error', 'parameter_missing', { param: 'supplier_id', vars: { param: 'supplier_id | supplier_data.name' } });
    expect(allRoutes.length).toBeGreaterThan(0);
    expect(missing.toBody('en', 'x').message).toBe('A required parameter is missing: `supplier_id | supplier_data.name`.');
  });

  it('renders every error the service makes without an unfilled placeholder, in both languages', () => {
    const root = join(PROJECT_ROOT, 'server');
    const sites = sourceFiles(root).flatMap((path) => errorSites(readFileSync(path, 'utf8'), relative(PROJECT_ROOT, path)));
    // The scan must actually see the service's errors (a broken pattern would find none and pass).
    expect(sites.length).toBeGreaterThan(150);
    const unknown = sites.filter((s) => !hasMessage(s.code)).map((s) => `${s.where} ${s.code}`);
    expect(unknown, 'codes without a registered message').toEqual([]);
    expect(sites.flatMap(unfilled)).toEqual([]);
    // Every code with a placeholder is made somewhere (else its placeholders were never checked).
    const thrown = new Set(sites.map((s) => s.code));
    // negative_stock is a warning (meta.warnings), rendered by messageFor with its values, not thrown.
    const dynamic = new Set(['anaf_unavailable', 'anaf_timeout', 'anaf_not_configured', 'route_not_found', 'negative_stock']);
    for (const code of allMessageCodes()) {
      if (!PLACEHOLDER.test(messageTexts(code)!.en)) continue;
      expect(thrown.has(code) || dynamic.has(code), `${code} has placeholders and is made somewhere`).toBe(true);
    }
  });

  it('catches a message thrown without its values', () => {
    const bad = [
      "throw conflict('already_voided', 'id');",
      "throw new ApiError(409, 'invalid_request_error', 'series_locked', { param: 'series_id', vars: { series: s.name } });",
      "throw conflict('parameter_missing');",
    ].join('\n');
    const found = errorSites(bad, 'snippet.ts').flatMap(unfilled);
    expect(found.some((f) => f.includes('already_voided') && f.includes('{storno_id}'))).toBe(true);
    expect(found.some((f) => f.includes('series_locked') && f.includes('{device_name}'))).toBe(true);
    expect(found.some((f) => f.includes('parameter_missing') && f.includes('{param}'))).toBe(true);
    const good = "throw new ApiError(409, 'invalid_request_error', 'already_voided', { param: 'id', vars: { storno_id } });";
    expect(errorSites(good, 'snippet.ts').flatMap(unfilled)).toEqual([]);
  });
});
