import { z } from 'zod';
import { ERROR_TYPES } from '../api/envelope';
import { zClient, zClientCreate, zClientUpdate } from '../schemas/client';
import { MAX_AMOUNT_BANI, zCurrencyCode, zDate, zExchangeRate, zPaymentMethodType, zQuantity, zVatPercent } from '../schemas/common';
import { allowanceChargeRules, INVOICE_REFERENCE_KINDS, LINE_VAT_CATEGORIES, type InvoiceReferenceKind, MAX_ALLOWANCES_CHARGES, MAX_INVOICE_LINES, vatCategoryOnZeroRate, zInvoiceReferences, zPartySnapshot, zSellerSnapshot } from '../schemas/invoice';
import { zBaseQuantity } from '../invoice-math';
import { zSeriesLock } from '../schemas/series';
import { zCompanyLookup } from '../schemas/company-lookup';
import { zCompanyProfile, zCompanyProfileUpdate, zSendToSpvResult } from '../schemas/efactura';
import { EXPENSE_VAT_RATES } from '../schemas/expense';
import type { ChannelName, EventName } from './channels';
import { importChannels } from './contract-imports';
import { seriesAdminContract } from './contract-series-admin';
import { setupContract } from './contract-setup';
import { accountingContract } from './contract-accounting';
import { stockContract } from './contract-stock';

/**
 * The IPC contract between the renderer and the main process: ONE map from channel name to its
 * input and output schemas, and one map of events. Both hosts (Electron and the web host) carry
 * exactly this contract; the renderer never knows which one it talks to.
 *
 * Conventions:
 * - Every call answers `{ ok: true, value } | { ok: false, error: { type, code, message, fields? } }`
 *   (see `zIpcReply`). The value is checked against `output` in main before it leaves, and again by
 *   the renderer's client (`createIpcClient`).
 * - Money is integer bani (`*_bani`), as everywhere inside the app; format it with
 *   `shared/money` `formatRon`. Quantities are numbers with at most 3 decimals; VAT rates and
 *   discounts are percents (21, 20.5). Dates are `YYYY-MM-DD` (Europe/Bucharest); timestamps are
 *   Unix seconds.
 * - `id` is the local, stable id of a record: it never changes when the record reaches the server
 *   (its server id is `sync.server_id`). Every reference between records (`client_id`,
 *   `invoice_id`, `product_id`) is a local id.
 * - Every call answers from the local database at once, whatever the network does. The few calls
 *   marked ONLINE talk to the server and fail with `unavailable`/`offline` when it cannot be reached.
 * - `mutates` lists the data domains a call changes: after it succeeds, invalidate those queries.
 *   The same domains also arrive in the `data.changed` event when the sync engine changes data.
 * - Validation messages (in `fields`, and server messages passed through) are often `English|Română`,
 *   as the shared schemas write them: show the half of the UI's language.
 */

// ---------------------------------------------------------------------------------------------
// Common pieces

export const zLocalId = z.string().min(1).max(64);
export const zBaniInt = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const zPositiveBani = zBaniInt.refine((n) => n > 0, 'Must be positive|Trebuie să fie pozitiv');
const zNonNegativeBani = zBaniInt.refine((n) => n >= 0, 'Must not be negative|Nu poate fi negativ');
const zUnix = z.number().int().nonnegative();

/** Error `type`s: the API's own (a server refusal passes through with its type and code) and ours. */
export const IPC_ERROR_TYPES = [...ERROR_TYPES, 'not_found', 'conflict', 'unavailable', 'internal_error'] as const;
export type IpcErrorType = (typeof IPC_ERROR_TYPES)[number];

export const zIpcError = z.object({
  type: z.enum(IPC_ERROR_TYPES),
  /** Machine-readable: a server code (`resource_missing`, `validation_error`...) or ours (see `IPC_ERROR_CODES`). */
  code: z.string(),
  /** Human-readable, for the UI; never a stack trace. */
  message: z.string(),
  /** Member path (dotted, e.g. `lines.0.quantity`) -> message, on validation errors. */
  fields: z.record(z.string(), z.string()).optional(),
});
export type IpcError = z.infer<typeof zIpcError>;

/** Codes produced by the app itself (server codes pass through unchanged). */
export const IPC_ERROR_CODES = {
  /** The payload did not match the channel's input schema. */
  invalid_payload: 'validation_error',
  /** No such channel in the contract. */
  unknown_channel: 'permission_error',
  /** The message did not come from the app's own page. */
  sender_refused: 'permission_error',
  /** A local record is missing. */
  not_found: 'not_found',
  /** No reserved number and no lock for this series: save a draft, or go online to reserve numbers. */
  no_number_available: 'conflict',
  /** The record's state forbids the action (e.g. editing an issued invoice, discarding a synced one). */
  invalid_state: 'conflict',
  /** An outbox item other items wait for cannot be discarded alone. */
  has_dependents: 'conflict',
  /** The server cannot be reached (ONLINE calls only). */
  offline: 'unavailable',
  /** No API key configured yet. */
  not_configured: 'unavailable',
  /** This host cannot do that (e.g. PDF export in the web host: use the browser's print). */
  not_supported_in_host: 'unavailable',
  /** Anything unexpected; details stay in the main-process log. */
  internal_error: 'internal_error',
} as const satisfies Record<string, IpcErrorType>;

export const zIpcReply = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), value }), z.object({ ok: z.literal(false), error: zIpcError })]);

/** Domains the renderer caches; a mutation or a sync names the ones it changed. */
export const DOMAINS = [
  'invoices', 'clients', 'products', 'receipts', 'series', 'settings', 'catalog', 'purchases', 'outbox', 'sync',
] as const;
export const zDomain = z.enum(DOMAINS);
export type Domain = z.infer<typeof zDomain>;

/** Where a record stands with the server. `failed`: see the outbox item for the server's error. */
export const zRecordSync = z.object({
  state: z.enum(['synced', 'pending', 'in_flight', 'failed']),
  server_id: z.string().nullable(),
  /** The error of the failed outbox item of this record, if any. */
  error: zIpcError.nullable(),
});
export type RecordSync = z.infer<typeof zRecordSync>;

const zPage = { limit: z.number().int().min(1).max(500).default(50), offset: z.number().int().min(0).default(0) };
const zListOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int() });
const zById = z.object({ id: zLocalId });

// ---------------------------------------------------------------------------------------------
// App, settings, sync

export const zHostKind = z.enum(['electron', 'web']);

export const zDevice = z.object({
  /** Stable for this installation (a UUID made on first start). */
  id: z.string(),
  name: z.string(),
  platform: z.string(),
});

export const zAppInfo = z.object({
  app_version: z.string(),
  host: zHostKind,
  device: zDevice,
});

export const zCashLimits = z.object({
  /** Daily cash ceiling per B2B partner (a legal limit that changes often: a setting, not a constant). */
  b2b_daily_bani: zNonNegativeBani,
  /** Daily cash ceiling per private person. */
  b2c_daily_bani: zNonNegativeBani,
});

