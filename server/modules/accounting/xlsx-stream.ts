import type { Readable } from 'node:stream';
import { baniToDecimalString } from '../../../shared/money';
import { zipStream, type ZipEntry } from './zip-stream';

/**
 * The project's one XLSX writer: a single sheet written row by row into our streaming ZIP, so memory
 * holds one batch of rows whatever the length of the sheet.
 *
 * Why not exceljs' streaming WorkbookWriter: its sheet stream (a StreamBuf) ignores backpressure (its
 * `write` always returns true and hands each 64 KB block to archiver's deflater without waiting), so when
 * the rows come faster than zlib compresses, the whole uncompressed sheet queues in front of the deflater:
 * 62 MB outside the heap and ~1.5 KB of write requests per block inside it for 100,000 journal rows
 * (measured with heap snapshots, docs/api-decisions.md). Here the sheet is an async generator that
 * the ZIP pulls from: a row is read from the database only when the previous bytes have gone out.
 *
 * Only what the accounting exports need: inline strings (no shared-strings table to keep), numbers,
 * amounts in bani as numbers with two decimals, ISO dates as Excel dates, a bold row, column widths and
 * frozen header rows. No timestamps anywhere: the same rows give the same bytes.
 */

/** A cell: text, a plain number, an amount in bani, an ISO date (`YYYY-MM-DD`), or nothing. */
export type XlsxCell = string | number | null | { bani: number } | { date: string };

export interface XlsxRow {
  cells: readonly XlsxCell[];
  bold?: boolean;
}

export interface XlsxSheet {
  /** The tab's name: at most 31 characters, none of : \ / ? * [ ]. */
  name: string;
  /** Column widths in characters, from column A. */
  widths?: readonly number[];
  /** Rows kept in view when scrolling (the heading). */
  frozenRows?: number;
  rows: AsyncIterable<XlsxRow>;
}

/** Excel's limit for the text of one cell. */
const MAX_TEXT = 32_767;
/** Rows are joined into blocks of about this many characters before they are handed to the ZIP. */
const BLOCK = 64 * 1024;

/** Indexes into styles.xml's cellXfs, in its order. */
const Style = { Plain: 0, Bold: 1, Money: 2, MoneyBold: 3, Date: 4, DateBold: 5 } as const;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const CONTENT_TYPES = `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`
  + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
  + '<Default Extension="xml" ContentType="application/xml"/>'
  + '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
  + '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
  + '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
  + '</Types>';

const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">`
  + `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>`
  + '</Relationships>';

const WORKBOOK_RELS = `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">`
  + `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>`
  + `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>`
  + '</Relationships>';

// Number format 4 is Excel's built-in "#,##0.00" (shown "1.234,56" in a Romanian Excel); 164 is ours:
// the Romanian date, spelled out rather than the built-in 14, whose look follows the reader's locale.
const FONT = '<sz val="11"/><name val="Calibri"/><family val="2"/>';
const xf = (numFmt: number, font: number) =>
  `<xf numFmtId="${numFmt}" fontId="${font}" fillId="0" borderId="0" xfId="0"${numFmt ? ' applyNumberFormat="1"' : ''}${font ? ' applyFont="1"' : ''}/>`;
const STYLES = `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">`
  + '<numFmts count="1"><numFmt numFmtId="164" formatCode="dd.mm.yyyy"/></numFmts>'
  + `<fonts count="2"><font>${FONT}</font><font><b/>${FONT}</font></fonts>`
  + '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
  + '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
  + '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
  // In the order of `Style`.
  + `<cellXfs count="6">${xf(0, 0)}${xf(0, 1)}${xf(4, 0)}${xf(4, 1)}${xf(164, 0)}${xf(164, 1)}</cellXfs>`
  + '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
  + '</styleSheet>';

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/**
 * Text as a cell's XML can carry it: control characters XML 1.0 forbids are written as Excel's `_xHHHH_`
 * escape (a name pasted with a stray control character must not make the file unreadable), and a literal
 * `_xHHHH_` already in the text is itself escaped (`_x005F_`) so that Excel does not decode it.
 */
function cellText(value: string): string {
  const text = value.length > MAX_TEXT ? value.slice(0, MAX_TEXT) : value;
  return escapeXml(
    text
      .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
      // eslint-disable-next-line no-control-regex -- exactly the characters XML 1.0 does not allow
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
      // A lone surrogate is not a character at all: nothing can show it.
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'),
  );
}

