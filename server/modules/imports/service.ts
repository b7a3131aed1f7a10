import { createHash } from 'node:crypto';
import type { zImportDefaults} from '../../../shared/schemas/import';
import {
  IMPORT_MAX_FILE_BYTES, type ImportKind, type ImportView
} from '../../../shared/schemas/import';
import type { Db } from '../../db/types';
import { isUniqueViolation } from '../../platform/db-errors';
import { ApiError, conflict, notFound, validationFailed } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { Locale } from '../../platform/locale';
import { pickLanguage } from '../../platform/zod-fields';
import { allowedVatRates } from '../catalog/lookups';
import type { ClientsTable, ProductsTable } from '../catalog/tables';
import { createdOn } from '../catalog/common';
import { cellText } from './cell-values';
import { clientChanged, clientPreview, clientRow, evaluateClients, indexClients, type ClientCandidate } from './client-rows';
import { MAX_ROWS, MAX_UNPACKED_BYTES, readSpreadsheet, UnreadableFile, type Grid, type GridRow } from './file-reader';
import { isKnownHeader, proposeMapping, targetsOf } from './mapping';
import { evaluateProducts, indexProducts, productChanged, productPreview, productRow, type ProductCandidate } from './product-rows';
import type { EvaluatedRow, Mapping } from './rows';
import type { ImportsTable } from './tables';
import type { z } from 'zod';

export type Defaults = z.output<typeof zImportDefaults>;

const PREVIEW_ROWS = 20;
const SAMPLES = 3;
/** An upload nobody committed is kept this long (seconds), then dropped at the firm's next upload. */
export const PENDING_RETENTION_SECONDS = 24 * 3600;
const INSERT_BATCH = 200;

/** Upload body members, already validated by the route. */
export interface UploadInput {
  content: string;
  format?: 'csv' | 'xlsx' | undefined;
  file_name?: string | undefined;
}

const MIB = 1024 * 1024;

export function fileTooLarge(bytes: number): ApiError {
  return new ApiError(413, 'invalid_request_error', 'import_file_too_large', {
    param: 'content',
    vars: { size_mb: Math.max(1, Math.round(bytes / MIB)), limit_mb: IMPORT_MAX_FILE_BYTES / MIB },
  });
}

function unreadable(error: UnreadableFile): ApiError {
  switch (error.reason) {
    case 'xls_legacy':
      return new ApiError(422, 'invalid_request_error', 'import_xls_legacy', { param: 'content' });
    case 'empty':
      return new ApiError(422, 'invalid_request_error', 'import_empty', { param: 'content' });
    case 'too_many_rows':
      return new ApiError(422, 'invalid_request_error', 'import_too_many_rows', { param: 'content', vars: { max: MAX_ROWS } });
    case 'workbook_too_large':
      return new ApiError(422, 'invalid_request_error', 'import_workbook_too_large', { param: 'content', vars: { max_mb: MAX_UNPACKED_BYTES / MIB } });
    case 'csv_malformed':
      return new ApiError(422, 'invalid_request_error', 'import_csv_malformed', { param: 'content', vars: { line: error.detail.line ?? 0 } });
    default:
      return new ApiError(422, 'invalid_request_error', 'import_not_spreadsheet', { param: 'content' });
  }
}

/** The file's bytes from base64 (a `data:` URL prefix is tolerated: it is what browsers hand over). */
function decodeContent(content: string): Buffer {
  const body = content.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (body.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) {
    throw validationFailed({ content: 'Not base64 text|Nu este text base64' });
  }
  // Checked before decoding: base64 is 4 characters per 3 bytes.
  if (Math.floor((body.length * 3) / 4) > IMPORT_MAX_FILE_BYTES + 2) throw fileTooLarge(Math.floor((body.length * 3) / 4));
  return Buffer.from(body, 'base64');
}

interface Stored {
  headers: string[];
  rows: GridRow[];
}

function gridOf(row: ImportsTable): Grid | null {
  if (row.grid_json === null) return null;
  const stored = JSON.parse(row.grid_json) as Stored;
  return {
    format: row.format, encoding: row.encoding as Grid['encoding'], delimiter: row.delimiter as Grid['delimiter'],
    sheet: row.sheet, headerRow: row.header_row, headers: stored.headers, rows: stored.rows,
  };
}

