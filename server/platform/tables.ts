export interface CompaniesTable {
  id: string;
  name: string;
  cui: string;
  created_at: number;
}

export interface WorkPointsTable {
  id: string;
  company_id: string;
  name: string;
  /** Printed on the documents issued at this work point. */
  address: string | null;
  created_at: number;
  updated_at: number | null;
}

export interface ApiKeysTable {
  id: string;
  company_id: string;
  work_point_id: string;
  name: string;
  /** sha256 of the whole secret, hex. The secret itself is never stored. */
  key_hash: string;
  /** `sk_live_abcd…`: enough to recognise a key in a list, useless to an attacker. */
  key_hint: string;
  /** JSON array of scope names. */
  scopes: string;
  /** JSON array of IPs and CIDR ranges, or null for any address. */
  allow_ips: string | null;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

export interface IdempotencyKeysTable {
  company_id: string;
  idem_key: string;
  request_hash: string;
  /** null while the first request is still running. */
  status_code: number | null;
  response_body: string | null;
  created_at: number;
}

/**
 * A record removed for good (migration 0003): what lets a client that keeps a copy learn of the
 * removal (GET /deleted-records). Written in the transaction that deletes the row.
 */
export interface DeletedRecordsTable {
  /** The scope resource the record belongs to (`invoices`, `products`, ...): its read scope guards the tombstone. */
  resource: string;
  record_id: string;
  company_id: string;
  /** The work point of a document; null for company-wide records. No foreign key: a tombstone must not keep a work point in use. */
  work_point_id: string | null;
  deleted_at: number;
}

export interface PlatformTables {
  companies: CompaniesTable;
  work_points: WorkPointsTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  deleted_records: DeletedRecordsTable;
}
