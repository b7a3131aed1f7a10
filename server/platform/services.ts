import type { Storage } from '../db/connect';
import type { Clock } from './clock';
import type { RateLimits, RateLimitStore } from './rate-limit';

/**
 * What the routes of every module can reach. A module that needs an outside service (ANAF, say)
 * adds an optional member here and reads it through `ctx.services`.
 */
export interface Services {
  storage: Storage;
  clock: Clock;
  rateLimitStore: RateLimitStore;
  rateLimits: RateLimits;
  /** Checks every response against its schema: the OpenAPI document must never lie. */
  validateResponses: boolean;
  /** Base of `doc_url` in errors. */
  docBase: string;
}
