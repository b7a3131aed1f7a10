import { z } from 'zod';
import { zCurrencyCode, zDate, zId, zMoneyNumber, zTimestamp } from './common';
import { zClient } from './client';
import { zExpense } from './expense';

/**
 * Supplier bill (object = `supplier_bill`): an invoice received from a supplier, imported from the
 * SPV inbox (e-Factura) or entered by hand. Members named by the contract keep its names and types;
 * `lines`, `expense`, `client` and the sync reply are our design (docs/api-decisions.md). Money
 * members are numbers in the bill currency; a credit note (type 381) is stored with negative amounts
 * so that balances add up.
 */

export const SUPPLIER_BILL_STATUSES = ['unpaid', 'partially_paid', 'paid'] as const;
export type SupplierBillStatus = (typeof SUPPLIER_BILL_STATUSES)[number];

export const SUPPLIER_BILL_EXPANSIONS = ['supplier', 'expense', 'client', 'efactura_message', 'lines'] as const;
export type SupplierBillExpansion = (typeof SUPPLIER_BILL_EXPANSIONS)[number];
/** The contract's default of `expand` on GET /supplier-bills/{id}. */
export const SUPPLIER_BILL_DEFAULT_EXPAND = 'supplier,expense,client,efactura_message,lines';

export const zSupplierBillAmounts = z.object({
  tax_exclusive: z.number(),
  tax: z.number(),
  tax_inclusive: z.number(),
  paid: z.number(),
  unpaid: z.number(),
});

export const zSupplierBillSupplier = z.object({
  id: z.string(),
  name: z.string(),
  /** As printed: `RO` + CUI for a VAT payer, the bare CUI otherwise, a foreign VAT id as given. */
  vat_id: z.string().nullable(),
  reg_com: z.string().nullable(),
  address: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});

export const zEfacturaMessage = z.object({
  id: z.number().int(),
  /** ANAF's message id (the `id_descarcare` of the invoice). */
  message_id: z.string(),
  cif: z.string(),
  /** ANAF's `tip`, e.g. `FACTURA PRIMITA`. */
  type: z.string(),
  creation_date: z.string(),
  environment: z.enum(['test', 'prod']),
  upload_index: z.string().nullable(),
});

export const zSupplierBillLine = z.object({
  id: z.string(),
  object: z.literal('supplier_bill_line'),
  position: z.number().int(),
  /** The line id the supplier wrote (BT-126). */
  line_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  quantity: z.number(),
  unit_code: z.string().nullable(),
  /** Net price per unit, rounded to the ban. */
  unit_price: z.number(),
  /** The price exactly as written in the XML (suppliers may use more decimals). */
  price_amount: z.string().nullable(),
  net: z.number(),
  allowance: z.number(),
  charge: z.number(),
  /** UNCL5305: S, Z, E, AE, K, G, O. */
  vat_category: z.string(),
  vat_rate: z.number(),
});

/**
 * The document references the supplier's e-Factura carries (EN 16931 BT-10..18 and BG-3), as read from
 * either syntax. Named as an invoice's `references` for the kinds both have; our design
 * (docs/api-decisions.md): each member is null when the XML has no such reference or an empty one. A
 * bill entered by hand has only `order`.
 */
export const zSupplierBillReferences = z.object({
  /** BT-13: our purchase order, as the supplier quotes it. */
  order: z.string().nullable(),
  /** BT-12 */
  contract: z.string().nullable(),
  /** BT-10: the buyer's reference (a public buyer's commitment number, a cost centre). */
  buyer: z.string().nullable(),
  /** BT-16: despatch advice (aviz de însoțire). */
  despatch: z.string().nullable(),
  /** BT-15: receiving advice (notă de recepție). */
  receipt: z.string().nullable(),
  /** BT-11 */
  project: z.string().nullable(),
  /** BT-17: tender or lot. */
  tender: z.string().nullable(),
  /** BT-18: the invoiced object (a meter, a subscription, a vehicle...). */
  invoiced_object: z.string().nullable(),
  /** BT-18-1: the scheme of the invoiced object (UNTDID 1153, e.g. AGU, ABT). */
  invoiced_object_scheme: z.string().nullable(),
  /** BT-14: the supplier's own sales order. */
  sales_order: z.string().nullable(),
  /** BG-3: the invoices this one corrects or follows (BT-25, BT-26), in document order. */
  preceding_invoices: z.array(z.object({ number: z.string(), issue_date: z.string().nullable() })),
});
export type SupplierBillReferences = z.infer<typeof zSupplierBillReferences>;

