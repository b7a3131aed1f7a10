import { z } from 'zod';
import {
  zCurrencyCode, zDate, zExchangeRate, zId, zMoneyNumber, zPaymentMethodType, zQuantity, zTimestamp, zVatPercent,
} from './common';
import { zCompanyProfile } from './efactura';
import { zClient, zClientCreate } from './client';
import { DOCUMENT_TYPES } from './series';
import { zPayment } from './receipt';
import { LINE_VAT_CATEGORIES, zBaseQuantity, zUnitPrice, type LineVatCategory } from '../invoice-math';
import { ALLOWANCE_REASON_CODES, CHARGE_REASON_CODES } from '../efactura/document';

/**
 * Invoice (the contract shows only the members of its testing guidance; the rest is our design,
 * recorded in docs/api-decisions.md). Money members are numbers in the invoice currency, 2 decimals.
 */
export const INVOICE_STATUSES = ['draft', 'issued', 'voided', 'storno'] as const;
export const PAID_STATES = ['unpaid', 'partially_paid', 'paid'] as const;
export const EFACTURA_STATUSES = ['not_sent', 'pending', 'accepted', 'rejected'] as const;

// The categories live with the arithmetic, which splits the VAT breakdown by them; the wire schemas use them here.
export { LINE_VAT_CATEGORIES, lineVatCategory, type LineVatCategory } from '../invoice-math';

/**
 * Only a 0% line has a category. One rule for the service's items and the desktop's IPC lines
 * (shared/ipc/contract.ts zLineInput), so a line refused at sync is refused offline already.
 */
export function vatCategoryOnZeroRate<T extends { vat_rate: number; vat_category?: LineVatCategory | null | undefined }>(
  line: T,
  ctx: z.core.$RefinementCtx<T>,
): void {
  if (line.vat_category && line.vat_rate !== 0) {
    ctx.addIssue({
      code: 'custom', path: ['vat_category'],
      message: 'Only a 0% line has a VAT category (E, Z, K or G).|Doar o linie cu 0% are categorie de TVA (E, Z, K sau G).',
    });
  }
}

export const zInvoiceLineInput = z.object({
  product_id: zId.nullish(),
  description: z.string().trim().min(1).max(500),
  /** Negative only on a storno. */
  quantity: zQuantity.refine((q) => q !== 0, 'Must not be zero|Nu poate fi zero'),
  unit: z.string().trim().min(1).max(20).default('buc'),
  unit_code: z.string().trim().min(1).max(5).default('H87'),
  /**
   * Unit price: without VAT, or with VAT when `price_includes_vat` (a shelf price). Up to 4 decimals
   * (0.0125 lei per SMS, fuel at 7.459): the line's amount is rounded to the ban once, from quantity x
   * price / base_quantity (docs/shelf-prices.md, "Prices with more decimals").
   */
  price: zUnitPrice,
  /**
   * The quantity `price` is for (UBL BaseQuantity, BT-149): 1 (the default) for a price per unit, 1000
   * for a price per thousand. Our addition.
   */
  base_quantity: zBaseQuantity.default(1),
  /**
   * The price includes VAT (a shop's shelf price): the line then costs exactly quantity x price (less
   * its discount) and its VAT is extracted per rate (docs/shelf-prices.md). Default false: net price.
   */
  price_includes_vat: z.boolean().default(false),
  vat_rate: zVatPercent,
  discount_percent: z.number().min(0).max(100).default(0),
  /** Required by e-Factura for a 0% line: why it is exempt (e.g. art. 294 Cod fiscal). */
  vat_exemption_reason: z.string().max(200).nullish(),
  /** Only on a 0% line; absent = `E`. */
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullish(),
  /**
   * The line sells a service, not goods. Absent: the product's `is_service` when `product_id` names one,
   * else false. Kept on the line as written, so a later edit of the product changes no issued invoice. It
   * decides the legal ground of a K or G line (docs/api-decisions.md, "Intra-community services").
   */
  is_service: z.boolean().nullish(),
}).superRefine(vatCategoryOnZeroRate);
export type InvoiceLineInput = z.input<typeof zInvoiceLineInput>;

/**
 * A discount or charge on the whole invoice (EN 16931 BG-20/BG-21; our design, docs/api-decisions.md):
 * an amount without VAT at one VAT rate that some line of the invoice has, which lowers (or, a
 * charge, raises) that rate's taxable amount and so its VAT. A reason or a reason code is required:
 * UNTDID 5189 for a discount (`95` discount, `100` special rebate, ...), UNTDID 7161 for a charge
 * (`FC` freight, `PC` packing, ...).
 */
