import { z } from 'zod';

/** `meta` of every reply. */
export const zMeta = z.object({
  version: z.literal('v1'),
  request_id: z.string(),
  response_time: z.string().regex(/^\d+ms$/),
  /** Only when a request succeeded with something to tell (a sale below zero: `negative_stock`), for the counter to show. */
  warnings: z.array(z.object({ code: z.string(), message: z.string(), param: z.string().optional() }).passthrough()).optional(),
});

export const ERROR_TYPES = [
  'api_error',
  'authentication_error',
  'invalid_request_error',
  'rate_limit_error',
  'permission_error',
  'validation_error',
  'configuration_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** The error member of a failed reply, exactly as the contract lists it. */
export const zApiErrorBody = z.object({
  message: z.string(),
  type: z.enum(ERROR_TYPES),
  code: z.string(),
  param: z.string().optional(),
  doc_url: z.string().optional(),
  status: z.number().int().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiErrorBody = z.infer<typeof zApiErrorBody>;

export const zErrorEnvelope = z.object({ success: z.literal(false), error: zApiErrorBody, meta: zMeta });

/** `{ success, data, meta }` around a payload schema. */
export function zEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, meta: zMeta });
}

/** The paginated list shape, the value of `data` on list endpoints. */
export function zListPage<T extends z.ZodType>(item: T) {
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

/** Common list parameters (query string) as the client sends them. */
export const zListParams = z.object({
  page: z.number().int().min(1).optional(),
  per_page: z.number().int().min(1).max(100).optional(),
  search: z.string().optional(),
  sort: z.string().optional(),
  order: z.enum(['asc', 'desc']).optional(),
  start_date: z.string().optional(),
  end_date: z.string().optional(),
  work_point_id: z.string().optional(),
});
export type ListParams = z.infer<typeof zListParams>;