interface ColumnInfo {
  index: number;
  header: string;
  samples: string[];
}

function columnsOf(grid: Grid): ColumnInfo[] {
  return grid.headers.map((header, index) => {
    const samples: string[] = [];
    for (const r of grid.rows) {
      const text = cellText(r.cells[index] ?? null);
      if (text !== null) samples.push(text.length > 60 ? `${text.slice(0, 57)}…` : text);
      if (samples.length >= SAMPLES) break;
    }
    return { index, header, samples };
  });
}

/** A mapping the kind understands, pointing at columns the file has; else 422 naming the member. */
export function checkMapping(kind: ImportKind, mapping: Mapping, width: number): Mapping {
  const targets = new Set(targetsOf(kind));
  const fields: Record<string, string> = {};
  const clean: Mapping = {};
  for (const [target, index] of Object.entries(mapping)) {
    if (!targets.has(target)) {
      fields[`mapping.${target}`] = `Not a member of a ${kind === 'products' ? 'product' : 'client'} (${[...targets].join(', ')})|Nu este un câmp al ${kind === 'products' ? 'produsului' : 'clientului'} (${[...targets].join(', ')})`;
    } else if (index !== null && index >= width) {
      fields[`mapping.${target}`] = `The file has ${width} columns (0 to ${width - 1})|Fișierul are ${width} coloane (de la 0 la ${width - 1})`;
    } else if (index !== null) {
      clean[target] = index;
    }
  }
  if (Object.keys(fields).length) throw validationFailed(fields);
  return clean;
}

type Evaluated = EvaluatedRow<ProductCandidate, ProductsTable> | EvaluatedRow<ClientCandidate, ClientsTable>;

interface Evaluation {
  kind: ImportKind;
  rows: Evaluated[];
}

/** Every row read against the firm's catalogue as it is in `db` (a transaction, at commit). */
async function evaluate(db: Db, companyId: string, kind: ImportKind, grid: Grid, mapping: Mapping, defaults: Defaults, now: number): Promise<Evaluation> {
  if (kind === 'products') {
    const [rates, currencies, products] = await Promise.all([
      allowedVatRates(db, companyId),
      db.selectFrom('currencies').select('code').where('company_id', '=', companyId).execute(),
      db.selectFrom('products').selectAll().where('company_id', '=', companyId).execute(),
    ]);
    const enabled = new Set(['RON', ...currencies.map((c) => c.code)]);
    const fields: Record<string, string> = {};
    if (defaults.vat_rate !== undefined && !rates.some((r) => Math.abs(r - defaults.vat_rate!) < 1e-9)) {
      fields['defaults.vat_rate'] = `Not a VAT rate of the firm (${rates.join(', ')})|Nu este o cotă de TVA a firmei (${rates.join(', ')})`;
    }
    if (defaults.currency !== undefined && !enabled.has(defaults.currency)) {
      fields['defaults.currency'] = 'Currency not enabled for the firm|Moneda nu este activată pentru firmă';
    }
    if (Object.keys(fields).length) throw validationFailed(fields);
    return {
      kind,
      rows: evaluateProducts(grid, mapping, { allowedRates: rates, enabledCurrencies: enabled, ...indexProducts(products), defaults }),
    };
  }
  const clients = await db.selectFrom('clients').selectAll().where('company_id', '=', companyId).where('is_deleted', '=', 0).execute();
  return { kind, rows: evaluateClients(grid, mapping, { today: createdOn(now), defaults, ...indexClients(clients) }) };
}

