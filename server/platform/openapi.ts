import { z } from 'zod';
import type { AnyRoute } from './route';
import { commonQuery, successStatusOf } from './route';

type JsonSchema = Record<string, unknown>;

/**
 * The shared schemas of the document (components/schemas). zod puts schemas it must name (a schema
 * with `.meta({ id })`, a recursive one) under `$defs` of each converted schema, with refs relative
 * to that schema; inside an OpenAPI document they must live in components and be referred to there.
 */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};
  private anonymous = 0;

  /**
   * Converts one zod schema, moving its `$defs` into the components. `closed`: a request body, whose
   * objects refuse members they do not list (the service answers 422 `unknown_parameter`); zod states
   * that only of output schemas.
   */
  convert(schema: z.ZodType, io: 'input' | 'output', context: string, closed = false): JsonSchema {
    let json: JsonSchema;
    try {
      json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    } catch (error) {
      // A schema zod cannot describe must not take the service down; the document says so instead.
      const reason = error instanceof Error ? error.message : String(error);
      return { description: `Not representable in JSON Schema (${context}): ${reason}` };
    }
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    const names = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) names.set(id, this.nameFor(id, def, io, context));
    const rewrite = (value: unknown, inAllOf = false): unknown => {
      if (Array.isArray(value)) return value.map((v) => rewrite(v, inAllOf));
      if (value && typeof value === 'object') {
        const out: JsonSchema = {};
        for (const [k, v] of Object.entries(value as JsonSchema)) {
          if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
            const target = names.get(v.slice('#/$defs/'.length));
            out[k] = target ? `#/components/schemas/${target}` : v;
          } else out[k] = rewrite(v, k === 'allOf');
        }
        // Not inside allOf: each part closed would refuse the other parts' members.
        if (closed && !inAllOf && out.type === 'object' && out.properties && out.additionalProperties === undefined) {
          out.additionalProperties = false;
        }
        return spellOutRequired(out);
      }
      return value;
    };
    for (const [id, def] of Object.entries(defs)) this.schemas[names.get(id)!] = rewrite(def) as JsonSchema;
    return rewrite(json) as JsonSchema;
  }

  /** A component name for a def: its own id when free (or holding the same schema), else a variant. */
  private nameFor(id: string, def: JsonSchema, io: 'input' | 'output', context: string): string {
    const base = id.startsWith('__schema') ? `${context}Node${++this.anonymous}` : id.replace(/[^A-Za-z0-9._-]/g, '_');
    const candidates = [base, io === 'input' ? `${base}Input` : `${base}Output`];
    for (const name of candidates) {
      const existing = this.schemas[name];
      if (!existing || JSON.stringify(existing) === JSON.stringify(def)) return name;
    }
    for (let n = 2; ; n += 1) if (!this.schemas[`${base}${n}`]) return `${base}${n}`;
  }
}

/**
 * A record over an enum (`z.record(z.enum(['net', 'vat']), z.number())`) comes out as `required`
 * names with no `properties`: valid JSON Schema, but readers (and linters) expect every required
 * member to be described. Each such member gets the schema every value has.
 */
function spellOutRequired(node: JsonSchema): JsonSchema {
  const required = node.required;
  if (!Array.isArray(required) || required.length === 0) return node;
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const missing = required.filter((name): name is string => typeof name === 'string' && !(name in properties));
  if (!missing.length) return node;
  const valueSchema = node.additionalProperties && typeof node.additionalProperties === 'object' ? node.additionalProperties : {};
  return { ...node, properties: { ...properties, ...Object.fromEntries(missing.map((name) => [name, valueSchema])) } };
}