/** A, B, …, Z, AA, …: the column letters of a 1-based column number. */
export function columnName(n: number): string {
  let name = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) name = String.fromCharCode(65 + ((c - 1) % 26)) + name;
  return name;
}

const DAY_MS = 86_400_000;
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** An ISO date as Excel's serial day (1900 system; right for every date after February 1900). */
export function excelDate(iso: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // 2026-02-30 is not a date: an empty cell rather than 2 March.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return (ms - EXCEL_EPOCH) / DAY_MS;
}

function cellXml(ref: string, cell: XlsxCell, bold: boolean): string {
  if (cell === null || cell === '') return '';
  if (typeof cell === 'string') {
    const space = /^\s|\s$/.test(cell) ? ' xml:space="preserve"' : '';
    return `<c r="${ref}"${bold ? ` s="${Style.Bold}"` : ''} t="inlineStr"><is><t${space}>${cellText(cell)}</t></is></c>`;
  }
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) throw new Error(`XLSX cell ${ref}: ${cell} is not a number`);
    return `<c r="${ref}"${bold ? ` s="${Style.Bold}"` : ''}><v>${cell}</v></c>`;
  }
  if ('bani' in cell) {
    // The exact decimal of the integer bani: Excel reads it to the same double as the amount in lei.
    return `<c r="${ref}" s="${bold ? Style.MoneyBold : Style.Money}"><v>${baniToDecimalString(cell.bani)}</v></c>`;
  }
  const serial = excelDate(cell.date);
  return serial === null ? '' : `<c r="${ref}" s="${bold ? Style.DateBold : Style.Date}"><v>${serial}</v></c>`;
}

function sheetHead(sheet: XlsxSheet): string {
  const frozen = sheet.frozenRows ?? 0;
  const view = frozen > 0
    ? `<sheetView workbookViewId="0"><pane ySplit="${frozen}" topLeftCell="A${frozen + 1}" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView>`
    : '<sheetView workbookViewId="0"/>';
  const cols = sheet.widths?.length
    ? `<cols>${sheet.widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`
    : '';
  return `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews>${view}</sheetViews><sheetFormatPr defaultRowHeight="15"/>${cols}<sheetData>`;
}

/** The sheet's XML in blocks, each row made only when the ZIP asks for more. */
async function* sheetXml(sheet: XlsxSheet): AsyncGenerator<Uint8Array> {
  let block = sheetHead(sheet);
  let r = 0;
  for await (const row of sheet.rows) {
    r += 1;
    let xml = `<row r="${r}">`;
    for (let c = 0; c < row.cells.length; c += 1) xml += cellXml(`${columnName(c + 1)}${r}`, row.cells[c]!, row.bold === true);
    block += `${xml}</row>`;
    if (block.length >= BLOCK) {
      yield Buffer.from(block, 'utf8');
      block = '';
    }
  }
  block += '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';
  yield Buffer.from(block, 'utf8');
}

function checkedName(name: string): string {
  if (!name || name.length > 31 || /[:\\/?*[\]]/.test(name)) throw new Error(`not a valid sheet name: ${name}`);
  return name;
}

/** One workbook of one sheet, as a stream of the XLSX's bytes; an error mid-way ends the stream with it. */
export function xlsxStream(sheet: XlsxSheet): Readable {
  const name = checkedName(sheet.name);
  const workbook = `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews>`
    + `<sheets><sheet name="${escapeXml(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  async function* entries(): AsyncGenerator<ZipEntry> {
    const text = (s: string) => Buffer.from(s, 'utf8');
    yield { name: '[Content_Types].xml', data: text(CONTENT_TYPES) };
    yield { name: '_rels/.rels', data: text(ROOT_RELS) };
    yield { name: 'xl/workbook.xml', data: text(workbook) };
    yield { name: 'xl/_rels/workbook.xml.rels', data: text(WORKBOOK_RELS) };
    yield { name: 'xl/styles.xml', data: text(STYLES) };
    yield { name: 'xl/worksheets/sheet1.xml', data: sheetXml(sheet) };
  }
  return zipStream(entries());
}