export const zSupplierBalance = z.object({
  unpaid_total: z.number(),
  unpaid_count: z.number().int(),
  currency: z.string(),
  next_due: z
    .object({ id: z.string(), invoice_number: z.string(), due_date: z.string().nullable(), tax_inclusive: z.number() })
    .nullable(),
});

export const zSupplierBill = z.object({
  id: z.string(),
  object: z.literal('supplier_bill'),
  work_point_id: z.string(),
  source: z.enum(['spv', 'manual']),
  invoice_number: z.string(),
  invoice_type_code: z.string(),
  invoice_type: z.string(),
  issue_date: z.string(),
  due_date: z.string().nullable(),
  currency: z.string(),
  amounts: zSupplierBillAmounts,
  status: z.enum(SUPPLIER_BILL_STATUSES),
  payment_date: z.string().nullable(),
  payment_amount: z.number().nullable(),
  supplier_id: z.string(),
  expense_id: z.string().nullable(),
  client_id: z.string().nullable(),
  efactura_message_id: z.number().int().nullable(),
  efactura_pdf_url: z.string().nullable(),
  order_reference: z.string().nullable(),
  references: zSupplierBillReferences,
  note: z.string().nullable(),
  created_at: zTimestamp,
  updated_at: zTimestamp,
  supplier: zSupplierBillSupplier.optional(),
  expense: zExpense.nullable().optional(),
  client: zClient.nullable().optional(),
  efactura_message: zEfacturaMessage.nullable().optional(),
  lines: z.array(zSupplierBillLine).optional(),
  supplier_balance: zSupplierBalance.optional(),
});
export type SupplierBill = z.infer<typeof zSupplierBill>;

/** GET /supplier-bills/{id}: the contract wraps the bill in `supplier_bill`. */
export const zSupplierBillEnvelope = z.object({ supplier_bill: zSupplierBill });

/** POST /supplier-bills: a bill entered by hand (no e-Factura message, so no PDF from ANAF). */
export const zSupplierBillCreate = z
  .object({
    supplier_id: zId.optional(),
    /** When the supplier is not in the list yet: matched by CUI (prefix stripped), else created. */
    supplier: z.object({ name: z.string().trim().min(1).max(200), cui: z.string().trim().max(20).nullish() }).optional(),
    invoice_number: z.string().trim().min(1).max(200),
    invoice_type_code: z.enum(['380', '381', '384', '389', '751']).default('380'),
    issue_date: zDate,
    due_date: zDate.nullish(),
    currency: zCurrencyCode.default('RON'),
    tax_exclusive: zMoneyNumber,
    tax: zMoneyNumber.default(0),
    order_reference: z.string().trim().max(200).nullish(),
    note: z.string().max(2000).nullish(),
  })
  .refine((b) => b.supplier_id !== undefined || b.supplier !== undefined, {
    message: 'Give supplier_id or supplier.|Trimiteți supplier_id sau supplier.',
    path: ['supplier_id'],
  });

/** POST /supplier-bills/{id}/pay: records a payment; `amount` defaults to what is still unpaid. */
export const zSupplierBillPay = z.object({
  payment_date: zDate,
  amount: zMoneyNumber.refine((n) => n > 0, 'Must be above 0|Trebuie să fie peste 0').optional(),
});

/** POST /supplier-bills/sync. */
export const zSupplierBillSync = z.object({
  /** How far back to look in the SPV inbox; ANAF keeps messages 60 days. */
  days: z.number().int().min(1).max(60).default(60),
  /** `prod` by default; `test` reads ANAF's test environment. */
  environment: z.enum(['test', 'prod']).default('prod'),
});

export const zSupplierBillSyncResult = z.object({
  object: z.literal('supplier_bill_sync'),
  environment: z.enum(['test', 'prod']),
  /** Received-invoice messages ANAF listed in the window. */
  listed: z.number().int(),
  imported: z.number().int(),
  already_imported: z.number().int(),
  failed: z.number().int(),
  bill_ids: z.array(z.string()),
  errors: z.array(z.object({ message_id: z.string(), error: z.string() })),
  /**
   * Our addition: messages still not imported that ANAF deletes soon (it keeps them 60 days; listed here
   * from day 45), with the last day they can be downloaded. Absent from older servers.
   */
  expiring: z.array(z.object({ message_id: z.string(), created: z.string(), expires: z.string(), error: z.string().nullable() })).optional(),
  synced_at: zTimestamp,
});
export type SupplierBillSyncResult = z.infer<typeof zSupplierBillSyncResult>;

/** POST /supplier-bills/{id}/expense. */
export const zSupplierBillToExpense = z.object({
  category_id: z.number().int().positive().nullish(),
  description: z.string().trim().max(500).nullish(),
});