export const zSettings = z.object({
  api_url: z.string(),
  device: zDevice,
  locale: z.enum(['ro', 'en']),
  default_series_id: z.string().nullable(),
  /** Background pull period; pushes start at once after every local change regardless. */
  sync_interval_seconds: z.number().int().min(30).max(86_400),
  cash_limits: zCashLimits,
  /**
   * e-Factura environment new invoices are sent to. `live` cannot be undone (contract general rule
   * 8): the UI must warn before switching to it. Default `test`.
   */
  efactura_environment: z.enum(['test', 'live']),
  has_api_key: z.boolean(),
  company: z.object({ id: z.string(), name: z.string(), cui: z.string() }).nullable(),
  work_point: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type Settings = z.infer<typeof zSettings>;

export const zSettingsUpdate = z.object({
  api_url: z.url().optional(),
  device_name: z.string().trim().min(1).max(100).optional(),
  locale: z.enum(['ro', 'en']).optional(),
  default_series_id: z.string().nullable().optional(),
  sync_interval_seconds: z.number().int().min(30).max(86_400).optional(),
  cash_limits: zCashLimits.partial().optional(),
  efactura_environment: z.enum(['test', 'live']).optional(),
  /**
   * The work point (branch) this device works at; null: the API key's own. Invoices, series,
   * receipts, payments, expenses and supplier bills belong to a work point, so a change empties those
   * from the local cache and pulls the new work point's. Refused (`invalid_state`) while documents of
   * the current one wait in the outbox; when this device holds numbers (a lock, a reserved pool) it
   * gives them back first, which needs the server (`offline` otherwise). See main/sync/README.md.
   */
  work_point_id: z.string().min(1).max(64).nullable().optional(),
});

export const zSyncMode = z.enum(['online', 'offline', 'paused', 'unconfigured', 'auth_error']);

export const zOutboxCounts = z.object({
  pending: z.number().int(),
  in_flight: z.number().int(),
  failed: z.number().int(),
});

export const zSyncStatus = z.object({
  /** `auth_error`: the key was refused (401); set a new key. `paused`: by the user. */
  mode: zSyncMode,
  /** A sync pass is running now. */
  syncing: z.boolean(),
  last_attempt_at: zUnix.nullable(),
  /** Last pass that reached the server and finished. */
  last_success_at: zUnix.nullable(),
  last_error: zIpcError.nullable(),
  outbox: zOutboxCounts,
});
export type SyncStatus = z.infer<typeof zSyncStatus>;

export const OUTBOX_STATES = ['pending', 'in_flight', 'done', 'failed'] as const;

export const zOutboxItem = z.object({
  /** Also the `Idempotency-Key` the request carries. */
  id: z.string(),
  /** This device's order of mutations. */
  seq: z.number().int(),
  /** e.g. `invoice.create`, `client.create`, `receipt.update`, `reservation.release`. */
  kind: z.string(),
  entity_type: z.enum(['invoice', 'client', 'product', 'receipt', 'payment', 'reservation', 'expense', 'supplier']),
  /** Local id of the record (a reservation token for `reservation.release`). */
  entity_id: z.string(),
  /** Short human description, e.g. `Factură TJ-2026-0042` or `Client Popescu SRL`. */
  label: z.string(),
  state: z.enum(OUTBOX_STATES),
  attempts: z.number().int(),
  /** When a `pending` item that failed transiently will be tried again. */
  next_attempt_at: zUnix.nullable(),
  /** The server's error (type, code, message, fields) or the network failure of the last attempt. */
  last_error: zIpcError.nullable(),
  /** Ids of the items this one waits for (e.g. the new client of a new invoice). */
  blocked_by: z.array(z.string()),
  created_at: zUnix,
  updated_at: zUnix,
  /** `failed` items: try again as is. */
  can_retry: z.boolean(),
  /** Not yet on the server for sure: drop it (and undo the local record; a reserved number becomes a gap). */
  can_discard: z.boolean(),
  /** Fix the record through its own channel (e.g. `clients.update`), which also re-queues the item. */
  can_edit: z.boolean(),
});
export type OutboxItem = z.infer<typeof zOutboxItem>;

// ---------------------------------------------------------------------------------------------
// Clients and products

/** A client as the device keeps it: the API's client members, with local ids and times and the sync state. */
export const zClientView = zClient
  .pick({
    type: true, name: true, cui: true, vat_payer: true, reg_com: true, cnp: true, address: true, city: true, county: true,
    postal_code: true, email: true, phone: true, iban: true, bank: true, notes: true,
  })
  .extend({
    id: zLocalId,
    country: z.string(),
    created_at: zUnix,
    updated_at: zUnix,
    sync: zRecordSync,
  });
export type ClientView = z.infer<typeof zClientView>;

/** New client: the API's create body without `client_local_uuid` (the app sets it). */
export const zClientInput = zClientCreate.omit({ client_local_uuid: true });
export type ClientInput = z.input<typeof zClientInput>;

export const zProductView = z.object({
  id: zLocalId,
  name: z.string(),
  code: z.string().nullable(),
  /** The barcode printed on the article, when it is not the code. */
  barcode: z.string().nullable(),
  unit: z.string(),
  unit_code: z.string(),
  price_bani: zBaniInt,
  price_includes_vat: z.boolean(),
  vat_rate: z.number(),
  currency: z.string(),
  is_service: z.boolean(),
  created_at: zUnix,
  updated_at: zUnix,
  sync: zRecordSync,
  /**
   * On hand in this work point's warehouses, in the product's unit, less this device's sales the
   * service has not counted yet (issue 15). null: a service, or no stock known.
   */
  stock: z.number().nullable().optional(),
});
export type ProductView = z.infer<typeof zProductView>;

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
  price_bani: zNonNegativeBani,
  price_includes_vat: z.boolean(),
  vat_rate: zVatPercent,
  currency: zCurrencyCode,
  is_service: z.boolean(),
};
export const zProductInput = z.object({
  ...productFields,
  unit: productFields.unit.default('buc'),
  unit_code: productFields.unit_code.default('H87'),
  price_includes_vat: productFields.price_includes_vat.default(false),
  vat_rate: productFields.vat_rate.default(21),
  currency: productFields.currency.default('RON'),
  is_service: productFields.is_service.default(false),
});
export const zProductPatch = z.object(productFields).partial();

// ---------------------------------------------------------------------------------------------
// Series and numbering

export const zNumberingMode = z.enum(['shared', 'exclusive']);

export const zSeriesView = z.object({
  id: z.string(),
  /** `receipt`: a receipt (chitanță) series, `<prefix>-<number>`; it numbers offline under a lock only. */
  kind: z.enum(['invoice', 'receipt']),
  /** The prefix printed before the number. */
  name: z.string(),
  document_type: z.enum(['fiscal', 'proforma', 'receipt']),
  description: z.string(),
  format: z.string(),
  year: z.number().int(),
  is_primary: z.boolean(),
  /**
   * How this device numbers offline from the series. `exclusive`: it holds the series' lock and
   * numbers without gaps. `shared`: it draws from a pool of reserved numbers (several devices; a
   * discarded number becomes a documented gap; invoice series only). null: not set up; an invoice
   * then cannot be issued here, a receipt gets its number from the server when it syncs.
   */
  mode: zNumberingMode.nullable(),
  lock: zSeriesLock.nullable(),
  locked_by_me: z.boolean(),
  pool: z.object({
    /** Reserved numbers not used yet (shared mode). */
    available: z.number().int(),
    target: z.number().int(),
    low_water: z.number().int(),
  }),
  /** The number the next invoice issued here will get, if one is available offline now. */
  next_number: z.number().int().nullable(),
  next_full_number: z.string().nullable(),
  /** Where the series starts, and the number the service gives next (any device): for examples and checks. */
  start_number: z.number().int(),
  counter_next_number: z.number().int(),
  /** A number was taken from it: its start can no longer move. */
  is_used: z.boolean(),
  /** The service's next number as printed ("ARD-2026-0001"): what a cashier sees instead of a format. */
  example_full_number: z.string(),
});
export type SeriesView = z.infer<typeof zSeriesView>;

export const zSeriesSetMode = z.object({
  id: z.string(),
  /** null: give the lock back (exclusive) or stop keeping a pool (shared); unused numbers are released. */
  mode: zNumberingMode.nullable(),
  pool_target: z.number().int().min(1).max(1000).optional(),
  low_water: z.number().int().min(0).max(1000).optional(),
});

export const zGapView = z.object({
  number: z.number().int(),
  full_number: z.string(),
  /** `released`, `expired`, `lock_takeover`, `deleted` (see the gap register in the API). */
  reason: z.string(),
  device_id: z.string().nullable(),
  recorded_at: zUnix,
});

// ---------------------------------------------------------------------------------------------
// Invoices

/** The service issues nothing without a buyer: refused at once (`fields.client_id`), not at sync. */
const NEEDS_CLIENT = 'An issued invoice needs a client|O factură emisă are nevoie de un client';
const WALK_IN_NO_CLIENT = 'A walk-in sale names no client|O vânzare fără client nu are client';
/** An issued invoice names its client, or is a walk-in sale (walk_in: true) that names none. */
const zIssueBuyer = z
  .object({ client_id: z.unknown().optional(), walk_in: z.unknown().optional() })
  .superRefine((v, ctx) => {
    if (!v.client_id && v.walk_in !== true) ctx.addIssue({ code: 'custom', path: ['client_id'], message: NEEDS_CLIENT });
    if (v.client_id && v.walk_in === true) ctx.addIssue({ code: 'custom', path: ['walk_in'], message: WALK_IN_NO_CLIENT });
  });
const zIssueClientId = z.string({ error: NEEDS_CLIENT }).min(1, NEEDS_CLIENT).max(64);

/** A unit price in ten-thousandths of a leu (0,0125 lei = 125): a price with up to 4 decimals. */
const zUnitPriceE4 = z.number().int().min(0).max(999_999_999_999_999);

export const zLineInput = z.object({
  product_id: zLocalId.nullish(),
  description: z.string().trim().min(1).max(500),
  /** Negative only on a storno (made by `invoices.storno`, never typed). */
  quantity: zQuantity.refine((q) => q > 0, 'Must be positive|Trebuie să fie pozitivă'),
  unit: z.string().trim().min(1).max(20).default('buc'),
  unit_code: z.string().trim().min(1).max(5).default('H87'),
  /** Unit price: without VAT, or with VAT when `price_includes_vat` (a shelf price). */
  unit_price_bani: zNonNegativeBani,
  /**
   * The same price with up to 4 decimals, in ten-thousandths of a leu (0,0125 lei = 125); when given it
   * is the price and `unit_price_bani` only its rounding to the ban.
   */
  unit_price_e4: zUnitPriceE4.optional(),
  /** The quantity the price is for (1 unless given: a price per 1000 SMS says 1000). */
  base_quantity: zBaseQuantity.optional(),
  /** The price includes VAT: the line costs exactly quantity x price (docs/shelf-prices.md). */
  price_includes_vat: z.boolean().default(false),
  vat_rate: zVatPercent,
  discount_percent: z.number().min(0).max(100).default(0),
  vat_exemption_reason: z.string().max(200).nullish(),
  /** Why a 0% line carries no VAT; only on a 0% line, absent = `E` (the service's rule, checked here too). */
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullish(),
  /** The line sells a service; absent: as its product is (else goods). The service's `is_service`. */
  is_service: z.boolean().nullish(),
}).superRefine(vatCategoryOnZeroRate);
export type LineInput = z.input<typeof zLineInput>;

/**
 * A discount (or, with `charge`, a charge) on the whole invoice (BG-20/BG-21), as the desktop takes it:
 * the service's rules (shared/schemas/invoice.ts), the amount in bani without VAT, at the VAT rate of
 * the lines it goes with.
 */
export const zAdjustmentInput = z.object({
  charge: z.boolean().default(false),
  amount_bani: z.number().int().positive('Must be above 0|Trebuie să fie peste 0').max(MAX_AMOUNT_BANI),
  vat_rate: zVatPercent,
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullish(),
  reason: z.string().trim().min(1).max(100).nullish(),
  reason_code: z.string().trim().min(1).nullish(),
}).superRefine(allowanceChargeRules);
export type AdjustmentInput = z.input<typeof zAdjustmentInput>;

/** As the invoice keeps it: `amount_bani` with the invoice's sign (negative on a storno), `vat_bani` the VAT it moves. */
export const zAdjustmentView = z.object({
  charge: z.boolean(),
  amount_bani: zBaniInt,
  vat_rate: z.number(),
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullable(),
  reason: z.string().nullable(),
  reason_code: z.string().nullable(),
  vat_bani: zBaniInt,
});
export type AdjustmentView = z.infer<typeof zAdjustmentView>;

export const zInvoiceDraftInput = z.object({
  client_id: zLocalId.nullish(),
  /** A walk-in sale (no client; the buyer is "Persoană fizică"): takes the place of client_id. */
  walk_in: z.boolean().default(false),
  document_type: z.enum(['fiscal', 'proforma']).default('fiscal'),
  /** Defaults to today in Bucharest. */
  issue_date: zDate.optional(),
  due_date: zDate.nullish(),
  /** When the goods were delivered or the service done, if not the issue date. */
  delivery_date: zDate.nullish(),
  currency: zCurrencyCode.default('RON'),
  exchange_rate: zExchangeRate.nullish(),
  language: z.string().min(2).max(5).default('ro'),
  reverse_charge: z.boolean().default(false),
  efactura_enabled: z.boolean().default(false),
  spv_environment: z.enum(['live', 'test']).default('live'),
  payment_method: zPaymentMethodType.nullish(),
  observations: z.string().max(2000).nullish(),
  lines: z.array(zLineInput).min(1).max(MAX_INVOICE_LINES),
  /** Discounts and charges on the whole invoice, in order (issue 14 item 4). */
  allowances_charges: z.array(zAdjustmentInput).max(MAX_ALLOWANCES_CHARGES).default([]),
  /** Order, contract, delivery note... references (each optional). */
  references: zInvoiceReferences.nullish(),
});
export type InvoiceDraftInput = z.input<typeof zInvoiceDraftInput>;

export const zLineView = z.object({
  position: z.number().int(),
  product_id: z.string().nullable(),
  description: z.string(),
  quantity: z.number(),
  unit: z.string(),
  unit_code: z.string(),
  unit_price_bani: zBaniInt,
  /** The price with its decimals (up to 4), in ten-thousandths of a leu. */
  unit_price_e4: z.number().int(),
  /** The quantity the price is for (1 unless given). */
  base_quantity: z.number(),
  price_includes_vat: z.boolean(),
  vat_rate: z.number(),
  discount_percent: z.number(),
  vat_exemption_reason: z.string().nullable(),
  /** A 0% line's category (`E` when none was given), null on a line with a rate above 0: as the service answers. */
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullable(),
  /** The line sells a service (kept from when it was written). */
  is_service: z.boolean(),
  discount_bani: zBaniInt,
  net_bani: zBaniInt,
  vat_bani: zBaniInt,
  total_bani: zBaniInt,
});

export const zTotalsView = z.object({
  net_bani: zBaniInt,
  vat_bani: zBaniInt,
  total_bani: zBaniInt,
  discount_bani: zBaniInt,
});

export const zEfacturaDeadline = z.object({
  id: zLocalId,
  full_number: z.string().nullable(),
  issue_date: z.string(),
  /** The last day to upload it to RO e-Factura. */
  deadline: z.string(),
  state: z.enum(['soon', 'today', 'overdue']),
  efactura_status: z.string(),
  efactura_enabled: z.boolean(),
});
export type EfacturaDeadline = z.infer<typeof zEfacturaDeadline>;

export const zInvoiceSummary = z.object({
  id: zLocalId,
  document_type: z.enum(['fiscal', 'proforma']),
  /** `issued` here may still be waiting in the outbox: see `sync.state`. */
  status: z.enum(['draft', 'issued', 'voided', 'storno']),
  series_id: z.string().nullable(),
  series_name: z.string().nullable(),
  number: z.number().int().nullable(),
  /** As printed, e.g. `TJ-2026-0042`; null on a draft. */
  full_number: z.string().nullable(),
  issue_date: z.string(),
  due_date: z.string().nullable(),
  client_id: z.string().nullable(),
  client_name: z.string().nullable(),
  currency: z.string(),
  totals: zTotalsView,
  paid_state: z.enum(['unpaid', 'partially_paid', 'paid']),
  amount_paid_bani: zBaniInt,
  amount_due_bani: zBaniInt,
  efactura_status: z.string(),
  created_at: zUnix,
  updated_at: zUnix,
  sync: zRecordSync,
});
export type InvoiceSummary = z.infer<typeof zInvoiceSummary>;

export const zInvoiceView = zInvoiceSummary.extend({
  /** How the number was obtained: from a reservation (shared series), under this device's lock, or by the server. */
  numbering: z.enum(['reservation', 'lock', 'server']).nullable(),
  /** When the goods were delivered or the service done, if not the issue date (art. 319 (20) d Cod fiscal). */
  delivery_date: z.string().nullable(),
  buyer: zPartySnapshot.nullable(),
  /** The seller as it stood at issue; null on a draft and on invoices issued before it was kept. */
  seller: zSellerSnapshot.nullable(),
  exchange_rate: z.number().nullable(),
  language: z.string(),
  reverse_charge: z.boolean(),
  vat_breakdown: z.array(z.object({ vat_rate: z.number(), vat_category: z.enum(LINE_VAT_CATEGORIES).nullable(), net_bani: zBaniInt, vat_bani: zBaniInt, total_bani: zBaniInt })),
  payment_method: zPaymentMethodType.nullable(),
  observations: z.string().nullable(),
  storno_of: z.string().nullable(),
  storno_id: z.string().nullable(),
  /** A fiscal invoice made from a proforma (`converted_from`), and the proforma's link to it. */
  converted_from: z.string().nullable(),
  converted_to: z.string().nullable(),
  efactura_enabled: z.boolean(),
  spv_environment: z.enum(['live', 'test']),
  issued_at: zUnix.nullable(),
  lines: z.array(zLineView),
  /** Discounts and charges on the whole invoice; `totals.net_bani` already counts them. */
  allowances_charges: z.array(zAdjustmentView),
  /** Every reference kind, null when not given. */
  references: z.object(Object.fromEntries(INVOICE_REFERENCE_KINDS.map((k) => [k, z.string().nullable()])) as Record<InvoiceReferenceKind, z.ZodNullable<z.ZodString>>),
});
export type InvoiceView = z.infer<typeof zInvoiceView>;

export const zInvoiceListInput = z.object({
  search: z.string().max(200).optional(),
  status: z.enum(['draft', 'issued', 'voided', 'storno']).optional(),
  paid_state: z.enum(['unpaid', 'partially_paid', 'paid']).optional(),
  client_id: zLocalId.optional(),
  series_id: z.string().optional(),
  document_type: z.enum(['fiscal', 'proforma']).optional(),
  from: zDate.optional(),
  to: zDate.optional(),
  /** Only records not yet (or not successfully) synced. */
  unsynced: z.boolean().optional(),
  ...zPage,
});

// ---------------------------------------------------------------------------------------------
// Receipts

export const zReceiptInput = z
  .object({
    /**
     * A receipt series this device holds the lock of: the receipt is numbered at once (printable
     * offline). Omitted: the first receipt series locked here, if any; otherwise the server numbers
     * it when it syncs.
     */
    series_id: z.string().optional(),
    client_id: zLocalId.optional(),
    /** A walk-in payer with no client record. */
    client_name: z.string().trim().min(1).max(200).optional(),
    /** Pair the receipt with an invoice (it pays it, fully or partly). */
    invoice_id: zLocalId.optional(),
    amount_bani: zPositiveBani,
    currency: zCurrencyCode.default('RON'),
    date: zDate.optional(),
    observations: z.string().max(2000).optional(),
    type: zPaymentMethodType.default('receipt'),
    language: z.string().min(2).max(5).default('ro'),
    exchange_rate: zExchangeRate.optional(),
  })
  .refine((r) => r.client_id || r.client_name || r.invoice_id, {
    message: 'A client, a payer name or an invoice is required|Este necesar un client, un nume sau o factură',
    path: ['client_name'],
  });
export type ReceiptInput = z.input<typeof zReceiptInput>;

export const zReceiptPatch = z.object({
  client_id: zLocalId.optional(),
  invoice_id: zLocalId.optional(),
  amount_bani: zPositiveBani.optional(),
  currency: zCurrencyCode.optional(),
  date: zDate.optional(),
  observations: z.string().max(2000).optional(),
  type: zPaymentMethodType.optional(),
  language: z.string().min(2).max(5).optional(),
  exchange_rate: zExchangeRate.optional(),
});

export const zReceiptView = z.object({
  id: zLocalId,
  /** `CH-17`: set at once under a locked receipt series, else by the server when the receipt syncs (null until then). */
  receipt_number: z.string().nullable(),
  series_id: z.string().nullable(),
  amount_bani: zBaniInt,
  amount_without_vat_bani: zBaniInt,
  amount_vat_bani: zBaniInt,
  currency: z.string(),
  date: z.string().nullable(),
  observations: z.string().nullable(),
  language: z.string().nullable(),
  type: zPaymentMethodType,
  is_draft: z.boolean(),
  /** Soft-deleted on the server (kept for the record; it cannot be edited any more). */
  is_deleted: z.boolean(),
  client_id: z.string().nullable(),
  client_name: z.string(),
  invoice_id: z.string().nullable(),
  invoice_full_number: z.string().nullable(),
  created_at: zUnix,
  updated_at: zUnix,
  sync: zRecordSync,
});
export type ReceiptView = z.infer<typeof zReceiptView>;

// ---------------------------------------------------------------------------------------------
// Payments (bank transfer, card... of an invoice; cash goes through receipts)

export const zPaymentView = z.object({
  id: zLocalId,
  invoice_id: z.string().nullable(),
  amount_bani: zBaniInt,
  currency: z.string(),
  date: z.string().nullable(),
  type: z.string(),
  /** Set when the payment is a receipt's (then see the receipt). */
  receipt_id: z.string().nullable(),
  created_at: zUnix,
  sync: zRecordSync,
});
export type PaymentView = z.infer<typeof zPaymentView>;

export const zPaymentInput = z.object({
  invoice_id: zLocalId,
  amount_bani: zPositiveBani,
  date: zDate.optional(),
  /** Not `receipt`: cash is taken with `receipts.create`. */
  type: z.enum(['bank_order', 'card', 'fiscal_receipt', 'other']).default('bank_order'),
});

// ---------------------------------------------------------------------------------------------
// Counter: one cart, one sale (invoice + its payment), and the carts kept on this device

/**
 * A sale at the counter in one local transaction: the invoice, the card part recorded as a payment,
 * the cash part as a chitanță. `cart_id` is the cart's id, the invoice's local id and its
 * `client_local_uuid` on the wire: the same cart sold again answers the sale already made.
 */
export const zCounterSaleInput = z.intersection(zInvoiceDraftInput.extend({
  series_id: z.string(),
  // A sale names its client, or is a walk-in sale (walk_in: true) to "Persoană fizică", as invoices.issue.
  client_id: zIssueClientId.nullish(),
  cart_id: z.uuid(),
  /**
   * With `payment_method` `receipt`: the part paid by card (a split payment), the rest in cash; with
   * `card`: the whole total, or omitted. Nothing is recorded for the other methods (paid later).
   */
  card_bani: zNonNegativeBani.default(0),
}), zIssueBuyer);

export const zCounterSaleView = z.object({
  invoice: zInvoiceView,
  /** The chitanță for the cash part; null when no cash was taken. */
  receipt: zReceiptView.nullable(),
  payments: z.array(zPaymentView),
  /** The cart had already been sold: this is that sale, nothing new was made. */
  replayed: z.boolean(),
});
export type CounterSaleView = z.infer<typeof zCounterSaleView>;

const zCartLine = z.object({
  key: z.string().max(40),
  product_id: zLocalId.nullable(),
  code: z.string().max(64).nullable(),
  description: z.string().max(500),
  unit: z.string().max(20),
  unit_code: z.string().max(5),
  quantity_milli: z.number().int(),
  unit_price_bani: zBaniInt,
  /**
   * The price with up to 4 decimals (typed at the counter, or from a draft), in ten-thousandths of a
   * leu; absent: `unit_price_bani` is the price. Kept, or a parked cart would come back rounded.
   */
  unit_price_e4: zUnitPriceE4.optional(),
  /** The quantity the price is for, in thousandths (a draft's price per 1 000 units); absent: 1000. */
  base_quantity_milli: z.number().int().min(1).max(1_000_000_000).optional(),
  /** `unit_price_bani` is the shelf price (VAT included), as the product states it. */
  price_includes_vat: z.boolean().default(false),
  vat_rate_bp: z.number().int().min(0).max(10_000),
  discount_bp: z.number().int().min(0).max(10_000),
  vat_exemption_reason: z.string().max(200).nullable(),
  vat_category: z.enum(LINE_VAT_CATEGORIES).nullable(),
  /** A return line: the invoice it gives goods back from (its storno takes these lines). */
  return_of: zLocalId.nullable().default(null),
});

/** A cart as the counter keeps it between keystrokes, restarts and crashes (see main/local/counter.ts). */
export const zCounterCart = z.object({
  id: z.uuid(),
  lines: z.array(zCartLine).max(500),
  client: z
    .object({
      id: zLocalId.nullable(),
      name: z.string().max(200),
      cui: z.string().max(40).nullable(),
      vat_payer: z.boolean(),
      country: z.string().max(2),
      county: z.string().max(100).nullable(),
    })
    .nullable(),
  payment_method: zPaymentMethodType,
  card_bani: zNonNegativeBani.default(0),
  tendered_bani: zNonNegativeBani.default(0),
  reverse_charge: z.boolean(),
  observations: z.string().max(2000),
  due_date: z.string().max(10),
  delivery_date: z.string().max(10),
  /** Discounts and charges on the whole invoice (renderer/counter/cart.ts CartAdjustment); absent in carts kept before them. */
  adjustments: z.array(z.object({
    key: z.string().max(40),
    charge: z.boolean(),
    percent_bp: z.number().int().min(0).max(10_000).nullable(),
    amount_bani: zNonNegativeBani,
    vat_rate_bp: z.number().int().min(0).max(10_000),
    vat_category: z.enum(LINE_VAT_CATEGORIES).nullable(),
    reason_code: z.string().max(5),
    reason: z.string().max(100),
  })).max(MAX_ALLOWANCES_CHARGES).default([]),
  references: z.partialRecord(z.enum(INVOICE_REFERENCE_KINDS), z.string().max(200)).default({}),
  selected: z.number().int(),
  nextKey: z.number().int(),
  /** When it was parked (unix seconds); null for the cart on the counter. */
  parked_at: zUnix.nullable().default(null),
});
export type CounterCart = z.infer<typeof zCounterCart>;

/** One layout rule of in-store EAN-13 codes (renderer/counter/barcode.ts reads them). */
export const zWeighedRule = z.object({
  prefix: z.string().regex(/^2\d$/, 'Two digits, 20 to 29|Două cifre, de la 20 la 29'),
  kind: z.enum(['weight', 'price']),
  item_digits: z.number().int().min(1).max(9),
});
export type WeighedRuleView = z.infer<typeof zWeighedRule>;

export const zCounterCarts = z.object({
  /** The cart on the counter; null: start a new one. */
  current: zCounterCart.nullable(),
  /** Parked carts ("puse în așteptare"), oldest first. */
  parked: z.array(zCounterCart).max(50),
  /** The payment method every new cart starts with. */
  default_payment: zPaymentMethodType,
  /** How this counter reads in-store barcodes (prefixes 20-29 with a weight or a price inside); null: the default layout. */
  barcode_rules: z.array(zWeighedRule).max(10).nullable(),
});
export type CounterCarts = z.infer<typeof zCounterCarts>;

// ---------------------------------------------------------------------------------------------
// Catalog, purchases, dashboard, documents

export const zCurrencyView = z.object({ code: z.string(), description: z.string(), is_default: z.boolean() });
export const zVatRateView = z.object({ id: z.string(), rate: z.number(), name: z.string(), is_custom: z.boolean() });

export const zExpenseView = z.object({
  id: zLocalId,
  reference: z.string().nullable(),
  description: z.string().nullable(),
  supplier_id: z.string().nullable(),
  /** From the local supplier register; null while the supplier is unknown here. */
  supplier_name: z.string().nullable(),
  total_bani: zBaniInt,
  currency: z.string(),
  date: z.string(),
  due_date: z.string().nullable(),
  paid_date: z.string().nullable(),
  /** `unpaid`, `overdue` (due date passed) or `paid`. */
  status: z.string(),
  sync: zRecordSync,
});
export type ExpenseView = z.infer<typeof zExpenseView>;

const zExpenseVatChoice = z.union([z.literal('mix'), z.number().refine((n) => (EXPENSE_VAT_RATES as readonly number[]).includes(n), 'One of 0, 5, 9, 11, 19, 21|Una dintre 0, 5, 9, 11, 19, 21')]);

const expenseFields = {
  /** A supplier of the local register; else `supplier_name` (and `supplier_cui`) names a new one, made with the expense. */
  supplier_id: zLocalId.optional(),
  supplier_name: z.string().trim().min(1).max(200).optional(),
  supplier_cui: z.string().trim().max(20).optional(),
  reference: z.string().trim().max(100).nullish(),
  description: z.string().trim().max(2000).nullish(),
  /** Defaults to today in Bucharest. */
  date: zDate.optional(),
  due_date: zDate.nullish(),
  /**
   * The document's amount: VAT included when `with_vat` (a single rate). With `vat_percent` 'mix'
   * it is the net and `amount_vat_manual_bani` the VAT, as the API reads a multi-rate receipt.
   */
  amount_bani: zPositiveBani,
  vat_percent: zExpenseVatChoice.default(21),
  with_vat: z.boolean().default(true),
  amount_vat_manual_bani: zNonNegativeBani.optional(),
  currency: zCurrencyCode.default('RON'),
  /** Lei for one unit of a foreign currency (required for one). */
  exchange_rate: zExchangeRate.optional(),
};

type ExpenseFieldsOut = { supplier_id?: string | undefined; supplier_name?: string | undefined; vat_percent: number | 'mix'; amount_vat_manual_bani?: number | undefined; currency: string; exchange_rate?: number | undefined; date?: string | undefined; due_date?: string | null | undefined };

/** The rules a form breaks before the server would: checked in both processes, reported per field. */
function checkExpense(value: ExpenseFieldsOut, ctx: z.RefinementCtx): void {
  if (!value.supplier_id && !value.supplier_name) {
    ctx.addIssue({ code: 'custom', path: ['supplier_id'], message: 'Choose a supplier or type its name|Alegeți furnizorul sau scrieți-i numele' });
  }
  if (value.vat_percent === 'mix' && value.amount_vat_manual_bani === undefined) {
    ctx.addIssue({ code: 'custom', path: ['amount_vat_manual_bani'], message: 'The VAT of a multi-rate receipt|TVA-ul unui bon cu mai multe cote' });
  }
  if (value.currency !== 'RON' && value.exchange_rate === undefined) {
    ctx.addIssue({ code: 'custom', path: ['exchange_rate'], message: 'Required for a foreign currency|Obligatoriu pentru o monedă străină' });
  }
  if (value.date && value.due_date && value.due_date < value.date) {
    ctx.addIssue({ code: 'custom', path: ['due_date'], message: 'Must not be before the date|Nu poate fi înaintea datei' });
  }
}

/** A new expense (the same body probes for a duplicate first). */
export const zExpenseInput = z.object(expenseFields).superRefine(checkExpense);
export type ExpenseInput = z.input<typeof zExpenseInput>;

/** Payment type codes of the API: 1 cash, 2 bank transfer, 3 card, 4 check, 5 promissory note, 6 other, 7 compensation. */
export const zExpensePayInput = z.object({
  id: zLocalId,
  /** Defaults to today; never in the future. */
  paid_date: zDate.optional(),
  payment_type: z.number().int().min(1).max(7),
});

export const zDuplicateView = z.object({
  /** The local id when the expense is in the local cache, else the server's id. */
  id: z.string(),
  reference: z.string().nullable(),
  date: z.string(),
  /** The existing expense's net amount (what the probe compared). */
  amount_bani: zBaniInt,
  currency: z.string(),
  /** `exact`: same supplier and document number; `strong`: same supplier, day and amount (±0.02); `likely`: same number, another supplier. */
  match_type: z.enum(['exact', 'strong', 'likely']),
});

export const zSupplierView = z.object({
  id: zLocalId,
  name: z.string(),
  cui: z.string().nullable(),
  vat_payer: z.boolean(),
  reg_com: z.string().nullable(),
  address: z.string().nullable(),
  /** Supplier bills of this work point in the local cache, and how many are not fully paid. */
  bills: z.number().int(),
  unpaid_bills: z.number().int(),
  /** What is still owed on them, per currency (RON first). */
  unpaid: z.array(z.object({ currency: z.string(), amount_bani: zBaniInt })),
  sync: zRecordSync,
});
export type SupplierView = z.infer<typeof zSupplierView>;

export const zWorkPointView = z.object({ id: z.string(), name: z.string(), address: z.string().nullable() });

export const zSupplierBillView = z.object({
  id: z.string(),
  invoice_number: z.string(),
  supplier_name: z.string(),
  issue_date: z.string().nullable(),
  due_date: z.string().nullable(),
  currency: z.string(),
  tax_inclusive_bani: zBaniInt,
  unpaid_bani: zBaniInt,
  status: z.string(),
  /** Received through e-Factura: ANAF can render it (`purchases.supplierBillPdf`); a bill entered by hand cannot. */
  has_efactura_pdf: z.boolean(),
});

const zCountAmount = z.object({ count: z.number().int(), total_bani: zBaniInt });

export const zDashboardSummary = z.object({
  date: z.string(),
  invoices_today: zCountAmount,
  invoices_month: zCountAmount,
  /** Cash (type `receipt`) taken today, to compare with the cash ceilings. */
  cash_today: zCountAmount,
  unpaid: zCountAmount,
  drafts: z.number().int(),
  outbox: zOutboxCounts,
  cash_limits: zCashLimits,
  /** Fiscal invoices issued on `date`, per VAT rate (the day's VAT report). */
  vat_today: z.array(z.object({ vat_rate: z.number(), net_bani: zBaniInt, vat_bani: zBaniInt })),
  /** The 30 days ending on `date`, oldest first, every day present (0 when nothing was issued). */
  daily: z.array(z.object({ date: z.string(), count: z.number().int(), total_bani: zBaniInt })),
});

// ---------------------------------------------------------------------------------------------
// The map

export interface ChannelSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  /** Domains to invalidate after success (absent on pure queries). */
  mutates?: readonly Domain[];
  /** Talks to the server; fails with `unavailable` when offline. */
  online?: true;
}

