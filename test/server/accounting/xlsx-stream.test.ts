import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { unzipSync, strFromU8 } from 'fflate';
import { XMLParser } from 'fast-xml-parser';
import type { Readable } from 'node:stream';
import { columnName, excelDate, xlsxStream, type XlsxRow } from '../../../server/modules/accounting/xlsx-stream';

/**
 * The project's XLSX writer, read back by another library than the one that wrote it (exceljs' reader,
 * and the raw parts through fflate and an XML parser): values, types, number formats, bold rows; the
 * same rows give the same bytes; and the rows are pulled only as fast as the bytes are read, which is
 * what keeps an export of 100,000 documents in flat memory.
 */

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function* from(rows: XlsxRow[]): AsyncGenerator<XlsxRow> {
  for (const row of rows) yield row;
}

const ROWS: XlsxRow[] = [
  { cells: ['Jurnal – Brutăria Știrbei SRL <&> "test"'], bold: true },
  { cells: ['Nr.', 'Data', 'Partener', 'Curs', 'Bază', 'TVA'], bold: true },
  { cells: [1, { date: '2026-10-25' }, 'Papetăria Ștefan SRL', 5.0871, { bani: 123_456 }, { bani: 25_926 }] },
  { cells: [2, { date: '2026-02-30' }, ' cu spații ', null, { bani: -5 }, { bani: 0 }] },
  { cells: ['', null, 'TOTAL', '', { bani: 123_451 }, { bani: 25_926 }], bold: true },
];

const sheet = (rows: XlsxRow[] = ROWS) => xlsxStream({ name: 'Jurnal de vânzări', widths: [8, 11, 30], frozenRows: 2, rows: from(rows) });

