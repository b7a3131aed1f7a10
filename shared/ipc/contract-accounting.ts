import { z } from 'zod';
import { zDate } from '../schemas/common';
import type { ChannelSpec } from './contract';

/**
 * The "Contabilitate" screen's channels, spread into the contract map (shared/ipc/contract.ts). Files are
 * made by the service (ONLINE) and saved where the user chooses (Electron) or handed to the browser
 * (the web host). Printable registers are HTML from the service, turned into a PDF by Electron as the
 * invoices are; the web host answers the HTML for the browser to open and print.
 */

export const ACCOUNTING_FILES = [
  'sales_journal_pdf', 'sales_journal_xlsx', 'purchase_journal_pdf', 'purchase_journal_xlsx',
  'cash_register_pdf', 'saga_zip', 'documents_csv', 'documents_xlsx', 'archive_zip', 'winmentor_zip',
] as const;
export type AccountingFile = (typeof ACCOUNTING_FILES)[number];

export const zAccountingExportInput = z
  .object({
    file: z.enum(ACCOUNTING_FILES),
    start_date: zDate,
    end_date: zDate,
  })
  .refine((i) => i.end_date >= i.start_date, { path: ['end_date'], message: 'The end date is before the start date.|Data de sfârșit este înaintea datei de început.' });

export const zAccountingExportOutput = z.object({
  /** false: the user cancelled the save dialog, or the web host handed the bytes to the browser. */
  saved: z.boolean(),
  path: z.string().nullable(),
  file_name: z.string(),
  content_type: z.string(),
  /** The web host only: the file's bytes, for the browser to save. */
  base64: z.string().nullable(),
  bytes: z.number().int(),
});

/**
 * The files made by an export job on the service (progress in documents): the long ones. The printable
 * registers stay one `accounting.export` call (HTML printed here).
 */
export const JOB_FILES = ['sales_journal_xlsx', 'purchase_journal_xlsx', 'saga_zip', 'winmentor_zip', 'documents_csv', 'documents_xlsx', 'archive_zip'] as const;
export type AccountingJobFile = (typeof JOB_FILES)[number];
export const isJobFile = (file: AccountingFile): file is AccountingJobFile => (JOB_FILES as readonly string[]).includes(file);

export const zAccountingJobStartInput = z
  .object({
    file: z.enum(JOB_FILES),
    start_date: zDate,
    end_date: zDate,
    /** The screen's id of this request: the Idempotency-Key of the job's POST (a resend starts no second job). */
    request_id: z.string().min(8).max(80),
  })
  .refine((i) => i.end_date >= i.start_date, { path: ['end_date'], message: 'The end date is before the start date.|Data de sfârșit este înaintea datei de început.' });

export const zAccountingJobProgress = z.object({
  job_id: z.string(),
  state: z.enum(['running', 'ready', 'failed']),
  /** Documents written so far, of `total`. */
  done: z.number().int(),
  total: z.number().int(),
  /** When failed: the service's reason, in the app's language. */
  error_message: z.string().nullable(),
});

export const zAccountingJobIdInput = z.object({ job_id: z.string().min(1).max(80) });

const spec = <I extends z.ZodType, O extends z.ZodType>(s: ChannelSpec<I, O>) => s;

export const accountingContract = {
  /** ONLINE. One file of the period: a journal, the cash register, the Saga export, every document, the monthly archive. */
  'accounting.export': spec({ input: zAccountingExportInput, output: zAccountingExportOutput, online: true }),
  /** ONLINE. Starts a long export on the service (a job): its progress is then read with `accounting.jobStatus`. */
  'accounting.jobStart': spec({ input: zAccountingJobStartInput, output: zAccountingJobProgress, online: true }),
  /** ONLINE. How far a job got: documents written of the total. */
  'accounting.jobStatus': spec({ input: zAccountingJobIdInput, output: zAccountingJobProgress, online: true }),
  /** ONLINE. The ready job's file, saved where the user chooses (or handed to the browser), as `accounting.export` does. */
  'accounting.jobSave': spec({ input: zAccountingJobIdInput, output: zAccountingExportOutput, online: true }),
} as const;
