import type { Db } from '../../db/types';
import type { InvoiceReferences } from '../../../shared/schemas/invoice';
import { insertRows } from '../../db/prepared';
import type { Locale } from '../../platform/locale';
import { newId } from '../../platform/ids';
import type { Invoice, SellerSnapshot } from '../../../shared/schemas/invoice';
import type { InvoiceLinesTable, InvoicesTable } from './tables';
import { adjustmentsJson, breakdownJson, referencesJson, lineRows, type Priced } from './pricing';
import { isLateNumber, type PlannedNumber } from './invoice-numbering';
import type { PartySnapshot } from './catalog-bridge';
import { clientView, findClients } from './catalog-bridge';
import { invoiceView, type InvoiceExtras } from './invoice-view';
import { paymentsByInvoice } from './payment-store';
import { moveStockForInvoice } from '../stock/invoice-stock';
import type { ApiWarning } from '../../platform/warnings';

export const INVOICE_EXPANSIONS = ['lines', 'payments', 'client'] as const;

export async function findInvoice(db: Db, companyId: string, id: string): Promise<InvoicesTable | undefined> {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
}

export async function findByLocalUuid(db: Db, companyId: string, uuid: string): Promise<InvoicesTable | undefined> {
  return db.selectFrom('invoices').selectAll().where('company_id', '=', companyId).where('client_local_uuid', '=', uuid).executeTakeFirst();
}

export async function linesOf(db: Db, invoiceIds: string[]): Promise<Map<string, InvoiceLinesTable[]>> {
  const out = new Map<string, InvoiceLinesTable[]>(invoiceIds.map((id) => [id, []]));
  if (!invoiceIds.length) return out;
  const rows = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', 'in', invoiceIds).orderBy('invoice_id').orderBy('position').execute();
  for (const row of rows) out.get(row.invoice_id)?.push(row);
  return out;
}

/** Views of invoices with the expansions asked for, loaded in one query per expansion. */
export async function invoiceViews(
  db: Db,
  companyId: string,
  rows: InvoicesTable[],
  expand: ReadonlySet<string>,
  locale: Locale,
): Promise<Invoice[]> {
  const ids = rows.map((r) => r.id);
  const lines = expand.has('lines') ? await linesOf(db, ids) : null;
  const payments = expand.has('payments') ? await paymentsByInvoice(db, ids, locale) : null;
  let clients: Map<string, ReturnType<typeof clientView>> | null = null;
  if (expand.has('client')) {
    const clientIds = [...new Set(rows.map((r) => r.client_id).filter((id): id is string => id !== null))];
    clients = new Map((await findClients(db, companyId, clientIds)).map((c) => [c.id, clientView(c)]));
  }
  return rows.map((row) => {
    const extras: InvoiceExtras = {};
    if (lines) extras.lines = lines.get(row.id) ?? [];
    if (payments) extras.payments = payments.get(row.id) ?? [];
    if (clients) extras.client = row.client_id ? (clients.get(row.client_id) ?? null) : null;
    return invoiceView(row, extras);
  });
}

/** The reply of every call that creates or changes an invoice: the invoice with its lines. */
export async function invoiceWithLines(db: Db, row: InvoicesTable): Promise<Invoice> {
  const lines = await linesOf(db, [row.id]);
  return invoiceView(row, { lines: lines.get(row.id) ?? [] });
}

export interface NewInvoice {
  id: string;
  companyId: string;
  workPointId: string;
  documentType: InvoicesTable['document_type'];
  status: InvoicesTable['status'];
  draftSeries: { id: string; name: string } | null;
  /** A number taken, or one planned (number NULL until numberInvoice, before the commit); null on a draft. */
  assigned: PlannedNumber | null;
  issueDate: string;
  dueDate: string | null;
  deliveryDate: string | null;
  clientId: string | null;
  buyer: PartySnapshot | null;
  /** The seller copied at issue; null on a draft. */
  seller: SellerSnapshot | null;
  currency: string;
  exchangeRate: number | null;
  language: string;
  reverseCharge: boolean;
  priced: Priced;
  paymentMethod: string | null;
  observations: string | null;
  references: InvoiceReferences | null;
  stornoOf: string | null;
  convertedFrom: string | null;
  efacturaEnabled: boolean;
  spvEnvironment: 'live' | 'test';
  clientLocalUuid: string | null;
  deviceId: string | null;
  now: number;
  /** The request's warnings: goods sold below zero add one. */
  warnings: ApiWarning[];
}

export async function insertInvoice(trx: Db, inv: NewInvoice): Promise<{ row: InvoicesTable; lines: InvoiceLinesTable[] }> {
  const t = inv.priced.totals;
  const a = inv.assigned;
  const taken = isLateNumber(a) ? null : a;
  const row: InvoicesTable = {
    id: inv.id,
    company_id: inv.companyId,
    work_point_id: inv.workPointId,
    document_type: inv.documentType,
    status: inv.status,
    series_id: a ? a.series.id : (inv.draftSeries?.id ?? null),
    series_name: a ? a.series.name : (inv.draftSeries?.name ?? null),
    year: a ? a.year : null,
    number: taken ? taken.number : null,
    full_number: taken ? taken.full_number : null,
    issue_date: inv.issueDate,
    due_date: inv.dueDate,
    delivery_date: inv.deliveryDate,
    client_id: inv.clientId,
    buyer_json: inv.buyer ? JSON.stringify(inv.buyer) : null,
    buyer_name: inv.buyer?.name ?? null,
    seller_json: inv.seller ? JSON.stringify(inv.seller) : null,
    currency: inv.currency,
    exchange_rate: inv.exchangeRate,
    language: inv.language,
    reverse_charge: inv.reverseCharge ? 1 : 0,
    net_bani: t.net_bani,
    vat_bani: t.vat_bani,
    total_bani: t.total_bani,
    discount_bani: t.discount_bani,
    vat_breakdown_json: breakdownJson(t),
    allowances_charges_json: adjustmentsJson(inv.priced),
    references_json: referencesJson(inv.references),
    amount_paid_bani: 0,
    paid_state: 'unpaid',
    payment_method: inv.paymentMethod,
    observations: inv.observations,
    storno_of: inv.stornoOf,
    storno_id: null,
    converted_from: inv.convertedFrom,
    converted_to: null,
    efactura_enabled: inv.efacturaEnabled ? 1 : 0,
    spv_environment: inv.spvEnvironment,
    efactura_status: 'not_sent',
    client_local_uuid: inv.clientLocalUuid,
    device_id: inv.deviceId,
    reservation_token: taken?.reservation_token ?? null,
    issued_at: a ? inv.now : null,
    created_at: inv.now,
    updated_at: null,
  };
  // The hot path of every issue: statements prepared once per shape (see db/prepared.ts).
  await insertRows(trx, 'invoices', [row]);
  const lines = lineRows(inv.id, inv.companyId, inv.priced, () => newId('invl'));
  await insertRows(trx, 'invoice_lines', lines);
  // STOCK (issue 15): every issued document (issue, storno, convert) moves its goods in this same transaction.
  await moveStockForInvoice(trx, row, lines, inv.now, inv.warnings);
  return { row, lines };
}
