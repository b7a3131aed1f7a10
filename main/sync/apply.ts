import { roundHalfAwayFromZero, toBani } from '../../shared/money';
import { percentToBp, toMilli, toPriceE4 } from '../../shared/invoice-math';
import type { Client } from '../../shared/schemas/client';
import type { Expense } from '../../shared/schemas/expense';
import type { Supplier } from '../../shared/schemas/supplier';
import type { SupplierBill } from '../../shared/schemas/supplier-bill';
import { normalizeReferences, type Invoice } from '../../shared/schemas/invoice';
import type { Product } from '../../shared/schemas/product';
import type { Payment, Receipt } from '../../shared/schemas/receipt';
import type { InvoiceSeries, NumberReservation } from '../../shared/schemas/series';
import type { ReceiptSeries } from '../../shared/schemas/receipt-series';
import { decimalStringToBani } from '../../shared/money';
import type { ClientRow, InvoiceRow, ProductRow, ReceiptRow, SeriesRow } from '../db/rows';
import { sql } from '../db/sql';
import type { ReadDb, WriteDb } from '../db/store';
import { recomputePaid } from '../local/receipts';

/**
 * Writing the server's copy of a record into the local cache. THE CONFLICT RULES, per field:
 *
 * 1. Identity and bookkeeping (`server_id`, server `updated_at`): always the server's.
 * 2. A copy older than the one already applied (lower server `updated_at`) is ignored entirely.
 * 3. Money received and e-Factura state (`paid_state`, `amount_paid`, `efactura_status`, a receipt's
 *    number, VAT split and `is_deleted`): server-owned, always the server's; the amounts of local
 *    receipts not yet synced are added on top, so a payment taken offline stays visible.
 * 4. Everything the user edits (content of a draft or a client, a receipt's amount...) and every
 *    lifecycle step the user takes (issue, storno, delete): the server's copy wins, EXCEPT while the
 *    record has a local change still in the outbox. Then the local copy stays as it is: that change
 *    is newer intent than the copy, and the server's reply to it becomes the local copy when it is
 *    done.
 * 5. Deleted on the server (tombstones) with a local change still waiting: see main/sync/deletions.ts.
 *
 * References inside a server copy (client, product, invoice ids) are turned into local ids.
 */

export interface ApplyOptions {
  /** The outbox item being completed by this copy (it no longer counts as a pending local change). */
  completing?: string;
}

type Table = 'clients' | 'products' | 'invoices' | 'receipts';
type Referenced = 'client' | 'product' | 'invoice' | 'receipt' | 'expense' | 'supplier';

