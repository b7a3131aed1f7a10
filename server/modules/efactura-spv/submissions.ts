import { AnafError, AnafOAuthError, type EfacturaClient } from '../../anaf/index';
import { ApiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { isUniqueViolation } from '../../platform/db-errors';
import { parseUblInvoice, toUblXml, type ParsedUblInvoice } from '../../efactura/index';
import { anafDetail, toApiError } from './anaf-errors';
import { invoiceToDocument, type InvoiceSource } from './invoice-document';
import { requireAnaf, tokenSource, type EfacturaServices } from './token-store';
import { activeKey, mirrorOnInvoice, type SubmissionRow } from './submission-store';
import type { SubmissionStatusColumn } from './tables';

/**
 * The life of an e-Factura submission. Rules that keep an invoice from reaching ANAF twice:
 * - one live submission per invoice and environment, enforced by a unique column (`active_key`);
 * - the upload runs outside any transaction; its outcome is written after;
 * - an upload whose fate is unknown (timeout, dropped connection, a 5xx after sending) is never
 *   repeated blindly: the poller first looks for it in ANAF's list of sent invoices, and uploads
 *   again only when it is not there after a grace period;
 * - an upload ANAF provably did not take (connection refused, 503, a quota answer) is retried with
 *   backoff, and given up (`failed`) after MAX_UPLOAD_ATTEMPTS.
 */

/** Seconds before the n-th status poll (stareMesaj); ANAF usually answers within minutes. */
const POLL_DELAYS = [60, 120, 300, 600, 1800, 3600];
/** Seconds before the n-th upload retry. */
const RETRY_DELAYS = [300, 900, 1800, 3600, 7200];
export const MAX_UPLOAD_ATTEMPTS = 6;
/** After an upload of unknown fate: how long ANAF gets to list it before we upload again. */
export const UNCERTAIN_GRACE_SECONDS = 30 * 60;
/** A row still `uploading` after this long belongs to a process that died mid-upload. */
const STUCK_UPLOADING_SECONDS = 10 * 60;
/** A poller holds a row this long while it works on it (other pollers skip it). */
const LEASE_SECONDS = 120;
/** Polls of a status ANAF keeps refusing (unknown index) before giving up. */
const MAX_STATUS_ERRORS = 10;
/** Sent-invoice messages downloaded per reconciliation, newest first. */
const RECONCILE_CANDIDATES = 25;

function parseUblInvoiceSafe(xml: string): ParsedUblInvoice | null {
  try {
    return parseUblInvoice(xml);
  } catch {
    return null;
  }
}

const delay = (table: number[], n: number) => table[Math.min(Math.max(n, 0), table.length - 1)]!;

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function networkCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

type Outcome =
  | { kind: 'uploaded'; index: string }
  /** ANAF refused the file itself (ExecutionStatus=1): a verdict, with its words. */
  | { kind: 'rejected'; messages: string[] }
  /** Provably not taken: safe to upload again. */
  | { kind: 'not_received'; error: unknown }
  /** May or may not have been taken. */
  | { kind: 'uncertain'; error: unknown }
  /** Our side cannot authenticate: retrying will not help until someone acts. */
  | { kind: 'fatal'; error: unknown };

function classify(error: unknown): Outcome {
  if (error instanceof ApiError || error instanceof AnafOAuthError) return { kind: 'fatal', error };
  if (!(error instanceof AnafError)) return { kind: 'uncertain', error };
  switch (error.kind) {
    case 'auth':
      return { kind: 'fatal', error };
    case 'rejected':
      return { kind: 'rejected', messages: error.anafMessages.length ? error.anafMessages : [error.message] };
    case 'unavailable': {
      // An answer from ANAF saying it is over quota or down, or a connection that never opened.
      const answered = error.status === 200 || error.status === 503 || error.status === 429 || error.status === 204;
      const neverSent = error.status === undefined && NEVER_SENT.has(networkCode(error.cause) ?? '');
      return answered || neverSent ? { kind: 'not_received', error } : { kind: 'uncertain', error };
    }
    default:
      return { kind: 'uncertain', error };
  }
}

function errorText(error: unknown): string {
  if (error instanceof AnafError) return anafDetail(error);
  if (error instanceof ApiError) return error.code;
  return error instanceof Error ? error.message.slice(0, 500) : String(error);
}

function client(services: EfacturaServices, row: Pick<SubmissionRow, 'environment' | 'company_id'>): EfacturaClient {
  return requireAnaf(services, 'e-Factura').efactura(row.environment, row.company_id, tokenSource(services));
}

async function companyCui(services: EfacturaServices, companyId: string): Promise<string> {
  const c = await services.storage.db.selectFrom('companies').select('cui').where('id', '=', companyId).executeTakeFirstOrThrow();
  return c.cui;
}

async function update(services: EfacturaServices, id: string, values: Partial<SubmissionRow>): Promise<SubmissionRow> {
  const db = services.storage.db;
  await db.updateTable('efactura_submissions').set(values).where('id', '=', id).execute();
  return db.selectFrom('efactura_submissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Moves a submission to `status`, mirroring it on the invoice. */
async function settle(services: EfacturaServices, row: SubmissionRow, status: SubmissionStatusColumn, values: Partial<SubmissionRow>, now: number): Promise<SubmissionRow> {
  const ended = status === 'rejected' || status === 'failed';
  const next = await update(services, row.id, {
    ...values,
    status,
    ...(ended ? { active_key: null, finished_at: now, next_check_at: null } : {}),
    updated_at: now,
  });
  await mirrorOnInvoice(services.storage.db, next, status, now);
  return next;
}

export interface AttemptResult {
  row: SubmissionRow;
  /** What to tell the caller of send-to-spv when the attempt did not reach a verdict or an index. */
  error: unknown;
}

/**
 * One upload of a submission's XML. The row is marked `uploading` first (with the attempt counted),
 * so a crash mid-upload is recognised later as an upload of unknown fate.
 */
export async function attemptUpload(services: EfacturaServices, row: SubmissionRow, now: number): Promise<AttemptResult> {
  const attempts = Number(row.attempts) + 1;
  let current = await update(services, row.id, { status: 'uploading', attempts, attempt_started_at: now, updated_at: now, next_check_at: null });
  await mirrorOnInvoice(services.storage.db, current, 'uploading', now);
  let outcome: Outcome;
  try {
    const cif = await companyCui(services, row.company_id);
    const result = await client(services, row).upload(row.xml, {
      cif,
      standard: row.upload_standard as 'UBL',
      ...(Number(row.upload_b2c) ? { b2c: true } : {}),
      ...(Number(row.upload_extern) ? { extern: true } : {}),
    });
    outcome = { kind: 'uploaded', index: result.uploadIndex };
  } catch (error) {
    outcome = classify(error);
  }
  const at = services.clock.now();
  switch (outcome.kind) {
    case 'uploaded':
      current = await settle(services, current, 'uploaded', {
        upload_index: outcome.index, uploaded_at: at, uncertain: 0, polls: 0, last_error: null, message: '', next_check_at: at + delay(POLL_DELAYS, 0),
      }, at);
      return { row: current, error: null };
    case 'rejected':
      current = await settle(services, current, 'rejected', { errors_json: JSON.stringify(outcome.messages), message: outcome.messages.join('; ').slice(0, 2000), uncertain: 0 }, at);
      return { row: current, error: null };
    case 'fatal':
      current = await settle(services, current, 'failed', { message: errorText(outcome.error), last_error: errorText(outcome.error) }, at);
      return { row: current, error: outcome.error };
    case 'not_received':
    case 'uncertain': {
      const text = errorText(outcome.error);
      const uncertain = outcome.kind === 'uncertain' || Number(row.uncertain) === 1;
      if (attempts >= MAX_UPLOAD_ATTEMPTS && !uncertain) {
        current = await settle(services, current, 'failed', { message: text, last_error: text }, at);
      } else {
        current = await settle(services, current, 'retrying', {
          message: text,
          last_error: text,
          uncertain: uncertain ? 1 : 0,
          next_check_at: at + (outcome.kind === 'uncertain' ? 5 * 60 : delay(RETRY_DELAYS, attempts - 1)),
        }, at);
      }
      return { row: current, error: outcome.error };
    }
  }
}

export interface CreatedSubmission {
  row: SubmissionRow;
  /** true when a live submission already existed and was returned instead. */
  existing: boolean;
  error: unknown;
}

/** send-to-spv: the live submission of the invoice in `environment`, or a new one and its first upload. */
export async function submitInvoice(services: EfacturaServices, source: InvoiceSource, environment: 'test' | 'prod', workPointId: string, now: number): Promise<CreatedSubmission> {
  const db = services.storage.db;
  const key = activeKey(source.invoice.id, environment);
  const live = await db.selectFrom('efactura_submissions').selectAll().where('active_key', '=', key).executeTakeFirst();
  if (live) return { row: live, existing: true, error: null };
  const mapped = invoiceToDocument(source);
  const xml = toUblXml(mapped.document);
  const id = newId('efs');
  try {
    await db
      .insertInto('efactura_submissions')
      .values({
        id,
        company_id: source.invoice.company_id,
        work_point_id: workPointId,
        invoice_id: source.invoice.id,
        invoice_number: source.invoice.full_number ?? '',
        environment,
        status: 'uploading',
        active_key: key,
        xml,
        upload_standard: mapped.upload.standard,
        upload_b2c: mapped.upload.b2c ? 1 : 0,
        upload_extern: mapped.upload.extern ? 1 : 0,
        upload_index: null,
        download_id: null,
        uncertain: 0,
        attempts: 0,
        polls: 0,
        message: '',
        errors_json: '[]',
        answer_zip: null,
        next_check_at: null,
        last_error: null,
        attempt_started_at: now,
        uploaded_at: null,
        finished_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  } catch (error) {
    // Another request claimed the invoice between our read and our insert: that one is the submission.
    if (!isUniqueViolation(error)) throw error;
    const winner = await db.selectFrom('efactura_submissions').selectAll().where('active_key', '=', key).executeTakeFirst();
    if (!winner) throw error;
    return { row: winner, existing: true, error: null };
  }
  const row = await db.selectFrom('efactura_submissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const attempt = await attemptUpload(services, row, now);
  return { row: attempt.row, existing: false, error: attempt.error };
}

/** The caller-facing error of an attempt that ended without an index or a verdict. */
export function attemptError(row: SubmissionRow, error: unknown): unknown {
  const mapped = toApiError(error);
  if (mapped instanceof ApiError && (mapped.code === 'anaf_unavailable' || mapped.code === 'anaf_timeout') && row.status === 'retrying') {
    const detail = `${String(mapped.options.vars?.detail ?? '')} (submission ${row.id} is retried automatically)`;
    return new ApiError(mapped.status, mapped.type, mapped.code, { ...mapped.options, vars: { ...mapped.options.vars, detail } });
  }
  return mapped;
}

// ---- the poller ----------------------------------------------------------------------------------

/** Looks for an upload of unknown fate among ANAF's sent-invoice messages; its upload index when found. */
async function findInSentList(services: EfacturaServices, row: SubmissionRow, now: number): Promise<{ index: string; downloadId: string } | null> {
  const db = services.storage.db;
  const anaf = client(services, row);
  const cif = await companyCui(services, row.company_id);
  const since = Number(row.attempt_started_at ?? row.created_at);
  const days = Math.min(60, Math.max(1, Math.ceil((now - since) / 86_400) + 1));
  const list = await anaf.listMessages({ days, cif, filter: 'T' });
  const known = new Set(
    (await db.selectFrom('efactura_submissions').select('upload_index').where('company_id', '=', row.company_id).where('upload_index', 'is not', null).execute()).map(
      (r) => r.upload_index,
    ),
  );
  const candidates = list.messages.filter((m) => m.id_solicitare && !known.has(m.id_solicitare)).slice(0, RECONCILE_CANDIDATES);
  const mine = parseUblInvoiceSafe(row.xml);
  for (const m of candidates) {
    const answer = await anaf.download(m.id);
    if (answer.kind !== 'invoice') continue;
    if (answer.main.xml === row.xml) return { index: m.id_solicitare!, downloadId: m.id };
    const theirs = parseUblInvoiceSafe(answer.main.xml);
    if (mine && theirs && theirs.invoice_number === mine.invoice_number && theirs.issue_date === mine.issue_date && theirs.supplier.cui === mine.supplier.cui) {
      return { index: m.id_solicitare!, downloadId: m.id };
    }
  }
  return null;
}

async function pollStatus(services: EfacturaServices, row: SubmissionRow, now: number): Promise<void> {
  const anaf = client(services, row);
  const state = await anaf.messageStatus(row.upload_index!);
  const polls = Number(row.polls) + 1;
  if (state.state === 'in prelucrare') {
    await settle(services, row, 'processing', { polls, last_error: null, next_check_at: now + delay(POLL_DELAYS, polls) }, now);
    return;
  }
  if (state.state === 'XML cu erori nepreluat de sistem') {
    await settle(services, row, 'rejected', { polls, message: state.state, errors_json: JSON.stringify([state.state]) }, now);
    return;
  }
  // ok or nok: the verdict is in the ZIP (the signed invoice, or ANAF's error report).
  const answer = await anaf.download(state.downloadId);
  const zip = Buffer.from(answer.zip).toString('base64');
  if (state.state === 'ok') {
    await settle(services, row, 'accepted', { polls, download_id: state.downloadId, answer_zip: zip, finished_at: now, next_check_at: null, last_error: null, message: '' }, now);
  } else {
    const errors = answer.kind === 'errors' && answer.errors.length ? answer.errors : ['ANAF rejected the invoice without listing errors'];
    await settle(services, row, 'rejected', { polls, download_id: state.downloadId, answer_zip: zip, errors_json: JSON.stringify(errors), message: errors.join('; ').slice(0, 2000) }, now);
  }
}

async function retry(services: EfacturaServices, row: SubmissionRow, now: number): Promise<void> {
  if (Number(row.uncertain)) {
    const found = await findInSentList(services, row, now);
    if (found) {
      // ANAF has it, and the sent list holds only accepted invoices: adopt its verdict.
      const answer = await client(services, row).download(found.downloadId);
      await settle(services, row, 'accepted', {
        upload_index: found.index, download_id: found.downloadId, answer_zip: Buffer.from(answer.zip).toString('base64'),
        uncertain: 0, uploaded_at: row.uploaded_at ?? now, finished_at: now, next_check_at: null, last_error: null, message: '',
      }, now);
      return;
    }
    const since = Number(row.attempt_started_at ?? row.created_at);
    if (now - since < UNCERTAIN_GRACE_SECONDS) {
      await update(services, row.id, { next_check_at: Math.min(now + 5 * 60, since + UNCERTAIN_GRACE_SECONDS), updated_at: now });
      return;
    }
  }
  await attemptUpload(services, row, now);
}

export interface PollReport {
  checked: number;
  errors: Array<{ submission_id: string; error: string }>;
}

/**
 * One pass over the submissions due now: uploads waiting for a verdict are polled, uploads that
 * failed in transit are reconciled or retried. Called by the timer of serve.ts and by tests; safe
 * to run in several processes at once (each row is leased before it is worked on).
 */
export async function pollSubmissions(services: EfacturaServices, now: number): Promise<PollReport> {
  const db = services.storage.db;
  const report: PollReport = { checked: 0, errors: [] };
  if (!services.anaf?.oauth) return report;
  await db
    .updateTable('efactura_submissions')
    .set({ status: 'retrying', uncertain: 1, next_check_at: now, updated_at: now })
    .where('status', '=', 'uploading')
    .where('attempt_started_at', '<', now - STUCK_UPLOADING_SECONDS)
    .execute();
  const due = await db
    .selectFrom('efactura_submissions')
    .selectAll()
    .where('status', 'in', ['uploaded', 'processing', 'retrying'])
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(100)
    .execute();
  for (const row of due) {
    const leased = await db
      .updateTable('efactura_submissions')
      .set({ next_check_at: now + LEASE_SECONDS })
      .where('id', '=', row.id)
      .where('next_check_at', '=', row.next_check_at)
      .executeTakeFirst();
    if (Number(leased.numUpdatedRows) !== 1) continue;
    report.checked += 1;
    try {
      if (row.status === 'retrying') await retry(services, row, now);
      else await pollStatus(services, row, now);
    } catch (error) {
      const text = errorText(error);
      report.errors.push({ submission_id: row.id, error: text });
      const polls = Number(row.polls) + 1;
      const giveUp = row.status !== 'retrying' && error instanceof AnafError && error.kind === 'rejected' && polls >= MAX_STATUS_ERRORS;
      if (giveUp) await settle(services, row, 'failed', { polls, message: text, last_error: text }, now);
      else await update(services, row.id, { polls, last_error: text, next_check_at: now + delay(POLL_DELAYS, polls), updated_at: now });
    }
  }
  return report;
}