function acceptsUndefined(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

const metaSchema: JsonSchema = {
  type: 'object',
  description: 'Present in every reply, success or error.',
  required: ['version', 'request_id', 'response_time'],
  properties: {
    version: { type: 'string', const: 'v1' },
    request_id: { type: 'string', format: 'uuid' },
    response_time: { type: 'string', pattern: '^[0-9]+ms$' },
    warnings: {
      type: 'array',
      description: 'Only when the request succeeded with something to tell (a sale that took stock below zero: `negative_stock`).',
      items: {
        type: 'object', required: ['code', 'message'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, param: { type: 'string' } },
        additionalProperties: true,
      },
    },
  },
};

const errorEnvelope: JsonSchema = {
  type: 'object',
  description: 'Every error reply.',
  required: ['success', 'error', 'meta'],
  properties: {
    success: { type: 'boolean', const: false },
    error: {
      type: 'object',
      required: ['message', 'type', 'code', 'doc_url', 'status'],
      properties: {
        message: { type: 'string', description: 'Human-readable, in the language of `locale` / Accept-Language.' },
        type: {
          type: 'string',
          enum: ['api_error', 'authentication_error', 'invalid_request_error', 'rate_limit_error', 'permission_error', 'validation_error', 'configuration_error'],
        },
        code: { type: 'string' },
        param: { type: 'string', description: 'The offending parameter or member.' },
        doc_url: { type: 'string', format: 'uri' },
        status: { type: 'integer' },
        fields: { type: 'object', description: 'Member name to message, on validation errors.', additionalProperties: { type: 'string' } },
      },
    },
    meta: { $ref: '#/components/schemas/Meta' },
  },
};

const commonHeaders = {
  'X-Request-Id': { description: 'The request id, also in meta.request_id.', schema: { type: 'string', format: 'uuid' } },
};

const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per hour for this key.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current hour.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the hourly window resets, Unix seconds.', schema: { type: 'integer' } },
  ...commonHeaders,
};

const STANDARD_ERRORS: Record<string, number> = {
  missing_api_key: 401,
  invalid_api_key: 401,
  expired_api_key: 401,
  ip_restricted: 401,
  insufficient_permissions: 403,
  rate_limit_exceeded: 429,
  api_error: 500,
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  meta: 'The key itself and this document.',
  work_points: 'Work points (branches) of the company; a key reaches all of them.',
  compat: 'Other names for routes of this API, for clients written for Contazen\'s API (its official SDK); the table is docs/contazen-compatibility.md.',
};

function successBody(route: AnyRoute, components: Components, context: string): JsonSchema {
  const payload = components.convert(route.response, 'output', context);
  const meta = { $ref: '#/components/schemas/Meta' };
  if (route.envelope === 'top') {
    const props = payload.properties as Record<string, unknown> | undefined;
    if (payload.type === 'object' && props) {
      return {
        ...payload,
        type: 'object',
        required: ['success', 'meta', ...((payload.required as string[] | undefined) ?? [])],
        properties: { success: { type: 'boolean', const: true }, ...props, meta },
        ...(payload.additionalProperties === false ? { additionalProperties: false } : {}),
      };
    }
    // A payload that is not a plain object (a union, say): both parts must hold.
    return { allOf: [{ type: 'object', required: ['success', 'meta'], properties: { success: { type: 'boolean', const: true }, meta } }, payload] };
  }
  return {
    type: 'object',
    required: ['success', 'data', 'meta'],
    properties: { success: { type: 'boolean', const: true }, data: payload, meta },
  };
}

function isArraySchema(json: JsonSchema): boolean {
  if (json.type === 'array') return true;
  const anyOf = (json.anyOf ?? json.oneOf) as JsonSchema[] | undefined;
  return Array.isArray(anyOf) && anyOf.some((s) => s.type === 'array');
}

