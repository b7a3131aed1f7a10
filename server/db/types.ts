import type { Kysely } from 'kysely';
import type { PlatformTables } from '../platform/tables';

/**
 * Every table of the service. Each module declares its own tables beside its code and is added here,
 * so that one Kysely type covers every query.
 */
export interface Database extends PlatformTables {}

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';
