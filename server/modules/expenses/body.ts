import { z } from 'zod';
import type { Locale } from '../../platform/locale';
import { ApiError, validationFailed } from '../../platform/errors';
import { unknownMembers } from '../../platform/unknown-members';
import { UNKNOWN_MEMBER_MESSAGE } from '../../platform/route';
import { fieldsFromZod } from '../../platform/zod-fields';

/**
 * A route body the platform passes through unchecked, with `schema` still published in the OpenAPI
 * document. For routes whose contract puts a state check before validation ("locked: PUT, always
 * expense_locked"; "paid: pay, always expense_already_paid"), or that answer 400 rather than 422.
 * The handler parses it with {@link parseBody} once those checks have passed.
 */
export function documentedBody(schema: z.ZodType, options: { required?: boolean } = {}) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  // The platform hands an absent body over as {}, so this refusal of `undefined` only tells the
  // OpenAPI document that the body is required.
  const body = options.required ? z.unknown().refine((v) => v !== undefined) : z.unknown();
  return body.meta(json);
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown, locale: Locale, status = 422): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  // The platform saw an open body here: the members nobody knows are refused now, after the state
  // checks, as every other route refuses them (422 `unknown_parameter`, whatever this route's status).
  const unknown = unknownMembers(schema, body ?? {});
  if (unknown.length) {
    const fields = Object.fromEntries(unknown.map((path) => [path, UNKNOWN_MEMBER_MESSAGE]));
    if (!parsed.success) for (const [path, message] of Object.entries(fieldsFromZod(parsed.error, locale))) fields[path] ??= message;
    throw new ApiError(422, 'validation_error', 'unknown_parameter', { fields, param: unknown[0] });
  }
  if (!parsed.success) throw validationFailed(fieldsFromZod(parsed.error, locale), status);
  return parsed.data;
}

/** Header members the contract has the server derive from `items` when lines are sent. */
const DERIVED_FROM_ITEMS = ['amount', 'vat', 'amount_vat_manual', 'vat_breakdown'] as const;

/**
 * The body of PUT /expenses/{id} without the members the contract says are ignored, so that their
 * values (valid or not) cannot refuse the request: with `items` holding lines, the header amounts
 * (`amount`, `vat`, `amount_vat_manual`, `vat_breakdown`) are derived from the lines; with a `vat`
 * other than `mix`, `amount_vat_manual` is "ignored otherwise".
 */
export function withoutIgnoredMembers(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const members = body as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...members };
  if (Array.isArray(members.items) && members.items.length > 0) {
    for (const name of DERIVED_FROM_ITEMS) delete copy[name];
  } else if (members.vat !== undefined && members.vat !== 'mix') {
    delete copy.amount_vat_manual;
  }
  return copy;
}
