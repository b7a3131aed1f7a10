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

/**
 * The largest amount any money member takes, and any amount the service computes (a line's
 * quantity × price, a document's total): 999 999 999 999.99, a trillion lei, past any invoice a shop
 * makes. It keeps every amount exact in doubles and within what the wire carries (MAX_WIRE_BANI);
 * a sum or a conversion that would pass it is refused (422) before anything is written.
 */
export const MAX_AMOUNT = 999_999_999_999.99;
export const MAX_AMOUNT_BANI = 99_999_999_999_999;
/** The largest quantity of a line: a billion units, to the gram. */
export const MAX_QUANTITY = 999_999_999.999;
/** The largest exchange rate to RON (lei for one unit): gold by the ounce is about 20 000. */
export const MAX_EXCHANGE_RATE = 100_000;

/** A money amount on the wire: a JSON number with at most two decimals (lei.bani), within ±{@link MAX_AMOUNT}. */
export const zMoneyNumber = z
  .number()
  .finite()
  .min(-MAX_AMOUNT)
  .max(MAX_AMOUNT)
  .refine((n) => hasAtMostDecimals(n, 2), 'At most 2 decimals|Cel mult 2 zecimale');

/** A quantity on the wire: at most three decimals (kilograms to the gram), within ±{@link MAX_QUANTITY}. */
export const zQuantity = z
  .number()
  .finite()
  .min(-MAX_QUANTITY)
  .max(MAX_QUANTITY)
  .refine((n) => hasAtMostDecimals(n, 3), 'At most 3 decimals|Cel mult 3 zecimale');

/** A VAT rate in percent: 21, 19, 11, 9, 5, 0, or a firm's custom rate with at most 2 decimals. */
export const zVatPercent = z
  .number()
  .min(0)
  .max(100)
  .refine((n) => hasAtMostDecimals(n, 2), 'At most 2 decimals|Cel mult 2 zecimale');

export const zCurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'A three-letter ISO 4217 code|Un cod ISO 4217 de trei litere');

/** Exchange rate to RON, as BNR publishes it (up to 4 decimals) but already divided by its multiplier. */
export const zExchangeRate = z.number().positive().finite().max(MAX_EXCHANGE_RATE);

export const zId = z.string().min(1).max(64);

export const zUuid = z.string().uuid();

/** Payment method types shared by receipts and payments. */
export const PAYMENT_METHOD_TYPES = ['receipt', 'bank_order', 'card', 'fiscal_receipt', 'other'] as const;
export const zPaymentMethodType = z.enum(PAYMENT_METHOD_TYPES);
export type PaymentMethodType = z.infer<typeof zPaymentMethodType>;
