import { z } from 'zod';
import { zId, zTimestamp } from './common';

export const DOCUMENT_TYPES = ['fiscal', 'proforma'] as const;

/** The `lock` object of the contract: who holds a series exclusively. */
export const zSeriesLock = z.object({
  device_id: z.string(),
  session_id: z.number().int(),
  user_id: z.number().int(),
  device_name: z.string(),
  device_platform: z.string(),
  locked_at: zTimestamp,
});
export type SeriesLock = z.infer<typeof zSeriesLock>;

export const zInvoiceSeries = z.object({
  id: zId,
  object: z.literal('invoice_series'),
  name: z.string(),
  document_type: z.enum(DOCUMENT_TYPES),
  description: z.string(),
  start_number: z.number().int(),
  next_number: z.number().int(),
  /** `<name>-{year}-{number}`; `{number:4}` pads to four digits. */
  format: z.string(),
  is_primary: z.boolean(),
  is_used: z.boolean(),
  is_locked: z.boolean(),
  lock: zSeriesLock.nullable(),
  year: z.number().int(),
  created_at: zTimestamp,
});
export type InvoiceSeries = z.infer<typeof zInvoiceSeries>;

const seriesFields = {
  name: z.string().trim().min(1).max(20).regex(/^[A-Za-z0-9-]+$/, 'Letters, digits and dashes|Litere, cifre și cratime'),
  document_type: z.enum(DOCUMENT_TYPES),
  description: z.string().max(200),
  start_number: z.number().int().min(1).max(999_999_999),
  format: z.string().min(1).max(60),
  is_primary: z.boolean(),
};

/** POST /invoice-series. Our choice of required members: `name` only; see docs/api-decisions.md. */
export const zInvoiceSeriesCreate = z.object({
  ...seriesFields,
  document_type: seriesFields.document_type.default('fiscal'),
  description: seriesFields.description.default(''),
  start_number: seriesFields.start_number.default(1),
  format: seriesFields.format.optional(),
  is_primary: seriesFields.is_primary.default(false),
});
export type InvoiceSeriesCreate = z.input<typeof zInvoiceSeriesCreate>;

export const zInvoiceSeriesUpdate = z.object(seriesFields).partial();

/** POST /invoice-series/{id}/lock: a device takes the series exclusively (gapless offline numbering). */
export const zSeriesLockRequest = z.object({
  device_id: z.string().min(1).max(64),
  device_name: z.string().min(1).max(100),
  device_platform: z.string().min(1).max(40),
  session_id: z.number().int().default(0),
  user_id: z.number().int().default(0),
  /**
   * Administrator takeover of a lock held by another device. The old holder may have printed numbers
   * offline that the server has not seen: `reserve_for_old_holder` numbers are set aside for it, recorded
   * as gaps (`lock_takeover`), and accepted later if that device syncs invoices carrying them.
   */
  takeover: z.boolean().default(false),
  reserve_for_old_holder: z.number().int().min(0).max(10_000).default(0),
});

/** POST /invoice-series/{id}/unlock: the holder gives the lock back. */
export const zSeriesUnlockRequest = z.object({ device_id: z.string().min(1).max(64) });

export const RESERVATION_STATUSES = ['pending', 'released', 'consumed', 'expired'] as const;

/** One reserved number (contract: object `number_reservation`). */
export const zNumberReservation = z.object({
  object: z.literal('number_reservation'),
  token: z.string(),
  series_id: zId,
  number: z.number().int(),
  /** The number as printed, in the series format (our addition, so offline printing needs no formatting rules). */
  full_number: z.string(),
  year: z.number().int(),
  status: z.enum(RESERVATION_STATUSES),
  device_id: z.string(),
  reserved_at: zTimestamp,
  expires_at: zTimestamp,
  consumed_at: zTimestamp.nullable(),
  client_local_uuid: z.string().nullable(),
});
export type NumberReservation = z.infer<typeof zNumberReservation>;

/** POST /invoice-series/{id}/reservations */
export const zReservationRequest = z.object({
  device_id: z.string().min(1).max(64),
  count: z.number().int().min(1).max(100).default(1),
  /** Lifetime; default 7 days, at most 90. */
  ttl_seconds: z.number().int().min(60).max(90 * 86_400).optional(),
});

/**
 * `deleted`: the number of an issued invoice that was deleted afterwards (a voided invoice or a storno,
 * contract general rule 4); the number stays used and the register says why no invoice carries it.
 */
export const GAP_REASONS = ['released', 'expired', 'lock_takeover', 'deleted'] as const;

/** One entry of a series' gap register: a number that will never be an invoice, and why. */
export const zNumberGap = z.object({
  object: z.literal('number_gap'),
  series_id: zId,
  number: z.number().int(),
  full_number: z.string(),
  year: z.number().int(),
  reason: z.enum(GAP_REASONS),
  device_id: z.string().nullable(),
  reservation_token: z.string().nullable(),
  recorded_at: zTimestamp,
});
export type NumberGap = z.infer<typeof zNumberGap>;

/** Formats a number the way the series prints it: `{year}`, `{number}`, `{number:N}` (zero-padded). */
export function formatSeriesNumber(format: string, number: number, year: number, name = ''): string {
  return format
    .replace(/\{year\}/g, String(year))
    .replace(/\{name\}/g, name)
    .replace(/\{number(?::(\d+))?\}/g, (_m, width: string | undefined) => String(number).padStart(width ? Number(width) : 0, '0'));
}