export const zAllowanceChargeInput = z.object({
  charge: z.boolean().default(false),
  amount: zMoneyNumber.refine((n) => n > 0, 'Must be above 0|Trebuie să fie peste 0'),
  vat_rate: zVatPercent,
  /** Only at 0%: which 0% lines it goes with (absent = `E`). */
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullish(),
  reason: z.string().trim().min(1).max(100).nullish(),
  reason_code: z.string().trim().nullish(),
}).superRefine(allowanceChargeRules);

/** The rules of one discount or charge on the whole invoice, the service's and the desktop's (shared/ipc). */
export function allowanceChargeRules<
  T extends { charge: boolean; vat_rate: number; vat_category?: LineVatCategory | null | undefined; reason?: string | null | undefined; reason_code?: string | null | undefined },
>(a: T, ctx: z.core.$RefinementCtx<T>): void {
  vatCategoryOnZeroRate(a, ctx);
  if (!a.reason && !a.reason_code) {
    ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Give a reason or a reason code.|Dați un motiv sau un cod de motiv.' });
  }
  const codes: readonly string[] = a.charge ? CHARGE_REASON_CODES : ALLOWANCE_REASON_CODES;
  if (a.reason_code && !codes.includes(a.reason_code)) {
    ctx.addIssue({
      code: 'custom', path: ['reason_code'],
      message: `Not a ${a.charge ? 'charge' : 'discount'} reason code e-Factura accepts: ${codes.join(', ')}.|Nu este un cod de motiv pentru ${a.charge ? 'majorare' : 'reducere'} acceptat de e-Factura: ${codes.join(', ')}.`,
    });
  }
}
export type AllowanceChargeInput = z.input<typeof zAllowanceChargeInput>;

/** As the invoice keeps it: the amount has the invoice's sign (negative on a storno), `vat` the VAT it moves. */
export const zAllowanceCharge = z.object({
  charge: z.boolean(),
  amount: z.number(),
  vat_rate: z.number(),
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullable(),
  reason: z.string().nullable(),
  reason_code: z.string().nullable(),
  vat: z.number(),
});

/**
 * The references firms and public buyers ask for (our design): the buyer's order number (BT-13), the
 * contract (BT-12), and the buyer's own reference (BT-10, e.g. a public buyer's commitment number).
 */
export const zInvoiceReferences = z.object({
  order: z.string().trim().min(1).max(200).nullish(),
  contract: z.string().trim().min(1).max(200).nullish(),
  buyer: z.string().trim().min(1).max(200).nullish(),
  /** BT-16, the delivery note / despatch advice ("aviz de însoțire"). */
  despatch: z.string().trim().min(1).max(200).nullish(),
  /** BT-15, the receiving advice ("notă de recepție"). */
  receipt: z.string().trim().min(1).max(200).nullish(),
  /** BT-11, the project. */
  project: z.string().trim().min(1).max(200).nullish(),
  /** BT-17, the tender or lot of a public procurement. */
  tender: z.string().trim().min(1).max(200).nullish(),
  /** BT-18, the invoiced object (a meter, a subscription, a vehicle...). */
  invoiced_object: z.string().trim().min(1).max(200).nullish(),
});
export type InvoiceReferences = z.output<typeof zInvoiceReferences>;

/**
 * Up to this many lines on one invoice. ANAF's rules set no line limit since CIUS-RO 1.0.8 dropped
 * BR-RO-A999 (999 lines); what bounds an invoice is the 10 MB upload. The longest line our XML writer
 * can make (name and description at their CIUS-RO limits, in diacritics) takes about 1,460 bytes, so
 * 5,000 of them stay under 7.5 MB with room for the header (docs/api-decisions.md, "Long invoices").
 */
export const MAX_INVOICE_LINES = 5_000;

/** Every reference an invoice can carry, in the order the printout lists them. */
export const INVOICE_REFERENCE_KINDS = ['order', 'contract', 'buyer', 'despatch', 'receipt', 'project', 'tender', 'invoiced_object'] as const;
export type InvoiceReferenceKind = (typeof INVOICE_REFERENCE_KINDS)[number];
/** The references as returned: every kind, null when not given. */
export type InvoiceReferencesView = Record<InvoiceReferenceKind, string | null>;

