import type { z } from 'zod';
import { ApiError, validationFailed } from '../../platform/errors';
import { scopeAllows } from '../../platform/api-keys';
import { commonQuery, type AnyRoute, type HandlerContext, type HttpMethod } from '../../platform/route';
import { fieldsFromZod } from '../../platform/zod-fields';

/**
 * The alias layer of routes (issue 18): other names for routes we already have, so that a client
 * written for Contazen's API (its official SDK) works unchanged. An alias is the very same route spec
 * under another method, path and operationId: the same schemas, the same handler, the same errors,
 * published in the OpenAPI document like any route (and so fuzzed). The contract's own names stay
 * primary; docs/contazen-compatibility.md lists every alias.
 */

/** Operation id of an alias → the operation id of the route it repeats (same handler, same params), an alias's alias included. */
export const ALIAS_OF = new Map<string, string>();

export interface AliasNames {
  method?: HttpMethod;
  path: string;
  operationId: string;
  summary?: string;
}

/** `route` again, under another name. Its path must name the same parameters as the original's. */
export function aliasOf(route: AnyRoute, names: AliasNames): AnyRoute {
  ALIAS_OF.set(names.operationId, ALIAS_OF.get(route.operationId) ?? route.operationId);
  return {
    ...route,
    method: names.method ?? route.method,
    path: names.path,
    operationId: names.operationId,
    summary: names.summary ?? route.summary,
    description: `Alias of \`${route.method} ${route.path}\` (${route.operationId}) for clients written for Contazen's API; same members, same reply.` +
      (route.description ? ` ${route.description}` : ''),
    tags: [...route.tags, 'compat'],
  };
}

/**
 * A `PATCH` twin of every `PUT` route that has none: Contazen's SDK updates products, series, payments,
 * settings and the rest with PATCH. Our PUTs already change only the members sent (omitted ones keep
 * their values), which is what PATCH means, so the twin is the PUT route itself: same body, same reply.
 * Made here, in one place, for every module's routes, so a PUT added later gets its twin too.
 */
export function patchTwins(routes: AnyRoute[]): AnyRoute[] {
  const patched = new Set(routes.filter((r) => r.method === 'PATCH').map((r) => r.path));
  return routes
    .filter((r) => r.method === 'PUT' && !patched.has(r.path))
    .map((r) => aliasOf(r, { method: 'PATCH', path: r.path, operationId: `${r.operationId}Patch`, summary: `${r.summary} (PATCH)` }));
}

/** The route of `operationId` among `routes`; a missing one is our bug, found when the module loads. */
export function routeNamed(routes: AnyRoute[], operationId: string): AnyRoute {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`compat: no route ${operationId}`);
  return route;
}

interface Parts {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

function parsed<T extends z.ZodType>(schema: T | undefined, input: unknown, ctx: HandlerContext<unknown, unknown, unknown>): z.output<T> | undefined {
  if (!schema) return undefined;
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw validationFailed(fieldsFromZod(result.error, ctx.locale));
  return result.data;
}

/**
 * Runs another route's handler for this request, with the parts this alias maps onto it (a path
 * parameter moved into the query or the body, a default filled in). The parts go through that route's
 * own schemas (defaults, checks, a 422 naming the member), and its scope is checked as if it had been
 * called: an alias never reaches what the key could not reach directly. The other route's handler does
 * the work; no logic is copied here.
 */
export async function callRoute<R = unknown>(route: AnyRoute, ctx: HandlerContext<unknown, unknown, unknown>, parts: Parts = {}): Promise<R> {
  if (route.scope !== 'any' && !scopeAllows(ctx.auth.scopes, route.scope)) {
    throw new ApiError(403, 'permission_error', 'insufficient_permissions', { vars: { scope: route.scope } });
  }
  const query = route.query ? route.query.extend(commonQuery.shape) : commonQuery;
  // Only the members every route shares carry over; the alias's own query members are its own.
  const own = ctx.query as z.output<typeof commonQuery>;
  const shared = Object.fromEntries(Object.entries({ work_point_id: own.work_point_id, locale: own.locale }).filter(([, v]) => v !== undefined));
  const inner: HandlerContext<unknown, unknown, unknown> = {
    ...ctx,
    params: parsed(route.params, parts.params ?? {}, ctx),
    query: parsed(query, { ...shared, ...parts.query }, ctx),
    body: parsed(route.body, parts.body ?? {}, ctx),
    // A replay seen by the inner handler is this request's replay.
    replayed: () => ctx.replayed(),
  };
  return (await route.handler(inner)) as R;
}

/** Every item of a paginated list route, page after page: for the few short lists the SDK reads as plain arrays. */
export async function allPages<T>(route: AnyRoute, ctx: HandlerContext<unknown, unknown, unknown>, query: Record<string, unknown> = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const reply = await callRoute<{ data: T[]; has_more: boolean }>(route, ctx, { query: { ...query, page, per_page: 100 } });
    items.push(...reply.data);
    if (!reply.has_more) return items;
  }
}
