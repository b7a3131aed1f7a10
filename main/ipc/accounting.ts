import type { AccountingFile, AccountingJobFile } from '../../shared/ipc/contract-accounting';
import { zExportJob, type ExportJob, type ExportJobFormat } from '../../shared/schemas/accounting';
import type { DownloadedFile } from '../api/client';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

const JOB_FORMAT: Record<AccountingJobFile, ExportJobFormat> = {
  sales_journal_xlsx: 'sales_journal_xlsx', purchase_journal_xlsx: 'purchase_journal_xlsx', saga_zip: 'saga', winmentor_zip: 'winmentor',
  documents_csv: 'documents_csv', documents_xlsx: 'documents_xlsx', archive_zip: 'archive',
};

/** The whole calendar month of a date (the archive is made per month). */
function monthOf(date: string): { start_date: string; end_date: string } {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start_date: `${date.slice(0, 7)}-01`, end_date: `${date.slice(0, 7)}-${String(last).padStart(2, '0')}` };
}

const progressOf = (job: ExportJob) => ({
  job_id: job.id, state: job.state, done: job.done, total: job.total, error_message: job.error?.message ?? null,
});

/** Where each file of the "Contabilitate" screen comes from on the service, and what it is called here. */
function source(file: AccountingFile, start: string, end: string): { path: string; query: Record<string, string>; name: string; print: boolean } {
  const period = { start_date: start, end_date: end };
  const span = `${start}_${end}`;
  switch (file) {
    case 'sales_journal_pdf': return { path: '/accounting/journals/sales/html', query: period, name: `Jurnal-vanzari_${span}.pdf`, print: true };
    case 'sales_journal_xlsx': return { path: '/accounting/journals/sales/xlsx', query: period, name: `Jurnal-vanzari_${span}.xlsx`, print: false };
    case 'purchase_journal_pdf': return { path: '/accounting/journals/purchases/html', query: period, name: `Jurnal-cumparari_${span}.pdf`, print: true };
    case 'purchase_journal_xlsx': return { path: '/accounting/journals/purchases/xlsx', query: period, name: `Jurnal-cumparari_${span}.xlsx`, print: false };
    case 'cash_register_pdf': return { path: '/accounting/cash-register/html', query: period, name: `Registru-casa_${span}.pdf`, print: true };
    case 'saga_zip': return { path: '/accounting/exports/saga', query: period, name: `Saga_${span}.zip`, print: false };
    case 'winmentor_zip': return { path: '/accounting/exports/winmentor', query: period, name: `WinMentor_${span}.zip`, print: false };
    case 'documents_csv': return { path: '/accounting/exports/documents/csv', query: period, name: `Documente_${span}.csv`, print: false };
    case 'documents_xlsx': return { path: '/accounting/exports/documents/xlsx', query: period, name: `Documente_${span}.xlsx`, print: false };
    case 'archive_zip': return { path: '/accounting/archive', query: { month: start.slice(0, 7) }, name: `Arhiva_${start.slice(0, 7)}.zip`, print: false };
  }
}

export function accountingHandlers(s: MainServices): HandlerGroup<'accounting.export' | 'accounting.jobStart' | 'accounting.jobStatus' | 'accounting.jobSave'> {
  /** The jobs this app started, by id: what to call their file when it is saved. */
  const started = new Map<string, { file: AccountingFile; start: string; end: string }>();

  const save = async (src: ReturnType<typeof source>, got: DownloadedFile) => {
    if (src.print && s.host.savePdf) {
      // The register is HTML from the service: printed to PDF here, as the app prints its invoices.
      const saved = await s.host.savePdf(Buffer.from(got.bytes).toString('utf8'), src.name);
      return { ...saved, file_name: src.name, content_type: 'application/pdf', base64: null, bytes: got.bytes.length };
    }
    const name = src.print ? src.name.replace(/\.pdf$/, '.html') : src.name;
    if (s.host.saveFile) {
      const saved = await s.host.saveFile(got.bytes, name);
      return { ...saved, file_name: name, content_type: got.contentType, base64: null, bytes: got.bytes.length };
    }
    // The web host cannot write to the user's disk: the browser saves (or, for a register, opens to print) what it is given.
    return { saved: false, path: null, file_name: name, content_type: got.contentType, base64: Buffer.from(got.bytes).toString('base64'), bytes: got.bytes.length };
  };

  return {
    'accounting.export': async ({ file, start_date, end_date }) => {
      const src = source(file, start_date, end_date);
      return save(src, await s.engine.downloadFile(src.path, src.query));
    },
    'accounting.jobStart': async ({ file, start_date, end_date, request_id }) => {
      const period = file === 'archive_zip' ? monthOf(start_date) : { start_date, end_date };
      const job = await s.engine.withService(({ api }) => api.request({
        method: 'POST', path: '/accounting/exports/jobs', body: { format: JOB_FORMAT[file], ...period }, create: true, idempotencyKey: request_id,
        schema: zExportJob, priority: 'interactive',
      }));
      started.set(job.id, { file, start: start_date, end: end_date });
      return progressOf(job);
    },
    'accounting.jobStatus': async ({ job_id }) => {
      const job = await s.engine.withService(({ api }) => api.request({
        method: 'GET', path: `/accounting/exports/jobs/${encodeURIComponent(job_id)}`, schema: zExportJob, priority: 'interactive',
      }));
      return progressOf(job);
    },
    'accounting.jobSave': async ({ job_id }) => {
      const got = await s.engine.downloadFile(`/accounting/exports/jobs/${encodeURIComponent(job_id)}/file`, {});
      const known = started.get(job_id);
      // A job this app did not start (another window's): the service's own file name.
      const src = known ? source(known.file, known.start, known.end) : { path: '', query: {}, name: got.fileName ?? 'export', print: false };
      started.delete(job_id);
      return save(src, got);
    },
  };
}
