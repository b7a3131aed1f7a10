import { z } from 'zod';
import { zCurrencyCode, zId, zTimestamp } from './common';

/**
 * A bank account of the firm (our design; the contract shows no fields), printed on its invoices.
 * `is_default` marks the account printed on invoices in that account's currency: one default per
 * currency, so a RON and a EUR account can both be defaults.
 */
export const zBankAccount = z.object({
  id: zId,
  object: z.literal('bank_account'),
  /** Uppercase, no spaces. */
  iban: z.string(),
  /** Bank name; derived from a Romanian IBAN's bank code when not given. */
  bank: z.string().nullable(),
  /** A label of the firm's own choosing ("Cont principal"). */
  name: z.string().nullable(),
  currency: zCurrencyCode,
  is_default: z.boolean(),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});
export type BankAccount = z.infer<typeof zBankAccount>;

const bankAccountFields = {
  /** Any country's IBAN (mod 97); a Romanian one is checked with the Romanian rules. */
  iban: z.string().trim().min(1).max(42),
  bank: z.string().trim().max(100).nullish(),
  name: z.string().trim().max(100).nullish(),
  currency: zCurrencyCode,
  is_default: z.boolean(),
};

export const zBankAccountCreate = z.object({
  ...bankAccountFields,
  currency: bankAccountFields.currency.default('RON'),
  is_default: bankAccountFields.is_default.optional(),
});
export type BankAccountCreate = z.input<typeof zBankAccountCreate>;

/** PUT body: only the members sent change. */
export const zBankAccountUpdate = z.object(bankAccountFields).partial();
export type BankAccountUpdate = z.input<typeof zBankAccountUpdate>;
