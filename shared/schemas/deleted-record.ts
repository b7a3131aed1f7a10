import { z } from 'zod';

/** Resources whose records the service deletes for good and announces in GET /deleted-records. */
export const TOMBSTONED_RESOURCES = ['invoices', 'products', 'payments', 'suppliers'] as const;
export type TombstonedResource = (typeof TOMBSTONED_RESOURCES)[number];

/** One tombstone of GET /deleted-records (our design; docs/api-decisions.md, Platform). */
export const zDeletedRecord = z.object({
  object: z.literal('deleted_record'),
  /** The id the record had on the server. */
  id: z.string(),
  resource: z.enum(TOMBSTONED_RESOURCES),
  /** The document's work point; null for company-wide records (products, suppliers). */
  work_point_id: z.string().nullable(),
  /** Unix seconds. */
  deleted_at: z.number().int(),
});
export type DeletedRecord = z.infer<typeof zDeletedRecord>;
