import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/types';
import type { Clock } from '../../platform/clock';
import type { Locale } from '../../platform/locale';
import { messageFor } from '../../platform/messages';
import type { PdfRenderer } from '../documents-pdf/pdf-renderer';
import type { ExportJob, ExportJobFormat, ExportJobState } from '../../../shared/schemas/accounting';
import { monthlyArchive } from './archive';
import { documentsCsv, documentsXlsx } from './documents-export';
import { firmOf, journalXlsx } from './journal-files';
import type { Period } from './journal-source';
import { sagaZip } from './saga';
import { winMentorZip } from './winmentor';
import type { ExportJobsTable } from './tables';

/**
 * Export jobs: a long export (a month of 100,000 documents takes minutes) made in the background, with
 * its progress counted in documents, then downloaded whole. The file is the same bytes as the direct
 * GET of the same export: the job runs the very same function, with a counter.
 *
 * Where things are kept: the job's row (state, done, total) in the database, so any instance of the
 * service answers its progress; the file on disk under ACCOUNTING_EXPORTS_DIR (default: the system's
 * temporary folder), so instances that share the jobs must share that folder too.
 *
 * A crash or restart never serves half a file: the file is written as `<id>.part` and renamed to its
 * final name only once complete, and the job is `ready` only after that. A job whose process died stops
 * beating (`heartbeat_at`, renewed every few seconds while it runs): once it is stale it is reported
 * `failed` (`export_job_interrupted`) and its partial file is removed.
 */

export const HEARTBEAT_SECONDS = 5;
/** A running job not heard of for this long died with its process. */
export const STALE_SECONDS = 30;
/** Files and rows are kept this long, then removed when the firm starts another job. */
export const KEEP_SECONDS = 24 * 3600;
/** At most this many jobs of one firm run at once. */
export const MAX_RUNNING_PER_FIRM = 3;
/** Progress is written at most this often (ms): each document would be a write per document. */
const PROGRESS_EVERY_MS = 250;

export function exportsDir(): string {
  return process.env.ACCOUNTING_EXPORTS_DIR ?? join(tmpdir(), 'tejghea-export-jobs');
}

const finalPath = (row: Pick<ExportJobsTable, 'company_id' | 'id'>) => join(exportsDir(), row.company_id, `${row.id}.file`);
const partPath = (row: Pick<ExportJobsTable, 'company_id' | 'id'>) => join(exportsDir(), row.company_id, `${row.id}.part`);

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The file of a format: its name (as the direct GET names it), its type, and the export itself with a per-document tick. */
export function exportOf(format: ExportJobFormat, period: Period): { name: string; contentType: string; make: (db: Db, companyId: string, pdf: PdfRenderer | null, tick: () => void) => Promise<Readable> } {
  const span = `${period.start_date}-${period.end_date}`;
  switch (format) {
    case 'sales_journal_xlsx':
    case 'purchase_journal_xlsx': {
      const kind = format === 'sales_journal_xlsx' ? 'sales' : 'purchases';
      return {
        name: `jurnal-${kind === 'sales' ? 'vanzari' : 'cumparari'}-${span}.xlsx`,
        contentType: XLSX,
        make: async (db, companyId, _pdf, tick) => journalXlsx(db, companyId, kind, period, await firmOf(db, companyId), tick),
      };
    }
    case 'saga':
      return { name: `saga-${span}.zip`, contentType: 'application/zip', make: async (db, companyId, _pdf, tick) => sagaZip(db, companyId, period, tick) };
    case 'winmentor':
      return { name: `winmentor-${span}.zip`, contentType: 'application/zip', make: async (db, companyId, _pdf, tick) => winMentorZip(db, companyId, period, tick) };
    case 'documents_csv':
      return { name: `documente-${span}.csv`, contentType: 'text/csv; charset=utf-8', make: async (db, companyId, _pdf, tick) => documentsCsv(db, companyId, period, tick) };
    case 'documents_xlsx':
      return { name: `documente-${span}.xlsx`, contentType: XLSX, make: async (db, companyId, _pdf, tick) => documentsXlsx(db, companyId, period, tick) };
    case 'archive': {
      const month = period.start_date.slice(0, 7);
      return { name: `arhiva-${month}.zip`, contentType: 'application/zip', make: async (db, companyId, pdf, tick) => monthlyArchive(db, companyId, month, pdf, tick) };
    }
  }
}

