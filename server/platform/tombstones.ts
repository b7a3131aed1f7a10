import type { Db } from '../db/types';
import type { Resource } from './api-keys';

/**
 * Resources whose records can be deleted for good (a draft invoice, a product, a payment, a supplier)
 * and that a client keeps copies of: each such delete leaves a tombstone, listed by GET
 * /deleted-records. Soft deletes (clients, receipts) need none: the record itself changes.
 */
export const TOMBSTONED_RESOURCES = ['invoices', 'products', 'payments', 'suppliers'] as const satisfies readonly Resource[];
export type TombstonedResource = (typeof TOMBSTONED_RESOURCES)[number];

export interface Deletion {
  resource: TombstonedResource;
  id: string;
  companyId: string;
  /** The document's work point; null for company-wide records. */
  workPointId: string | null;
  now: number;
}

/**
 * Records a hard delete. Call it inside the transaction that deletes the row: the tombstone and the
 * removal commit together, or neither does.
 */
export async function recordDeletion(trx: Db, d: Deletion): Promise<void> {
  await trx
    .insertInto('deleted_records')
    .values({ resource: d.resource, record_id: d.id, company_id: d.companyId, work_point_id: d.workPointId, deleted_at: d.now })
    // Ids are never reused, so a second tombstone can only be the same delete again.
    .onConflict((oc) => oc.columns(['resource', 'record_id']).doNothing())
    .execute();
}
