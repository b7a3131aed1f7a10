import { Readable } from 'node:stream';
import type { Db } from '../../db/types';
import { escapeHtml as esc } from '../../../shared/print/pdf-layout';
import { accumulate, COLUMN_TITLES_RO, type Amounts } from '../../../shared/accounting/journal-math';
import { formatRon } from '../../../shared/money';
import { formatDateRo } from '../../../shared/accounting/format';
import type { JournalKind } from '../../../shared/schemas/accounting';
import { columnsOf, journalRows } from './journal-build';
import { xlsxStream, type XlsxRow } from './xlsx-stream';
import type { JournalRow, JournalWarning, Period } from './journal-source';

/** The journals as files: a streamed XLSX (our writer, xlsx-stream.ts) and a printable HTML form, row by row. */

export const JOURNAL_TITLES: Record<JournalKind, string> = { sales: 'Jurnal de vânzări', purchases: 'Jurnal de cumpărări' };
export const KIND_LABELS_RO: Record<JournalRow<string>['kind'], string> = {
  invoice: 'Factură', storno: 'Factură storno', collection: 'Încasare (TVA la încasare)', expense: 'Cheltuială', supplier_bill: 'Factură primită',
};

export interface Firm {
  name: string;
  cui: string;
}

export async function firmOf(db: Db, companyId: string): Promise<Firm> {
  const row = await db.selectFrom('companies').select(['name', 'cui']).where('id', '=', companyId).executeTakeFirstOrThrow();
  return { name: row.name, cui: row.cui };
}

const FIXED_HEAD = ['Nr. crt.', 'Tip', 'Număr document', 'Data', 'Partener', 'CUI/CNP', 'Monedă', 'Curs'];

const FIXED_WIDTHS = [8, 24, 16, 11, 34, 13, 8, 9];

/** The journal as an XLSX, written row by row as the ZIP asks for more; an error mid-way ends the stream with it. */
export function journalXlsx(db: Db, companyId: string, kind: JournalKind, period: Period, firm: Firm, tick: () => void = () => undefined): Readable {
  const columns = columnsOf(kind);
  async function* rows(): AsyncGenerator<XlsxRow> {
    yield { cells: [`${JOURNAL_TITLES[kind]} – ${firm.name}, CUI ${firm.cui}`], bold: true };
    yield { cells: [`Perioada ${formatDateRo(period.start_date)} – ${formatDateRo(period.end_date)}; sume în lei`] };
    yield { cells: [...FIXED_HEAD, ...columns.map((c) => COLUMN_TITLES_RO[c as keyof typeof COLUMN_TITLES_RO] ?? c)], bold: true };
    const totals: Amounts<string> = {};
    const warnings: JournalWarning[] = [];
    let n = 0;
    for await (const row of journalRows(db, companyId, kind, period, warnings)) {
      n += 1;
      accumulate(totals, row.amounts);
      yield {
        cells: [
          n, KIND_LABELS_RO[row.kind], row.number, { date: row.date }, row.partner_name, row.partner_cui ?? '', row.currency, row.exchange_rate,
          ...columns.map((c) => ({ bani: row.amounts[c] ?? 0 })),
        ],
      };
      tick();
    }
    yield { cells: ['', 'TOTAL', '', '', '', '', '', '', ...columns.map((c) => ({ bani: totals[c] ?? 0 }))], bold: true };
    for (const w of warnings) yield { cells: [`Nu este inclus: ${w.number} (curs de schimb lipsă)`] };
  }
  return xlsxStream({ name: JOURNAL_TITLES[kind], widths: [...FIXED_WIDTHS, ...columns.map(() => 15)], frozenRows: 3, rows: rows() });
}

const PRINT_CSS = `
@page { size: A4 landscape; margin: 10mm; }
body { font-family: 'Liberation Sans', Arial, sans-serif; font-size: 7pt; color: #000; }
h1 { font-size: 12pt; margin: 0 0 2mm; }
.meta { margin-bottom: 3mm; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.5pt solid #444; padding: 1px 2px; vertical-align: top; }
th { background: #eee; font-weight: bold; }
td.n { text-align: right; white-space: nowrap; }
tr.total td { font-weight: bold; background: #f4f4f4; }
.form { float: right; font-size: 7pt; }
`;

function money(bani: number | undefined): string {
  // "1.234,56" without the unit in every cell: the heading says lei.
  return formatRon(bani ?? 0, 'ro').replace(/ lei$/, '');
}

/** The printable journal (HTML, A4 landscape), streamed: the desktop prints it to PDF like an invoice. */
export function journalHtml(db: Db, companyId: string, kind: JournalKind, period: Period, firm: Firm): Readable {
  const columns = columnsOf(kind);
  async function* parts(): AsyncGenerator<string> {
    yield `<!doctype html><html lang="ro"><head><meta charset="utf-8"><title>${esc(JOURNAL_TITLES[kind])}</title><style>${PRINT_CSS}</style></head><body>`;
    yield `<div class="form">Formular 14-6-2/${kind === 'sales' ? 'b' : 'a'}</div><h1>${esc(JOURNAL_TITLES[kind])}</h1>`;
    yield `<div class="meta">${esc(firm.name)}, CUI ${esc(firm.cui)} · Perioada ${esc(formatDateRo(period.start_date))} – ${esc(formatDateRo(period.end_date))} · sume în lei</div>`;
    yield `<table><thead><tr>${['Nr. crt.', 'Document', 'Data', 'Partener', 'CUI/CNP', ...columns.map((c) => COLUMN_TITLES_RO[c as keyof typeof COLUMN_TITLES_RO])]
      .map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>`;
    const totals: Amounts<string> = {};
    const warnings: JournalWarning[] = [];
    let n = 0;
    for await (const row of journalRows(db, companyId, kind, period, warnings)) {
      n += 1;
      accumulate(totals, row.amounts);
      const doc = `${KIND_LABELS_RO[row.kind]} ${row.number}${row.currency !== 'RON' && row.exchange_rate ? ` (${row.currency}, curs ${String(row.exchange_rate).replace('.', ',')})` : ''}`;
      yield `<tr><td class="n">${n}</td><td>${esc(doc)}</td><td>${esc(formatDateRo(row.date))}</td><td>${esc(row.partner_name)}</td><td>${esc(row.partner_cui ?? '')}</td>${columns
        .map((c) => `<td class="n">${row.amounts[c] ? money(row.amounts[c]) : ''}</td>`).join('')}</tr>`;
    }
    if (n === 0) yield `<tr><td colspan="${5 + columns.length}">Niciun document în această perioadă.</td></tr>`;
    yield `<tr class="total"><td colspan="5">TOTAL (${n} documente)</td>${columns.map((c) => `<td class="n">${money(totals[c])}</td>`).join('')}</tr>`;
    yield '</tbody></table>';
    for (const w of warnings) yield `<p>Nu este inclusă: factura primită ${esc(w.number)} (în valută, fără curs de schimb).</p>`;
    yield '</body></html>';
  }
  return Readable.from(parts());
}
