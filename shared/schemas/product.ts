import { z } from 'zod';
import { zCurrencyCode, zId, zMoneyNumber, zTimestamp, zVatPercent } from './common';

/** Product (our design). `code` is the SKU or barcode the counter's scanner types. */
export const zProduct = z.object({
  id: zId,
  object: z.literal('product'),
  name: z.string(),
  code: z.string().nullable(),
  /** The barcode printed on the article (EAN-13, EAN-8, UPC...), when it is not the code itself. */
  barcode: z.string().nullable(),
  unit: z.string(),
  /** UN/ECE recommendation 20 unit code for e-Factura (H87 piece, KGM, LTR, C62...). */
  unit_code: z.string(),
  price: zMoneyNumber,
  /** Whether `price` includes VAT (shops price gross; the invoice line is computed net). */
  price_includes_vat: z.boolean(),
  vat_rate: zVatPercent,
  currency: zCurrencyCode,
  is_service: z.boolean(),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});
export type Product = z.infer<typeof zProduct>;

/**
 * What the service's product routes answer: the product, and `sku` repeating `code` under the name
 * Contazen's SDK reads (a documented alias member, docs/api-decisions.md "Member aliases"; without it
 * the SDK's findBySku and upsert recurse forever). `code` stays the contract's name.
 */
export const zProductReply = zProduct.extend({ sku: z.string().nullable() });
export type ProductReply = z.infer<typeof zProductReply>;

const productFields = {
  name: z.string().trim().min(1).max(200),
  code: z.string().trim().max(64).nullish(),
  barcode: z
    .string()
    .trim()
    .max(64, 'At most 64 characters|Cel mult 64 de caractere')
    .regex(/^[0-9A-Za-z-]*$/, 'Digits and letters only|Doar cifre și litere')
    .nullish(),
  unit: z.string().trim().min(1).max(20),
  unit_code: z.string().trim().min(1).max(5),
  price: zMoneyNumber
    .refine((n) => n >= 0, 'Must not be negative|Nu poate fi negativ')
    // Far above any real price, and keeps the bani a safe integer.
    .refine((n) => n <= 1_000_000_000_000, 'At most 1,000,000,000,000|Cel mult 1.000.000.000.000'),
  price_includes_vat: z.boolean(),
  vat_rate: zVatPercent,
  currency: zCurrencyCode,
  is_service: z.boolean(),
};

export const zProductCreate = z.object({
  ...productFields,
  unit: productFields.unit.default('buc'),
  unit_code: productFields.unit_code.default('H87'),
  price_includes_vat: productFields.price_includes_vat.default(false),
  vat_rate: productFields.vat_rate.default(21),
  currency: productFields.currency.default('RON'),
  is_service: productFields.is_service.default(false),
});
export type ProductCreate = z.input<typeof zProductCreate>;
/** PUT body: only the members sent change. */
export const zProductUpdate = z.object(productFields).partial();
