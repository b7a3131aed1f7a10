import { Readable } from 'node:stream';
import type { Db } from '../../db/types';
import { baniToDecimalString } from '../../../shared/money';
import { otherRequestsFirst, purchaseRows, salesRows, CHUNK, pageFrom, type Period } from './journal-source';
import { KIND_LABELS_RO } from './journal-files';
import { xlsxStream, type XlsxRow } from './xlsx-stream';

/**
 * Every document of a period in one plain table (CSV or XLSX), for an accountant whose program is not
 * Saga: issued invoices and stornos, received documents, and the chitanțe. Amounts in RON, the same
 * ones the journals show.
 */

export const DOCUMENT_COLUMNS = ['Tip', 'Număr', 'Data', 'Partener', 'CUI/CNP', 'Monedă', 'Curs', 'Bază (lei)', 'TVA (lei)', 'Total (lei)'] as const;

export interface DocumentRow {
  kind: string;
  number: string;
  date: string;
  partner: string;
  cui: string;
  currency: string;
  rate: string;
  base: number;
  vat: number;
  total: number;
}

const sum = (amounts: Record<string, number | undefined>, prefix: string) =>
  Object.entries(amounts).reduce((s, [k, v]) => (k.startsWith(prefix) ? s + (v ?? 0) : s), 0);

/** `tick` is called as each row is handed on (one per document). */
export async function* documentRows(db: Db, companyId: string, period: Period, tick: () => void = () => undefined): AsyncGenerator<DocumentRow> {
  for await (const r of salesRows(db, companyId, period)) {
    if (r.kind === 'collection') continue;
    const total = r.amounts.total ?? 0;
    const vat = sum(r.amounts, 'vat_');
    yield { kind: KIND_LABELS_RO[r.kind], number: r.number, date: r.date, partner: r.partner_name, cui: r.partner_cui ?? '', currency: r.currency, rate: r.exchange_rate === null ? '' : String(r.exchange_rate), base: total - vat, vat, total };
    tick();
  }
  for await (const r of purchaseRows(db, companyId, period)) {
    const total = r.amounts.total ?? 0;
    const vat = sum(r.amounts, 'vat_');
    yield { kind: KIND_LABELS_RO[r.kind], number: r.number, date: r.date, partner: r.partner_name, cui: r.partner_cui ?? '', currency: r.currency, rate: r.exchange_rate === null ? '' : String(r.exchange_rate), base: total - vat, vat, total };
    tick();
  }
  let after: { date: string; id: string } | null = null;
  // Read through a function: TypeScript would otherwise infer the query's type from the cursor it sets.
  const cursor = (): { date: string; id: string } | null => after;
  for (;;) {
    if (after) await otherRequestsFirst();
    const q = db.selectFrom('receipts').select(['id', 'receipt_number', 'date', 'client_name', 'currency', 'amount_bani', 'amount_without_vat_bani', 'amount_vat_bani'])
      .where('company_id', '=', companyId).where('is_draft', '=', 0).where('is_deleted', '=', 0)
      .where(pageFrom('date', 'id', period.start_date, cursor())).where('date', '<=', period.end_date);
    const rows = await q.orderBy('date').orderBy('id').limit(CHUNK).execute();
    for (const r of rows) {
      yield { kind: 'Chitanță', number: r.receipt_number, date: r.date ?? '', partner: r.client_name, cui: '', currency: r.currency, rate: '', base: Number(r.amount_without_vat_bani), vat: Number(r.amount_vat_bani), total: Number(r.amount_bani) };
      tick();
    }
    if (rows.length < CHUNK) return;
    const last = rows[rows.length - 1]!;
    after = { date: last.date ?? '', id: last.id };
  }
}

function csvField(value: string): string {
  return /[",;\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** CSV with a header, comma-separated, dot decimals, UTF-8 with a BOM (Excel reads the diacritics then). */
export function documentsCsv(db: Db, companyId: string, period: Period, tick?: () => void): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${DOCUMENT_COLUMNS.map(csvField).join(',')}\r\n`;
    for await (const r of documentRows(db, companyId, period, tick)) {
      yield `${[r.kind, r.number, r.date, r.partner, r.cui, r.currency, r.rate, baniToDecimalString(r.base), baniToDecimalString(r.vat), baniToDecimalString(r.total)].map(csvField).join(',')}\r\n`;
    }
  }
  return Readable.from(lines());
}

/** Amounts as numbers with two decimals, dates as dates, the rate as a number: what Excel can add up and sort. */
export function documentsXlsx(db: Db, companyId: string, period: Period, tick?: () => void): Readable {
  async function* rows(): AsyncGenerator<XlsxRow> {
    yield { cells: [...DOCUMENT_COLUMNS], bold: true };
    for await (const r of documentRows(db, companyId, period, tick)) {
      yield { cells: [r.kind, r.number, { date: r.date }, r.partner, r.cui, r.currency, r.rate === '' ? null : Number(r.rate), { bani: r.base }, { bani: r.vat }, { bani: r.total }] };
    }
  }
  return xlsxStream({ name: 'Documente', widths: [24, 16, 11, 34, 13, 8, 9, 15, 15, 15], frozenRows: 1, rows: rows() });
}
