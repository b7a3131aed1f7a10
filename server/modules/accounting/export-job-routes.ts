import { z } from 'zod';
import { defineRoute, binaryReply } from '../../platform/route';
import { ApiError, conflict, notFound, validationFailed } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { zExportJob, zExportJobCreate } from '../../../shared/schemas/accounting';
import { monthPeriod } from './archive';
import { checkedPeriod } from './journal-routes';
import { documentTotal, dropOldJobs, effectiveState, exportOf, jobView, MAX_RUNNING_PER_FIRM, readyFile, runJob, settleStale, STALE_SECONDS } from './export-jobs';
import type { ExportJobsTable } from './tables';
import type { Db } from '../../db/types';
import './messages';

const JOB_DOC =
  'Our design. A long export made in the background, so that a client can show real progress: `POST` starts it and answers 202 with the job; ' +
  '`GET /accounting/exports/jobs/{id}` gives `state` (`running`, `ready`, `failed`), `done` and `total` in documents (`total` counted when the job ' +
  'started, `done` updated as documents are written), and, once `ready`, `file` with its name, size, SHA-256 and `url`; the file is then at ' +
  '`GET /accounting/exports/jobs/{id}/file`, the same bytes as the direct export of the same format and period. Jobs belong to the firm of the key: ' +
  'another firm\'s job is 404. A job whose service stopped while it ran is `failed` (`export_job_interrupted`) and its partial file is never served. ' +
  'Files are kept 24 hours.';

const idParams = z.object({ id: z.string() });

async function jobOf(ctx: { db: Db; companyId: string; now: number }, id: string): Promise<ExportJobsTable> {
  const row = await ctx.db.selectFrom('accounting_export_jobs').selectAll().where('id', '=', id).where('company_id', '=', ctx.companyId).executeTakeFirst();
  if (!row) throw notFound('id');
  await settleStale(ctx.db, row, ctx.now);
  return row;
}

export const createExportJob = defineRoute({
  method: 'POST',
  path: '/accounting/exports/jobs',
  operationId: 'createAccountingExportJob',
  summary: 'Start an export in the background, with its progress',
  description:
    `${JOB_DOC} \`format\`: \`sales_journal_xlsx\`, \`purchase_journal_xlsx\`, \`saga\`, \`winmentor\`, \`documents_csv\`, \`documents_xlsx\`, or \`archive\` ` +
    '(the monthly archive: the period must be one whole calendar month). At most 3 jobs of a firm run at once (409 `export_jobs_busy`).',
  tags: ['accounting'],
  scope: 'accounting:read',
  create: true,
  successStatus: 202,
  body: zExportJobCreate,
  response: zExportJob,
  errors: { export_jobs_busy: 409 },
  handler: async (ctx) => {
    const b = checkedPeriod(ctx.body);
    if (b.format === 'archive') {
      const whole = monthPeriod(b.start_date.slice(0, 7));
      if (b.start_date !== whole.start_date || b.end_date !== whole.end_date) {
        throw validationFailed({ end_date: 'The archive is made for one whole calendar month.|Arhiva se face pentru o lună calendaristică întreagă.' });
      }
    }
    await dropOldJobs(ctx.db, ctx.companyId, ctx.now);
    const running = await ctx.db.selectFrom('accounting_export_jobs').selectAll().where('company_id', '=', ctx.companyId).where('state', '=', 'running').execute();
    if (running.filter((r) => effectiveState(r, ctx.now) === 'running').length >= MAX_RUNNING_PER_FIRM) throw conflict('export_jobs_busy');
    const spec = exportOf(b.format, b);
    const row: ExportJobsTable = {
      id: newId('expjob'), company_id: ctx.companyId, format: b.format, start_date: b.start_date, end_date: b.end_date, state: 'running', done: 0,
      total: await documentTotal(ctx.db, ctx.companyId, b.format, b), file_name: spec.name, content_type: spec.contentType, bytes: null, sha256: null,
      error_code: null, heartbeat_at: ctx.now, created_at: ctx.now, finished_at: null,
    };
    await ctx.db.insertInto('accounting_export_jobs').values(row).execute();
    // Not awaited: the job outlives the request; its row says how far it got.
    void runJob(ctx.db, ctx.services.clock, ctx.services.pdf ?? null, row);
    return jobView(row, ctx.locale, ctx.now);
  },
});

export const getExportJob = defineRoute({
  method: 'GET',
  path: '/accounting/exports/jobs/:id',
  operationId: 'getAccountingExportJob',
  summary: 'An export job: its state, its progress in documents, its file once ready',
  description: JOB_DOC,
  tags: ['accounting'],
  scope: 'accounting:read',
  params: idParams,
  response: zExportJob,
  errors: { resource_missing: 404 },
  handler: async (ctx) => jobView(await jobOf(ctx, ctx.params.id), ctx.locale, ctx.now),
});

export const getExportJobFile = defineRoute({
  method: 'GET',
  path: '/accounting/exports/jobs/:id/file',
  operationId: 'getAccountingExportJobFile',
  summary: 'The file of a ready export job',
  description:
    `${JOB_DOC} 409 \`export_job_not_ready\` while the job runs or after it failed; 410 \`export_job_file_gone\` once the file was removed (or, ` +
    `with several instances, when this one cannot see it). A running job not heard of for ${STALE_SECONDS} s is failed.`,
  tags: ['accounting'],
  scope: 'accounting:read',
  params: idParams,
  response: z.unknown(),
  produces: 'application/octet-stream',
  errors: { resource_missing: 404, export_job_not_ready: 409, export_job_file_gone: 410 },
  handler: async (ctx) => {
    const row = await jobOf(ctx, ctx.params.id);
    if (effectiveState(row, ctx.now) !== 'ready') throw conflict('export_job_not_ready', 'id');
    const file = await readyFile(row);
    if (!file) throw new ApiError(410, 'invalid_request_error', 'export_job_file_gone', { param: 'id' });
    return binaryReply(row.content_type, file, row.file_name);
  },
});

export const exportJobRoutes = [createExportJob, getExportJob, getExportJobFile];
