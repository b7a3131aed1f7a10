import { z } from 'zod';
import { zId, zTimestamp, zVatPercent } from './common';

/**
 * VAT rates a firm may put on a product or an invoice line: the standard Romanian set (always
 * there, read-only) and the firm's own custom rates (our design; the contract shows no fields).
 */
export const STANDARD_VAT_RATES = [21, 19, 11, 9, 5, 0] as const;

export const zVatRate = z.object({
  id: zId,
  object: z.literal('vat_rate'),
  /** Percent, at most 2 decimals. */
  rate: z.number(),
  name: z.string(),
  /** One of the standard rates: cannot be changed or deleted. */
  is_standard: z.boolean(),
  /** A product or a document line uses it (a custom rate in use cannot be deleted or change its value). */
  is_used: z.boolean(),
  /** Null for the standard rates, which no one created. */
  created_at: zTimestamp.nullable(),
  updated_at: zTimestamp.nullable(),
});
export type VatRate = z.infer<typeof zVatRate>;

const customRate = zVatPercent.refine((n) => n > 0 && n < 100, 'Between 0 and 100, exclusive|Între 0 și 100, exclusiv');

export const zVatRateCreate = z.object({
  rate: customRate,
  name: z.string().trim().min(1).max(100).optional(),
});
export type VatRateCreate = z.input<typeof zVatRateCreate>;

export const zVatRateUpdate = z.object({
  rate: customRate.optional(),
  name: z.string().trim().min(1).max(100).optional(),
});
export type VatRateUpdate = z.input<typeof zVatRateUpdate>;