const inPeriod = (period: Period) => ({ from: period.start_date, to: period.end_date });

async function count(q: { executeTakeFirst(): Promise<{ n: string | number | bigint } | undefined> }): Promise<number> {
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/**
 * How many documents the export of `format` writes: the same selection as each export's own walk, one
 * count per kind of document, so that `done` reaches exactly `total`.
 */
export async function documentTotal(db: Db, companyId: string, format: ExportJobFormat, period: Period): Promise<number> {
  const { from, to } = inPeriod(period);
  const invoices = () => count(db.selectFrom('invoices').select((eb) => eb.fn.countAll().as('n')).where('company_id', '=', companyId)
    .where('document_type', '=', 'fiscal').where('status', 'in', ['issued', 'voided', 'storno']).where('issue_date', '>=', from).where('issue_date', '<=', to));
  const expenses = () => count(db.selectFrom('expenses').innerJoin('suppliers', 'suppliers.id', 'expenses.supplier_id').select((eb) => eb.fn.countAll().as('n'))
    .where('expenses.company_id', '=', companyId).where('expenses.date', '>=', from).where('expenses.date', '<=', to));
  // A received bill in a foreign currency keeps no rate: the journals and the programs' exports leave it out.
  const ronBills = () => count(db.selectFrom('supplier_bills').innerJoin('suppliers', 'suppliers.id', 'supplier_bills.supplier_id').select((eb) => eb.fn.countAll().as('n'))
    .where('supplier_bills.company_id', '=', companyId).where('supplier_bills.expense_id', 'is', null).where('supplier_bills.currency', '=', 'RON')
    .where('supplier_bills.issue_date', '>=', from).where('supplier_bills.issue_date', '<=', to));
  const receipts = () => count(db.selectFrom('receipts').select((eb) => eb.fn.countAll().as('n')).where('company_id', '=', companyId)
    .where('is_draft', '=', 0).where('is_deleted', '=', 0).where('date', '>=', from).where('date', '<=', to));
  const collections = async () => {
    const profile = await db.selectFrom('company_profiles').select('vat_on_collection').where('company_id', '=', companyId).executeTakeFirst();
    if (!profile || !Number(profile.vat_on_collection)) return 0;
    return count(db.selectFrom('payments').innerJoin('invoices', 'invoices.id', 'payments.invoice_id').select((eb) => eb.fn.countAll().as('n'))
      .where('payments.company_id', '=', companyId).where('invoices.document_type', '=', 'fiscal').where('invoices.reverse_charge', '=', 0)
      .where('payments.date', '>=', from).where('payments.date', '<=', to));
  };
  switch (format) {
    case 'sales_journal_xlsx': return (await invoices()) + (await collections());
    case 'purchase_journal_xlsx': return (await expenses()) + (await ronBills());
    case 'saga':
    case 'winmentor': return (await invoices()) + (await expenses()) + (await ronBills());
    case 'documents_csv':
    case 'documents_xlsx': return (await invoices()) + (await expenses()) + (await ronBills()) + (await receipts());
    case 'archive': {
      const bills = await count(db.selectFrom('supplier_bills').select((eb) => eb.fn.countAll().as('n')).where('company_id', '=', companyId)
        .where('issue_date', '>=', from).where('issue_date', '<=', to));
      return (await invoices()) + (await receipts()) + bills;
    }
  }
}

export function jobView(row: ExportJobsTable, locale: Locale, now: number): ExportJob {
  const state = effectiveState(row, now);
  const errorCode = state === 'failed' ? (row.error_code ?? 'export_job_interrupted') : null;
  return {
    object: 'accounting_export_job',
    id: row.id,
    format: row.format,
    start_date: row.start_date,
    end_date: row.end_date,
    state,
    done: Number(row.done),
    total: Number(row.total),
    file: state === 'ready'
      ? { name: row.file_name, content_type: row.content_type, bytes: Number(row.bytes), sha256: row.sha256 ?? '', url: `/v1/accounting/exports/jobs/${row.id}/file` }
      : null,
    error: errorCode ? { code: errorCode, message: messageFor(errorCode, locale) } : null,
    created_at: Number(row.created_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/** A running job that stopped beating is failed, whatever its row still says. */
export function effectiveState(row: Pick<ExportJobsTable, 'state' | 'heartbeat_at'>, now: number): ExportJobState {
  if (row.state === 'running' && Number(row.heartbeat_at) < now - STALE_SECONDS) return 'failed';
  return row.state;
}

/** Records a dead job as failed (once: the update is conditional) and removes its partial file. */
export async function settleStale(db: Db, row: ExportJobsTable, now: number): Promise<void> {
  if (row.state !== 'running' || effectiveState(row, now) !== 'failed') return;
  await db.updateTable('accounting_export_jobs').set({ state: 'failed', error_code: 'export_job_interrupted', finished_at: now })
    .where('id', '=', row.id).where('state', '=', 'running').where('heartbeat_at', '=', row.heartbeat_at).execute();
  await rm(partPath(row), { force: true });
}

/** Removes a firm's jobs (rows and files) older than KEEP_SECONDS. */
export async function dropOldJobs(db: Db, companyId: string, now: number): Promise<void> {
  const old = await db.selectFrom('accounting_export_jobs').select(['id', 'company_id']).where('company_id', '=', companyId)
    .where('created_at', '<', now - KEEP_SECONDS).where('state', '!=', 'running').execute();
  for (const row of old) {
    await rm(finalPath(row), { force: true });
    await rm(partPath(row), { force: true });
  }
  if (old.length) await db.deleteFrom('accounting_export_jobs').where('id', 'in', old.map((r) => r.id)).execute();
}

/**
 * Runs a job to its end: the export streamed into `<id>.part` (hashed and counted on the way), renamed
 * once whole, then the row marked ready. Never throws: a failure is the job's state.
 */
export async function runJob(db: Db, clock: Clock, pdf: PdfRenderer | null, row: ExportJobsTable): Promise<void> {
  const period = { start_date: row.start_date, end_date: row.end_date };
  const spec = exportOf(row.format, period);
  let done = 0;
  let written = 0;
  let lastWrite = 0;
  let saving: Promise<unknown> = Promise.resolve();
  const save = (force: boolean) => {
    const at = Date.now();
    if (!force && at - lastWrite < PROGRESS_EVERY_MS) return;
    lastWrite = at;
    const value = done;
    // One write at a time, in order: a later count never lands before an earlier one.
    saving = saving.then(() => db.updateTable('accounting_export_jobs').set({ done: value, heartbeat_at: clock.now() })
      .where('id', '=', row.id).where('state', '=', 'running').execute()).catch(() => undefined);
  };
  const beat = setInterval(() => save(true), HEARTBEAT_SECONDS * 1000);
  beat.unref();
  const part = partPath(row);
  try {
    await mkdir(join(exportsDir(), row.company_id), { recursive: true });
    const hash = createHash('sha256');
    const stream = await spec.make(db, row.company_id, pdf, () => {
      done += 1;
      save(false);
    });
    await pipeline(
      stream,
      new Transform({
        transform(chunk: Buffer, _enc, cb) {
          hash.update(chunk);
          written += chunk.length;
          cb(null, chunk);
        },
      }),
      createWriteStream(part),
    );
    clearInterval(beat);
    await saving;
    await rename(part, finalPath(row));
    await db.updateTable('accounting_export_jobs')
      .set({ state: 'ready', done: Math.max(done, Number(row.total)), bytes: written, sha256: hash.digest('hex'), heartbeat_at: clock.now(), finished_at: clock.now() })
      .where('id', '=', row.id).where('state', '=', 'running').execute();
  } catch {
    // The cause stays in the service's log only through the export's own error handling; the client gets the code.
    clearInterval(beat);
    await saving;
    await rm(part, { force: true }).catch(() => undefined);
    await db.updateTable('accounting_export_jobs').set({ state: 'failed', error_code: 'export_job_failed', done, heartbeat_at: clock.now(), finished_at: clock.now() })
      .where('id', '=', row.id).where('state', '=', 'running').execute().catch(() => undefined);
  }
}

/** The ready file, checked against its row (size): a file missing or cut short is never served. */
export async function readyFile(row: ExportJobsTable): Promise<Readable | null> {
  const path = finalPath(row);
  const info = await stat(path).catch(() => null);
  if (!info || info.size !== Number(row.bytes)) return null;
  return createReadStream(path);
}
