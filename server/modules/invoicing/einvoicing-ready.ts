import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/types';
import { ApiError } from '../../platform/errors';
import './messages';

/**
 * The hook the e-Factura module wires: an invoice with `efactura_enabled` may be created (or
 * submitted) only once the company completed its OAuth link with ANAF (contract: `oauth_not_configured`,
 * type `configuration_error`). Until that module brings its `anaf_oauth_tokens` table (one row per
 * linked company, column `company_id`), no company is linked. Answered with 400: the request is
 * well formed, but the company's configuration refuses it.
 */
export async function assertEinvoicingReady(db: Db, dialect: Dialect, companyId: string): Promise<void> {
  if (await hasTable(db, dialect, 'anaf_oauth_tokens')) {
    const linked = await sql<{ one: number }>`select 1 as one from anaf_oauth_tokens where company_id = ${companyId} limit 1`.execute(db);
    if (linked.rows.length > 0) return;
  }
  throw new ApiError(400, 'configuration_error', 'oauth_not_configured', { param: 'efactura_enabled' });
}

async function hasTable(db: Db, dialect: Dialect, name: string): Promise<boolean> {
  const result =
    dialect === 'postgres'
      ? await sql<{ found: string | null }>`select to_regclass(${name})::text as found`.execute(db)
      : await sql<{ found: string | null }>`select name as found from sqlite_master where type = 'table' and name = ${name}`.execute(db);
  return result.rows.length > 0 && result.rows[0]!.found !== null;
}
