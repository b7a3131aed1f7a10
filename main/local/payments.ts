import type { z } from 'zod';
import { amountLabel } from './amount-label';
import { fromBani } from '../../shared/money';
import type { PaymentView, zPaymentInput } from '../../shared/ipc/contract';
import type { PaymentRow } from '../db/rows';
import { sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { invalidInput, notFound } from '../errors';
import { enqueue } from '../sync/outbox';
import type { LocalContext } from './context';
import { getInvoiceRow } from './invoices';
import { recomputePaid } from './receipts';
import { recordSyncs } from './records';

/** Payments of an invoice other than cash (bank transfer, card...): recorded offline, pushed like the rest. */
function views(db: ReadDb, rows: PaymentRow[]): PaymentView[] {
  const syncs = recordSyncs(db, 'payment', rows);
  return rows.map((p) => ({
    id: p.id, invoice_id: p.invoice_id, amount_bani: p.amount_bani, currency: p.currency, date: p.date, type: p.type,
    receipt_id: p.receipt_id, created_at: p.created_at, sync: syncs.get(p.id)!,
  }));
}

export function listPayments(ctx: LocalContext, invoiceId: string): { items: PaymentView[] } {
  return ctx.store.snapshot((db) => ({
    items: views(db, db.all<PaymentRow>(sql`SELECT * FROM payments WHERE invoice_id = ${invoiceId} ORDER BY created_at, id`)),
  }));
}

export function createPayment(ctx: LocalContext, input: z.output<typeof zPaymentInput>): PaymentView {
  return ctx.store.write((db) => createPaymentIn(db, ctx, input));
}

/** The body of `createPayment` inside the caller's transaction (the counter's card part of a sale). */
export function createPaymentIn(db: WriteDb, ctx: LocalContext, input: z.output<typeof zPaymentInput>): PaymentView {
  const invoice = getInvoiceRow(db, input.invoice_id);
  if (!invoice) throw invalidInput({ invoice_id: 'Unknown invoice|Factură necunoscută' });
  if (invoice.status !== 'issued') throw invalidInput({ invoice_id: 'Only an issued invoice can be paid|Doar o factură emisă poate fi plătită' });
  if (input.amount_bani > invoice.total_bani - invoice.amount_paid_bani) {
    throw invalidInput({ amount_bani: 'More than the amount due|Mai mult decât restul de plată' });
  }
  const id = ctx.uuid();
  const now = ctx.clock.now();
  const date = input.date ?? ctx.today();
  db.run(sql`INSERT INTO payments (id, server_id, client_local_uuid, amount_bani, currency, date, type, invoice_id, receipt_id, client_name, created_at)
             VALUES (${id}, NULL, ${id}, ${input.amount_bani}, ${invoice.currency}, ${date}, ${input.type}, ${invoice.id}, NULL, NULL, ${now})`);
  recomputePaid(db, invoice.id, now);
  enqueue(db, ctx, {
    kind: 'payment.create',
    entityType: 'payment',
    entityId: id,
    request: {
      method: 'POST', path: '/payments', create: true,
      body: { invoice_id: invoice.id, amount: fromBani(input.amount_bani), date, type: input.type, client_local_uuid: id },
      refs: [{ at: 'invoice_id', type: 'invoice', id: invoice.id }],
      label: `Plată ${amountLabel(input.amount_bani, invoice.currency)} ${invoice.full_number ?? ''}`.trim(),
    },
  });
  const row = db.get<PaymentRow>(sql`SELECT * FROM payments WHERE id = ${id}`);
  if (!row) throw notFound('Payment');
  return views(db, [row])[0]!;
}

export function discardPaymentIn(db: WriteDb, ctx: LocalContext, id: string): void {
  const row = db.get<PaymentRow>(sql`SELECT * FROM payments WHERE id = ${id}`);
  if (!row) return;
  db.run(sql`DELETE FROM payments WHERE id = ${id}`);
  if (row.invoice_id) recomputePaid(db, row.invoice_id, ctx.clock.now());
}
