import type { FastifyInstance } from 'fastify';

/**
 * PHP has one kind of array for lists and maps, and `json_encode([])` writes `[]`: Contazen's SDK (and
 * many PHP clients) send `[]` as the body of an action that takes no members (duplicate, convert,
 * submit to e-Factura). No route of ours takes an array body, so an empty array is read as the empty
 * object it means; any other array is still refused by the route's schema.
 */
export function readEmptyArrayBodyAsObject(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    if (Array.isArray(request.body) && request.body.length === 0) request.body = {};
    done();
  });
}
