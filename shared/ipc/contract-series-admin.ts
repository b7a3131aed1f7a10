import { z } from 'zod';
import { zBankAccount, zBankAccountCreate } from '../schemas/bank-account';
import { DOCUMENT_TYPES } from '../schemas/series';
import { zSeriesView, type ChannelSpec } from './contract';

/**
 * Series administration and the setup wizard (issue 12). Every channel here talks to the service
 * except `setup.*`, which keeps this device's own choices (the wizard's progress, the printer layout,
 * the logo) in the local settings.
 */

/** A series name as the service accepts it; a receipt prefix has no dashes. */
const zInvoiceSeriesName = z.string().trim().min(1, 'Required|Obligatoriu').max(20, 'At most 20 characters|Cel mult 20 de caractere')
  .regex(/^[A-Za-z0-9-]+$/, 'Letters, digits and dashes only|Doar litere, cifre și cratime');
const zReceiptPrefix = z.string().trim().min(1, 'Required|Obligatoriu').max(20, 'At most 20 characters|Cel mult 20 de caractere')
  .regex(/^[A-Za-z0-9]+$/, 'Letters and digits only|Doar litere și cifre');
const zStartNumber = z.number().int('A whole number|Un număr întreg').min(1, 'At least 1|Cel puțin 1').max(999_999_999, 'At most 999999999|Cel mult 999999999');

export const zSeriesCreateInput = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('invoice'),
    name: zInvoiceSeriesName,
    document_type: z.enum(DOCUMENT_TYPES).default('fiscal'),
    description: z.string().trim().max(200).default(''),
    start_number: zStartNumber.default(1),
    is_primary: z.boolean().default(false),
  }),
  z.object({
    kind: z.literal('receipt'),
    name: zReceiptPrefix,
    description: z.string().trim().max(200).default(''),
    start_number: zStartNumber.default(1),
  }),
]);

export const zSeriesUpdateInput = z.object({
  id: z.string(),
  name: z.string().trim().min(1).max(20).optional(),
  description: z.string().trim().max(200).optional(),
  /** Refused once a number was taken (the service's `in_use`); below the last issued, refused here first. */
  start_number: zStartNumber.optional(),
});

/** Printer layout of this device: A4 sheets, or an 80 mm thermal roll. */
export const zPrintLayout = z.enum(['a4', '80mm']);
export type PrintLayout = z.infer<typeof zPrintLayout>;

export const SETUP_STEPS = ['bank', 'capital', 'logo', 'invoiceSeries', 'receiptSeries', 'counter', 'printer'] as const;
export const zSetupStep = z.enum(SETUP_STEPS);
export type SetupStep = z.infer<typeof zSetupStep>;

/** A logo as a data URL: PNG, JPEG or WebP, at most 256 KB once encoded (it travels with every print). */
export const LOGO_MAX_CHARS = 350_000;
export const zLogo = z.string().max(LOGO_MAX_CHARS, 'The image is too large (at most 256 KB)|Imaginea este prea mare (cel mult 256 KB)')
  .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/, 'A PNG, JPEG or WebP image|O imagine PNG, JPEG sau WebP');

export const zSetupState = z.object({
  /** The wizard is over (or was never needed: an install upgraded with a working service and data). */
  onboarding_done: z.boolean(),
  /** Where `onboarding_done` comes from: written by the wizard, or inferred for an install that predates it. */
  source: z.enum(['stored', 'inferred']),
  /** Steps already saved, in any order (the wizard resumes at the first one missing). */
  completed: z.array(zSetupStep),
  /** What the wizard created, so a resumed wizard edits instead of creating twice. */
  invoice_series_id: z.string().nullable(),
  receipt_series_id: z.string().nullable(),
  print_layout: zPrintLayout,
  logo: z.string().nullable(),
});
export type SetupState = z.infer<typeof zSetupState>;

export const zSetupUpdate = z.object({
  onboarding_done: z.boolean().optional(),
  completed: z.array(zSetupStep).optional(),
  invoice_series_id: z.string().nullable().optional(),
  receipt_series_id: z.string().nullable().optional(),
  print_layout: zPrintLayout.optional(),
  logo: zLogo.nullable().optional(),
});

// contract.ts spreads this map while it is still being evaluated: its schemas are reached lazily.
const zSeriesViewLater = z.lazy(() => zSeriesView);

const spec = <I extends z.ZodType, O extends z.ZodType>(s: ChannelSpec<I, O>) => s;
const zNone = z.object({}).strict().optional();

export const seriesAdminContract = {
  /**
   * ONLINE. Creates an invoice series (POST /invoice-series, format `{name}-{year}-{number:4}`) or a
   * receipt series (POST /receipt-series) and keeps its copy. A name already used by the company
   * answers `duplicate_series` (409) with `fields.name`.
   */
  'series.create': spec({ input: zSeriesCreateInput, output: zSeriesViewLater, mutates: ['series'], online: true }),
  /**
   * ONLINE. Renames, describes, or moves the start of a series. A start below the last number issued
   * is refused here (`fields.start_number`); once a number was taken the service refuses any new
   * start (`in_use`).
   */
  'series.update': spec({ input: zSeriesUpdateInput, output: zSeriesViewLater, mutates: ['series'], online: true }),
  /** ONLINE. The series new invoices of its type use by default at this work point. */
  'series.setPrimary': spec({ input: z.object({ id: z.string() }), output: zSeriesViewLater, mutates: ['series'], online: true }),
  /** ONLINE. The firm's bank accounts (GET /bank-accounts). */
  'bankAccounts.list': spec({ input: zNone, output: z.array(zBankAccount), online: true }),
  /** ONLINE. A bank account printed on invoices; the first of its currency becomes the default. */
  'bankAccounts.create': spec({ input: zBankAccountCreate, output: zBankAccount, mutates: ['settings'], online: true }),
  /** The setup wizard's progress and this device's print choices (local, works offline). */
  'setup.get': spec({ input: zNone, output: zSetupState }),
  'setup.update': spec({ input: zSetupUpdate, output: zSetupState, mutates: ['settings'] }),
} as const;

export type SeriesAdminChannel = keyof typeof seriesAdminContract;
