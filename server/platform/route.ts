import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db, Dialect } from '../db/types';
import { ApiError, notFound, validationFailed } from './errors';
import { resolveLocale, type Locale } from './locale';
import { authenticate, type AuthContext } from './auth';
import { scopeAllows, type Scope } from './api-keys';
import { checkRateLimit } from './rate-limit';
import { checkIdempotencyKey, withIdempotency, type Outcome } from './idempotency';
import type { Services } from './services';
import { fieldsFromZod } from './zod-fields';
import { meta } from './envelope';
import { MAX_AMOUNT } from '../../shared/schemas/common';
import { NUL_MESSAGE, nulMember } from './input-guards';
import type { ApiWarning } from './warnings';
import { applyAliases, bodyWorkPointToQuery, commonQueryRules, type AliasRule, type AliasRun, type RouteAliases } from './aliases';
import { unknownMembers } from './unknown-members';
import { todayAt } from './bucharest-time';
import { addMessages } from './messages';

/** How far past a route's own body limit a refused body is still read (and dropped) to keep its answer safe. */
const DRAINED_BODY_FACTOR = 4;

addMessages({
  unknown_parameter: {
    en: 'The request has members this endpoint does not know (see `fields`); nothing was done.',
    ro: 'Cererea are câmpuri pe care acest endpoint nu le cunoaște (vezi `fields`); nu s-a făcut nimic.',
  },
  alias_conflict: {
    en: 'A member is given under two names with different values (see `fields`); nothing was done.',
    ro: 'Un câmp este trimis sub două nume, cu valori diferite (vezi `fields`); nu s-a făcut nimic.',
  },
});

export const UNKNOWN_MEMBER_MESSAGE =
  'Unknown member: this endpoint does not accept it.|Câmp necunoscut: acest endpoint nu îl acceptă.';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HandlerContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  auth: AuthContext;
  companyId: string;
  /** The work point this request acts on: `work_point_id` when given, else the key's own. */
  workPointId: string;
  db: Db;
  dialect: Dialect;
  locale: Locale;
  /** Unix seconds, from the service clock. */
  now: number;
  services: Services;
  request: FastifyRequest;
  reply: FastifyReply;
  /**
   * Says that this create had already happened (an offline retry recognised by `client_local_uuid`,
   * a reservation already consumed by the same document): the reply is then `200 OK` with
   * `Idempotent-Replayed: true` instead of `201 Created`, and the handler returns the existing resource.
   */
  replayed(): void;
  /** Warnings of a request that succeeds anyway, for `meta.warnings`: pass this list to code that may add one. */
  warnings: ApiWarning[];
}

/** A reply that is not JSON (the e-Factura XML, a PDF; a stream for an export written as it is read). */
export interface BinaryReply {
  binary: true;
  contentType: string;
  body: Buffer | string | NodeJS.ReadableStream;
  filename?: string;
}

export const binaryReply = (contentType: string, body: BinaryReply['body'], filename?: string): BinaryReply => ({
  binary: true,
  contentType,
  body,
  ...(filename ? { filename } : {}),
});

/**
 * A member of a reply already serialized to JSON: a large part that does not change from one request
 * to the next (the ISO currency list of `GET /currencies`) is serialized once instead of on every
 * request, and spliced into the reply as text. Only as a member of the object a handler returns
 * (see {@link preSerialized}); `value` is what it stands for, in wire form: the response schema checks
 * it, and it is what an Idempotency-Key replay stores.
 */
export class PreSerialized<T = unknown> {
  /** The UTF-8 bytes of its JSON text, made once: a reply copies them instead of encoding the text again. */
  readonly bytes: Buffer;

  constructor(
    readonly value: T,
    json: string = JSON.stringify(value),
  ) {
    this.bytes = Buffer.from(json, 'utf8');
  }

  toJSON(): T {
    return this.value;
  }
}

/**
 * `value` to be sent as `json` (its JSON text, made once by the caller and reused). Typed as the value
 * so that a handler's return type still matches its response schema; use it only for a member of the
 * object a handler returns, never read it back.
 */
