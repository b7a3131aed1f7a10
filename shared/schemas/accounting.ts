import { z } from 'zod';
import { PURCHASE_COLUMNS, SALES_COLUMNS } from '../accounting/journal-math';

/** Wire schemas of the accountant's month: VAT journals, cash register, exports. Money in lei (2 decimals), like invoices. */

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD|Se aștepta AAAA-LL-ZZ')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'Not a calendar date|Nu este o dată calendaristică');

/** A period of documents: both ends inclusive. Plain object (routes extend it); see {@link periodProblem}. */
export const zPeriodQuery = z.object({
  start_date: isoDate,
  end_date: isoDate,
});

/** What is wrong with a period, as `English|Română` for the `end_date` field, or null. At most a year. */
export function periodProblem(p: { start_date: string; end_date: string }): string | null {
  if (p.end_date < p.start_date) return 'The end date is before the start date.|Data de sfârșit este înaintea datei de început.';
  if (Date.parse(p.end_date) - Date.parse(p.start_date) > 366 * 86_400_000) return 'A period is at most one year.|O perioadă are cel mult un an.';
  return null;
}

export const zMonthParam = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Expected YYYY-MM|Se aștepta AAAA-LL');

export const JOURNAL_KINDS = ['sales', 'purchases'] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

const zColumnAmounts = z.record(z.string(), z.number());

export const zJournalRow = z.object({
  position: z.number().int(),
  kind: z.enum(['invoice', 'storno', 'collection', 'expense', 'supplier_bill']),
  document_id: z.string(),
  number: z.string(),
  date: z.string(),
  partner_name: z.string(),
  partner_cui: z.string().nullable(),
  currency: z.string(),
  exchange_rate: z.number().nullable(),
  amounts: zColumnAmounts,
});

export const zJournal = z.object({
  object: z.literal('vat_journal'),
  kind: z.enum(JOURNAL_KINDS),
  start_date: z.string(),
  end_date: z.string(),
  columns: z.array(z.enum([...new Set([...SALES_COLUMNS, ...PURCHASE_COLUMNS])] as [string, ...string[]])),
  column_titles: z.record(z.string(), z.string().optional()),
  document_count: z.number().int(),
  totals: zColumnAmounts,
  warnings: z.array(z.object({ document_id: z.string(), number: z.string(), code: z.string(), message: z.string() })),
  rows: z.object({
    object: z.literal('list'),
    data: z.array(zJournalRow),
    has_more: z.boolean(),
    total: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
    total_pages: z.number().int(),
  }),
});
export type Journal = z.infer<typeof zJournal>;
