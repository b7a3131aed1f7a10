import { z } from 'zod';
import { zAnyAmount, zCurrency, zExpenseDate } from './expense';

/** The contract's match types, strongest first (the order of precedence). */
export const DUPLICATE_MATCH_TYPES = ['exact', 'strong', 'likely'] as const;
export type DuplicateMatchType = (typeof DUPLICATE_MATCH_TYPES)[number];

/** The contract's duplicate candidate: an existing expense that collides with a prospective one. */
export const zDuplicateCandidate = z.object({
  id: z.string(),
  reference: z.string().nullable(),
  date: z.string(),
  /** The existing expense's net amount (what the probe's `amount` is compared with). */
  amount: z.number(),
  currency: z.string(),
  match_type: z.enum(DUPLICATE_MATCH_TYPES),
});
export type DuplicateCandidate = z.infer<typeof zDuplicateCandidate>;

/**
 * Body of POST /expenses/check-duplicate. The rule "one of `supplier_id` or `supplier_data.name`"
 * has its own error (400 `parameter_missing`), so the server checks it after this schema.
 */
export const zDuplicateCheck = z.object({
  supplier_id: z.string().max(64).optional(),
  supplier_data: z
    .object({
      name: z.string().max(200).optional(),
      cui: z.string().max(20).optional(),
    })
    .optional(),
  reference: z.string().max(100).optional(),
  date: zExpenseDate.optional(),
  /** Net amount (subtotal). */
  amount: zAnyAmount.optional(),
  currency: zCurrency.optional(),
});
export type DuplicateCheckInput = z.input<typeof zDuplicateCheck>;
export type DuplicateCheck = z.output<typeof zDuplicateCheck>;

/** The reply beside `success`: `duplicate` at top level, as the contract's schema shows. */
export const zDuplicateCheckReply = z.object({ duplicate: zDuplicateCandidate.nullable() });