/** Every kind present (null when absent or blank), from what a caller or a stored row gave; null when none at all. */
export function normalizeReferences(r: Partial<Record<InvoiceReferenceKind, string | null | undefined>> | null | undefined): InvoiceReferencesView | null {
  const out = Object.fromEntries(INVOICE_REFERENCE_KINDS.map((k) => [k, r?.[k]?.trim() || null])) as InvoiceReferencesView;
  return INVOICE_REFERENCE_KINDS.some((k) => out[k] !== null) ? out : null;
}

/** No reference at all, as returned. */
export function noReferences(): InvoiceReferencesView {
  return Object.fromEntries(INVOICE_REFERENCE_KINDS.map((k) => [k, null])) as InvoiceReferencesView;
}

/** Up to this many discounts and charges on one invoice. */
export const MAX_ALLOWANCES_CHARGES = 20;

export const zInvoiceLine = z.object({
  id: zId,
  object: z.literal('invoice_line'),
  position: z.number().int(),
  product_id: z.string().nullable(),
  description: z.string(),
  quantity: z.number(),
  unit: z.string(),
  unit_code: z.string(),
  /** As given, with its decimals (up to 4): without VAT, or with VAT when `price_includes_vat`. */
  price: z.number(),
  /** The quantity `price` is for (1 unless given). Optional in the type for a service from before it. */
  base_quantity: z.number().optional(),
  /** Whether `price` includes VAT. The service always sends it; optional for a service from before it (then false). */
  price_includes_vat: z.boolean().optional(),
  vat_rate: z.number(),
  discount_percent: z.number(),
  vat_exemption_reason: z.string().nullable(),
  /**
   * A 0% line's category (`E` when none was given); null on a line with a rate above 0. Not the
   * invoice-level `AE` (reverse charge) nor `O` (seller not a VAT payer): the e-Factura XML applies
   * those over it. Optional in the type only, so the desktop's print adapter builds lines without it;
   * the server always sends it.
   */
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullable().optional(),
  /** The line sells a service (as it was when written). The service always sends it; optional for a service from before it (then false). */
  is_service: z.boolean().optional(),
  discount: z.number(),
  net: z.number(),
  vat: z.number(),
  total: z.number(),
});
export type InvoiceLine = z.infer<typeof zInvoiceLine>;

export const zVatBreakdownEntry = z.object({
  vat_rate: z.number(),
  /**
   * On a 0% entry, which 0% it sums (one entry per category: each exemption is its own base on the
   * invoice, art. 319 (20) l Cod fiscal); null on a rate above 0 and on a reverse-charge invoice.
   * The service always sends it; optional so that the desktop reads a service from before it.
   */
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullable().optional(),
  net: z.number(),
  vat: z.number(),
  total: z.number(),
});

export const zInvoiceTotals = z.object({
  /** The taxable total: the line nets less the discounts on the whole invoice plus its charges. */
  net: z.number(),
  vat: z.number(),
  total: z.number(),
  discount: z.number(),
  /**
   * Our addition (BT-106, BT-107, BT-108): the sum of the line nets, and the discounts and charges on
   * the whole invoice. Sent only on an invoice that has some (its `net` then differs from the lines' sum).
   */
  lines_net: z.number().optional(),
  allowances: z.number().optional(),
  charges: z.number().optional(),
});

/** The buyer as printed on the invoice: copied at issue, so a later edit of the client changes nothing. */
export const zPartySnapshot = z.object({
  name: z.string(),
  cui: z.string().nullable(),
  vat_payer: z.boolean(),
  reg_com: z.string().nullable(),
  cnp: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  county: z.string().nullable(),
  country: z.string(),
  iban: z.string().nullable(),
  bank: z.string().nullable(),
  /**
   * A walk-in sale: a person who gave no identification (no client record). e-Factura then states the
   * 13 zeros ANAF provides for the buyer's code and the place of sale as the address (docs/api-decisions.md).
   */
  walk_in: z.boolean().optional(),
  /** BT-53. Absent in snapshots taken before it was copied. */
  postal_code: z.string().nullable().optional(),
});

/** The buyer of a walk-in sale, as frozen on the document: "Persoană fizică", nothing else known. */
export function walkInBuyer(): z.infer<typeof zPartySnapshot> {
  return {
    name: 'Persoană fizică', cui: null, vat_payer: false, reg_com: null, cnp: null, address: null, city: null, county: null,
    country: 'RO', iban: null, bank: null, walk_in: true,
  };
}