describe('xlsx-stream', () => {
  it('writes what exceljs reads back: text, numbers, amounts with two decimals, dates, bold rows', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await bytesOf(sheet())) as unknown as ArrayBuffer);
    expect(wb.worksheets).toHaveLength(1);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Jurnal de vânzări');
    expect(ws.rowCount).toBe(5);
    expect(ws.getCell('A1').value).toBe('Jurnal – Brutăria Știrbei SRL <&> "test"');
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('A3').value).toBe(1);
    expect(ws.getCell('A3').type).toBe(ExcelJS.ValueType.Number);
    expect(ws.getCell('B3').value).toEqual(new Date(Date.UTC(2026, 9, 25)));
    expect(ws.getCell('B3').numFmt).toBe('dd.mm.yyyy');
    expect(ws.getCell('C3').value).toBe('Papetăria Ștefan SRL');
    expect(ws.getCell('D3').value).toBe(5.0871);
    expect(ws.getCell('E3').value).toBe(1234.56);
    expect(ws.getCell('E3').type).toBe(ExcelJS.ValueType.Number);
    expect(ws.getCell('E3').numFmt).toBe('#,##0.00');
    expect(ws.getCell('E3').font?.bold).not.toBe(true);
    expect(ws.getCell('F3').value).toBe(259.26);
    // Not a date: left empty rather than rolled over to 2 March.
    expect(ws.getCell('B4').value).toBeNull();
    expect(ws.getCell('C4').value).toBe(' cu spații ');
    expect(ws.getCell('E4').value).toBe(-0.05);
    expect(ws.getCell('F4').value).toBe(0);
    expect(ws.getCell('C5').value).toBe('TOTAL');
    expect(ws.getCell('E5').value).toBe(1234.51);
    expect(ws.getCell('E5').numFmt).toBe('#,##0.00');
    expect(ws.getCell('E5').font?.bold).toBe(true);
    expect(ws.getColumn(3).width).toBe(30);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
  });

  it('keeps no shared-strings table: every text is an inline string, every amount a number', async () => {
    const parts = unzipSync(new Uint8Array(await bytesOf(sheet())));
    expect(Object.keys(parts).sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'row' || name === 'c' })
      .parse(strFromU8(parts['xl/worksheets/sheet1.xml']!)) as { worksheet: { sheetData: { row: { r: string; c: { r: string; t?: string; s?: string; v?: unknown; is?: unknown }[] }[] } } };
    const cells = xml.worksheet.sheetData.row.flatMap((r) => r.c);
    expect(cells.filter((c) => c.is !== undefined).every((c) => c.t === 'inlineStr')).toBe(true);
    const e3 = cells.find((c) => c.r === 'E3')!;
    expect(e3).toMatchObject({ s: '2', v: 1234.56 });
    expect(e3.t).toBeUndefined();
    const styles = strFromU8(parts['xl/styles.xml']!);
    expect(styles).toContain('<numFmt numFmtId="164" formatCode="dd.mm.yyyy"/>');
  });

  it('writes the same bytes for the same rows (no timestamps)', async () => {
    const a = await bytesOf(sheet());
    await new Promise((r) => setTimeout(r, 1100));
    const b = await bytesOf(sheet());
    expect(a.equals(b)).toBe(true);
  });

  it('writes a control character in a name as Excel escapes it, so the XML stays well-formed', async () => {
    const parts = unzipSync(new Uint8Array(await bytesOf(sheet([{ cells: ['A\u0001B _x0041_ C'] }]))));
    const xml = strFromU8(parts['xl/worksheets/sheet1.xml']!);
    expect(xml).toContain('<t>A_x0001_B _x005F_x0041_ C</t>');
    // eslint-disable-next-line no-control-regex -- the test is that none is left
    expect(/[\u0000-\u0008]/.test(xml)).toBe(false);
  });

  it('pulls a row only when the bytes before it have been read: a reader that stops holds the rows back', async () => {
    let pulled = 0;
    async function* many(): AsyncGenerator<XlsxRow> {
      for (let i = 1; i <= 100_000; i += 1) {
        pulled += 1;
        yield { cells: [i, 'Factură', `TJ-${i}`, { date: '2026-10-01' }, 'Client Bench SRL', { bani: 100_000 + i }, { bani: 21_000 }] };
      }
    }
    const stream = xlsxStream({ name: 'Documente', rows: many() });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    // The reader now stops; give the writer every chance to run ahead.
    for (let i = 0; i < 50; i += 1) await new Promise((r) => setImmediate(r));
    const ahead = pulled;
    expect(ahead).toBeGreaterThan(0);
    // A few blocks of rows in the ZIP's pipe (about 1,800 here), not the sheet: the exceljs writer, driven the
    // same way, had pulled all 100,000 by then.
    expect(ahead).toBeLessThan(10_000);
    let bytes = 0;
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) bytes += (r.value as Buffer).length;
    expect(pulled).toBe(100_000);
    expect(bytes).toBeGreaterThan(0);
  }, 60_000);

  it('ends the stream with the error when the rows fail mid-way (no truncated file that looks whole)', async () => {
    async function* failing(): AsyncGenerator<XlsxRow> {
      yield { cells: ['ok'] };
      throw new Error('the database went away');
    }
    await expect(bytesOf(xlsxStream({ name: 'Documente', rows: failing() }))).rejects.toThrow('the database went away');
  });

  it('refuses a sheet name Excel would refuse', () => {
    expect(() => xlsxStream({ name: 'Jurnal [1]', rows: from([]) })).toThrow(/sheet name/);
    expect(() => xlsxStream({ name: 'x'.repeat(32), rows: from([]) })).toThrow(/sheet name/);
  });

  it('numbers dates and columns as Excel does', () => {
    expect(excelDate('1900-03-01')).toBe(61);
    expect(excelDate('2026-10-25')).toBe(46320);
    expect(excelDate('2024-02-29')).toBe(45351);
    expect(excelDate('2025-02-29')).toBeNull();
    expect(excelDate('')).toBeNull();
    expect([1, 26, 27, 52, 53, 702, 703].map(columnName)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