function operation(route: AnyRoute, components: Components) {
  const context = route.operationId.charAt(0).toUpperCase() + route.operationId.slice(1);
  const parameters: unknown[] = [];
  const declared = new Set<string>();
  if (route.params) {
    for (const [name, schema] of Object.entries(route.params.shape as Record<string, z.ZodType>)) {
      declared.add(name);
      parameters.push({ name, in: 'path', required: true, schema: components.convert(schema, 'input', context) });
    }
  }
  // A path parameter the route did not describe is still a parameter of the path.
  for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
    if (name && !declared.has(name)) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  const query = route.query ? route.query.extend(commonQuery.shape) : commonQuery;
  for (const [name, schema] of Object.entries(query.shape as Record<string, z.ZodType>)) {
    const description =
      name === 'work_point_id' ? 'Work point to act on; defaults to the key’s own. Another company’s answers 404.' : name === 'locale' ? 'Language of messages; else Accept-Language; else English.' : schema.description;
    const json = components.convert(schema, 'input', context);
    parameters.push({
      name,
      in: 'query',
      required: !acceptsUndefined(schema),
      ...(description ? { description } : {}),
      ...(isArraySchema(json) ? { style: 'form', explode: true } : {}),
      schema: json,
    });
  }
  if (route.create) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes the create safe to retry: the same key with the same request returns the first response (header Idempotent-Replayed: true); with another request, 409 idempotency_conflict. Scoped to the company, kept 24 hours.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  const errors = { ...STANDARD_ERRORS, ...(route.errors ?? {}) };
  // Every route has a query (`commonQuery`, with its `firm_id` alias), so every route can answer these.
  errors.validation_error ??= 422;
  errors.unknown_parameter ??= 422;
  errors.alias_conflict ??= 422;
  if (route.body) {
    errors.invalid_json ??= 400;
    errors.body_too_large ??= 413;
    errors.unsupported_media_type ??= 415;
  }
  if (route.create) errors.invalid_idempotency_key ??= 400;
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(errors)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  const replayHeader = {
    'Idempotent-Replayed': {
      description:
        '`true` on a replay: the stored reply to an earlier request with the same Idempotency-Key (its status as first sent), or a create the route recognised as already made (200).',
      schema: { type: 'string', enum: ['true'] },
    },
  };
  const successHeaders = route.create ? { ...rateHeaders, ...replayHeader } : rateHeaders;
  const content = route.produces
    ? { [route.produces]: { schema: { type: 'string', format: 'binary' } } }
    : { 'application/json': { schema: successBody(route, components, context) } };
  const status = successStatusOf(route);
  const responses: Record<string, unknown> = {
    [String(status)]: { description: status === 201 ? 'Created.' : 'Success.', headers: successHeaders, content },
  };
  if (route.create && status === 201) {
    // A create the route recognises as already made (client_local_uuid, a consumed reservation) answers what exists.
    // (A 202 create, an export job, has no such replay: its Idempotency-Key replay answers the stored 202.)
    responses['200'] = {
      description: 'Replay: this create had already happened (same `client_local_uuid` or reservation); the resource as it stands, with `Idempotent-Replayed: true`.',
      headers: successHeaders,
      content,
    };
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error codes: ${codes.sort().join(', ')}.`,
      headers: status === 429 ? { ...rateHeaders, 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } } : commonHeaders,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    'x-scope': route.scope,
    parameters,
    ...(route.body
      ? {
          requestBody: {
            required: !acceptsUndefined(route.body),
            content: { 'application/json': { schema: components.convert(route.body, 'input', `${context}Body`, true) } },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, generated from the very schemas the routes validate with. */
/** The version of the OpenAPI document (and of the API it describes), also answered by GET /version. */
export const OPENAPI_VERSION = '1.2.0';

export function buildOpenApi(routes: readonly AnyRoute[]) {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    if (operationIds.has(route.operationId)) throw new Error(`operationId ${route.operationId} is used by two routes`);
    operationIds.add(route.operationId);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    const method = route.method.toLowerCase();
    if (paths[path][method]) throw new Error(`${route.method} ${route.path} is defined twice`);
    paths[path][method] = operation(route, components);
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'getOpenApi',
      summary: 'This document',
      description: 'Public: no key needed.',
      tags: ['meta'],
      security: [],
      responses: {
        '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } },
        '404': {
          description: 'Only for a misspelt path (route_not_found), like every path of the service.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
      },
    },
  };
  const tags = [...new Set([...routes.flatMap((r) => r.tags), 'meta'])]
    .sort()
    .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations on ${name.replace(/[_-]+/g, ' ')}.` }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tejghea Invoicing Service API',
      version: OPENAPI_VERSION,
      description:
        'Invoicing Service API v1 as implemented by Tejghea. Parts the contract marks "not shown" are our design; see docs/api-decisions.md.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/v1', description: 'This server' }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: '`sk_live_` or `sk_test_` followed by 24 characters.' },
      },
      schemas: { Meta: metaSchema, ErrorEnvelope: errorEnvelope, ...components.schemas },
    },
  };
}
