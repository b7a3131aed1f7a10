import type { Db } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { fromBani } from '../../../shared/money';
import {
  accumulate,
  COLUMN_TITLES_RO,
  PURCHASE_COLUMNS,
  SALES_COLUMNS,
  type Amounts,
} from '../../../shared/accounting/journal-math';
import type { Journal, JournalKind } from '../../../shared/schemas/accounting';
import { purchaseRows, salesRows, type JournalRow, type JournalWarning, type Period } from './journal-source';
import { WARNING_TEXT } from './messages';

export function columnsOf(kind: JournalKind): readonly string[] {
  return kind === 'sales' ? SALES_COLUMNS : PURCHASE_COLUMNS;
}

/** The rows of a journal, one after the other; `warnings` fills as documents are left out. */
export function journalRows(
  db: Db, companyId: string, kind: JournalKind, period: Period, warnings: JournalWarning[], partners = true,
): AsyncGenerator<JournalRow<string>> {
  return kind === 'sales' ? salesRows(db, companyId, period, partners) : purchaseRows(db, companyId, period, warnings);
}

export function amountsInLei(columns: readonly string[], amounts: Amounts<string>): Record<string, number> {
  return Object.fromEntries(columns.map((c) => [c, fromBani(amounts[c] ?? 0)]));
}

/** Every row of a journal walked once: their totals and count, each row handed to `onRow` with its position. */
async function walkJournal(
  db: Db, companyId: string, kind: JournalKind, period: Period, partners: boolean,
  onRow: (row: JournalRow<string>, position: number) => void = () => undefined,
): Promise<{ totals: Amounts<string>; count: number; warnings: JournalWarning[] }> {
  const warnings: JournalWarning[] = [];
  const totals: Amounts<string> = {};
  let count = 0;
  for await (const row of journalRows(db, companyId, kind, period, warnings, partners)) {
    count += 1;
    accumulate(totals, row.amounts);
    onRow(row, count);
  }
  return { totals, count, warnings };
}

/** What a walk adds up to, as the journal and GET /invoices/stats answer it (members in the journal's order). */
function summaryOf(kind: JournalKind, walked: { totals: Amounts<string>; count: number; warnings: JournalWarning[] }, locale: Locale) {
  const columns = columnsOf(kind);
  return {
    columns: [...columns],
    column_titles: Object.fromEntries(columns.map((c) => [c, COLUMN_TITLES_RO[c as keyof typeof COLUMN_TITLES_RO] ?? c])),
    document_count: walked.count,
    totals: amountsInLei(columns, walked.totals),
    warnings: walked.warnings.map((w) => ({ ...w, message: WARNING_TEXT[w.code]![locale] })),
  };
}

/** A journal's totals alone (GET /invoices/stats): the same walk and sums as the journal's, without its rows. */
export async function journalTotals(db: Db, companyId: string, kind: JournalKind, period: Period, locale: Locale) {
  return summaryOf(kind, await walkJournal(db, companyId, kind, period, false), locale);
}

/**
 * A journal as JSON: every row walked once for the totals, only the asked page kept. Memory holds one
 * chunk of documents and one page of rows, whatever the length of the period.
 */
export async function buildJournal(
  db: Db,
  companyId: string,
  kind: JournalKind,
  period: Period,
  page: number,
  perPage: number,
  locale: Locale,
): Promise<Journal> {
  const columns = columnsOf(kind);
  const data: Journal['rows']['data'] = [];
  const first = (page - 1) * perPage;
  const walked = await walkJournal(db, companyId, kind, period, true, (row, position) => {
    if (position > first && data.length < perPage) data.push({ position, ...row, amounts: amountsInLei(columns, row.amounts) });
  });
  const count = walked.count;
  return {
    object: 'vat_journal',
    kind,
    start_date: period.start_date,
    end_date: period.end_date,
    ...summaryOf(kind, walked, locale),
    rows: {
      object: 'list',
      data,
      has_more: first + data.length < count,
      total: count,
      page,
      per_page: perPage,
      total_pages: Math.max(1, Math.ceil(count / perPage)),
    },
  };
}
