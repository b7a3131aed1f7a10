import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { unzipSync } from 'fflate';

/**
 * Reads an uploaded spreadsheet (CSV or XLSX, as SmartBill, Oblio, Saga and Excel export them) into a
 * grid of cells. Parsing is the libraries' (csv-parse, exceljs); what is ours is only what they leave
 * to the caller: which format the bytes are, which encoding and delimiter a CSV uses, and turning
 * Excel's cell objects into plain values.
 */

/** A cell as the mapping reads it. Numbers stay numbers (an XLSX price 12.99 is unambiguous, its text is not). */
export type Cell = string | number | boolean | null;

export interface GridRow {
  /** The row number a user sees in Excel (1-based, the header row included). */
  row: number;
  cells: Cell[];
}

export interface Grid {
  format: 'csv' | 'xlsx';
  encoding: 'utf-8' | 'windows-1250' | 'utf-16le' | null;
  delimiter: ';' | ',' | '\t' | null;
  sheet: string | null;
  headerRow: number;
  headers: string[];
  rows: GridRow[];
}

/** Why a file cannot be read at all; the route turns it into a Romanian/English message. */
export class UnreadableFile extends Error {
  constructor(
    readonly reason: 'not_spreadsheet' | 'xls_legacy' | 'empty' | 'too_many_rows' | 'csv_malformed' | 'workbook_too_large',
    readonly detail: Record<string, string | number> = {},
  ) {
    super(reason);
    this.name = 'UnreadableFile';
  }
}

export const MAX_ROWS = 100_000;
/**
 * What a workbook may unpack to. 100,000 rows of a catalogue are about 30 MiB of sheet XML; a zip that
 * unpacks to far more (a zip bomb, a sheet of millions of rows) is refused before exceljs reads it.
 */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;
/** Columns beyond this are not read: no catalogue export has more, and a runaway row costs memory. */
const MAX_COLUMNS = 200;

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

export function sniffFormat(bytes: Uint8Array): 'xlsx' | 'xls' | 'other-binary' | 'text' {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) return 'xls';
  // UTF-16 text has NULs; its BOM says so first.
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return 'text';
  const head = bytes.subarray(0, 8192);
  let control = 0;
  for (const b of head) {
    if (b === 0) return 'other-binary';
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) control += 1;
  }
  return control > head.length / 100 ? 'other-binary' : 'text';
}

/**
 * The text of a CSV: a BOM decides; else valid UTF-8 is UTF-8; else Windows-1250 (Central European
 * ANSI), what Romanian Windows and Saga write. ş/ţ with a cedilla (the only ones Windows-1250 has)
 * become the correct ș/ț with a comma below.
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: Grid['encoding'] } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { text: buffer.subarray(3).toString('utf8'), encoding: 'utf-8' };
  if (startsWith(bytes, [0xff, 0xfe])) return { text: iconv.decode(buffer.subarray(2), 'utf16le'), encoding: 'utf-16le' };
  if (startsWith(bytes, [0xfe, 0xff])) return { text: iconv.decode(buffer.subarray(2), 'utf16be'), encoding: 'utf-16le' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: iconv.decode(buffer, 'windows-1250'), encoding: 'windows-1250' };
  }
}

/** Cedilla ş/ţ (legacy encodings) to the comma-below letters Romanian uses. */
export function romanianLetters(text: string): string {
  return text.replace(/[şŞţŢ]/g, (c) => ({ ş: 'ș', Ş: 'Ș', ţ: 'ț', Ţ: 'Ț' })[c]!);
}

/**
 * `;` (Romanian Excel, whose decimal comma takes `,`), `,` or tab: the one that splits the first
 * lines into the same, largest number of fields, counted outside quotes.
 */
export function detectDelimiter(text: string): ';' | ',' | '\t' {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() !== '') lines.push(line);
    if (lines.length >= 10) break;
  }
  let best: ';' | ',' | '\t' = ',';
  let bestScore = -1;
  for (const d of [';', '\t', ','] as const) {
    const counts = lines.map((line) => countOutsideQuotes(line, d));
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const consistent = counts.filter((c) => c === first).length;
    // Consistency across lines first, then the number of fields: `1,5` inside `;` rows is not a column.
    const score = consistent * 1000 + first;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let inQuotes = false;
  let count = 0;
  for (const ch of line) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (ch === delimiter && !inQuotes) count += 1;
  }
  return count;
}

function parseCsv(bytes: Uint8Array): Omit<Grid, 'headerRow' | 'headers' | 'rows'> & { raw: GridRow[] } {
  const { text, encoding } = decodeText(bytes);
  const delimiter = detectDelimiter(text);
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
      info: true,
      to: MAX_ROWS + 50,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new UnreadableFile('csv_malformed', { line: typeof line === 'number' ? line : 0 });
  }
  if (records.length >= MAX_ROWS + 50) throw new UnreadableFile('too_many_rows', { max: MAX_ROWS });
  const raw = records.map((r, i) => ({
    row: i + 1,
    cells: r.record.slice(0, MAX_COLUMNS).map((c) => romanianLetters(c.trim())),
  }));
  return { format: 'csv', encoding, delimiter, sheet: null, raw };
}

