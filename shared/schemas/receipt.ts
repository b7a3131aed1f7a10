import { z } from 'zod';
import { zCurrencyCode, zDate, zExchangeRate, zId, zMoneyNumber, zPaymentMethodType, zTimestamp } from './common';

/** Human description of each payment method type, for `type_description`. */
export const PAYMENT_TYPE_DESCRIPTIONS: Record<z.infer<typeof zPaymentMethodType>, { en: string; ro: string }> = {
  receipt: { en: 'Cash receipt', ro: 'Chitanță' },
  bank_order: { en: 'Bank transfer', ro: 'Ordin de plată' },
  card: { en: 'Card', ro: 'Card' },
  fiscal_receipt: { en: 'Fiscal receipt', ro: 'Bon fiscal' },
  other: { en: 'Other', ro: 'Altă metodă' },
};

/** Payment (contract: the receipt's `payment` object; also the rows of /payments). */
export const zPayment = z.object({
  id: zId,
  object: z.literal('payment'),
  amount: z.number(),
  amount_without_vat: z.number(),
  amount_vat: z.number(),
  currency: z.string(),
  date: z.string().nullable(),
  type: zPaymentMethodType,
  type_description: z.string(),
  exchange_rate: z.number().nullable(),
  exchange_currency: z.string().nullable(),
  invoice: z.object({ id: z.string(), number: z.string().nullable() }).nullable(),
  client: z.object({ id: z.string().nullable(), name: z.string() }),
  receipt_id: z.string().nullable(),
  created_at: zTimestamp,
  /**
   * Our addition to the contract's object: when the payment last changed (a receipt's payment follows
   * edits of its receipt), null until then. Lets an incremental pull (`updated_since`) keep its cursor.
   */
  updated_at: zTimestamp.nullable(),
});
export type Payment = z.infer<typeof zPayment>;

/** POST /payments: a payment of an invoice (bank transfer, card...). A cash one is made through /receipts. */
export const zPaymentCreate = z.object({
  invoice_id: zId,
  amount: zMoneyNumber.refine((n) => n > 0, 'Must be positive|Trebuie să fie pozitiv'),
  currency: zCurrencyCode.optional(),
  date: zDate.optional(),
  type: zPaymentMethodType.default('bank_order'),
  exchange_rate: zExchangeRate.optional(),
  client_local_uuid: z.string().uuid().optional(),
});

/**
 * PUT /payments/{id} (the contract names the CRUD of payments, shapes not shown): every member optional,
 * omitted ones keep their values. The invoice stays the one paid; to pay another, delete and create.
 */
export const zPaymentUpdate = z.object({
  amount: zPaymentCreate.shape.amount.optional(),
  /** Only the invoice's own currency; present so a client may echo back what it read. */
  currency: zCurrencyCode.optional(),
  date: zDate.optional(),
  type: zPaymentMethodType.optional(),
  exchange_rate: zExchangeRate.optional(),
});
export type PaymentUpdate = z.input<typeof zPaymentUpdate>;

/** Receipt (chitanță), exactly the contract's members plus `series_id` and `client_local_uuid`. */
export const zReceipt = z.object({
  id: zId,
  object: z.literal('receipt'),
  receipt_number: z.string(),
  series_id: z.string().nullable(),
  amount: z.number(),
  amount_without_vat: z.number(),
  amount_vat: z.number(),
  currency: z.string(),
  date: z.string().nullable(),
  observations: z.string().nullable(),
  language: z.string().nullable(),
  is_draft: z.boolean(),
  is_deleted: z.boolean(),
  exchange_rate: z.number().nullable(),
  exchange_currency: z.string().nullable(),
  type: zPaymentMethodType,
  client: z.object({ id: z.string().nullable(), name: z.string() }),
  invoice: z
    .object({ id: z.string(), number: z.string().nullable(), total: z.number(), currency: z.string(), is_paid: z.boolean() })
    .nullable(),
  payment: zPayment.nullable(),
  client_local_uuid: z.string().nullable(),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});
export type Receipt = z.infer<typeof zReceipt>;

const receiptFields = {
  client_id: zId,
  /** For a standalone receipt to a walk-in payer with no client record. */
  client_name: z.string().trim().min(1).max(200),
  invoice_id: zId,
  amount: zMoneyNumber.refine((n) => n > 0, 'Must be positive|Trebuie să fie pozitiv'),
  currency: zCurrencyCode,
  payment_date: zDate,
  observations: z.string().max(2000),
  type: zPaymentMethodType,
  language: z.string().min(2).max(5),
  exchange_rate: zExchangeRate,
  /**
   * VAT included in a standalone receipt (0 when omitted). Ignored on a receipt paired with an
   * invoice: its VAT is then the invoice's VAT share of the amount.
   */
  amount_vat: zMoneyNumber.refine((n) => n >= 0, 'Must not be negative|Nu poate fi negativ'),
};

/** POST /receipts (the contract's update members, which it says are "the same shape as create"). */
export const zReceiptCreate = z.object({
  ...receiptFields,
  client_id: receiptFields.client_id.optional(),
  client_name: receiptFields.client_name.optional(),
  invoice_id: receiptFields.invoice_id.optional(),
  currency: receiptFields.currency.default('RON'),
  payment_date: receiptFields.payment_date.optional(),
  observations: receiptFields.observations.optional(),
  type: receiptFields.type.default('receipt'),
  language: receiptFields.language.default('ro'),
  exchange_rate: receiptFields.exchange_rate.optional(),
  amount_vat: receiptFields.amount_vat.optional(),
  series_id: zId.optional(),
  /** A number the device already printed holding the receipt series' lock. */
  number: z.number().int().positive().optional(),
  /** A reservation of the receipt series this device made (POST /receipt-series/{id}/reservations), whose number it printed. */
  reservation_token: z.string().max(64).optional(),
  device_id: z.string().max(64).optional(),
  client_local_uuid: z.string().uuid().optional(),
});
export type ReceiptCreate = z.input<typeof zReceiptCreate>;

/** PUT /receipts/{id}: every member optional; an omitted client_id keeps the existing client. */
export const zReceiptUpdate = z.object(receiptFields).partial();