function previewOf(kind: ImportKind, r: Evaluated, grid: Grid, mapping: Mapping, now: number): ImportView['preview'][number] {
  if (!r.candidate) {
    // As the file says it, per target: what the user needs to find the row.
    const values: Record<string, string | number | null> = {};
    const gridRow = grid.rows.find((g) => g.row === r.row);
    for (const [target, index] of Object.entries(mapping)) {
      if (index === null) continue;
      const cell = gridRow?.cells[index] ?? null;
      // Numbers stay numbers (an XLSX price), for the client to show in its own format.
      values[target] = typeof cell === 'number' && !['code', 'barcode', 'cui', 'cnp', 'phone'].includes(target) ? cell : cellText(cell);
    }
    return { row: r.row, status: 'invalid', values };
  }
  const fresh = { id: 'preview', companyId: '', now, createdOn: createdOn(now) };
  const values =
    kind === 'products'
      ? productPreview(null, productRow(r.candidate as ProductCandidate, r.match as ProductsTable | null, fresh))
      : clientPreview(clientRow(r.candidate as ClientCandidate, r.match as ClientsTable | null, fresh));
  return { row: r.row, status: r.match ? 'existing' : 'new', values };
}

function countsOf(rows: readonly Evaluated[]): ImportView['counts'] {
  let valid = 0;
  let existing = 0;
  for (const r of rows) {
    if (!r.candidate) continue;
    valid += 1;
    if (r.match) existing += 1;
  }
  return { rows: rows.length, valid, invalid: rows.length - valid, new: valid - existing, existing };
}

async function previouslyImported(db: Db, row: ImportsTable): Promise<ImportView['previously_imported']> {
  const earlier = await db
    .selectFrom('imports')
    .select(['id', 'committed_at'])
    .where('company_id', '=', row.company_id)
    .where('kind', '=', row.kind)
    .where('file_sha256', '=', row.file_sha256)
    .where('status', '=', 'committed')
    .where('id', '!=', row.id)
    .orderBy('committed_at', 'desc')
    .executeTakeFirst();
  return earlier ? { import_id: earlier.id, committed_at: Number(earlier.committed_at) } : null;
}

interface StoredResult {
  result: NonNullable<ImportView['result']>;
  counts: ImportView['counts'];
}

function baseView(row: ImportsTable): Omit<ImportView, 'preview' | 'errors' | 'counts' | 'previously_imported' | 'result'> {
  return {
    id: row.id,
    object: 'import',
    kind: row.kind,
    status: row.status,
    file_name: row.file_name,
    format: row.format,
    encoding: row.encoding,
    delimiter: row.delimiter,
    sheet: row.sheet,
    file_size: Number(row.file_size),
    file_sha256: row.file_sha256,
    header_row: row.header_row,
    columns: JSON.parse(row.columns_json) as ColumnInfo[],
    mapping: JSON.parse(row.mapping_json) as Mapping,
    defaults: JSON.parse(row.defaults_json) as Defaults,
    created_at: Number(row.created_at),
    committed_at: row.committed_at === null ? null : Number(row.committed_at),
  };
}

/** The import as the API shows it: for a pending one, every row read under its current mapping. */
export async function viewOf(db: Db, row: ImportsTable, locale: Locale, now: number, evaluation?: Evaluation): Promise<ImportView> {
  const previously = await previouslyImported(db, row);
  const grid = gridOf(row);
  if (row.status === 'committed' || grid === null) {
    const stored = row.result_json ? (JSON.parse(row.result_json) as StoredResult) : null;
    return {
      ...baseView(row),
      preview: [],
      errors: [],
      counts: stored?.counts ?? { rows: 0, valid: 0, invalid: 0, new: 0, existing: 0 },
      previously_imported: previously,
      result: stored?.result ?? null,
    };
  }
  const mapping = JSON.parse(row.mapping_json) as Mapping;
  const defaults = JSON.parse(row.defaults_json) as Defaults;
  const evaluated = evaluation ?? (await evaluate(db, row.company_id, row.kind, grid, mapping, defaults, now));
  const errors: ImportView['errors'] = [];
  for (const r of evaluated.rows) {
    for (const p of r.problems) errors.push({ row: r.row, field: p.field, column: p.column, message: pickLanguage(p.message, locale) });
  }
  return {
    ...baseView(row),
    preview: evaluated.rows.slice(0, PREVIEW_ROWS).map((r) => previewOf(row.kind, r, grid, mapping, now)),
    errors,
    counts: countsOf(evaluated.rows),
    previously_imported: previously,
    result: null,
  };
}

