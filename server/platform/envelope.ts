import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiWarning } from './warnings';

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request arrived; declared on every request by buildApp. */
    tejgheaStart: number;
    /** The warnings list of the handler's context, once a handler runs; declared on every request by buildApp. */
    tejgheaWarnings: ApiWarning[] | null;
  }
}

export function markStart(request: FastifyRequest): void {
  request.tejgheaStart = performance.now();
}

export function elapsedMs(request: FastifyRequest): number {
  const t0 = request.tejgheaStart;
  return t0 ? Math.floor(performance.now() - t0) : 0;
}

export function meta(request: FastifyRequest) {
  const warnings = request.tejgheaWarnings;
  const base = { version: 'v1' as const, request_id: request.id, response_time: `${elapsedMs(request)}ms` };
  // Only when there are some: every other reply stays byte-for-byte what it was.
  return warnings?.length ? { ...base, warnings } : base;
}

/**
 * The reply of a DELETE, at top level beside `success`, as the contract's `DELETE /languages/{id}`:
 * `{ success: true, object, id, deleted: true }`.
 */
export function zDeleted<O extends string>(object: O) {
  return z.object({ object: z.literal(object), id: z.string(), deleted: z.literal(true) });
}
