import type { Kysely } from 'kysely';
import * as m0001 from './0001_platform';

export interface MigrationModule {
  up(db: Kysely<unknown>): Promise<void>;
}

/**
 * The known migrations, in order. Names sort in the order they must run; a module appends its own
 * here. The service refuses to start when the database has applied a migration not in this list.
 */
export const migrations: Record<string, MigrationModule> = {
  '0001_platform': m0001,
};