/** Reads the upload, keeps its grid and proposes a mapping. Uploads older than a day that nobody committed go. */
export async function createImport(db: Db, companyId: string, kind: ImportKind, input: UploadInput, now: number): Promise<ImportsTable> {
  const bytes = decodeContent(input.content);
  if (bytes.length > IMPORT_MAX_FILE_BYTES) throw fileTooLarge(bytes.length);
  let grid: Grid;
  try {
    grid = await readSpreadsheet(bytes, (text) => isKnownHeader(kind, text));
  } catch (error) {
    if (error instanceof UnreadableFile) throw unreadable(error);
    throw error;
  }
  if (input.format !== undefined && input.format !== grid.format) {
    throw validationFailed({
      format: `The file is ${grid.format.toUpperCase()}, not ${input.format.toUpperCase()}|Fișierul este ${grid.format.toUpperCase()}, nu ${input.format.toUpperCase()}`,
    });
  }
  await db
    .deleteFrom('imports')
    .where('company_id', '=', companyId)
    .where('status', '=', 'pending')
    .where('created_at', '<', now - PENDING_RETENTION_SECONDS)
    .execute();
  const row: ImportsTable = {
    id: newId('imp'),
    company_id: companyId,
    kind,
    status: 'pending',
    file_name: input.file_name ?? null,
    format: grid.format,
    encoding: grid.encoding,
    delimiter: grid.delimiter,
    sheet: grid.sheet,
    file_size: bytes.length,
    file_sha256: createHash('sha256').update(bytes).digest('hex'),
    header_row: grid.headerRow,
    columns_json: JSON.stringify(columnsOf(grid)),
    grid_json: JSON.stringify({ headers: grid.headers, rows: grid.rows } satisfies Stored),
    mapping_json: JSON.stringify(proposeMapping(kind, grid.headers)),
    defaults_json: '{}',
    result_json: null,
    created_at: now,
    committed_at: null,
  };
  await db.insertInto('imports').values(row).execute();
  return row;
}

export async function findImport(db: Db, companyId: string, kind: ImportKind, id: string): Promise<ImportsTable> {
  const row = await db
    .selectFrom('imports')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('id');
  return row;
}

/** A new mapping for a pending import: checked, kept, and the rows read under it. */
export async function remap(db: Db, row: ImportsTable, mapping: Mapping, defaults: Defaults | undefined, locale: Locale, now: number): Promise<ImportView> {
  if (row.status === 'committed') throw conflict('import_already_committed', 'id');
  const grid = gridOf(row)!;
  const clean = checkMapping(row.kind, mapping, grid.headers.length);
  const next = { ...row, mapping_json: JSON.stringify(clean), defaults_json: JSON.stringify(defaults ?? JSON.parse(row.defaults_json)) };
  const evaluation = await evaluate(db, row.company_id, row.kind, grid, clean, JSON.parse(next.defaults_json) as Defaults, now);
  await db
    .updateTable('imports')
    .set({ mapping_json: next.mapping_json, defaults_json: next.defaults_json })
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .execute();
  return viewOf(db, next, locale, now, evaluation);
}

export interface CommitOptions {
  mapping?: Mapping | undefined;
  defaults?: Defaults | undefined;
  existing: 'update' | 'skip';
}

/** 422 naming every bad row (`rows.<n>.<member>`), the count in the message. */
function rowsInvalid(rows: readonly Evaluated[], locale: Locale): ApiError {
  const fields: Record<string, string> = {};
  let count = 0;
  for (const r of rows) {
    if (!r.problems.length) continue;
    count += 1;
    for (const p of r.problems) {
      const key = `rows.${r.row}.${p.field ?? 'row'}`;
      fields[key] ??= pickLanguage(p.message, locale);
    }
  }
  return new ApiError(422, 'validation_error', 'import_rows_invalid', { fields, param: Object.keys(fields)[0], vars: { count } });
}

/**
 * Writes every row of the import in one transaction, or none: a row with a problem, a code taken by
 * someone else meanwhile, any failure rolls everything back. Rows matching an existing record update
 * it (only with what the file says) or are skipped. `replayed`: the import was already committed with
 * this very mapping, and its first result is answered.
 */
