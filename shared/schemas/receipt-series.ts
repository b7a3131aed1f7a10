import { z } from 'zod';
import { zId, zTimestamp } from './common';
import { zSeriesLock } from './series';

/**
 * Receipt series (our design; the contract only shows `receipt_number` as `<prefix>-<number>`).
 * One or more per work point; numbers run on without a yearly restart (a receipt book does), so the
 * printed number needs no year. Locks work exactly like invoice series locks (POST
 * /receipt-series/{id}/lock and /unlock, same bodies), so a device can print receipts offline.
 */
export const zReceiptSeries = z.object({
  id: zId,
  object: z.literal('receipt_series'),
  work_point_id: zId,
  prefix: z.string(),
  description: z.string(),
  start_number: z.number().int(),
  next_number: z.number().int(),
  is_used: z.boolean(),
  is_locked: z.boolean(),
  lock: zSeriesLock.nullable(),
  created_at: zTimestamp,
});
export type ReceiptSeries = z.infer<typeof zReceiptSeries>;

const receiptSeriesFields = {
  prefix: z.string().trim().min(1).max(20).regex(/^[A-Za-z0-9]+$/, 'Letters and digits|Litere și cifre'),
  description: z.string().max(200),
  start_number: z.number().int().min(1).max(999_999_999),
};

/** POST /receipt-series: every member optional; the prefix defaults to `CH` (chitanță). */
export const zReceiptSeriesCreate = z.object({
  prefix: receiptSeriesFields.prefix.default('CH'),
  description: receiptSeriesFields.description.default(''),
  start_number: receiptSeriesFields.start_number.default(1),
});
export type ReceiptSeriesCreate = z.input<typeof zReceiptSeriesCreate>;

/** PUT /receipt-series/{id}: only the members sent change; `prefix` and `start_number` only while the series is unused. */
export const zReceiptSeriesUpdate = z.object(receiptSeriesFields).partial();

/** `CH-17`: the receipt number as printed, the same on the server and on an offline device. */
export function formatReceiptNumber(prefix: string, number: number): string {
  return `${prefix}-${number}`;
}
