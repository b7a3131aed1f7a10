/**
 * Constraint violations, recognised on both dialects, so that a handler can turn a race it lost
 * (two creates of one name, a delete of a row still referenced) into the right 409.
 */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  // better-sqlite3 names the extended result code; pg gives the SQLSTATE.
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * The database could not serve the statement in time: a row lock waited past DATABASE_LOCK_TIMEOUT_MS
 * (55P03), a statement ran past DATABASE_STATEMENT_TIMEOUT_MS (57014), PostgreSQL broke a deadlock
 * (40P01) or a serialization conflict (40001), it has no connection slot left (53300), every pooled
 * connection stayed taken past DATABASE_CONNECT_TIMEOUT_MS (pg-pool says so in words only, with no
 * code), or SQLite stayed busy past its busy timeout. Nothing was written (the transaction rolled
 * back); the caller may try again.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = codeOf(error);
  if (code === '55P03' || code === '57014' || code === '40P01' || code === '40001' || code === '53300') return true;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT') return true;
  return error instanceof Error && code === undefined && POOL_WAIT_TIMEOUT.test(error.message);
}

/** pg-pool's words when no connection came free within connectionTimeoutMillis. */
const POOL_WAIT_TIMEOUT = /^timeout exceeded when trying to connect$/;