export async function commit(
  db: Db,
  row: ImportsTable,
  options: CommitOptions,
  locale: Locale,
  now: number,
): Promise<{ view: ImportView; replayed: boolean }> {
  const mappingJson = options.mapping ? JSON.stringify(checkMapping(row.kind, options.mapping, JSON.parse(row.columns_json).length)) : row.mapping_json;
  const defaultsJson = options.defaults ? JSON.stringify(options.defaults) : row.defaults_json;
  if (row.status === 'committed') {
    if (mappingJson === row.mapping_json && defaultsJson === row.defaults_json) return { view: await viewOf(db, row, locale, now), replayed: true };
    throw conflict('import_already_committed', 'id');
  }
  const grid = gridOf(row)!;
  const mapping = JSON.parse(mappingJson) as Mapping;
  const defaults = JSON.parse(defaultsJson) as Defaults;
  const today = createdOn(now);
  try {
    const outcome = await db.transaction().execute(async (trx) => {
      // Claimed first: of two commits of one import, the second finds it taken (and waits for the row lock on PostgreSQL).
      const claimed = await trx
        .updateTable('imports')
        .set({ status: 'committed', committed_at: now, mapping_json: mappingJson, defaults_json: defaultsJson })
        .where('company_id', '=', row.company_id)
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return null;
      const evaluation = await evaluate(trx, row.company_id, row.kind, grid, mapping, defaults, now);
      if (evaluation.rows.some((r) => r.problems.length)) throw rowsInvalid(evaluation.rows, locale);
      const result = { created: 0, updated: 0, unchanged: 0, skipped: 0 };
      const table = row.kind === 'products' ? 'products' : 'clients';
      const inserts: Array<ProductsTable | ClientsTable> = [];
      for (const r of evaluation.rows) {
        const fresh = { id: newId(row.kind === 'products' ? 'prod' : 'cli'), companyId: row.company_id, now, createdOn: today };
        const made =
          row.kind === 'products'
            ? productRow(r.candidate as ProductCandidate, r.match as ProductsTable | null, fresh)
            : clientRow(r.candidate as ClientCandidate, r.match as ClientsTable | null, fresh);
        if (!r.match) {
          inserts.push(made);
          continue;
        }
        if (options.existing === 'skip') {
          result.skipped += 1;
          continue;
        }
        const changed =
          row.kind === 'products'
            ? productChanged(r.match as ProductsTable, made as ProductsTable)
            : clientChanged(r.match as ClientsTable, made as ClientsTable);
        if (!changed) {
          result.unchanged += 1;
          continue;
        }
        // Every write of a record moves updated_at: the desktop pulls what changed since its cursor.
        const { id, company_id: _c, created_at: _a, created_on: _o, ...changes } = made;
        await trx.updateTable(table).set({ ...changes, updated_at: now }).where('company_id', '=', row.company_id).where('id', '=', id).execute();
        result.updated += 1;
      }
      for (let i = 0; i < inserts.length; i += INSERT_BATCH) {
        const batch = inserts.slice(i, i + INSERT_BATCH);
        if (row.kind === 'products') await trx.insertInto('products').values(batch as ProductsTable[]).execute();
        else await trx.insertInto('clients').values(batch as ClientsTable[]).execute();
      }
      result.created = inserts.length;
      const stored: StoredResult = { result, counts: countsOf(evaluation.rows) };
      await trx
        .updateTable('imports')
        .set({ result_json: JSON.stringify(stored), grid_json: null })
        .where('company_id', '=', row.company_id)
        .where('id', '=', row.id)
        .execute();
      return stored;
    });
    if (outcome === null) {
      // Committed by a concurrent request in between: answer like a repeat of it.
      return commit(db, await findImport(db, row.company_id, row.kind, row.id), options, locale, now);
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('import_conflict');
    throw error;
  }
  const done = await findImport(db, row.company_id, row.kind, row.id);
  return { view: await viewOf(db, done, locale, now), replayed: false };
}