/** True for the buyer snapshot of a walk-in sale. */
export function isWalkInBuyer(buyer: { walk_in?: boolean | undefined } | null | undefined): boolean {
  return buyer?.walk_in === true;
}

/**
 * The seller as it stood when the invoice was issued: the company profile copied at issue, so a
 * later edit of the profile changes neither the printout nor the e-Factura XML of an issued invoice.
 */
export const zSellerSnapshot = zCompanyProfile
  .pick({
    name: true, cui: true, vat_payer: true, vat_id: true, reg_com: true, street: true, city: true, county_code: true,
    postal_code: true, country_code: true, iban: true, bank: true, email: true, phone: true, capital_social_bani: true,
    // "TVA la încasare" (art. 282 Cod fiscal) as it applied when the invoice was issued.
    vat_on_collection: true,
  })
  .extend({
    /** Which logo the printout showed (a content hash or file name), when the firm has one. */
    logo_ref: z.string().nullable().optional(),
  });
export type SellerSnapshot = z.infer<typeof zSellerSnapshot>;

/** The members of a company profile that an issued document keeps. */
export function sellerSnapshotOf(p: Omit<SellerSnapshot, 'logo_ref'> & { logo_ref?: string | null | undefined }): SellerSnapshot {
  return {
    name: p.name, cui: p.cui, vat_payer: p.vat_payer, vat_id: p.vat_id, reg_com: p.reg_com, street: p.street, city: p.city,
    county_code: p.county_code, postal_code: p.postal_code, country_code: p.country_code, iban: p.iban, bank: p.bank,
    email: p.email, phone: p.phone, capital_social_bani: p.capital_social_bani, vat_on_collection: p.vat_on_collection,
    logo_ref: p.logo_ref ?? null,
  };
}

export const zInvoice = z.object({
  id: zId,
  object: z.literal('invoice'),
  work_point_id: zId,
  document_type: z.enum(DOCUMENT_TYPES),
  status: z.enum(INVOICE_STATUSES),
  is_draft: z.boolean(),
  series_id: z.string().nullable(),
  series_name: z.string().nullable(),
  number: z.number().int().nullable(),
  /** Series and number as printed, e.g. `TJ-2026-0042`; null on a draft. */
  full_number: z.string().nullable(),
  issue_date: z.string(),
  due_date: z.string().nullable(),
  /**
   * When the goods were delivered or the service done, when that is not the issue date (art. 319 (20)
   * d Cod fiscal); null otherwise. Our addition: the service always sends it, optional for an older one.
   */
  delivery_date: z.string().nullable().optional(),
  client_id: z.string().nullable(),
  buyer: zPartySnapshot.nullable(),
  /** Our addition: the seller copied at issue (null on a draft, and on invoices issued before it was kept). */
  seller: zSellerSnapshot.nullable().optional(),
  currency: z.string(),
  exchange_rate: z.number().nullable(),
  language: z.string(),
  reverse_charge: z.boolean(),
  totals: zInvoiceTotals,
  /** Our addition: discounts and charges on the whole invoice, in the order given (empty when none). */
  allowances_charges: z.array(zAllowanceCharge).optional(),
  /** Our addition: order, contract, buyer, despatch, receipt, project, tender and invoiced-object references (each null when not given). */
  references: z.object({
    order: z.string().nullable(), contract: z.string().nullable(), buyer: z.string().nullable(),
    // Absent in documents stored before they existed (read as null).
    despatch: z.string().nullable().optional(), receipt: z.string().nullable().optional(), project: z.string().nullable().optional(),
    tender: z.string().nullable().optional(), invoiced_object: z.string().nullable().optional(),
  }).optional(),
  vat_breakdown: z.array(zVatBreakdownEntry),
  /** Totals in RON when the invoice currency is another (exchange_rate applied to every member). */
  totals_ron: zInvoiceTotals.nullable(),
  paid_state: z.enum(PAID_STATES),
  amount_paid: z.number(),
  amount_due: z.number(),
  payment_method: zPaymentMethodType.nullable(),
  observations: z.string().nullable(),
  storno_of: z.string().nullable(),
  storno_id: z.string().nullable(),
  converted_from: z.string().nullable(),
  converted_to: z.string().nullable(),
  efactura_enabled: z.boolean(),
  spv_environment: z.enum(['live', 'test']),
  efactura_status: z.enum(EFACTURA_STATUSES),
  client_local_uuid: z.string().nullable(),
  device_id: z.string().nullable(),
  lines: z.array(zInvoiceLine).optional(),
  payments: z.array(zPayment).optional(),
  client: zClient.nullable().optional(),
  issued_at: zTimestamp.nullable(),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});
