import { z } from 'zod';
import type { CounterCarts, CounterSaleView, PaymentView, zCounterSaleInput } from '../../shared/ipc/contract';
import { zCounterCart, zWeighedRule, type WeighedRuleView } from '../../shared/ipc/contract';
import { zPaymentMethodType, type PaymentMethodType } from '../../shared/schemas/common';
import type { PaymentRow } from '../db/rows';
import { getSetting, setSetting } from '../db/queries/settings';
import { sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { invalidInput } from '../errors';
import type { LocalContext } from './context';
import { getInvoiceRow, invoiceView, issueInvoiceIn } from './invoices';
import { createPaymentIn } from './payments';
import { createReceiptIn, receiptView } from './receipts';
import { recordSyncs } from './records';

type SaleInput = z.output<typeof zCounterSaleInput>;

/** Who pays a walk-in sale's chitanță when the invoice names nobody. */
const WALK_IN_PAYER = 'Persoană fizică';

function paymentsOf(db: ReadDb, invoiceId: string): PaymentView[] {
  const rows = db.all<PaymentRow>(sql`SELECT * FROM payments WHERE invoice_id = ${invoiceId} AND receipt_id IS NULL ORDER BY created_at, id`);
  const syncs = recordSyncs(db, 'payment', rows);
  return rows.map((p) => ({
    id: p.id, invoice_id: p.invoice_id, amount_bani: p.amount_bani, currency: p.currency, date: p.date, type: p.type,
    receipt_id: p.receipt_id, created_at: p.created_at, sync: syncs.get(p.id)!,
  }));
}

function saleView(db: ReadDb, invoiceId: string, replayed: boolean): CounterSaleView {
  const receipt = db.get<{ id: string }>(sql`SELECT id FROM receipts WHERE invoice_id = ${invoiceId} AND is_deleted = 0 ORDER BY created_at, id LIMIT 1`);
  return {
    invoice: invoiceView(db, invoiceId),
    receipt: receipt ? receiptView(db, receipt.id) : null,
    payments: paymentsOf(db, invoiceId),
    replayed,
  };
}

/**
 * How the total is taken: the card part (recorded as a card payment, so the invoice is paid) and the
 * cash part (a chitanță). Split is cash with a card part; the invoice's method stays `receipt`.
 */
export function tenderParts(method: PaymentMethodType, totalBani: number, cardBani: number): { card: number; cash: number } {
  if (method === 'card') {
    if (cardBani !== 0 && cardBani !== totalBani) throw invalidInput({ card_bani: 'A card sale is paid in full by card|O vânzare cu cardul se plătește integral cu cardul' });
    return { card: totalBani, cash: 0 };
  }
  if (method === 'receipt') {
    if (cardBani >= totalBani) {
      throw invalidInput({ card_bani: 'The card part must be less than the total; choose Card to pay all by card|Partea cu cardul trebuie să fie mai mică decât totalul; alegeți Card pentru plata integrală cu cardul' });
    }
    return { card: cardBani, cash: totalBani - cardBani };
  }
  if (cardBani !== 0) throw invalidInput({ card_bani: 'A card part goes with a cash payment only|Partea cu cardul se folosește doar la plata în numerar' });
  return { card: 0, cash: 0 };
}

/**
 * One cart, one sale: the invoice takes the cart's id, so a second call for the same cart (a second
 * F9, a retry after an error whose reply was lost, the cart restored after a crash) answers the sale
 * already made and makes nothing. Invoice, card payment and chitanță are one transaction: either the
 * cashier has all of them or none.
 */
export function sellAtCounter(ctx: LocalContext, input: SaleInput): CounterSaleView {
  return ctx.store.write((db) => {
    // Two seeks rather than one OR, which SQLite would answer by scanning every cached invoice.
    const done =
      db.get<{ id: string }>(sql`SELECT id FROM invoices WHERE id = ${input.cart_id}`) ??
      db.get<{ id: string }>(sql`SELECT id FROM invoices WHERE client_local_uuid = ${input.cart_id}`);
    if (done) return saleView(db, done.id, true);
    const { cart_id: id, card_bani: cardBani, ...invoice } = input;
    issueInvoiceIn(db, ctx, invoice, id);
    const row = getInvoiceRow(db, id)!;
    // Checked on the computed total, inside the transaction: a refusal rolls the number back too.
    if (row.total_bani <= 0) {
      throw invalidInput({ total: 'The total must be more than 0 lei; a return is made from the original invoice|Totalul trebuie să fie mai mare de 0 lei; un retur se face din factura inițială' });
    }
    const parts = tenderParts(input.payment_method ?? 'other', row.total_bani, cardBani);
    if (parts.card > 0) createPaymentIn(db, ctx, { invoice_id: id, amount_bani: parts.card, type: 'card' });
    if (parts.cash > 0) {
      createReceiptIn(db, ctx, {
        invoice_id: id,
        ...(row.client_id ? {} : { client_name: WALK_IN_PAYER }),
        amount_bani: parts.cash,
        currency: row.currency,
        type: 'receipt',
        language: input.language,
      });
    }
    return saleView(db, id, false);
  });
}

// ---------------------------------------------------------------------------------------------
// Carts kept on this device

const zStoredCarts = z.object({ current: zCounterCart.nullable(), parked: z.array(zCounterCart) });

export function readCarts(db: ReadDb): CounterCarts {
  const stored = getSetting(db, 'counter_carts', zStoredCarts) ?? { current: null, parked: [] };
  return {
    ...stored,
    default_payment: getSetting(db, 'counter_default_payment', zPaymentMethodType) ?? 'receipt',
    barcode_rules: getSetting(db, 'counter_barcode_rules', z.array(zWeighedRule)) ?? null,
  };
}

export function getCarts(ctx: LocalContext): CounterCarts {
  return ctx.store.snapshot((db) => readCarts(db));
}

export function setBarcodeRules(ctx: LocalContext, rules: WeighedRuleView[] | null): CounterCarts {
  return ctx.store.write((db) => {
    setSetting(db, 'counter_barcode_rules', rules);
    return readCarts(db);
  });
}

export function saveCarts(ctx: LocalContext, carts: Pick<CounterCarts, 'current' | 'parked'>): { ok: true } {
  ctx.store.write((db: WriteDb) => setSetting(db, 'counter_carts', { current: carts.current, parked: carts.parked }));
  return { ok: true };
}

export function setDefaultPayment(ctx: LocalContext, method: PaymentMethodType): CounterCarts {
  return ctx.store.write((db) => {
    setSetting(db, 'counter_default_payment', method);
    return readCarts(db);
  });
}