/** Excel's cell objects (rich text, formulas, links, dates, errors) as plain values. */
export function cellValue(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return romanianLetters(value.trim());
  if (typeof value === 'boolean') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return romanianLetters(value.richText.map((p) => p.text).join('').trim());
    if ('formula' in value || 'sharedFormula' in value) {
      const result = (value as { result?: ExcelJS.CellValue }).result;
      return result === undefined || (typeof result === 'object' && result !== null && 'error' in result) ? null : cellValue(result);
    }
    if ('hyperlink' in value) return cellValue((value as { text: ExcelJS.CellValue }).text);
    if ('error' in value) return null;
  }
  return null;
}

async function parseXlsx(bytes: Uint8Array): Promise<Omit<Grid, 'headerRow' | 'headers' | 'rows'> & { raw: GridRow[] }> {
  let unpacked = 0;
  try {
    // Sizes from the zip's directory only: nothing is inflated here.
    unzipSync(bytes, {
      filter: (file) => {
        unpacked += file.originalSize;
        return false;
      },
    });
  } catch {
    throw new UnreadableFile('not_spreadsheet');
  }
  if (unpacked > MAX_UNPACKED_BYTES) throw new UnreadableFile('workbook_too_large', { max_mb: MAX_UNPACKED_BYTES / 1024 / 1024 });
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch {
    // A zip that is not a workbook (a .docx, a .zip of photos) or a damaged one.
    throw new UnreadableFile('not_spreadsheet');
  }
  // The first sheet that holds anything: exports put the data first, and a blank cover sheet is skipped.
  const sheet = workbook.worksheets.find((ws) => ws.actualRowCount > 0);
  if (!sheet) throw new UnreadableFile('empty');
  if (sheet.actualRowCount > MAX_ROWS + 20) throw new UnreadableFile('too_many_rows', { max: MAX_ROWS });
  const raw: GridRow[] = [];
  try {
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const values = row.values as ExcelJS.CellValue[];
      const cells: Cell[] = [];
      // row.values is 1-based (index 0 is empty).
      for (let i = 1; i < Math.min(values.length, MAX_COLUMNS + 1); i++) cells.push(cellValue(values[i]));
      raw.push({ row: rowNumber, cells });
    });
  } catch {
    // A workbook exceljs opens but cannot walk is a damaged file, not our failure.
    throw new UnreadableFile('not_spreadsheet');
  }
  return { format: 'xlsx', encoding: null, delimiter: null, sheet: sheet.name, raw };
}

const isBlank = (cell: Cell) => cell === null || cell === '';

/**
 * The header row: among the first rows, the one naming the most known column headers (an export may
 * start with a title or the firm's name); the first non-empty row when none names any.
 */
function findHeader(raw: GridRow[], knownHeader: (text: string) => boolean): number {
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < Math.min(raw.length, 15); i++) {
    const score = raw[i]!.cells.filter((c) => typeof c === 'string' && knownHeader(c)).length;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  if (best >= 0) return best;
  return raw.findIndex((r) => r.cells.some((c) => !isBlank(c)));
}

/**
 * The grid of a file: format sniffed from the bytes (never trusted from the name), then the header
 * row found with `knownHeader`, and the data rows after it (blank rows dropped).
 */
export async function readSpreadsheet(bytes: Uint8Array, knownHeader: (text: string) => boolean): Promise<Grid> {
  const kind = sniffFormat(bytes);
  if (kind === 'xls') throw new UnreadableFile('xls_legacy');
  if (kind === 'other-binary') throw new UnreadableFile('not_spreadsheet');
  if (bytes.length === 0) throw new UnreadableFile('empty');
  const parsed = kind === 'xlsx' ? await parseXlsx(bytes) : parseCsv(bytes);
  const headerIndex = findHeader(parsed.raw, knownHeader);
  if (headerIndex < 0) throw new UnreadableFile('empty');
  const header = parsed.raw[headerIndex]!;
  const rows = parsed.raw.slice(headerIndex + 1).filter((r) => r.cells.some((c) => !isBlank(c)));
  if (rows.length > MAX_ROWS) throw new UnreadableFile('too_many_rows', { max: MAX_ROWS });
  const width = Math.max(header.cells.length, ...rows.slice(0, 50).map((r) => r.cells.length));
  const headers: string[] = [];
  for (let i = 0; i < width; i++) {
    const h = header.cells[i];
    headers.push(h === null || h === undefined || h === '' ? '' : String(h));
  }
  // Text that names no known column and whose lines do not split into the header's columns is a
  // letter, a log, a PDF saved as text: not a table someone exported.
  if (kind === 'text' && !headers.some((h) => knownHeader(h))) {
    const aligned = rows.filter((r) => r.cells.length === header.cells.length).length;
    if (width < 2 || aligned < rows.length / 2) throw new UnreadableFile('not_spreadsheet');
  }
  if (rows.length === 0) throw new UnreadableFile('empty');
  const { raw: _raw, ...rest } = parsed;
  return { ...rest, headerRow: header.row, headers, rows };
}