function hasOpenChanges(db: ReadDb, type: Referenced, localId: string, options: ApplyOptions): boolean {
  const row = db.get<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM outbox WHERE entity_type = ${type} AND entity_id = ${localId} AND state <> 'done'
        AND id <> ${options.completing ?? ''}`,
  );
  return (row?.n ?? 0) > 0;
}

/** The local id of a record the server knows by `serverId`: ours when it was made here, else the server id itself. */
export function localIdOf(db: ReadDb, table: Table, serverId: string | null): string | null {
  if (serverId === null) return null;
  const row = db.get<{ id: string }>(
    table === 'clients' ? sql`SELECT id FROM clients WHERE server_id = ${serverId}`
    : table === 'products' ? sql`SELECT id FROM products WHERE server_id = ${serverId}`
    : table === 'invoices' ? sql`SELECT id FROM invoices WHERE server_id = ${serverId}`
    : sql`SELECT id FROM receipts WHERE server_id = ${serverId}`,
  );
  return row?.id ?? serverId;
}

/** The server id of a local record, or null when it has not reached the server. */
export function serverIdOf(db: ReadDb, type: Referenced, localId: string): string | null {
  const row = db.get<{ server_id: string | null }>(
    type === 'client' ? sql`SELECT server_id FROM clients WHERE id = ${localId}`
    : type === 'product' ? sql`SELECT server_id FROM products WHERE id = ${localId}`
    : type === 'invoice' ? sql`SELECT server_id FROM invoices WHERE id = ${localId}`
    : type === 'expense' ? sql`SELECT server_id FROM expenses WHERE id = ${localId}`
    : type === 'supplier' ? sql`SELECT server_id FROM suppliers WHERE id = ${localId}`
    : sql`SELECT server_id FROM receipts WHERE id = ${localId}`,
  );
  return row?.server_id ?? null;
}

function findLocal<T>(db: ReadDb, table: Table, serverId: string, uuid: string | null | undefined): T | undefined {
  const byServer = db.get<T>(
    table === 'clients' ? sql`SELECT * FROM clients WHERE server_id = ${serverId}`
    : table === 'products' ? sql`SELECT * FROM products WHERE server_id = ${serverId}`
    : table === 'invoices' ? sql`SELECT * FROM invoices WHERE server_id = ${serverId}`
    : sql`SELECT * FROM receipts WHERE server_id = ${serverId}`,
  );
  if (byServer) return byServer;
  if (uuid) {
    // Made here: the server echoes our client_local_uuid (a crash may have lost the reply that mapped it).
    const byUuid = db.get<T>(
      table === 'clients' ? sql`SELECT * FROM clients WHERE client_local_uuid = ${uuid}`
      : table === 'invoices' ? sql`SELECT * FROM invoices WHERE client_local_uuid = ${uuid}`
      : table === 'receipts' ? sql`SELECT * FROM receipts WHERE client_local_uuid = ${uuid}`
      : sql`SELECT * FROM products WHERE client_local_uuid = ${uuid}`,
    );
    if (byUuid) return byUuid;
  }
  return db.get<T>(
    table === 'clients' ? sql`SELECT * FROM clients WHERE id = ${serverId}`
    : table === 'products' ? sql`SELECT * FROM products WHERE id = ${serverId}`
    : table === 'invoices' ? sql`SELECT * FROM invoices WHERE id = ${serverId}`
    : sql`SELECT * FROM receipts WHERE id = ${serverId}`,
  );
}

const version = (r: { updated_at: number | null; created_at: number }) => r.updated_at ?? r.created_at;

const isStale = (local: { server_updated_at: number | null; server_id: string | null }, incoming: number) =>
  local.server_id !== null && local.server_updated_at !== null && incoming < local.server_updated_at;

export function applyClient(db: WriteDb, c: Client, now: number, options: ApplyOptions = {}): string {
  const local = findLocal<ClientRow>(db, 'clients', c.id, c.client_local_uuid);
  const v = version(c);
  if (local && isStale(local, v)) return local.id;
  const id = local?.id ?? c.id;
  if (local && hasOpenChanges(db, 'client', local.id, options)) {
    db.run(sql`UPDATE clients SET server_id = ${c.id}, server_updated_at = ${v} WHERE id = ${id}`);
    return id;
  }
  db.run(sql`INSERT INTO clients (id, server_id, client_local_uuid, type, name, cui, vat_payer, reg_com, cnp, address, city, county,
             country, postal_code, email, phone, iban, bank, notes, is_deleted, created_at, updated_at, server_updated_at)
             VALUES (${id}, ${c.id}, ${c.client_local_uuid}, ${c.type}, ${c.name}, ${c.cui}, ${c.vat_payer}, ${c.reg_com}, ${c.cnp},
             ${c.address}, ${c.city}, ${c.county}, ${c.country}, ${c.postal_code}, ${c.email}, ${c.phone}, ${c.iban}, ${c.bank},
             ${c.notes}, ${c.is_deleted}, ${local?.created_at ?? c.created_at}, ${now}, ${v})
             ON CONFLICT (id) DO UPDATE SET server_id = excluded.server_id, type = excluded.type, name = excluded.name,
             cui = excluded.cui, vat_payer = excluded.vat_payer, reg_com = excluded.reg_com, cnp = excluded.cnp,
             address = excluded.address, city = excluded.city, county = excluded.county, country = excluded.country,
             postal_code = excluded.postal_code, email = excluded.email, phone = excluded.phone, iban = excluded.iban,
             bank = excluded.bank, notes = excluded.notes, is_deleted = excluded.is_deleted, updated_at = excluded.updated_at,
             server_updated_at = excluded.server_updated_at`);
  return id;
}

export function applyProduct(db: WriteDb, p: Product, now: number, options: ApplyOptions = {}): string {
  const local = findLocal<ProductRow>(db, 'products', p.id, null);
  const v = version(p);
  if (local && isStale(local, v)) return local.id;
  const id = local?.id ?? p.id;
  if (local && hasOpenChanges(db, 'product', local.id, options)) {
    db.run(sql`UPDATE products SET server_id = ${p.id}, server_updated_at = ${v} WHERE id = ${id}`);
    return id;
  }
  db.run(sql`INSERT INTO products (id, server_id, name, code, barcode, unit, unit_code, price_bani, price_includes_vat, vat_rate_bp, currency,
             is_service, created_at, updated_at, server_updated_at)
             VALUES (${id}, ${p.id}, ${p.name}, ${p.code}, ${p.barcode ?? null}, ${p.unit}, ${p.unit_code}, ${toBani(p.price)}, ${p.price_includes_vat},
             ${percentToBp(p.vat_rate)}, ${p.currency}, ${p.is_service}, ${local?.created_at ?? p.created_at}, ${now}, ${v})
             ON CONFLICT (id) DO UPDATE SET server_id = excluded.server_id, name = excluded.name, code = excluded.code,
             barcode = excluded.barcode, unit = excluded.unit, unit_code = excluded.unit_code, price_bani = excluded.price_bani,
             price_includes_vat = excluded.price_includes_vat, vat_rate_bp = excluded.vat_rate_bp, currency = excluded.currency,
             is_service = excluded.is_service, updated_at = excluded.updated_at, server_updated_at = excluded.server_updated_at`);
  return id;
}

/** Sum of this device's receipts for an invoice that the server has not seen yet. */
function unsyncedReceipts(db: ReadDb, invoiceLocalId: string): number {
  return db.get<{ s: number | null }>(
    sql`SELECT SUM(amount_bani) AS s FROM receipts WHERE invoice_id = ${invoiceLocalId} AND server_id IS NULL AND is_deleted = 0`,
  )?.s ?? 0;
}

function paidFields(db: ReadDb, localId: string, inv: Invoice, totalBani: number): { amount: number; state: InvoiceRow['paid_state'] } {
  const extra = unsyncedReceipts(db, localId);
  const amount = toBani(inv.amount_paid) + extra;
  if (extra === 0) return { amount, state: inv.paid_state };
  return { amount, state: amount <= 0 ? 'unpaid' : amount >= totalBani ? 'paid' : 'partially_paid' };
}

/** The service's discounts and charges as the desktop keeps them (main/local/invoices.ts): integers, signed, with their VAT. */
function serverAdjustmentsJson(inv: Invoice): string | null {
  const list = inv.allowances_charges ?? [];
  if (!list.length) return null;
  return JSON.stringify(list.map((a) => ({
    charge: a.charge, amount_bani: toBani(a.amount), vat_rate_bp: percentToBp(a.vat_rate), vat_category: a.vat_category,
    reason: a.reason, reason_code: a.reason_code, vat_bani: toBani(a.vat),
  })));
}

function serverReferencesJson(inv: Invoice): string | null {
  const all = normalizeReferences(inv.references);
  return all ? JSON.stringify(all) : null;
}

export function applyInvoice(db: WriteDb, inv: Invoice, now: number, options: ApplyOptions = {}): string {
  const local = findLocal<InvoiceRow>(db, 'invoices', inv.id, inv.client_local_uuid);
  const v = version(inv);
  if (local && isStale(local, v)) return local.id;
  const id = local?.id ?? inv.id;
  const totals = { net: toBani(inv.totals.net), vat: toBani(inv.totals.vat), total: toBani(inv.totals.total), discount: toBani(inv.totals.discount) };
  if (local && hasOpenChanges(db, 'invoice', local.id, options)) {
    const paid = paidFields(db, id, inv, local.total_bani);
    db.run(sql`UPDATE invoices SET server_id = ${inv.id}, server_updated_at = ${v}, paid_state = ${paid.state},
               amount_paid_bani = ${paid.amount}, efactura_status = ${inv.efactura_status} WHERE id = ${id}`);
    return id;
  }
  const paid = paidFields(db, id, inv, totals.total);
  const breakdown = inv.vat_breakdown.map((b) => ({
    vat_rate_bp: percentToBp(b.vat_rate), vat_category: b.vat_category, net_bani: toBani(b.net), vat_bani: toBani(b.vat), total_bani: toBani(b.total),
  }));
  const numbering = inv.number === null ? null : local?.numbering ?? 'server';
  db.run(sql`INSERT INTO invoices (id, server_id, client_local_uuid, document_type, status, series_id, series_name, number, full_number,
             numbering, reservation_token, issue_date, due_date, delivery_date, client_id, buyer, seller, currency, exchange_rate, language, reverse_charge,
             net_bani, vat_bani, total_bani, discount_bani, vat_breakdown, paid_state, amount_paid_bani, payment_method, observations,
             storno_of, storno_id, converted_from, converted_to, efactura_enabled, spv_environment, efactura_status, device_id, is_deleted,
             issued_at, created_at, updated_at, server_updated_at, allowances_charges, references_json)
             VALUES (${id}, ${inv.id}, ${inv.client_local_uuid}, ${inv.document_type}, ${inv.status}, ${inv.series_id}, ${inv.series_name},
             ${inv.number}, ${inv.full_number}, ${numbering}, ${local?.reservation_token ?? null}, ${inv.issue_date}, ${inv.due_date},
             ${inv.delivery_date ?? null}, ${localIdOf(db, 'clients', inv.client_id)}, ${inv.buyer ? JSON.stringify(inv.buyer) : null}, ${inv.seller ? JSON.stringify(inv.seller) : null}, ${inv.currency},
             ${inv.exchange_rate}, ${inv.language}, ${inv.reverse_charge}, ${totals.net}, ${totals.vat}, ${totals.total},
             ${totals.discount}, ${JSON.stringify(breakdown)}, ${paid.state}, ${paid.amount}, ${inv.payment_method}, ${inv.observations},
             ${localIdOf(db, 'invoices', inv.storno_of)}, ${localIdOf(db, 'invoices', inv.storno_id)},
             ${localIdOf(db, 'invoices', inv.converted_from)}, ${localIdOf(db, 'invoices', inv.converted_to)}, ${inv.efactura_enabled},
             ${inv.spv_environment}, ${inv.efactura_status}, ${inv.device_id}, 0, ${inv.issued_at}, ${local?.created_at ?? inv.created_at},
             ${now}, ${v}, ${serverAdjustmentsJson(inv)}, ${serverReferencesJson(inv)})
             ON CONFLICT (id) DO UPDATE SET server_id = excluded.server_id, document_type = excluded.document_type,
             status = excluded.status, series_id = excluded.series_id, series_name = excluded.series_name, number = excluded.number,
             full_number = excluded.full_number, numbering = excluded.numbering, issue_date = excluded.issue_date,
             due_date = excluded.due_date, delivery_date = excluded.delivery_date, client_id = excluded.client_id, buyer = excluded.buyer,
             seller = COALESCE(excluded.seller, invoices.seller), currency = excluded.currency,
             exchange_rate = excluded.exchange_rate, language = excluded.language, reverse_charge = excluded.reverse_charge,
             net_bani = excluded.net_bani, vat_bani = excluded.vat_bani, total_bani = excluded.total_bani,
             discount_bani = excluded.discount_bani, vat_breakdown = excluded.vat_breakdown, paid_state = excluded.paid_state,
             amount_paid_bani = excluded.amount_paid_bani, payment_method = excluded.payment_method,
             observations = excluded.observations, storno_of = excluded.storno_of, storno_id = excluded.storno_id,
             converted_from = excluded.converted_from, converted_to = excluded.converted_to,
             efactura_enabled = excluded.efactura_enabled, spv_environment = excluded.spv_environment,
             efactura_status = excluded.efactura_status, device_id = excluded.device_id, is_deleted = 0,
             issued_at = excluded.issued_at, updated_at = excluded.updated_at, server_updated_at = excluded.server_updated_at,
             allowances_charges = excluded.allowances_charges, references_json = excluded.references_json`);
  if (inv.lines) {
    db.run(sql`DELETE FROM invoice_lines WHERE invoice_id = ${id}`);
    for (const l of inv.lines) {
      // The service's price has up to 4 decimals: kept exactly, with its rounding to the ban beside it.
      const priceE4 = toPriceE4(l.price);
      db.run(sql`INSERT INTO invoice_lines (invoice_id, position, product_id, description, quantity_milli, unit, unit_code, price_bani,
                 price_e4, base_quantity_milli, vat_rate_bp, discount_bp, vat_exemption_reason, vat_category, price_includes_vat, is_service, discount_bani,
                 net_bani, vat_bani, total_bani)
                 VALUES (${id}, ${l.position}, ${localIdOf(db, 'products', l.product_id)}, ${l.description}, ${toMilli(l.quantity)},
                 ${l.unit}, ${l.unit_code}, ${roundHalfAwayFromZero(priceE4, 100)}, ${priceE4}, ${toMilli(l.base_quantity ?? 1)},
                 ${percentToBp(l.vat_rate)}, ${percentToBp(l.discount_percent)},
                 ${l.vat_exemption_reason}, ${l.vat_category ?? null}, ${l.price_includes_vat === true}, ${l.is_service === true}, ${toBani(l.discount)}, ${toBani(l.net)}, ${toBani(l.vat)},
                 ${toBani(l.total)})`);
    }
  }
  if (local?.reservation_token && inv.status !== 'draft') {
    db.run(sql`UPDATE reservations SET status = 'consumed', updated_at = ${now} WHERE token = ${local.reservation_token}`);
  }
  return id;
}

export function applyReceipt(db: WriteDb, r: Receipt, now: number, options: ApplyOptions = {}): string {
  const local = findLocal<ReceiptRow>(db, 'receipts', r.id, r.client_local_uuid);
  const v = version(r);
  if (local && isStale(local, v)) return local.id;
  const id = local?.id ?? r.id;
  const invoiceId = r.invoice ? localIdOf(db, 'invoices', r.invoice.id) : null;
  if (local && hasOpenChanges(db, 'receipt', local.id, options)) {
    db.run(sql`UPDATE receipts SET server_id = ${r.id}, server_updated_at = ${v}, receipt_number = ${r.receipt_number},
               is_deleted = ${r.is_deleted}, series_id = ${r.series_id} WHERE id = ${id}`);
  } else {
    db.run(sql`INSERT INTO receipts (id, server_id, client_local_uuid, receipt_number, series_id, numbering, amount_bani, amount_without_vat_bani,
               amount_vat_bani, currency, date, observations, language, type, is_draft, is_deleted, exchange_rate, exchange_currency,
               client_id, client_name, invoice_id, payment_id, created_at, updated_at, server_updated_at)
               VALUES (${id}, ${r.id}, ${r.client_local_uuid}, ${r.receipt_number}, ${r.series_id}, ${local?.numbering ?? 'server'}, ${toBani(r.amount)},
               ${toBani(r.amount_without_vat)}, ${toBani(r.amount_vat)}, ${r.currency}, ${r.date}, ${r.observations}, ${r.language},
               ${r.type}, ${r.is_draft}, ${r.is_deleted}, ${r.exchange_rate}, ${r.exchange_currency},
               ${localIdOf(db, 'clients', r.client.id)}, ${r.client.name}, ${invoiceId}, ${r.payment?.id ?? null},
               ${local?.created_at ?? r.created_at}, ${now}, ${v})
               ON CONFLICT (id) DO UPDATE SET server_id = excluded.server_id, receipt_number = excluded.receipt_number,
               series_id = excluded.series_id, amount_bani = excluded.amount_bani,
               amount_without_vat_bani = excluded.amount_without_vat_bani, amount_vat_bani = excluded.amount_vat_bani,
               currency = excluded.currency, date = excluded.date, observations = excluded.observations, language = excluded.language,
               type = excluded.type, is_draft = excluded.is_draft, is_deleted = excluded.is_deleted,
               exchange_rate = excluded.exchange_rate, exchange_currency = excluded.exchange_currency, client_id = excluded.client_id,
               client_name = excluded.client_name, invoice_id = excluded.invoice_id, payment_id = excluded.payment_id,
               updated_at = excluded.updated_at, server_updated_at = excluded.server_updated_at`);
  }
  if (r.payment) applyPayment(db, r.payment, now);
  else if (invoiceId && !hasOpenChanges(db, 'invoice', invoiceId, options)) recomputePaid(db, invoiceId, now);
  if (local?.reservation_token) {
    db.run(sql`UPDATE reservations SET status = 'consumed', updated_at = ${now} WHERE token = ${local.reservation_token}`);
  }
  return id;
}

export function applyPayment(db: WriteDb, p: Payment, now = Math.floor(Date.now() / 1000)): void {
  const invoiceId = p.invoice ? localIdOf(db, 'invoices', p.invoice.id) : null;
  // Ours when made here (mapped by the push), else keyed by the server id.
  const id = db.get<{ id: string }>(sql`SELECT id FROM payments WHERE server_id = ${p.id}`)?.id ?? p.id;
  db.run(sql`INSERT INTO payments (id, server_id, amount_bani, currency, date, type, invoice_id, receipt_id, client_name, created_at)
             VALUES (${id}, ${p.id}, ${toBani(p.amount)}, ${p.currency}, ${p.date}, ${p.type}, ${invoiceId},
             ${p.receipt_id ? localIdOf(db, 'receipts', p.receipt_id) : null}, ${p.client.name}, ${p.created_at})
             ON CONFLICT (id) DO UPDATE SET server_id = excluded.server_id, amount_bani = excluded.amount_bani, currency = excluded.currency,
             date = excluded.date, type = excluded.type, invoice_id = excluded.invoice_id, receipt_id = excluded.receipt_id`);
  // A payment made elsewhere changes what the invoice shows as paid, even before its own copy changes here.
  if (invoiceId && !hasOpenChanges(db, 'invoice', invoiceId, {})) recomputePaid(db, invoiceId, now);
}

/** The local id of a supplier the server knows by `serverId` (ours when it was made here). */
export function supplierLocalId(db: ReadDb, serverId: string | null): string | null {
  if (serverId === null) return null;
  return db.get<{ id: string }>(sql`SELECT id FROM suppliers WHERE server_id = ${serverId}`)?.id ?? serverId;
}

export function applySupplier(db: WriteDb, sup: Supplier, now: number, options: ApplyOptions = {}): string {
  const local = db.get<{ id: string; server_id: string | null; server_updated_at: number | null; created_at: number }>(
    sql`SELECT id, server_id, server_updated_at, created_at FROM suppliers WHERE server_id = ${sup.id} OR id = ${sup.id} LIMIT 1`,
  );
  const v = sup.updated_at ?? sup.created_at;
  if (local && isStale(local, v)) return local.id;
  const id = local?.id ?? sup.id;
  if (local && hasOpenChanges(db, 'supplier', local.id, options)) {
    db.run(sql`UPDATE suppliers SET server_id = ${sup.id}, server_updated_at = ${v} WHERE id = ${id}`);
    return id;
  }
  db.run(sql`INSERT INTO suppliers (id, server_id, name, cui, vat_payer, reg_com, address, created_at, updated_at, server_updated_at)
             VALUES (${id}, ${sup.id}, ${sup.name}, ${sup.cui}, ${sup.vat_payer}, ${sup.reg_com}, ${sup.address}, ${local?.created_at ?? sup.created_at}, ${now}, ${v})
             ON CONFLICT (id) DO UPDATE SET server_id = excluded.server_id, name = excluded.name, cui = excluded.cui,
             vat_payer = excluded.vat_payer, reg_com = excluded.reg_com, address = excluded.address, updated_at = excluded.updated_at,
             server_updated_at = excluded.server_updated_at`);
  return id;
}

/**
 * An expense as the server has it. Found by its server id, or (one recorded here) by the local id
 * its create was mapped to; while this device still has a change of it in the outbox (a payment made
 * offline), the local copy stays: that change is newer intent (rule 4).
 */
export function applyExpense(db: WriteDb, e: Expense, options: ApplyOptions = {}): string {
  const local = db.get<{ id: string }>(sql`SELECT id FROM expenses WHERE server_id = ${e.id}`)
    ?? db.get<{ id: string }>(sql`SELECT id FROM expenses WHERE id = ${e.id}`);
  const id = local?.id ?? e.id;
  if (local && hasOpenChanges(db, 'expense', local.id, options)) {
    db.run(sql`UPDATE expenses SET server_id = ${e.id} WHERE id = ${id}`);
    return id;
  }
  db.run(sql`INSERT INTO expenses (id, server_id, reference, description, total_bani, currency, date, due_date, paid_date, status, supplier_id, data, updated_at)
             VALUES (${id}, ${e.id}, ${e.reference}, ${e.description}, ${decimalStringToBani(e.amount.total)}, ${e.currency}, ${e.date},
             ${e.due_date}, ${e.paid_date}, ${e.status}, ${supplierLocalId(db, e.supplier_id)}, ${JSON.stringify(e)}, ${e.updated_at})
             ON CONFLICT (id) DO UPDATE SET server_id = excluded.server_id, reference = excluded.reference, description = excluded.description,
             total_bani = excluded.total_bani, currency = excluded.currency, date = excluded.date, due_date = excluded.due_date,
             paid_date = excluded.paid_date, status = excluded.status, supplier_id = excluded.supplier_id, data = excluded.data,
             updated_at = excluded.updated_at`);
  return id;
}

export function applySupplierBill(db: WriteDb, b: SupplierBill): void {
  db.run(sql`INSERT INTO supplier_bills (id, invoice_number, supplier_name, supplier_id, issue_date, due_date, currency, tax_inclusive_bani, unpaid_bani,
             status, data, updated_at)
             VALUES (${b.id}, ${b.invoice_number}, ${b.supplier?.name ?? ''}, ${supplierLocalId(db, b.supplier_id)}, ${b.issue_date}, ${b.due_date}, ${b.currency},
             ${toBani(b.amounts.tax_inclusive)}, ${toBani(b.amounts.unpaid)}, ${b.status}, ${JSON.stringify(b)}, ${b.updated_at})
             ON CONFLICT (id) DO UPDATE SET invoice_number = excluded.invoice_number, supplier_name = excluded.supplier_name,
             supplier_id = excluded.supplier_id, issue_date = excluded.issue_date, due_date = excluded.due_date, currency = excluded.currency,
             tax_inclusive_bani = excluded.tax_inclusive_bani, unpaid_bani = excluded.unpaid_bani, status = excluded.status,
             data = excluded.data, updated_at = excluded.updated_at`);
}

/**
 * A series as the server sees it. The device's own numbering state (mode, lock counter, pool sizes)
 * is kept; the local counter of a lock held here never goes below the server's next number.
 */
export function applySeries(db: WriteDb, s: InvoiceSeries, deviceId: string, now: number): void {
  writeSeries(db, { ...s, kind: 'invoice' }, deviceId, now);
}

/** A receipt series: `<prefix>-<number>`, no yearly restart (year 0), locks only. */
export function applyReceiptSeries(db: WriteDb, r: ReceiptSeries, deviceId: string, now: number): void {
  writeSeries(db, {
    id: r.id, kind: 'receipt', name: r.prefix, document_type: 'receipt', description: r.description, format: '{name}-{number}',
    start_number: r.start_number, next_number: r.next_number, year: 0, is_primary: false, is_used: r.is_used, is_locked: r.is_locked,
    lock: r.lock, created_at: r.created_at,
  }, deviceId, now);
}

type SeriesCopy = Pick<InvoiceSeries, 'id' | 'name' | 'description' | 'format' | 'start_number' | 'next_number' | 'year' | 'is_primary' | 'is_used' | 'is_locked' | 'lock' | 'created_at'> & {
  kind: 'invoice' | 'receipt';
  document_type: 'fiscal' | 'proforma' | 'receipt';
};

function writeSeries(db: WriteDb, s: SeriesCopy, deviceId: string, now: number): void {
  const local = db.get<SeriesRow>(sql`SELECT * FROM series WHERE id = ${s.id}`);
  const mine = s.lock?.device_id === deviceId;
  let localNext = local?.local_next_number ?? null;
  let mode = local?.numbering_mode ?? null;
  if (mine) {
    mode = 'exclusive';
    // The lock is ours: continue from the higher of the two (numbers printed here may not have synced yet).
    if (local?.year !== undefined && local.year !== s.year) localNext = s.next_number;
    else localNext = Math.max(localNext ?? s.next_number, s.next_number);
  } else if (mode === 'exclusive') {
    // Lost the lock (given back elsewhere, or taken over by an administrator): no more offline numbers from it.
    mode = null;
    localNext = null;
  }
  db.run(sql`INSERT INTO series (id, kind, name, document_type, description, format, start_number, next_number, year, is_primary, is_used,
             is_locked, lock, numbering_mode, local_next_number, created_at, pulled_at)
             VALUES (${s.id}, ${s.kind}, ${s.name}, ${s.document_type}, ${s.description}, ${s.format}, ${s.start_number}, ${s.next_number}, ${s.year},
             ${s.is_primary}, ${s.is_used}, ${s.is_locked}, ${s.lock ? JSON.stringify(s.lock) : null}, ${mode}, ${localNext},
             ${s.created_at}, ${now})
             ON CONFLICT (id) DO UPDATE SET name = excluded.name, document_type = excluded.document_type,
             description = excluded.description, format = excluded.format, start_number = excluded.start_number,
             next_number = excluded.next_number, year = excluded.year, is_primary = excluded.is_primary, is_used = excluded.is_used,
             is_locked = excluded.is_locked, lock = excluded.lock, numbering_mode = excluded.numbering_mode,
             local_next_number = excluded.local_next_number, pulled_at = excluded.pulled_at`);
}

export function applyReservations(db: WriteDb, reservations: readonly NumberReservation[], now: number): number {
  let added = 0;
  for (const r of reservations) {
    if (r.status !== 'pending') continue;
    added += db.run(sql`INSERT INTO reservations (token, series_id, number, full_number, year, status, device_id, reserved_at, expires_at,
                        updated_at) VALUES (${r.token}, ${r.series_id}, ${r.number}, ${r.full_number}, ${r.year}, 'pending',
                        ${r.device_id}, ${r.reserved_at}, ${r.expires_at}, ${now}) ON CONFLICT (token) DO NOTHING`).changes;
  }
  return added;
}
