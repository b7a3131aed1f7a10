import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiError, validationFailed } from './errors';
import { addMessages } from './messages';
import { resolveLocale } from './locale';

addMessages({
  unsupported_charset: {
    en: 'The request body must be encoded as UTF-8 (charset={charset} is not accepted).',
    ro: 'Corpul cererii trebuie codificat UTF-8 (charset={charset} nu este acceptat).',
  },
  invalid_utf8: {
    en: 'The request body is not valid UTF-8 text.',
    ro: 'Corpul cererii nu este text UTF-8 valid.',
  },
  json_too_deep: {
    en: 'The request body nests objects and arrays deeper than {limit} levels.',
    ro: 'Corpul cererii are obiecte și liste imbricate pe mai mult de {limit} niveluri.',
  },
  headers_too_large: {
    en: 'The request headers are too large.',
    ro: 'Antetele cererii sunt prea mari.',
  },
  request_timeout: {
    en: 'The request was not received in time.',
    ro: 'Cererea nu a fost primită la timp.',
  },
});

/**
 * How deep a JSON body may nest. Our deepest schema (an invoice line inside `items`) is 3 levels;
 * 32 leaves room for any client while keeping every recursive walk of a body (the Idempotency-Key
 * hash, zod) far from the stack's end.
 */
export const MAX_JSON_DEPTH = 32;

/** Depth of a parsed JSON value, walked without recursion; stops as soon as it passes `limit`. */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(item) ? item : Object.values(item as Record<string, unknown>);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Fast rejection of a deep body before JSON.parse builds it: the bracket depth of the text, skipping
 * strings. Exact for valid JSON (brackets inside strings are skipped), so what passes is re-checked
 * by nothing else.
 */
export function textDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The dotted path of the first string (or member name) holding the NUL character, or null. NUL is
 * valid JSON (`\u0000`) and valid in a URL (`%00`), but PostgreSQL refuses it in text: it is refused
 * at the door, the same on both dialects, rather than failing deep in a query.
 */
export function nulMember(value: unknown, prefix = ''): string | null {
  const stack: Array<[unknown, string]> = [[value, prefix]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path || '(body)';
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    const entries = Array.isArray(item) ? item.map((v, i) => [String(i), v] as const) : Object.entries(item as Record<string, unknown>);
    for (const [name, child] of entries) {
      const at = path ? `${path}.${name}` : name;
      if (name.includes('\u0000')) return at;
      stack.push([child, at]);
    }
  }
  return null;
}

export const NUL_MESSAGE = 'Must not contain the NUL character (\\u0000).|Nu poate conține caracterul NUL (\\u0000).';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The charset a Content-Type names, lower case; null when it names none. */
export function charsetOf(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType);
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * The one JSON body parser: UTF-8 only (a charset other than utf-8 is 415, bytes that are not UTF-8
 * are 400), at most {@link MAX_JSON_DEPTH} levels, and an empty body is no body. `null` stays null, so
 * that a route expecting an object refuses it rather than reading it as "no body".
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
      done(new ApiError(415, 'invalid_request_error', 'unsupported_charset', { vars: { charset: charset.slice(0, 40) } }), undefined);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new ApiError(400, 'invalid_request_error', 'invalid_utf8'), undefined);
      return;
    }
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (textDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(new ApiError(400, 'invalid_request_error', 'json_too_deep', { vars: { limit: MAX_JSON_DEPTH } }), undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      done(new ApiError(400, 'invalid_request_error', 'invalid_json'), undefined);
      return;
    }
    // Only a body that spells the escape can hold NUL (raw control characters are not JSON).
    const nul = text.includes('\\u0000') ? nulMember(parsed) : null;
    if (nul !== null) {
      done(validationFailed({ [nul]: NUL_MESSAGE }), undefined);
      return;
    }
    done(null, parsed);
  });
}

/** Node's parser codes for a request it refused before any handler saw it, with our answer. */
function statusOfClientError(code: string | undefined): { status: number; code: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'headers_too_large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout' };
    default:
      return { status: 400, code: 'bad_request' };
  }
}

/**
 * Node answers a request its HTTP parser refuses (oversized headers, a malformed request line, a
 * request that timed out) on its own, with a bare status line. This writes the contract's envelope
 * instead, with a request id of its own (no request object exists to carry one), and closes the
 * connection, as Node would.
 */
export function clientErrorHandler(docBase: string, headers: Readonly<Record<string, string>>) {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (!socket.writable || (error.code === 'ECONNRESET' && !socket.readable)) {
      socket.destroy();
      return;
    }
    const { status, code } = statusOfClientError(error.code);
    const requestId = randomUUID();
    const locale = resolveLocale(undefined, undefined);
    const apiError = new ApiError(status, 'invalid_request_error', code);
    const body = JSON.stringify({
      success: false,
      error: apiError.toBody(locale, docBase),
      meta: { version: 'v1', request_id: requestId, response_time: '0ms' },
    });
    const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        extra +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}

addMessages({
  value_out_of_range: {
    en: 'A number in the request is beyond the range the service computes with.',
    ro: 'Un număr din cerere depășește domeniul cu care calculează serviciul.',
  },
});
