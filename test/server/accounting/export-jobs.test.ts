import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { newFirm, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { seedOctober } from './export-fixture';
import { documentTotal, exportOf } from '../../../server/modules/accounting/export-jobs';
import type { ExportJobFormat } from '../../../shared/schemas/accounting';

/**
 * Export jobs: a long export made in the background with its progress in documents. The job's file is
 * the same bytes as the direct export; `done` climbs one per document from 0 to `total`; another firm
 * cannot see the job; a job whose process died is failed and its partial file never served.
 */

// Every job of this file writes under a folder of its own (read by the service at each job).
process.env.ACCOUNTING_EXPORTS_DIR = mkdtempSync(join(tmpdir(), 'tejghea-jobs-test-'));

const PERIOD = { start_date: '2026-10-01', end_date: '2026-10-31' };
const DIRECT: Partial<Record<ExportJobFormat, string>> = {
  sales_journal_xlsx: '/accounting/journals/sales/xlsx?start_date=2026-10-01&end_date=2026-10-31',
  purchase_journal_xlsx: '/accounting/journals/purchases/xlsx?start_date=2026-10-01&end_date=2026-10-31',
  documents_xlsx: '/accounting/exports/documents/xlsx?start_date=2026-10-01&end_date=2026-10-31',
  documents_csv: '/accounting/exports/documents/csv?start_date=2026-10-01&end_date=2026-10-31',
  saga: '/accounting/exports/saga?start_date=2026-10-01&end_date=2026-10-31',
  winmentor: '/accounting/exports/winmentor?start_date=2026-10-01&end_date=2026-10-31',
  archive: '/accounting/archive?month=2026-10',
};

interface Job { id: string; state: string; done: number; total: number; file: { name: string; bytes: number; sha256: string; url: string } | null; error: { code: string; message: string } | null }

describe.each(DIALECTS)('accounting export jobs (%s)', (dialect) => {
  let server: TestServer;
  let firm: Firm;
  let other: Firm;

  const get = async (f: Firm, path: string) => {
    const res = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${f.key}` } });
    return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const untilDone = async (id: string): Promise<Job> => {
    for (let i = 0; i < 600; i += 1) {
      const job = (await firm.ok('GET', `/accounting/exports/jobs/${id}`)) as Job;
      if (job.state !== 'running') return job;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`job ${id} still running`);
  };

  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
    firm = await newFirm(server);
    other = await newFirm(server);
    await seedOctober(firm);
    await firm.ok('POST', '/receipt-series', {});
    await firm.ok('POST', '/receipts', { client_name: 'Ion Popescu', amount: 20, payment_date: '2026-10-05' });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it.each(Object.keys(DIRECT) as ExportJobFormat[])('%s: starts at 0 of total, ends ready at total, and its file is the direct export\'s bytes', async (format) => {
    const started = await firm.call('POST', '/accounting/exports/jobs', { format, ...PERIOD });
    expect(started.status).toBe(202);
    const job = started.body.data as Job;
    expect(job).toMatchObject({ state: 'running', done: 0, file: null, error: null });
    // seedOctober: 4 issued (one a storno), 2 expenses, 1 bill entered by hand; plus one chitanță. The XLSX files
    // carry no timestamp (our writer), so they too are the direct export's bytes.
    const expected = { sales_journal_xlsx: 4, purchase_journal_xlsx: 3, documents_csv: 8, documents_xlsx: 8, saga: 7, winmentor: 7, archive: 6 }[format as 'saga'];
    expect(job.total).toBe(expected);
    const done = await untilDone(job.id);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ state: 'ready', done: expected, total: expected });
    const file = await get(firm, `/accounting/exports/jobs/${job.id}/file`);
    expect(file.status).toBe(200);
    const direct = await get(firm, DIRECT[format]!);
    expect(direct.status).toBe(200);
    expect(Buffer.from(file.bytes).equals(Buffer.from(direct.bytes))).toBe(true);
    expect(done.file!.bytes).toBe(file.bytes.length);
    expect(done.file!.sha256).toBe(createHash('sha256').update(file.bytes).digest('hex'));
    if (format !== 'documents_csv') expect(Object.keys(unzipSync(file.bytes)).length).toBeGreaterThan(0);
  }, 120_000);

  it('counts one tick per document written, from 1 to the total counted beforehand, for every format', async () => {
    const formats: ExportJobFormat[] = ['sales_journal_xlsx', 'purchase_journal_xlsx', 'saga', 'winmentor', 'documents_csv', 'documents_xlsx', 'archive'];
    for (const format of formats) {
      const seen: number[] = [];
      let n = 0;
      const stream = await exportOf(format, PERIOD).make(server.storage.db, firm.companyId, null, () => seen.push((n += 1)));
      for await (const chunk of stream) void chunk;
      const total = await documentTotal(server.storage.db, firm.companyId, format, PERIOD);
      expect(total, format).toBeGreaterThan(0);
      expect(seen, format).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    }
  }, 120_000);

  it('belongs to its firm: another firm gets 404 for the job and its file', async () => {
    const job = (await firm.ok('POST', '/accounting/exports/jobs', { format: 'documents_csv', ...PERIOD })) as Job;
    await untilDone(job.id);
    const seen = await other.call('GET', `/accounting/exports/jobs/${job.id}`);
    expect(seen.status).toBe(404);
    expect(seen.body.error.code).toBe('resource_missing');
    expect((await get(other, `/accounting/exports/jobs/${job.id}/file`)).status).toBe(404);
    // The other firm's own export of the same period is its own (empty) one.
    const own = (await other.ok('POST', '/accounting/exports/jobs', { format: 'documents_csv', ...PERIOD })) as Job;
    expect(own.total).toBe(0);
    const done = (await other.ok('GET', `/accounting/exports/jobs/${own.id}`)) as Job;
    expect(['running', 'ready']).toContain(done.state);
  }, 60_000);

  it('a job whose service died is failed, in Romanian, and its partial file is never served', async () => {
    const id = `expjob_dead${dialect}`;
    await server.storage.db.insertInto('accounting_export_jobs').values({
      id, company_id: firm.companyId, format: 'archive', start_date: '2026-10-01', end_date: '2026-10-31', state: 'running', done: 3, total: 6,
      file_name: 'arhiva-2026-10.zip', content_type: 'application/zip', bytes: null, sha256: null, error_code: null,
      heartbeat_at: server.clock.now() - 120, created_at: server.clock.now() - 200, finished_at: null,
    }).execute();
    const dir = join(process.env.ACCOUNTING_EXPORTS_DIR!, firm.companyId);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.part`), 'PK half a zip');
    const res = await firm.call('GET', `/accounting/exports/jobs/${id}?locale=ro`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ state: 'failed', done: 3, total: 6, file: null, error: { code: 'export_job_interrupted' } });
    expect((res.body.data as Job).error!.message).toMatch(/serviciul/);
    const file = await firm.call('GET', `/accounting/exports/jobs/${id}/file`);
    expect(file.status).toBe(409);
    expect(file.body.error.code).toBe('export_job_not_ready');
    expect(existsSync(join(dir, `${id}.part`))).toBe(false);
    const row = await server.storage.db.selectFrom('accounting_export_jobs').select(['state', 'error_code']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'failed', error_code: 'export_job_interrupted' });
  });

  it('refuses an archive of less than a whole month and an unknown format, with no 5xx', async () => {
    const part = await firm.call('POST', '/accounting/exports/jobs', { format: 'archive', start_date: '2026-10-01', end_date: '2026-10-15' });
    expect(part.status).toBe(422);
    expect(part.body.error.param).toBe('end_date');
    const unknown = await firm.call('POST', '/accounting/exports/jobs', { format: 'pdf', ...PERIOD });
    expect(unknown.status).toBe(422);
    expect((await firm.call('GET', '/accounting/exports/jobs/expjob_nope')).status).toBe(404);
  });
});