export function preSerialized<T>(value: T, json: string): T {
  return new PreSerialized(value, json) as unknown as T;
}

function preSerializedKeys(payload: unknown): string[] | null {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  let keys: string[] | null = null;
  for (const key in payload) {
    if ((payload as Record<string, unknown>)[key] instanceof PreSerialized) (keys ??= []).push(key);
  }
  return keys;
}

/**
 * The bytes of `<head>"a":1,"b":<bytes as given><tail>` for an object's members, PreSerialized ones
 * copied as the bytes they already are. Bytes, not text: a reply of ten kilobytes sent as a string was
 * flattened, measured and encoded to UTF-8 again on every request (a quarter of GET /currencies' CPU).
 */
function membersBytes(head: string, payload: Record<string, unknown>, tail: string): Buffer {
  const chunks: Buffer[] = [];
  let text = head;
  let separator = '';
  for (const key in payload) {
    const value = payload[key];
    if (value === undefined) continue;
    text += `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    if (value instanceof PreSerialized) {
      chunks.push(Buffer.from(text, 'utf8'), value.bytes);
      text = '';
    } else {
      text += JSON.stringify(value);
    }
  }
  chunks.push(Buffer.from(text + tail, 'utf8'));
  return Buffer.concat(chunks);
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface RouteSpec<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType> {
  method: HttpMethod;
  /** Fastify path under /v1, e.g. `/receipts/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** The permission a key needs; `any` for routes every valid key may call. */
  scope: Scope | 'any';
  /** Counts against the creates-per-minute budget and honours `Idempotency-Key`. */
  create?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** Schema of `data` (envelope `data`) or of the members beside `success` (envelope `top`). */
  response: R;
  envelope?: 'data' | 'top';
  /** For non-JSON replies: the content type the OpenAPI document announces. */
  produces?: string;
  /** Status of a success; default 201 for a `create`, else 200. */
  successStatus?: number;
  /** Error codes this route can answer with, for the OpenAPI document: `{ code: status }`. */
  errors?: Record<string, number>;
  /**
   * A body limit of its own (bytes) instead of the service's 1 MiB (a file upload), and the error a
   * declared `Content-Length` above it answers, before the body is read (default 413 `body_too_large`).
   */
  bodyLimit?: number;
  bodyTooLarge?: (contentLength: number) => ApiError;
  /** Other names this route accepts for its members (server/platform/aliases.ts); the contract's names stay primary. */
  aliases?: RouteAliases;
  handler: (
    ctx: HandlerContext<z.output<P>, z.output<Q>, z.output<B>>,
  ) => Promise<z.input<R> | BinaryReply>;
}

// Route specs of different shapes live in one list; their handlers were typed where they were defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogenous registry of typed routes
export type AnyRoute = RouteSpec<any, any, any, any>;

export function defineRoute<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType>(
  spec: RouteSpec<P, Q, B, R>,
): RouteSpec<P, Q, B, R> {
  return spec;
}

/** Members every authenticated route accepts in its query string. */
export const commonQuery = z.object({
  work_point_id: z.string().optional(),
  locale: z.enum(['en', 'ro']).optional(),
});

/** The service day, computed only when an alias needs it (`due_days`). */
class RequestAliasRun implements AliasRun {
  conflicts: Record<string, string> = {};
  invalid: Record<string, string> = {};
  constructor(private readonly now: number) {}
  today(): string {
    return todayAt(this.now);
  }
}

/** Shared by every request that has nothing to report: only ever read. */
const NO_FAILURES: Readonly<Record<string, string>> = Object.freeze({});

function hasNoMembers(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** A route without a body schema knows no body member. */
const NO_BODY = z.object({});

/**
 * The request's query and body under the contract's names (aliases applied, the SDK's body work point
 * moved to the query), then refused when a member is given twice with different values, or when a
 * member is one the route does not know (every part is checked, and the schema's failures reported
 * beside the unknown members: a misspelt required member shows as both).
 */
function canonicalInput(
  route: AnyRoute,
  query: AnyObject,
  queryRules: AliasRule[],
  request: FastifyRequest,
  now: number,
  invalid: Record<string, string>,
): { query: unknown; body: unknown; aliasInvalid: Record<string, string> } {
  // Most reads (`GET /me`, a first page) have no body and no query member: no alias, no member to move
  // or to find unknown, so none of the walks below would change or report anything.
  if (request.body === undefined && hasNoMembers(request.query)) return { query: request.query ?? {}, body: {}, aliasInvalid: NO_FAILURES };
  const run = new RequestAliasRun(now);
  const bodySchema: z.ZodType = route.body ?? NO_BODY;
  // No body at all reads as `{}`; a body of `null` is a body, and the schema refuses it.
  const rawBody = applyAliases(route.aliases?.body, request.body === undefined ? {} : request.body, run);
  const rawQuery = applyAliases(queryRules, request.query ?? {}, run) as Record<string, unknown>;
  const moved = bodyWorkPointToQuery(rawBody, rawQuery, (member) => unknownMembers(bodySchema, { [member]: '' }).length === 0, run);
  if (Object.keys(run.conflicts).length) {
    throw new ApiError(422, 'validation_error', 'alias_conflict', { fields: run.conflicts, param: Object.keys(run.conflicts)[0] });
  }
  // A route without a body ignores a non-object one (a client's `null`), as it always has.
  const bodyToCheck = route.body || (typeof moved.body === 'object' && moved.body !== null && !Array.isArray(moved.body)) ? moved.body : {};
  for (const path of [...unknownMembers(query, moved.query), ...unknownMembers(bodySchema, bodyToCheck)]) {
    invalid[path] ??= UNKNOWN_MEMBER_MESSAGE;
  }
  return { ...moved, aliasInvalid: run.invalid };
}

/** Parses one part of the request, adding the failures to `fields` (every part is checked before any 422). */
function parsePart<T extends z.ZodType>(schema: T | undefined, input: unknown, locale: Locale, fields: Record<string, string>): z.output<T> | undefined {
  if (!schema) return undefined;
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  for (const [name, message] of Object.entries(fieldsFromZod(result.error, locale))) fields[name] ??= message;
  return undefined;
}

/** What the onRequest stage learned about a request, for its handler. */
export interface Admitted {
  locale: Locale;
  now: number;
  auth: AuthContext;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the route's onRequest stage once the key, budget and scope are settled (buildApp declares it). */
    tejgheaAdmitted: Admitted | null;
  }
}

/**
 * The context of one request. A class rather than an object literal: every request builds one, and
 * `replayed` then lives once on the prototype instead of as a new closure per request.
 */
class RequestContext implements HandlerContext<unknown, unknown, unknown> {
  isReplay = false;
  readonly warnings: ApiWarning[] = [];
  constructor(
    readonly params: unknown,
    readonly query: unknown,
    readonly body: unknown,
    readonly auth: AuthContext,
    readonly companyId: string,
    readonly workPointId: string,
    readonly db: Db,
    readonly dialect: Dialect,
    readonly locale: Locale,
    readonly now: number,
    readonly services: Services,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
  ) {}

  replayed(): void {
    this.isReplay = true;
  }
}

/** The status of a success: 201 for a create unless the route says otherwise, 200 for the rest. */
export function successStatusOf(route: Pick<AnyRoute, 'create' | 'successStatus'>): number {
  return route.successStatus ?? (route.create === true ? 201 : 200);
}

export function registerRoute(app: FastifyInstance, services: Services, route: AnyRoute): void {
  const query = route.query ? route.query.extend(commonQuery.shape) : commonQuery;
  const queryRules = [...commonQueryRules('search' in query.shape), ...(route.aliases?.query ?? [])];
  const isCreate = route.create === true;
  const successStatus = successStatusOf(route);
  app.route({
    method: route.method,
    url: `/v1${route.path}`,
    ...(route.bodyLimit !== undefined ? { bodyLimit: route.bodyLimit } : {}),
    // Key, budget and scope are settled before the body is even read: a caller without a valid key
    // learns nothing about our parsing, and cannot make us parse a megabyte.
    onRequest: async (request, reply) => {
      const locale = resolveLocale((request.query as Record<string, unknown>)?.locale, request.headers['accept-language']);
      const now = services.clock.now();
      const auth = await authenticate(request, services.keys, now);
      const limit = await checkRateLimit(services.rateLimitStore, services.rateLimits, auth.keyId, isCreate, now);
      reply.headers(limit.headers);
      if (limit.retryAfter !== null) {
        throw new ApiError(429, 'rate_limit_error', 'rate_limit_exceeded', {
          vars: { retry_after: limit.retryAfter },
          headers: { 'retry-after': String(limit.retryAfter) },
        });
      }
      if (route.scope !== 'any' && !scopeAllows(auth.scopes, route.scope)) {
        throw new ApiError(403, 'permission_error', 'insufficient_permissions', { vars: { scope: route.scope } });
      }
      if (route.bodyLimit !== undefined) {
        const declared = Number(request.headers['content-length']);
        if (declared > route.bodyLimit) {
          // A body up to a few times the limit is read and dropped after the answer (Node does that on a
          // kept-alive connection): closing with it unread makes the kernel reset the connection, and a
          // client still sending (fetch does) may lose the 413 and its Romanian message to the reset. A
          // larger declared body is not worth reading: the connection closes after the answer.
          if (declared > route.bodyLimit * DRAINED_BODY_FACTOR) reply.header('connection', 'close');
          throw route.bodyTooLarge?.(declared) ?? new ApiError(413, 'invalid_request_error', 'body_too_large');
        }
      }
      request.tejgheaAdmitted = { locale, now, auth };
    },
    handler: async (request, reply) => {
      const { locale, now, auth } = request.tejgheaAdmitted!;
      // Only creates honour the key; on them an empty or malformed one is refused before any work.
      const idemKey = isCreate ? request.headers['idempotency-key'] : undefined;
      if (idemKey !== undefined) checkIdempotencyKey(String(idemKey));
      const nul = nulMember(request.params) ?? nulMember(request.query);
      if (nul !== null) throw validationFailed({ [nul]: NUL_MESSAGE });
      const invalid: Record<string, string> = {};
      const input = canonicalInput(route, query, queryRules, request, now, invalid);
      const unknown = Object.keys(invalid);
      const params = parsePart(route.params, request.params ?? {}, locale, invalid);
      // A route with only the common members, asked with none (GET /me, GET /currencies): nothing to parse.
      const q = (!route.query && hasNoMembers(input.query) ? {} : parsePart(query, input.query, locale, invalid)) as z.output<typeof commonQuery>;
      const body = parsePart(route.body, input.body, locale, invalid);
      for (const [path, message] of Object.entries(input.aliasInvalid)) invalid[path] ??= message;
      if (unknown.length) throw new ApiError(422, 'validation_error', 'unknown_parameter', { fields: invalid, param: unknown[0] });
      if (Object.keys(invalid).length) throw validationFailed(invalid);
      // The key's own work point (nearly every request) needs no query, nor an await.
      const requested = q.work_point_id;
      const workPointId =
        !requested || requested === auth.workPointId ? auth.workPointId : await selectWorkPoint(services.storage.db, auth, requested);
      const ctx = new RequestContext(
        params, q, body, auth, auth.companyId, workPointId,
        services.storage.db, services.storage.dialect, locale, now, services, request, reply,
      );
      request.tejgheaWarnings = ctx.warnings;
      const outcome =
        idemKey !== undefined
          ? await withIdempotency(services.storage.db, auth.companyId, String(idemKey), request, now, () => runHandler(route, ctx, successStatus), reply)
          : await runHandler(route, ctx, successStatus);
      if (isBinary(outcome.payload)) {
        reply.code(outcome.status).header('content-type', outcome.payload.contentType);
        if (outcome.payload.filename) {
          reply.header('content-disposition', `attachment; filename="${outcome.payload.filename}"`);
        }
        return reply.send(outcome.payload.body);
      }
      reply.code(outcome.status);
      if (preSerializedKeys(outcome.payload)) {
        // Written here, so that the pre-serialized members go out as the text they already are.
        const tail = `,"meta":${JSON.stringify(meta(request))}}`;
        const payload = outcome.payload as Record<string, unknown>;
        return reply
          .type('application/json; charset=utf-8')
          .send(route.envelope === 'top' ? membersBytes('{"success":true,', payload, tail) : membersBytes('{"success":true,"data":{', payload, `}${tail}`));
      }
      return route.envelope === 'top'
        ? { success: true, ...(outcome.payload as object), meta: meta(request) }
        : { success: true, data: outcome.payload, meta: meta(request) };
    },
  });
}

/**
 * The route's handler and its success status. A function of the module rather than a closure made
 * per request: under tsx (how the service runs) every named closure costs a defineProperty of its
 * name each time it is created, and a `.catch` one more promise.
 */
async function runHandler(route: AnyRoute, ctx: RequestContext, successStatus: number): Promise<Outcome> {
  let result: unknown;
  try {
    result = await route.handler(ctx);
  } catch (error) {
    outOfRange(error);
  }
  // A replay answers what the first delivery made, as "OK" rather than "Created".
  const status = ctx.isReplay ? 200 : successStatus;
  if (ctx.isReplay) ctx.reply.header('idempotent-replayed', 'true');
  if (isBinary(result)) return { status, payload: result };
  return { status, payload: ctx.services.validateResponses ? checkResponse(route, result) : result };
}

/**
 * The last guard of the money code: an amount that passed its schema but overflowed in a computation
 * (a RangeError from shared/money or shared/invoice-math) is the caller's number out of our range, a
 * 422, never a 500. Schemas name the member and its limit first; this only catches what they cannot see.
 */
function outOfRange(error: unknown): never {
  if (error instanceof RangeError) {
    throw new ApiError(422, 'validation_error', 'value_out_of_range', {
      fields: { '(body)': `A number is beyond what the service can compute with (amounts up to ${MAX_AMOUNT} lei).|Un număr depășește ce poate calcula serviciul (sume de cel mult ${MAX_AMOUNT} lei).` },
      param: '(body)',
    });
  }
  throw error;
}

function isBinary(value: unknown): value is BinaryReply {
  return typeof value === 'object' && value !== null && (value as BinaryReply).binary === true;
}

function checkResponse(route: AnyRoute, result: unknown): unknown {
  const raw = preSerializedKeys(result);
  const plain = raw ? { ...(result as Record<string, unknown>) } : result;
  if (raw) for (const key of raw) (plain as Record<string, unknown>)[key] = ((result as Record<string, unknown>)[key] as PreSerialized).value;
  const parsed = (route.response as z.ZodType).safeParse(plain);
  if (!parsed.success) {
    // Our own bug, not the caller's: log the detail, answer a plain api_error.
    throw new Error(`response of ${route.operationId} does not match its schema: ${parsed.error.message}`);
  }
  if (!raw) return parsed.data;
  // Checked as values; sent as the text they were serialized to.
  const checked = { ...(parsed.data as Record<string, unknown>) };
  for (const key of raw) checked[key] = (result as Record<string, unknown>)[key];
  return checked;
}

async function selectWorkPoint(db: Db, auth: AuthContext, requested: string): Promise<string> {
  const row = await db
    .selectFrom('work_points')
    .select('id')
    .where('id', '=', requested)
    .where('company_id', '=', auth.companyId)
    .executeTakeFirst();
  // Another company's work point looks exactly like one that does not exist.
  if (!row) throw notFound('work_point_id');
  return row.id;
}
