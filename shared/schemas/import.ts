import { z } from 'zod';
import { zId, zTimestamp, zVatPercent } from './common';

/**
 * Import of products or clients from a CSV or XLSX file (our design; the contract has no imports).
 * Upload → preview with a proposed mapping → commit with the confirmed mapping, all or nothing.
 * See docs/api-decisions.md, "Imports".
 */

export const IMPORT_KINDS = ['products', 'clients'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** What a column of the file can fill in a product. `barcode` fills `code` when no code column is mapped. */
export const PRODUCT_TARGETS = ['name', 'code', 'barcode', 'unit', 'price', 'price_with_vat', 'vat_rate', 'currency', 'is_service'] as const;
/** What a column can fill in a client. A 13-digit valid CNP in the `cui` column makes the row a person. */
export const CLIENT_TARGETS = [
  'name', 'cui', 'cnp', 'reg_com', 'vat_payer', 'address', 'city', 'county', 'country', 'postal_code', 'email', 'phone', 'iban', 'bank', 'notes',
] as const;
export type ProductTarget = (typeof PRODUCT_TARGETS)[number];
export type ClientTarget = (typeof CLIENT_TARGETS)[number];

/** Largest file an import takes (decoded bytes). */
export const IMPORT_MAX_FILE_BYTES = 20 * 1024 * 1024;

const zColumnIndex = z.number().int().min(0).max(199);

/** target → 0-based column index of the file (or null: not imported). */
export const zProductMapping = z.partialRecord(z.enum(PRODUCT_TARGETS), zColumnIndex.nullable());
export const zClientMapping = z.partialRecord(z.enum(CLIENT_TARGETS), zColumnIndex.nullable());
export const zImportMapping = z.record(z.string(), zColumnIndex.nullable());

/** Values for new rows whose cell (or column) is empty. */
export const zImportDefaults = z
  .object({
    vat_rate: zVatPercent.optional(),
    unit: z.string().trim().min(1).max(20).optional(),
    currency: z.string().regex(/^[A-Z]{3}$/, 'A three-letter ISO 4217 code|Un cod ISO 4217 de trei litere').optional(),
    country: z.string().regex(/^[A-Z]{2}$/, 'A two-letter ISO 3166 country code|Un cod de țară ISO 3166 din două litere').optional(),
  })
  .strict();

export const EXISTING_POLICIES = ['update', 'skip'] as const;

export const zImportUpload = z.object({
  /** The file's bytes, base64 (the contract's bodies are JSON). At most 20 MiB decoded. */
  content: z.string().min(1),
  /** `csv` or `xlsx`; the bytes decide when omitted, and a contradiction is a 422. */
  format: z.enum(['csv', 'xlsx']).optional(),
  file_name: z.string().trim().min(1).max(255).optional(),
});

export const zImportColumn = z.object({
  index: z.number().int(),
  header: z.string(),
  /** First non-empty values of the column, as text. */
  samples: z.array(z.string()),
});

export const zImportRowError = z.object({
  /** The row number as Excel shows it (the header row is counted). */
  row: z.number().int(),
  /** The target (`price`, `cui`…), or null for the row as a whole. */
  field: z.string().nullable(),
  /** The file's header of that column, when the error is about one. */
  column: z.string().nullable(),
  message: z.string(),
});

export const zImportPreviewRow = z.object({
  row: z.number().int(),
  /** `new`, `existing` (matched by code / CUI / CNP / name), or `invalid`. */
  status: z.enum(['new', 'existing', 'invalid']),
  /** The record as it would be written, in wire form (prices in lei). */
  values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});

export const zImportCounts = z.object({
  rows: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  new: z.number().int(),
  existing: z.number().int(),
});

export const zImportResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
});

export const zImport = z.object({
  id: zId,
  object: z.literal('import'),
  kind: z.enum(IMPORT_KINDS),
  status: z.enum(['pending', 'committed']),
  file_name: z.string().nullable(),
  format: z.enum(['csv', 'xlsx']),
  encoding: z.string().nullable(),
  delimiter: z.string().nullable(),
  sheet: z.string().nullable(),
  file_size: z.number().int(),
  file_sha256: z.string(),
  header_row: z.number().int(),
  columns: z.array(zImportColumn),
  mapping: zImportMapping,
  defaults: zImportDefaults,
  /** First rows as they would be written (at most 20). */
  preview: z.array(zImportPreviewRow),
  /** Every problem of every row; a commit needs none. */
  errors: z.array(zImportRowError),
  counts: zImportCounts,
  /** The same file (same bytes, same kind) was already imported by this firm. */
  previously_imported: z.object({ import_id: z.string(), committed_at: zTimestamp }).nullable(),
  result: zImportResult.nullable(),
  created_at: zTimestamp,
  committed_at: zTimestamp.nullable(),
});
export type ImportView = z.infer<typeof zImport>;

export const zImportPreviewBody = z.object({
  mapping: zImportMapping,
  defaults: zImportDefaults.optional(),
});

export const zImportCommitBody = z.object({
  /** The confirmed mapping; omitted: the one last previewed (or proposed). */
  mapping: zImportMapping.optional(),
  defaults: zImportDefaults.optional(),
  /** What a row matching an existing record does: `update` it (default) or `skip` it. */
  existing: z.enum(EXISTING_POLICIES).default('update'),
});
