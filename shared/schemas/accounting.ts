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

// ---------------------------------------------------------------------------------------------
// Registrul de casă

const zCurrency = z.string().regex(/^[A-Z]{3}$/, 'A three-letter ISO 4217 code|Un cod ISO 4217 de trei litere');
const zPositiveLei = z
  .number()
  .positive('The amount must be above 0.|Suma trebuie să fie mai mare decât 0.')
  .max(9_999_999_999.99)
  .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(Math.round(n * 100) - n * 100) < 1e-6, {
    message: 'An amount in lei with at most 2 decimals.|O sumă în lei cu cel mult 2 zecimale.',
  });

export const CASH_MOVEMENT_KINDS = ['opening', 'bank_deposit', 'bank_withdrawal', 'payment', 'receipt', 'correction'] as const;

/** POST /accounting/cash-movements. `amount` is positive; `kind` says the direction (a correction says it with `direction`). */
export const zCashMovementCreate = z
  .object({
    currency: zCurrency.default('RON'),
    date: isoDate,
    kind: z.enum(CASH_MOVEMENT_KINDS),
    amount: zPositiveLei,
    direction: z.enum(['in', 'out']).optional(),
    document_number: z.string().trim().max(60).nullish(),
    description: z.string().trim().min(1, 'Say what the money was for.|Scrieți pentru ce sunt banii.').max(300),
    corrects_id: z.string().max(64).nullish(),
  })
  .refine((b) => b.kind !== 'correction' || b.direction !== undefined, {
    path: ['direction'], message: 'A correction says whether cash comes in or goes out.|O corecție spune dacă numerarul intră sau iese.',
  });

export const zCashEntry = z.object({
  position: z.number().int(),
  source: z.enum(['receipt', 'expense', 'cash_movement']),
  source_id: z.string(),
  kind: z.string(),
  document_number: z.string().nullable(),
  explanation: z.string(),
  cash_in: z.number(),
  cash_out: z.number(),
  created_at: z.number().int(),
});

export const zCashDay = z.object({
  object: z.literal('cash_register_day'),
  work_point_id: z.string(),
  currency: z.string(),
  date: z.string(),
  opening_balance: z.number(),
  total_in: z.number(),
  total_out: z.number(),
  closing_balance: z.number(),
  closed: z.boolean(),
  closed_at: z.number().int().nullable(),
  entries: z.array(zCashEntry),
});
export type CashDay = z.infer<typeof zCashDay>;

export const zCashMovement = z.object({
  object: z.literal('cash_movement'),
  id: z.string(),
  work_point_id: z.string(),
  currency: z.string(),
  date: z.string(),
  kind: z.enum(CASH_MOVEMENT_KINDS),
  amount: z.number(),
  document_number: z.string().nullable(),
  description: z.string(),
  corrects_id: z.string().nullable(),
  created_at: z.number().int(),
});

export const zCashDayClose = z.object({ currency: zCurrency.default('RON'), date: isoDate });

export const zCashSettings = z.object({
  object: z.literal('cash_settings'),
  b2b_daily_limit: z.number(),
  b2c_daily_limit: z.number(),
});
export const zCashSettingsUpdate = z.object({ b2b_daily_limit: zPositiveLei.optional(), b2c_daily_limit: zPositiveLei.optional() });

/** A cash receipt that takes one person over the day's legal ceiling: said, not refused (the law fines, it does not void). */
export const zCashCeilingWarning = z.object({
  code: z.literal('cash_ceiling_exceeded'),
  message: z.string(),
  client_kind: z.enum(['b2b', 'b2c']),
  limit: z.number(),
  received_today: z.number(),
});
export type CashCeilingWarning = z.infer<typeof zCashCeilingWarning>;

/** The files an export job can make (each is also a direct GET of its own: the job's file is the same bytes). */
export const EXPORT_JOB_FORMATS = ['sales_journal_xlsx', 'purchase_journal_xlsx', 'saga', 'winmentor', 'documents_csv', 'documents_xlsx', 'archive'] as const;
export type ExportJobFormat = (typeof EXPORT_JOB_FORMATS)[number];
export const EXPORT_JOB_STATES = ['running', 'ready', 'failed'] as const;
export type ExportJobState = (typeof EXPORT_JOB_STATES)[number];

export const zExportJobCreate = z.object({
  format: z.enum(EXPORT_JOB_FORMATS),
  start_date: isoDate,
  end_date: isoDate,
});

export const zExportJob = z.object({
  object: z.literal('accounting_export_job'),
  id: z.string(),
  format: z.enum(EXPORT_JOB_FORMATS),
  start_date: z.string(),
  end_date: z.string(),
  state: z.enum(EXPORT_JOB_STATES),
  /** Documents written so far, of `total` (counted when the job started). */
  done: z.number().int(),
  total: z.number().int(),
  /** Once `ready`: the file, downloaded from `url` (the same bytes as the direct export). */
  file: z
    .object({ name: z.string(), content_type: z.string(), bytes: z.number().int(), sha256: z.string(), url: z.string() })
    .nullable(),
  /** Once `failed`: why, in the request's language. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.number().int(),
  finished_at: z.number().int().nullable(),
});
export type ExportJob = z.infer<typeof zExportJob>;
