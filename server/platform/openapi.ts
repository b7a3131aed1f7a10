import { z } from 'zod';
import type { AnyRoute } from './route';
import { commonQuery } from './route';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function acceptsUndefined(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

const metaSchema: JsonSchema = {
  type: 'object',
  required: ['version', 'request_id', 'response_time'],
  properties: {
    version: { type: 'string', const: 'v1' },
    request_id: { type: 'string', format: 'uuid' },
    response_time: { type: 'string', pattern: '^[0-9]+ms$' },
  },
};

const errorEnvelope: JsonSchema = {
  type: 'object',
  required: ['success', 'error', 'meta'],
  properties: {
    success: { type: 'boolean', const: false },
    error: {
      type: 'object',
      required: ['message', 'type', 'code'],
      properties: {
        message: { type: 'string' },
        type: {
          type: 'string',
          enum: ['api_error', 'authentication_error', 'invalid_request_error', 'rate_limit_error', 'permission_error', 'validation_error', 'configuration_error'],
        },
        code: { type: 'string' },
        param: { type: 'string' },
        doc_url: { type: 'string', format: 'uri' },
        status: { type: 'integer' },
        fields: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    meta: { $ref: '#/components/schemas/Meta' },
  },
};

const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per hour for this key.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current hour.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the hourly window resets, Unix seconds.', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'The request id, also in meta.request_id.', schema: { type: 'string', format: 'uuid' } },
};

const STANDARD_ERRORS: Record<string, number> = {
  missing_api_key: 401,
  invalid_api_key: 401,
  expired_api_key: 401,
  ip_restricted: 401,
  insufficient_permissions: 403,
  rate_limit_exceeded: 429,
};

function successBody(route: AnyRoute): JsonSchema {
  const payload = toSchema(route.response, 'output');
  if (route.envelope === 'top') {
    const props = (payload.properties ?? {}) as Record<string, unknown>;
    return {
      type: 'object',
      required: ['success', 'meta', ...((payload.required as string[] | undefined) ?? [])],
      properties: { success: { type: 'boolean', const: true }, ...props, meta: { $ref: '#/components/schemas/Meta' } },
    };
  }
  return {
    type: 'object',
    required: ['success', 'data', 'meta'],
    properties: { success: { type: 'boolean', const: true }, data: payload, meta: { $ref: '#/components/schemas/Meta' } },
  };
}

function operation(route: AnyRoute) {
  const parameters: unknown[] = [];
  if (route.params) {
    for (const [name, schema] of Object.entries(route.params.shape as Record<string, z.ZodType>)) {
      parameters.push({ name, in: 'path', required: true, schema: toSchema(schema, 'input') });
    }
  }
  const query = route.query ? route.query.extend(commonQuery.shape) : commonQuery;
  for (const [name, schema] of Object.entries(query.shape as Record<string, z.ZodType>)) {
    const description =
      name === 'work_point_id' ? 'Work point to act on; defaults to the key’s own.' : name === 'locale' ? 'Language of messages.' : undefined;
    parameters.push({
      name,
      in: 'query',
      required: !acceptsUndefined(schema),
      ...(description ? { description } : {}),
      schema: toSchema(schema, 'input'),
    });
  }
  if (route.create) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes the create safe to retry: the same key with the same body returns the first response; with another body, 409 idempotency_conflict.',
      schema: { type: 'string', maxLength: 255 },
    });
  }
  const errors = { ...STANDARD_ERRORS, ...(route.errors ?? {}) };
  if (route.params || route.query || route.body) errors.validation_error ??= 422;
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(errors)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  const responses: Record<string, unknown> = {
    [String(route.successStatus ?? 200)]: route.produces
      ? { description: 'Success.', headers: rateHeaders, content: { [route.produces]: { schema: { type: 'string', format: 'binary' } } } }
      : { description: 'Success.', headers: rateHeaders, content: { 'application/json': { schema: successBody(route) } } },
  };
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error codes: ${codes.sort().join(', ')}.`,
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
      ? { requestBody: { required: !acceptsUndefined(route.body), content: { 'application/json': { schema: toSchema(route.body, 'input') } } } }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, generated from the very schemas the routes validate with. */
export function buildOpenApi(routes: readonly AnyRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'getOpenApi',
      summary: 'This document',
      tags: ['meta'],
      security: [],
      responses: {
        '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } },
        '404': { description: 'Never: listed for linters.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
      },
    },
  };
  const tags = [...new Set(routes.flatMap((r) => r.tags)), 'meta'].sort().map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tejghea Invoicing Service API',
      version: '1.2.0',
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
      schemas: { Meta: metaSchema, ErrorEnvelope: errorEnvelope },
    },
  };
}
