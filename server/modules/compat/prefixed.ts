import { ApiError } from '../../platform/errors';
import type { HandlerContext } from '../../platform/route';
import type { Db } from '../../db/types';

/**
 * Runs the work of one item of a bulk request (`invoices.3`, `products.0`): an error it throws names
 * its members under the item's path, so that a 422 on the 4th product of a sync says
 * `products.3.price`, not a `price` the caller cannot place.
 */
export async function asItem<T>(prefix: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const { fields, param, ...rest } = error.options;
    throw new ApiError(error.status, error.type, error.code, {
      ...rest,
      ...(fields ? { fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${prefix}.${k}`, v])) } : {}),
      param: param === undefined ? prefix : `${prefix}.${param}`,
    });
  }
}

/** The request's context with another database handle: a transaction that several routes' handlers share. */
export function inTransaction(ctx: HandlerContext<unknown, unknown, unknown>, trx: Db): HandlerContext<unknown, unknown, unknown> {
  return { ...ctx, db: trx, replayed: () => ctx.replayed() };
}
