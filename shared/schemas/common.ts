import { z } from 'zod';

/** `YYYY-MM-DD`, a real calendar date. */
export const zDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD|Se aștepta AAAA-LL-ZZ')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'Not a calendar date|Nu este o dată calendaristică');

/** Unix seconds (architecture: every `*_at` timestamp is integer Unix seconds). */
export const zTimestamp = z.number().int().nonnegative();

const hasAtMostDecimals = (n: number, places: number) => {
  const scaled = n * 10 ** places;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
};

/** A money amount on the wire: a JSON number with at most two decimals (lei.bani). */
export const zMoneyNumber = z
  .number()
  .finite()
  .refine((n) => hasAtMostDecimals(n, 2), 'At most 2 decimals|Cel mult 2 zecimale');

/** A quantity on the wire: at most three decimals (kilograms to the gram). */
export const zQuantity = z
  .number()
  .finite()
  .refine((n) => hasAtMostDecimals(n, 3), 'At most 3 decimals|Cel mult 3 zecimale');

/** A VAT rate in percent: 21, 19, 11, 9, 5, 0, or a firm's custom rate with at most 2 decimals. */
export const zVatPercent = z
  .number()
  .min(0)
  .max(100)
  .refine((n) => hasAtMostDecimals(n, 2), 'At most 2 decimals|Cel mult 2 zecimale');

export const zCurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'A three-letter ISO 4217 code|Un cod ISO 4217 de trei litere');

/** Exchange rate to RON, as BNR publishes it (up to 4 decimals) but already divided by its multiplier. */
export const zExchangeRate = z.number().positive().finite();

export const zId = z.string().min(1).max(64);

export const zUuid = z.string().uuid();

/** Payment method types shared by receipts and payments. */
export const PAYMENT_METHOD_TYPES = ['receipt', 'bank_order', 'card', 'fiscal_receipt', 'other'] as const;
export const zPaymentMethodType = z.enum(PAYMENT_METHOD_TYPES);
export type PaymentMethodType = z.infer<typeof zPaymentMethodType>;