const spec = <I extends z.ZodType, O extends z.ZodType>(s: ChannelSpec<I, O>) => s;
const zNone = z.object({}).strict().optional();

export const contract = {
  /** Version, host kind and this device's identity. */
  'app.info': spec({ input: zNone, output: zAppInfo }),

  'settings.get': spec({ input: zNone, output: zSettings }),
  'settings.update': spec({
    input: zSettingsUpdate,
    output: zSettings,
    // A new work point replaces the work point's data in the local cache.
    mutates: ['settings', 'invoices', 'receipts', 'series', 'purchases', 'outbox', 'sync'],
  }),
  /**
   * Stores the API key (Electron: `safeStorage`; web host: a 0600 file) and checks it with the
   * server when online. `verified` false: stored, not checked yet (offline), or the server refused it
   * (then `error` says why and the key is NOT stored).
   */
  'settings.setApiKey': spec({
    input: z.object({ api_key: z.string().regex(/^sk_(live|test)_[0-9A-Za-z]{24}$/, 'Not an API key|Nu este o cheie API') }),
    output: z.object({ verified: z.boolean(), stored: z.boolean(), error: zIpcError.nullable(), settings: zSettings }),
    mutates: ['settings', 'sync'],
  }),
  'settings.clearApiKey': spec({ input: zNone, output: zSettings, mutates: ['settings', 'sync'] }),

  /**
   * The seller block of every printed invoice and receipt (name, CUI, VAT status, Reg. Com., address,
   * IBAN): the server's GET /company/profile, kept locally and refreshed at every full sync, so it
   * prints offline. null until the first sync reaches the server.
   */
  'company.profile': spec({ input: zNone, output: zCompanyProfile.nullable() }),
  /**
   * ONLINE. Corrects the seller data printed on documents (PUT /company/profile): only the members
   * sent change, null clears one. The answer is also kept as the local copy, so it prints at once.
   */
  'company.updateProfile': spec({ input: zCompanyProfileUpdate, output: zCompanyProfile, mutates: ['settings'], online: true }),

  'sync.status': spec({ input: zNone, output: zSyncStatus }),
  /** Starts a sync pass now (push, then pull) and answers when it ends. */
  'sync.now': spec({ input: zNone, output: zSyncStatus, mutates: ['sync', 'outbox'] }),
  'sync.pause': spec({ input: zNone, output: zSyncStatus, mutates: ['sync'] }),
  'sync.resume': spec({ input: zNone, output: zSyncStatus, mutates: ['sync'] }),

  /** Fiscal invoices not yet accepted by ANAF whose 5-working-day upload deadline is near, today or past. */
  'efactura.deadlines': spec({ input: zNone, output: z.object({ today: z.string(), items: z.array(zEfacturaDeadline) }) }),
  /** What waits to be synced, what failed and why. Default: everything not done, oldest first. */
  'outbox.list': spec({
    input: z.object({ states: z.array(z.enum(OUTBOX_STATES)).optional(), ...zPage }).optional(),
    output: z.object({ items: z.array(zOutboxItem), total: z.number().int(), counts: zOutboxCounts }),
  }),
  /** A `failed` item goes back to `pending` and is sent at once. */
  'outbox.retry': spec({ input: zById, output: zOutboxItem, mutates: ['outbox', 'sync'] }),
  /**
   * Drops an item that has not reached the server and undoes its local effect: a new record is
   * removed; an invoice's reserved number is released (a documented gap); an edit is reverted to the
   * server's copy at the next pull. Refused (`has_dependents`) while other items wait for it.
   */
  'outbox.discard': spec({
    input: zById,
    output: z.object({ discarded: z.array(z.string()) }),
    mutates: ['outbox', 'sync', 'invoices', 'clients', 'products', 'receipts', 'series'],
  }),

  'invoices.list': spec({ input: zInvoiceListInput, output: zListOf(zInvoiceSummary) }),
  'invoices.get': spec({ input: zById, output: zInvoiceView }),
  /** Creates (no `id`) or edits (with `id`) a draft. Drafts take no number. */
  'invoices.saveDraft': spec({
    input: zInvoiceDraftInput.extend({ id: zLocalId.optional() }),
    output: zInvoiceView,
    mutates: ['invoices', 'outbox'],
  }),
  /**
   * Issues a new invoice at once, offline or not: it takes the series' next number held by this
   * device (its lock, or its lowest reserved number) and is final locally. Online, a series this
   * device never set up (made elsewhere) first gets reserved numbers (shared mode). Fails with
   * `no_number_available` when the series has neither offline, `series_not_set_up` when it was never
   * set up here and the service cannot be reached, `series_locked` when another device holds it.
   */
  'invoices.issue': spec({
    // An issued invoice names its client, or is a walk-in sale (walk_in: true) that names none.
    // The buyer rule is a schema of its own beside the body's, so a bad line does not hide it: every problem is named at once.
    input: z.intersection(zInvoiceDraftInput.extend({ series_id: z.string(), client_id: zIssueClientId.nullish() }), zIssueBuyer),
    output: zInvoiceView,
    mutates: ['invoices', 'series', 'outbox'],
  }),
  /**
   * The counter's sale: invoice, card payment and chitanță in one transaction, keyed by the cart's
   * id (a second call with the same cart answers the first sale). Refuses a total of 0 or less.
   */
  'counter.sell': spec({ input: zCounterSaleInput, output: zCounterSaleView, mutates: ['invoices', 'receipts', 'series', 'outbox'] }),
  /** The carts kept on this device: the one on the counter and the parked ones. */
  'counter.carts': spec({ input: zNone, output: zCounterCarts }),
  /** Keeps the carts (written at every change of the cart, so a crash loses nothing). */
  'counter.saveCarts': spec({ input: zCounterCarts.omit({ default_payment: true, barcode_rules: true }), output: z.object({ ok: z.literal(true) }) }),
  /** The payment method every new cart starts with (a setting of this counter). */
  'counter.setDefaultPayment': spec({ input: z.object({ method: zPaymentMethodType }), output: zCounterCarts, mutates: ['settings'] }),
  /** The in-store barcode layout of this counter (Settings); null goes back to the default layout. */
  'counter.setBarcodeRules': spec({ input: z.object({ rules: z.array(zWeighedRule).max(10).nullable() }), output: zCounterCarts, mutates: ['settings'] }),
  /** A draft takes its number and becomes final. */
  'invoices.issueDraft': spec({
    input: z.object({ id: zLocalId, series_id: z.string(), issue_date: zDate.optional() }),
    output: zInvoiceView,
    mutates: ['invoices', 'series', 'outbox'],
  }),
  /**
   * Deletes a draft, or discards an issued invoice that has not reached the server: its number is
   * released and becomes a documented gap. An invoice already on the server is voided by storno.
   */
  'invoices.discard': spec({
    input: zById,
    output: z.object({ id: zLocalId, released_full_number: z.string().nullable() }),
    mutates: ['invoices', 'series', 'outbox'],
  }),
  /**
   * An issued proforma becomes a fiscal invoice (its lines, client, currency), numbered at once like
   * `invoices.issue` from `series_id` (a fiscal series this device numbers from).
   */
  'invoices.convert': spec({
    input: z.object({ id: zLocalId, series_id: z.string(), issue_date: zDate.optional() }),
    output: zInvoiceView,
    mutates: ['invoices', 'series', 'outbox'],
  }),
  /**
   * ONLINE. Submits an issued invoice to e-Factura (SPV). Refused (`invalid_state`) while the
   * invoice is still waiting in the outbox: it must reach the server first. `test_mode` omitted
   * follows the invoice's `spv_environment`.
   */
  'invoices.sendToSpv': spec({
    input: z.object({ id: zLocalId, test_mode: z.boolean().optional() }),
    output: zSendToSpvResult,
    mutates: ['invoices'],
    online: true,
  }),

  'payments.list': spec({ input: z.object({ invoice_id: zLocalId }), output: z.object({ items: z.array(zPaymentView) }) }),
  /** A bank transfer, card... payment of an invoice, recorded offline like everything else. */
  'payments.create': spec({ input: zPaymentInput, output: zPaymentView, mutates: ['invoices', 'outbox'] }),

  /** A storno of an issued invoice: its lines negated, numbered from `series_id` (default: the original's). */
  'invoices.storno': spec({
    input: z.object({ id: zLocalId, series_id: z.string().optional(), issue_date: zDate.optional() }),
    output: zInvoiceView,
    mutates: ['invoices', 'series', 'outbox'],
  }),

  'clients.list': spec({
    input: z.object({ search: z.string().max(200).optional(), ...zPage }),
    output: zListOf(zClientView),
  }),
  'clients.get': spec({ input: zById, output: zClientView }),
  /** CUI/CNP/IBAN are checked here as the server will check them, so an offline client does not fail later. */
  'clients.create': spec({ input: zClientInput, output: zClientView, mutates: ['clients', 'outbox'] }),
  'clients.update': spec({
    input: z.object({ id: zLocalId, patch: zClientUpdate }),
    output: zClientView,
    mutates: ['clients', 'outbox'],
  }),
  /** ONLINE. A Romanian company in ANAF's registry by CUI (to fill a new client); null when ANAF does not know it. */
  'clients.lookupCui': spec({ input: z.object({ cui: z.string().trim().min(2).max(20) }), output: zCompanyLookup.nullable(), online: true }),

  'products.list': spec({
    input: z.object({ search: z.string().max(200).optional(), ...zPage }),
    output: zListOf(zProductView),
  }),
  'products.get': spec({ input: zById, output: zProductView }),
  /** The scan lookup: exactly this code or barcode, or null (never a name match). */
  'products.byCode': spec({ input: z.object({ code: z.string().max(200) }), output: zProductView.nullable() }),
  'products.create': spec({ input: zProductInput, output: zProductView, mutates: ['products', 'outbox'] }),
  'products.update': spec({
    input: z.object({ id: zLocalId, patch: zProductPatch }),
    output: zProductView,
    mutates: ['products', 'outbox'],
  }),

  'receipts.list': spec({
    input: z.object({
      search: z.string().max(200).optional(),
      invoice_id: zLocalId.optional(),
      /** One client's chitanțe (the counter adds up the day's cash against the legal ceiling). */
      client_id: zLocalId.optional(),
      from: zDate.optional(),
      to: zDate.optional(),
      ...zPage,
    }),
    output: zListOf(zReceiptView),
  }),
  'receipts.get': spec({ input: zById, output: zReceiptView }),
  /** A cash receipt (chitanță), standalone or paying an invoice; numbered at once under a locked receipt series. */
  'receipts.create': spec({ input: zReceiptInput, output: zReceiptView, mutates: ['receipts', 'invoices', 'outbox'] }),
  'receipts.update': spec({
    input: z.object({ id: zLocalId, patch: zReceiptPatch }),
    output: zReceiptView,
    mutates: ['receipts', 'invoices', 'outbox'],
  }),

  'series.list': spec({ input: zNone, output: z.array(zSeriesView) }),
  /**
   * ONLINE. Takes the series' lock (`exclusive`), starts a reservation pool (`shared`, invoice series
   * only), or stops both (null: the lock is given back, unused reserved numbers are released).
   */
  'series.setMode': spec({ input: zSeriesSetMode, output: zSeriesView, mutates: ['series'], online: true }),
  /** ONLINE. Tops up the reservation pool of a shared series now. */
  'series.refill': spec({ input: zById, output: zSeriesView, mutates: ['series'], online: true }),
  /** ONLINE. The series' gap register (invoice or receipt series): every number that will never be a document, and why. */
  'series.gaps': spec({ input: zById, output: z.array(zGapView), online: true }),

  'catalog.currencies': spec({ input: zNone, output: z.array(zCurrencyView) }),
  'catalog.vatRates': spec({ input: zNone, output: z.array(zVatRateView) }),
  /**
   * The company's work points (GET /work-points), kept locally: answered from the server when it can
   * be reached (`source` 'server'), else from the last copy ('cache'); `offline` only when there is
   * none. `current_id`: the one this device works at (settings.update `work_point_id` changes it).
   */
  'catalog.workPoints': spec({
    input: zNone,
    output: z.object({ items: z.array(zWorkPointView), current_id: z.string().nullable(), source: z.enum(['server', 'cache']) }),
  }),

  'purchases.expenses': spec({
    input: z.object({ from: zDate.optional(), to: zDate.optional(), ...zPage }),
    output: zListOf(zExpenseView),
  }),
  /**
   * ONLINE. Asks the service whether an expense like this one is already recorded (POST
   * /expenses/check-duplicate, every work point of the company): call it before `expenses.create`
   * and show what it finds. null: nothing alike.
   */
  'expenses.checkDuplicate': spec({ input: zExpenseInput, output: z.object({ duplicate: zDuplicateView.nullable() }), online: true }),
  /**
   * Records an expense at once, offline or not, through the outbox (POST /expenses with the item's
   * Idempotency-Key); a supplier named but not in the register is created with it (POST /suppliers).
   */
  'expenses.create': spec({ input: zExpenseInput, output: zExpenseView, mutates: ['purchases', 'outbox'] }),
  /** Marks an expense paid, offline or not (POST /expenses/{id}/pay through the outbox). */
  'expenses.pay': spec({ input: zExpensePayInput, output: zExpenseView, mutates: ['purchases', 'outbox'] }),
  /** The supplier register (GET /suppliers, kept locally), with what is owed on this work point's supplier bills. */
  'purchases.suppliers': spec({
    input: z.object({ search: z.string().max(200).optional(), ...zPage }),
    output: zListOf(zSupplierView),
  }),
  'purchases.supplierBills': spec({
    input: z.object({ unpaid_only: z.boolean().optional(), ...zPage }),
    output: zListOf(zSupplierBillView),
  }),
  /**
   * ONLINE. ANAF's PDF of a supplier bill received through e-Factura (GET
   * /supplier-bills/{id}/efactura-pdf). Electron asks where to save it (`saved`, `path`); the web host
   * cannot write to the user's disk and answers the bytes (`pdf_base64`) for the browser to save.
   */
  'purchases.supplierBillPdf': spec({
    input: zById,
    output: z.object({ saved: z.boolean(), path: z.string().nullable(), file_name: z.string(), pdf_base64: z.string().nullable() }),
    online: true,
  }),

  /** Counter overview for `date` (default today in Bucharest). */
  'dashboard.summary': spec({ input: z.object({ date: zDate.optional() }).optional(), output: zDashboardSummary }),

  /**
   * Electron only: renders `html` (the renderer's print template; no script runs, no remote content
   * loads) with `webContents.printToPDF` and asks where to save it. `saved` false: the user cancelled.
   * The web host answers `not_supported_in_host`: print from the browser instead.
   */
  'documents.savePdf': spec({
    input: z.object({
      html: z.string().min(1).max(5_000_000),
      file_name: z.string().min(1).max(200).regex(/^[^/\\:*?"<>|]+\.pdf$/i, 'A file name ending in .pdf|Un nume de fișier .pdf'),
    }),
    output: z.object({ saved: z.boolean(), path: z.string().nullable() }),
  }),

  ...importChannels,
  ...seriesAdminContract,
  ...setupContract,
  ...accountingContract,
  ...stockContract,
} as const satisfies { [C in ChannelName]: ChannelSpec };

export const zSyncProgress = z.object({
  phase: z.enum(['push', 'pull', 'numbers']),
  /** For `pull`: the resource being read (`invoices`, `clients`...). */
  resource: z.string().nullable(),
  done: z.number().int(),
  /** null when unknown in advance. */
  total: z.number().int().nullable(),
});

export const events = {
  /** Mode or counters changed (online/offline, a pass started or ended). */
  'sync.status': zSyncStatus,
  /** During a pass. */
  'sync.progress': zSyncProgress,
  /** An outbox item changed state. */
  'outbox.changed': zOutboxCounts,
  /** Data changed without a call from this window (sync, another window): invalidate these domains. */
  'data.changed': z.object({ domains: z.array(zDomain) }),
} as const satisfies { [E in EventName]: z.ZodType };

export type Contract = typeof contract;
export type ChannelInput<C extends ChannelName> = z.input<Contract[C]['input']>;
export type ChannelParsedInput<C extends ChannelName> = z.output<Contract[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Contract[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;
export type IpcReply<C extends ChannelName> = { ok: true; value: ChannelOutput<C> } | { ok: false; error: IpcError };

// Compile-time proof that the maps have no key beyond the plain name lists.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const contractKeysMatch: Exact<keyof Contract, ChannelName> = true;
export const eventKeysMatch: Exact<keyof typeof events, EventName> = true;
