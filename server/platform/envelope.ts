import type { FastifyRequest } from 'fastify';

const started = new WeakMap<FastifyRequest, bigint>();

export function markStart(request: FastifyRequest): void {
  started.set(request, process.hrtime.bigint());
}

export function elapsedMs(request: FastifyRequest): number {
  const t0 = started.get(request);
  return t0 === undefined ? 0 : Number((process.hrtime.bigint() - t0) / 1_000_000n);
}

export function meta(request: FastifyRequest) {
  return { version: 'v1' as const, request_id: request.id, response_time: `${elapsedMs(request)}ms` };
}
