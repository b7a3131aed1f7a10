import { z } from 'zod';
import { zId } from './common';

/** Currency row (contract: `id`, `code`, `description`, `is_used`, `is_default`). */
export const zCurrency = z.object({
  id: zId,
  code: z.string(),
  description: z.string(),
  /** Some product, bank account or document of the firm is in this currency: it cannot be disabled. */
  is_used: z.boolean(),
  /** RON, always. */
  is_default: z.boolean(),
});
export type Currency = z.infer<typeof zCurrency>;

/** An entry of the ISO 4217 catalog (contract: `code`, `description`). */
export const zCurrencyCatalogEntry = z.object({ code: z.string(), description: z.string() });
export type CurrencyCatalogEntry = z.infer<typeof zCurrencyCatalogEntry>;

/** GET /currencies: payload at top level, beside `success` (contract). */
export const zCurrencyList = z.object({
  object: z.literal('list'),
  data: z.array(zCurrency),
  total: z.number().int(),
  available: z.array(zCurrencyCatalogEntry),
  default_code: z.literal('RON'),
});
export type CurrencyList = z.infer<typeof zCurrencyList>;

/** POST /currencies: enables one ISO 4217 currency for the firm. */
export const zCurrencyEnable = z.object({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .refine((s) => /^[A-Z]{3}$/.test(s), 'A three-letter ISO 4217 code|Un cod ISO 4217 de trei litere'),
});
export type CurrencyEnable = z.input<typeof zCurrencyEnable>;
