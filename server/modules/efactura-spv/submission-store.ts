import type { Selectable } from 'kysely';
import type { Db } from '../../db/types';
import type { Locale } from '../../platform/locale';
import type { EfacturaSubmission, SubmissionStatus } from '../../../shared/schemas/efactura';
import { SUBMISSION_MESSAGES } from './messages';
import type { EfacturaSubmissionsTable } from './tables';
import { emitEvent } from '../webhooks/events';

export type SubmissionRow = Selectable<EfacturaSubmissionsTable>;

/** Statuses that hold the invoice's slot: no second upload while one of these exists. */
export const LIVE_STATUSES: readonly SubmissionStatus[] = ['uploading', 'uploaded', 'processing', 'retrying', 'accepted'];

export const activeKey = (invoiceId: string, environment: 'test' | 'prod') => `${invoiceId}:${environment}`;

/** The environment whose verdict the invoice's own `efactura_status` reflects. */
export const invoiceEnvironment = (spvEnvironment: string): 'test' | 'prod' => (spvEnvironment === 'test' ? 'test' : 'prod');

export function submissionMessage(row: Pick<SubmissionRow, 'status' | 'message' | 'upload_index' | 'download_id'>, locale: Locale): string {
  const template = SUBMISSION_MESSAGES[row.status][locale];
  const vars: Record<string, string> = { index: row.upload_index ?? '-', download: row.download_id ?? '-', detail: row.message || '-' };
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

export function submissionView(row: SubmissionRow, locale: Locale): EfacturaSubmission {
  return {
    id: row.id,
    object: 'efactura_submission',
    invoice_id: row.invoice_id,
    invoice_number: row.invoice_number,
    environment: row.environment,
    status: row.status,
    message: submissionMessage(row, locale),
    upload_index: row.upload_index,
    download_id: row.download_id,
    errors: JSON.parse(row.errors_json) as string[],
    attempts: Number(row.attempts),
    next_check_at: row.next_check_at === null ? null : Number(row.next_check_at),
    uploaded_at: row.uploaded_at === null ? null : Number(row.uploaded_at),
    finished_at: row.finished_at === null ? null : Number(row.finished_at),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

const INVOICE_STATUS: Record<SubmissionStatus, 'not_sent' | 'pending' | 'accepted' | 'rejected'> = {
  uploading: 'pending',
  uploaded: 'pending',
  processing: 'pending',
  retrying: 'pending',
  accepted: 'accepted',
  rejected: 'rejected',
  failed: 'not_sent',
};

/**
 * Mirrors a submission on the invoice's `efactura_status` (a column of the invoicing module) when
 * the submission is in the invoice's own environment; a test-mode run of a live invoice stays off it.
 */
export async function mirrorOnInvoice(db: Db, row: Pick<SubmissionRow, 'invoice_id' | 'company_id' | 'environment'>, status: SubmissionStatus, now: number): Promise<void> {
  const invoice = await db
    .selectFrom('invoices')
    .select(['spv_environment', 'efactura_status'])
    .where('id', '=', row.invoice_id)
    .where('company_id', '=', row.company_id)
    .executeTakeFirst();
  if (!invoice || invoiceEnvironment(invoice.spv_environment) !== row.environment) return;
  const next = INVOICE_STATUS[status];
  if (invoice.efactura_status === next) return;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('invoices').set({ efactura_status: next, updated_at: now }).where('id', '=', row.invoice_id).where('company_id', '=', row.company_id).execute();
    // WEBHOOKS (issue 18): with the change, in its transaction.
    await emitEvent(trx, row.company_id, 'efactura.status_changed', {
      object: 'efactura_status', invoice_id: row.invoice_id, status: next, previous_status: invoice.efactura_status, submission_status: status, environment: row.environment,
    }, now);
  });
}

/**
 * For the invoicing module: whether e-Factura holds this invoice, so that it is neither edited nor
 * deleted. `accepted`: ANAF accepted it in the invoice's own environment (final); `in_progress`: a
 * submission there is waiting for ANAF's verdict; null: free.
 */
export async function efacturaHold(db: Db, companyId: string, invoiceId: string): Promise<'accepted' | 'in_progress' | null> {
  const invoice = await db.selectFrom('invoices').select(['spv_environment']).where('id', '=', invoiceId).where('company_id', '=', companyId).executeTakeFirst();
  if (!invoice) return null;
  const row = await db
    .selectFrom('efactura_submissions')
    .select(['status'])
    .where('company_id', '=', companyId)
    .where('active_key', '=', activeKey(invoiceId, invoiceEnvironment(invoice.spv_environment)))
    .executeTakeFirst();
  if (!row) return null;
  return row.status === 'accepted' ? 'accepted' : 'in_progress';
}
