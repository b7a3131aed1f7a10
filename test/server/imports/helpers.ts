import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import type { Firm } from '../catalog/helpers';

export type Cells = Array<Array<string | number | null>>;

/** A CSV as Excel writes it: quoted when needed, CRLF lines. */
export function csv(rows: Cells, delimiter = ';', encoding: 'utf8' | 'utf8-bom' | 'windows-1250' = 'utf8'): Buffer {
  const quote = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    return /[";,\t\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const text = rows.map((r) => r.map(quote).join(delimiter)).join('\r\n') + '\r\n';
  if (encoding === 'windows-1250') return iconv.encode(text, 'windows-1250');
  const body = Buffer.from(text, 'utf8');
  return encoding === 'utf8-bom' ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}

export async function xlsx(rows: Cells, sheet = 'Produse'): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet(sheet);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const upload = (f: Firm, kind: 'products' | 'clients', file: Buffer, extra: Record<string, unknown> = {}) =>
  f.call('POST', `/${kind}/imports`, { content: file.toString('base64'), file_name: `fisier.${extra.format ?? 'csv'}`, ...extra });
