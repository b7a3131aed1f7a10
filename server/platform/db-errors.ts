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
 * (55P03), a statement ran past DATABASE_STATEMENT_TIMEOUT_MS (57014), or SQLite stayed busy past its
 * busy timeout. Nothing was written (the transaction rolled back); the caller may try again.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = codeOf(error);
  return code === '55P03' || code === '57014' || code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
}
