import type { z } from 'zod';
import { amountLabel } from './amount-label';
import { fromBani } from '../../shared/money';
import type { ReceiptView, zReceiptInput, zReceiptPatch } from '../../shared/ipc/contract';
import type { InvoiceRow, ReceiptRow, SeriesRow } from '../db/rows';
import { join, sql, type Sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { AppError, invalidInput, notFound } from '../errors';
import { enqueue, isMutable, openItemsOf, rewrite, type OutboxRequest, type Ref } from '../sync/outbox';
import { getClientRow } from './clients';
import { foldForSearch } from '../../shared/text/search-fold';
import type { LocalContext } from './context';
import { getInvoiceRow } from './invoices';
import { likePattern, recordSync, recordSyncs } from './records';
import { defaultReceiptSeries, getSeriesRow, giveBackNumber, setLockTail, takeNumber } from './series';

type ReceiptInput = z.output<typeof zReceiptInput>;
type ReceiptPatch = z.output<typeof zReceiptPatch>;

interface ReceiptViewRow extends ReceiptRow {
  invoice_full_number: string | null;
}

const SELECT = sql`SELECT r.*, i.full_number AS invoice_full_number FROM receipts r LEFT JOIN invoices i ON i.id = r.invoice_id`;

function toView(row: ReceiptViewRow, sync: ReceiptView['sync']): ReceiptView {
  return {
    id: row.id, receipt_number: row.receipt_number, series_id: row.series_id, amount_bani: row.amount_bani, amount_without_vat_bani: row.amount_without_vat_bani,
    amount_vat_bani: row.amount_vat_bani, currency: row.currency, date: row.date, observations: row.observations, language: row.language,
    type: row.type, is_draft: row.is_draft === 1, is_deleted: row.is_deleted === 1, client_id: row.client_id, client_name: row.client_name,
    invoice_id: row.invoice_id, invoice_full_number: row.invoice_full_number, created_at: row.created_at, updated_at: row.updated_at, sync,
  };
}

export function receiptView(db: ReadDb, id: string): ReceiptView {
  const row = db.get<ReceiptViewRow>(sql`${SELECT} WHERE r.id = ${id}`);
  if (!row) throw notFound('Receipt');
  return toView(row, recordSync(db, 'receipt', row));
}

export function getReceiptRow(db: ReadDb, id: string): ReceiptRow | undefined {
  return db.get<ReceiptRow>(sql`SELECT * FROM receipts WHERE id = ${id}`);
}

/** Paid amount and state of an invoice from the receipts and payments known here (optimistic until the server's copy arrives). */
export function recomputePaid(db: WriteDb, invoiceId: string, now: number): void {
  const invoice = db.get<InvoiceRow>(sql`SELECT * FROM invoices WHERE id = ${invoiceId}`);
  if (!invoice) return;
  const fromReceipts = db.get<{ s: number | null }>(
    sql`SELECT SUM(amount_bani) AS s FROM receipts WHERE invoice_id = ${invoiceId} AND is_deleted = 0`,
  )?.s ?? 0;
  const fromPayments = db.get<{ s: number | null }>(
    sql`SELECT SUM(amount_bani) AS s FROM payments WHERE invoice_id = ${invoiceId} AND receipt_id IS NULL`,
  )?.s ?? 0;
  const paid = fromReceipts + fromPayments;
  const state = paid <= 0 ? 'unpaid' : paid >= invoice.total_bani ? 'paid' : 'partially_paid';
  db.run(sql`UPDATE invoices SET amount_paid_bani = ${paid}, paid_state = ${state}, updated_at = ${now} WHERE id = ${invoiceId}`);
}

function wire(row: ReceiptRow, deviceId: string): { body: Record<string, unknown>; refs: Ref[] } {
  const refs: Ref[] = [];
  const body: Record<string, unknown> = {
    amount: fromBani(row.amount_bani),
    currency: row.currency,
    type: row.type,
    language: row.language ?? 'ro',
    device_id: deviceId,
    client_local_uuid: row.client_local_uuid ?? row.id,
  };
  if (row.date) body.payment_date = row.date;
  if (row.observations) body.observations = row.observations;
  if (row.exchange_rate !== null) body.exchange_rate = row.exchange_rate;
  if (row.client_id) {
    body.client_id = row.client_id;
    refs.push({ at: 'client_id', type: 'client', id: row.client_id });
  } else {
    body.client_name = row.client_name;
  }
  if (row.invoice_id) {
    body.invoice_id = row.invoice_id;
    refs.push({ at: 'invoice_id', type: 'invoice', id: row.invoice_id });
  }
  if (row.numbering === 'lock' && row.series_id && row.number !== null) {
    // Printed here under this device's lock: the server checks the number follows the last one.
    body.series_id = row.series_id;
    body.number = row.number;
  } else if (row.numbering === 'reservation' && row.reservation_token) {
    // Printed here with a number this device reserved: the server consumes that reservation.
    body.series_id = row.series_id;
    body.reservation_token = row.reservation_token;
  }
  return { body, refs };
}

function label(row: ReceiptRow): string {
  return `Chitanță ${row.receipt_number ?? ''} ${amountLabel(row.amount_bani, row.currency)} ${row.client_name}`.replace(/\s+/g, ' ').trim();
}

function createRequest(row: ReceiptRow, deviceId: string): OutboxRequest {
  const { body, refs } = wire(row, deviceId);
  return { method: 'POST', path: '/receipts', body, create: true, refs, label: label(row) };
}

function checkInvoice(db: ReadDb, invoiceId: string): InvoiceRow {
  const invoice = getInvoiceRow(db, invoiceId);
  if (!invoice) throw invalidInput({ invoice_id: 'Unknown invoice|Factură necunoscută' });
  if (invoice.status === 'draft') throw invalidInput({ invoice_id: 'A draft cannot be paid|O ciornă nu poate fi plătită' });
  return invoice;
}

export function createReceipt(ctx: LocalContext, input: ReceiptInput): ReceiptView {
  return ctx.store.write((db) => createReceiptIn(db, ctx, input));
}

/** The body of `createReceipt` inside the caller's transaction (the counter issues invoice and chitanță in one). */
export function createReceiptIn(db: WriteDb, ctx: LocalContext, input: ReceiptInput): ReceiptView {
  let clientId = input.client_id ?? null;
  let clientName = input.client_name ?? null;
  if (input.invoice_id) {
    const invoice = checkInvoice(db, input.invoice_id);
    clientId ??= invoice.client_id;
    if (!clientName && invoice.buyer) clientName = (JSON.parse(invoice.buyer) as { name?: string }).name ?? null;
  }
  if (clientId) {
    const client = getClientRow(db, clientId);
    if (!client) throw invalidInput({ client_id: 'Unknown client|Client necunoscut' });
    clientName ??= client.name;
  }
  if (!clientName) throw invalidInput({ client_name: 'A payer name is required|Numele plătitorului este obligatoriu' });
  let series: SeriesRow | undefined;
  if (input.series_id) {
    series = getSeriesRow(db, input.series_id);
    if (!series || series.kind !== 'receipt') throw invalidInput({ series_id: 'Not a receipt series|Nu este o serie de chitanțe' });
  } else {
    series = defaultReceiptSeries(db, ctx.device.id);
  }
  const id = ctx.uuid();
  const now = ctx.clock.now();
  // Under a lock held here, or from this device's reserved numbers, the receipt is numbered at once and can be printed offline.
  const taken = series ? takeNumber(db, ctx, series.id, id) : null;
  db.run(sql`INSERT INTO receipts (id, server_id, client_local_uuid, receipt_number, series_id, number, numbering, reservation_token, amount_bani,
             currency, date, observations, language, type, exchange_rate, client_id, client_name, invoice_id, created_at, updated_at)
             VALUES (${id}, NULL, ${id}, ${taken?.full_number ?? null}, ${series?.id ?? null}, ${taken?.number ?? null},
             ${taken?.numbering ?? null}, ${taken?.reservation_token ?? null}, ${input.amount_bani}, ${input.currency}, ${input.date ?? ctx.today()}, ${input.observations ?? null},
             ${input.language}, ${input.type}, ${input.exchange_rate ?? null}, ${clientId}, ${clientName}, ${input.invoice_id ?? null},
             ${now}, ${now})`);
  if (input.invoice_id) recomputePaid(db, input.invoice_id, now);
  const row = getReceiptRow(db, id)!;
  const item = enqueue(db, ctx, { kind: 'receipt.create', entityType: 'receipt', entityId: id, request: createRequest(row, ctx.device.id), after: taken?.after ?? [] });
  if (series && taken?.numbering === 'lock') setLockTail(db, series.id, item);
  return receiptView(db, id);
}

const PATCH_WIRE: Record<keyof ReceiptPatch, string> = {
  client_id: 'client_id', invoice_id: 'invoice_id', amount_bani: 'amount', currency: 'currency', date: 'payment_date',
  observations: 'observations', type: 'type', language: 'language', exchange_rate: 'exchange_rate',
};

export function updateReceipt(ctx: LocalContext, id: string, patch: ReceiptPatch): ReceiptView {
  return ctx.store.write((db) => {
    const before = getReceiptRow(db, id);
    if (!before) throw notFound('Receipt');
    if (before.is_deleted) throw new AppError('conflict', 'resource_deleted', 'The receipt was deleted and cannot be edited');
    if (patch.invoice_id) checkInvoice(db, patch.invoice_id);
    let clientName = before.client_name;
    if (patch.client_id) {
      const client = getClientRow(db, patch.client_id);
      if (!client) throw invalidInput({ client_id: 'Unknown client|Client necunoscut' });
      clientName = client.name;
    }
    const now = ctx.clock.now();
    db.run(sql`UPDATE receipts SET client_id = ${patch.client_id ?? before.client_id}, client_name = ${clientName},
               invoice_id = ${patch.invoice_id ?? before.invoice_id}, amount_bani = ${patch.amount_bani ?? before.amount_bani},
               currency = ${patch.currency ?? before.currency}, date = ${patch.date ?? before.date},
               observations = ${patch.observations ?? before.observations}, type = ${patch.type ?? before.type},
               language = ${patch.language ?? before.language}, exchange_rate = ${patch.exchange_rate ?? before.exchange_rate},
               updated_at = ${now} WHERE id = ${id}`);
    const row = getReceiptRow(db, id)!;
    for (const invoiceId of new Set([before.invoice_id, row.invoice_id])) if (invoiceId) recomputePaid(db, invoiceId, now);
    const open = openItemsOf(db, 'receipt', id);
    const create = open.find((i) => i.kind === 'receipt.create');
    if (create && isMutable(create)) {
      rewrite(db, ctx, create.id, createRequest(row, ctx.device.id));
    } else {
      const { body: full } = wire(row, ctx.device.id);
      const body: Record<string, unknown> = {};
      const refs: Ref[] = [{ at: ':id', type: 'receipt', id }];
      for (const key of Object.keys(patch) as Array<keyof ReceiptPatch>) {
        if (patch[key] === undefined) continue;
        body[PATCH_WIRE[key]] = full[PATCH_WIRE[key]];
        if (key === 'client_id') refs.push({ at: 'client_id', type: 'client', id: row.client_id! });
        if (key === 'invoice_id') refs.push({ at: 'invoice_id', type: 'invoice', id: row.invoice_id! });
      }
      const last = [...open].reverse().find((i) => i.kind === 'receipt.update');
      if (last && isMutable(last)) {
        const mergedRefs = [...last.request.refs.filter((r) => !refs.some((n) => n.at === r.at)), ...refs];
        rewrite(db, ctx, last.id, { ...last.request, body: { ...(last.request.body as object), ...body }, refs: mergedRefs, label: label(row) });
      } else if (Object.keys(body).length) {
        enqueue(db, ctx, {
          kind: 'receipt.update', entityType: 'receipt', entityId: id,
          request: { method: 'PUT', path: '/receipts/:id', body, create: false, refs, label: label(row) },
        });
      }
    }
    return receiptView(db, id);
  });
}

/**
 * Drops a receipt that never reached the server; its number is given back: a reserved one released
 * (a documented gap), one taken under a lock only when it is the last one.
 */
export function discardReceiptIn(db: WriteDb, ctx: LocalContext, id: string, itemId?: string): void {
  const row = getReceiptRow(db, id);
  if (!row) return;
  if (row.numbering === 'lock' || row.numbering === 'reservation') {
    giveBackNumber(db, ctx, {
      id, series_id: row.series_id, number: row.number, numbering: row.numbering, reservation_token: row.reservation_token, full_number: row.receipt_number,
    }, itemId);
  }
  db.run(sql`DELETE FROM receipts WHERE id = ${id}`);
  if (row.invoice_id) recomputePaid(db, row.invoice_id, ctx.clock.now());
}

export function getReceipt(ctx: LocalContext, id: string): ReceiptView {
  return ctx.store.snapshot((db) => receiptView(db, id));
}

export function listReceipts(
  ctx: LocalContext,
  input: { search?: string | undefined; invoice_id?: string | undefined; client_id?: string | undefined; from?: string | undefined; to?: string | undefined; limit: number; offset: number },
): { items: ReceiptView[]; total: number } {
  return ctx.store.snapshot((db) => {
    const conditions: Sql[] = [sql`1 = 1`];
    if (input.invoice_id) conditions.push(sql`r.invoice_id = ${input.invoice_id}`);
    if (input.client_id) conditions.push(sql`r.client_id = ${input.client_id}`);
    if (input.from) conditions.push(sql`r.date >= ${input.from}`);
    if (input.to) conditions.push(sql`r.date <= ${input.to}`);
    // Folded on both sides (tejghea_fold, shared/text/search-fold.ts): "stefan" finds "Ştefan".
    const term = foldForSearch(input.search);
    if (term) {
      const like = likePattern(term);
      conditions.push(sql`(tejghea_fold(r.client_name) LIKE ${like} ESCAPE '\\' OR tejghea_fold(COALESCE(r.receipt_number, '')) LIKE ${like} ESCAPE '\\')`);
    }
    const where = join(conditions, ' AND ');
    const total = db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM receipts r WHERE ${where}`)?.n ?? 0;
    const rows = db.all<ReceiptViewRow>(sql`${SELECT} WHERE ${where} ORDER BY r.date DESC, r.created_at DESC, r.id DESC LIMIT ${input.limit} OFFSET ${input.offset}`);
    const syncs = recordSyncs(db, 'receipt', rows);
    return { items: rows.map((r) => toView(r, syncs.get(r.id)!)), total };
  });
}