export type Invoice = z.infer<typeof zInvoice>;

/**
 * POST /invoices. Beyond the contract's members: a draft needs no series; an issued invoice takes
 * the next number of `series_id`, or the number of `reservation_token` (offline, shared series), or
 * `number` when the calling device holds the series' lock (offline, exclusive series).
 */
export const zInvoiceCreate = z.object({
  series_id: zId.optional(),
  client_id: zId.optional(),
  /** A new client created together with the invoice (counter quick-create). */
  client: zClientCreate.optional(),
  /**
   * A walk-in sale to a person who gives no identification: no client, the buyer is "Persoană fizică"
   * (e-Factura: CNP 0000000000000). Excludes `client_id` and `client`. Without any of the three an
   * issued invoice is refused, so an integration that forgets its client never issues to nobody.
   */
  walk_in: z.boolean().optional(),
  document_type: z.enum(DOCUMENT_TYPES).default('fiscal'),
  is_draft: z.boolean().default(false),
  issue_date: zDate.optional(),
  due_date: zDate.optional(),
  /** When the goods were delivered or the service done, if not the issue date (art. 319 (20) d Cod fiscal). */
  delivery_date: zDate.optional(),
  currency: zCurrencyCode.default('RON'),
  exchange_rate: zExchangeRate.optional(),
  language: z.string().min(2).max(5).default('ro'),
  reverse_charge: z.boolean().default(false),
  efactura_enabled: z.boolean().default(false),
  spv_environment: z.enum(['live', 'test']).default('live'),
  payment_method: zPaymentMethodType.optional(),
  observations: z.string().max(2000).optional(),
  items: z.array(zInvoiceLineInput).min(1).max(MAX_INVOICE_LINES),
  allowances_charges: z.array(zAllowanceChargeInput).max(MAX_ALLOWANCES_CHARGES).default([]),
  references: zInvoiceReferences.optional(),
  reservation_token: z.string().optional(),
  number: z.number().int().positive().optional(),
  device_id: z.string().max(64).optional(),
  client_local_uuid: z.string().uuid().optional(),
});
export type InvoiceCreate = z.input<typeof zInvoiceCreate>;

/** PUT /invoices/{id}: drafts only (an issued invoice is corrected by storno). */
export const zInvoiceUpdate = z.object({
  series_id: zId.optional(),
  client_id: zId.nullable().optional(),
  /** true: the draft becomes a walk-in sale (its client removed); false: it no longer is one. */
  walk_in: z.boolean().optional(),
  issue_date: zDate.optional(),
  due_date: zDate.nullable().optional(),
  delivery_date: zDate.nullable().optional(),
  currency: zCurrencyCode.optional(),
  exchange_rate: zExchangeRate.nullable().optional(),
  language: z.string().min(2).max(5).optional(),
  reverse_charge: z.boolean().optional(),
  efactura_enabled: z.boolean().optional(),
  spv_environment: z.enum(['live', 'test']).optional(),
  payment_method: zPaymentMethodType.nullable().optional(),
  observations: z.string().max(2000).nullable().optional(),
  items: z.array(zInvoiceLineInput).min(1).max(MAX_INVOICE_LINES).optional(),
  /** Replaces every discount and charge on the whole invoice when sent. */
  allowances_charges: z.array(zAllowanceChargeInput).max(MAX_ALLOWANCES_CHARGES).optional(),
  /** Replaces the references when sent (null: none). */
  references: zInvoiceReferences.nullable().optional(),
});

/** POST /invoices/{id}/issue: a draft takes its number. */
export const zInvoiceIssue = z.object({
  series_id: zId.optional(),
  issue_date: zDate.optional(),
  reservation_token: z.string().optional(),
  number: z.number().int().positive().optional(),
  device_id: z.string().max(64).optional(),
});

/** POST /invoices/{id}/storno: a storno invoice negating the original, from the same or another series. */
export const zInvoiceStorno = z.object({
  series_id: zId.optional(),
  issue_date: zDate.optional(),
  reservation_token: z.string().optional(),
  number: z.number().int().positive().optional(),
  device_id: z.string().max(64).optional(),
  client_local_uuid: z.string().uuid().optional(),
});

/** POST /invoices/{id}/convert: a proforma becomes a fiscal invoice. */
export const zInvoiceConvert = zInvoiceStorno;
