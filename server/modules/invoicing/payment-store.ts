import type { Db, Dialect } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { fromBani, mulDivRound } from '../../../shared/money';
import { PAYMENT_TYPE_DESCRIPTIONS, type Payment } from '../../../shared/schemas/receipt';
import type { PaymentMethodType } from '../../../shared/schemas/common';
import type { InvoicesTable, PaymentsTable } from './tables';
import { invoiceView, paidState } from './invoice-view';
import { emitEvent } from '../webhooks/events';

export function paymentView(row: PaymentsTable, invoiceNumber: string | null, locale: Locale): Payment {
  const type = row.type as PaymentMethodType;
  return {
    id: row.id,
    object: 'payment',
    amount: fromBani(Number(row.amount_bani)),
    amount_without_vat: fromBani(Number(row.amount_without_vat_bani)),
    amount_vat: fromBani(Number(row.amount_vat_bani)),
    currency: row.currency,
    date: row.date,
    type,
    type_description: PAYMENT_TYPE_DESCRIPTIONS[type][locale],
    exchange_rate: row.exchange_rate === null ? null : Number(row.exchange_rate),
    exchange_currency: row.exchange_currency,
    invoice: { id: row.invoice_id, number: invoiceNumber },
    client: { id: row.client_id, name: row.client_name },
    receipt_id: row.receipt_id,
    created_at: Number(row.created_at),
    updated_at: row.updated_at === null ? null : Number(row.updated_at),
  };
}

/** Payments of some invoices, with the invoices' printed numbers, grouped by invoice. */
export async function paymentsByInvoice(db: Db, invoiceIds: string[], locale: Locale): Promise<Map<string, Payment[]>> {
  const out = new Map<string, Payment[]>(invoiceIds.map((id) => [id, []]));
  if (!invoiceIds.length) return out;
  const rows = await db
    .selectFrom('payments')
    .innerJoin('invoices', 'invoices.id', 'payments.invoice_id')
    .selectAll('payments')
    .select('invoices.full_number as invoice_number')
    .where('payments.invoice_id', 'in', invoiceIds)
    .orderBy('payments.created_at')
    .orderBy('payments.id')
    .execute();
  for (const row of rows) out.get(row.invoice_id)?.push(paymentView(row, row.invoice_number, locale));
  return out;
}

/**
 * The VAT share of an amount received against an invoice: the invoice's VAT in proportion,
 * round(amount * invoice VAT / invoice total), half away from zero; the rest is the net.
 */
export function vatShare(amountBani: number, invoice: Pick<InvoicesTable, 'vat_bani' | 'total_bani'>): { vat: number; net: number } {
  const total = Number(invoice.total_bani);
  const vat = total === 0 ? 0 : mulDivRound(amountBani, Number(invoice.vat_bani), total);
  return { vat, net: amountBani - vat };
}

/** The invoice row, locked against concurrent payments until the transaction ends (PostgreSQL). */
export async function lockInvoiceRow(trx: Db, dialect: Dialect, companyId: string, invoiceId: string): Promise<InvoicesTable | undefined> {
  const query = trx.selectFrom('invoices').selectAll().where('id', '=', invoiceId).where('company_id', '=', companyId);
  return dialect === 'postgres' ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
}

/** Recomputes amount_paid and paid_state from the payment rows (receipt payments included). */
export async function recomputePaid(trx: Db, invoiceId: string, now: number): Promise<void> {
  const sum = await trx
    .selectFrom('payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_bani'), eb.lit(0)).as('paid'))
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  const invoice = await trx.selectFrom('invoices').selectAll().where('id', '=', invoiceId).executeTakeFirstOrThrow();
  const paid = Number(sum?.paid ?? 0);
  const state = paidState(Number(invoice.total_bani), paid);
  await trx
    .updateTable('invoices')
    .set({ amount_paid_bani: paid, paid_state: state, updated_at: now })
    .where('id', '=', invoiceId)
    .execute();
  // WEBHOOKS (issue 18): the moment it becomes paid, whichever payment or receipt did it.
  if (state === 'paid' && invoice.paid_state !== 'paid') {
    await emitEvent(trx, invoice.company_id, 'invoice.paid', invoiceView({ ...invoice, amount_paid_bani: paid, paid_state: state, updated_at: now }), now);
  }
}
