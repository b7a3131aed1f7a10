import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database, Db, Dialect } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { newId } from '../../platform/ids';
import { validationFailed } from '../../platform/errors';
import { fromBani } from '../../../shared/money';
import { bpToPercent, fromMilli } from '../../../shared/invoice-math';
import {
  SUPPLIER_BILL_DEFAULT_EXPAND,
  SUPPLIER_BILL_EXPANSIONS,
  type SupplierBill,
  type SupplierBillExpansion,
  type SupplierBillReferences,
} from '../../../shared/schemas/supplier-bill';
import { toClient } from '../catalog/clients';
import { findExpense, viewExpense } from '../expenses/store';
import { supplierVatId } from '../expenses/suppliers';
import { NO_REFERENCES, documentReferencesSchema } from '../../efactura/ubl-read';
import type { SupplierBillLinesTable, SupplierBillsTable } from './tables';

export type BillRow = Selectable<SupplierBillsTable>;
export type BillLineRow = Selectable<SupplierBillLinesTable>;
type Executor = Db | Transaction<Database>;

const TYPE_NAMES: Record<string, string> = {
  '380': 'invoice',
  '381': 'credit_note',
  '384': 'corrected_invoice',
  '389': 'self_billed_invoice',
  '751': 'accounting_invoice',
};
export const invoiceTypeName = (code: string) => TYPE_NAMES[code] ?? 'invoice';

/** unpaid, partially_paid or paid from what is due and what was paid (a credit note's due is negative). */
export function billStatus(payableBani: number, paidBani: number): BillRow['status'] {
  if (paidBani === 0) return payableBani <= 0 ? 'paid' : 'unpaid';
  return paidBani >= payableBani ? 'paid' : 'partially_paid';
}

/**
 * `expand` of GET /supplier-bills/{id}: absent -> the contract's default set; an empty value -> none;
 * a comma list -> those. `expand[]=` (the general rule 7 form) is accepted too and wins when given.
 */
export function parseExpand(query: { expand?: string | undefined; 'expand[]'?: string | string[] | undefined }, fallback: string): Set<SupplierBillExpansion> {
  const given = query['expand[]'] !== undefined ? [query['expand[]']].flat().join(',') : (query.expand ?? fallback);
  const names = given.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(SUPPLIER_BILL_EXPANSIONS as readonly string[]).includes(n));
  if (unknown.length) {
    throw validationFailed({
      expand: `Unknown expansion: ${unknown.join(', ')}. Known: ${SUPPLIER_BILL_EXPANSIONS.join(', ')}.|Extindere necunoscută: ${unknown.join(', ')}. Cunoscute: ${SUPPLIER_BILL_EXPANSIONS.join(', ')}.`,
    });
  }
  return new Set(names as SupplierBillExpansion[]);
}
export const DEFAULT_EXPAND = SUPPLIER_BILL_DEFAULT_EXPAND;

export interface PartyJson {
  name: string;
  vat_id: string | null;
  cui: string | null;
  reg_com: string | null;
  address: string | null;
  email: string | null;
  phone: string | null;
  iban?: string | null;
}

/**
 * The supplier of a bill in the expenses module's `suppliers` table: found by CUI (digits, no RO),
 * or for a foreign supplier without one by exact name, else created. Insert-or-ignore, then read:
 * two imports of one new supplier running at once end with one row.
 */
export async function findOrCreateSupplier(db: Executor, companyId: string, party: PartyJson, now: number): Promise<string> {
  if (party.cui) {
    const found = await db.selectFrom('suppliers').select('id').where('company_id', '=', companyId).where('cui', '=', party.cui).executeTakeFirst();
    if (found) return found.id;
  } else {
    const found = await db
      .selectFrom('suppliers')
      .select('id')
      .where('company_id', '=', companyId)
      .where('cui', 'is', null)
      .where(sql<string>`lower(name)`, '=', party.name.toLowerCase())
      .executeTakeFirst();
    if (found) return found.id;
  }
  const id = newId('sup');
  await db
    .insertInto('suppliers')
    .values({
      id,
      company_id: companyId,
      name: party.name || party.cui || 'Furnizor',
      cui: party.cui,
      vat_payer: party.vat_id?.startsWith('RO') ? 1 : 0,
      reg_com: party.reg_com,
      address: party.address,
      email: party.email,
      phone: party.phone,
      iban: party.iban ?? null,
      created_at: now,
      updated_at: null,
    })
    .onConflict((oc) => oc.columns(['company_id', 'cui']).doNothing())
    .execute();
  if (!party.cui) return id;
  const row = await db.selectFrom('suppliers').select('id').where('company_id', '=', companyId).where('cui', '=', party.cui).executeTakeFirstOrThrow();
  return row.id;
}

export interface ViewOptions {
  expand: Set<SupplierBillExpansion>;
  balance: boolean;
  /** `https://host/v1`: base of efactura_pdf_url. */
  base: string;
  locale: Locale;
  now: number;
  dialect: Dialect;
}

async function supplierBalance(db: Db, row: BillRow): Promise<NonNullable<SupplierBill['supplier_balance']>> {
  // Every work point of the company: a supplier is owed by the company, not by one branch.
  const open = db
    .selectFrom('supplier_bills')
    .where('company_id', '=', row.company_id)
    .where('supplier_id', '=', row.supplier_id)
    .where('currency', '=', row.currency)
    .where('status', '!=', 'paid');
  const sums = await open
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>(sql`payable_bani - paid_bani`).as('unpaid')])
    .executeTakeFirst();
  const next = await open
    .select(['id', 'invoice_number', 'due_date', 'tax_inclusive_bani'])
    .orderBy(sql`case when due_date is null then 1 else 0 end`)
    .orderBy('due_date')
    .orderBy('issue_date')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return {
    unpaid_total: fromBani(Number(sums?.unpaid ?? 0)),
    unpaid_count: Number(sums?.n ?? 0),
    currency: row.currency,
    next_due: next
      ? { id: next.id, invoice_number: next.invoice_number, due_date: next.due_date, tax_inclusive: fromBani(Number(next.tax_inclusive_bani)) }
      : null,
  };
}

export function lineView(l: BillLineRow): NonNullable<SupplierBill['lines']>[number] {
  return {
    id: l.id,
    object: 'supplier_bill_line',
    position: Number(l.position),
    line_id: l.line_id,
    name: l.name,
    description: l.description,
    quantity: fromMilli(Number(l.quantity_milli)),
    unit_code: l.unit_code,
    unit_price: fromBani(Number(l.unit_price_bani)),
    price_amount: l.price_amount,
    net: fromBani(Number(l.line_net_bani)),
    allowance: fromBani(Number(l.allowance_bani)),
    charge: fromBani(Number(l.charge_bani)),
    vat_category: l.vat_category,
    vat_rate: bpToPercent(Number(l.vat_rate_bp)),
  };
}

/**
 * The references of a bill as the API names them: from the reader's JSON kept at import, or for a bill
 * entered by hand (or imported before migration 0420) only the order number it was given. A stored value
 * that no longer parses shows as that fallback rather than failing the whole bill.
 */
export function billReferences(row: Pick<BillRow, 'references_json' | 'order_reference'>): SupplierBillReferences {
  const parsed = row.references_json ? documentReferencesSchema.safeParse(JSON.parse(row.references_json)) : null;
  const r = parsed?.success ? parsed.data : { ...NO_REFERENCES, order_reference: row.order_reference };
  return {
    order: r.order_reference,
    contract: r.contract_reference,
    buyer: r.buyer_reference,
    despatch: r.despatch_reference,
    receipt: r.receipt_reference,
    project: r.project_reference,
    tender: r.tender_reference,
    invoiced_object: r.invoiced_object?.id ?? null,
    invoiced_object_scheme: r.invoiced_object?.scheme_id ?? null,
    sales_order: r.sales_order_reference,
    preceding_invoices: r.preceding_invoices,
  };
}

export async function billView(db: Db, row: BillRow, o: ViewOptions): Promise<SupplierBill> {
  const payable = Number(row.payable_bani);
  const paid = Number(row.paid_bani);
  const bill: SupplierBill = {
    id: row.id,
    object: 'supplier_bill',
    work_point_id: row.work_point_id,
    source: row.source,
    invoice_number: row.invoice_number,
    invoice_type_code: row.invoice_type_code,
    invoice_type: invoiceTypeName(row.invoice_type_code),
    issue_date: row.issue_date,
    due_date: row.due_date,
    currency: row.currency,
    amounts: {
      tax_exclusive: fromBani(Number(row.tax_exclusive_bani)),
      tax: fromBani(Number(row.tax_bani)),
      tax_inclusive: fromBani(Number(row.tax_inclusive_bani)),
      paid: fromBani(paid),
      unpaid: fromBani(payable - paid),
    },
    status: row.status,
    payment_date: row.payment_date,
    payment_amount: row.payment_amount_bani === null ? null : fromBani(Number(row.payment_amount_bani)),
    supplier_id: row.supplier_id,
    expense_id: row.expense_id,
    client_id: row.client_id,
    efactura_message_id: row.efactura_message_id === null ? null : Number(row.efactura_message_id),
    efactura_pdf_url: row.efactura_message_id === null ? null : `${o.base}/supplier-bills/${row.id}/efactura-pdf`,
    order_reference: row.order_reference,
    references: billReferences(row),
    note: row.note,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
  if (o.expand.has('supplier')) {
    const s = await db.selectFrom('suppliers').selectAll().where('id', '=', row.supplier_id).where('company_id', '=', row.company_id).executeTakeFirst();
    const fallback = row.supplier_json ? (JSON.parse(row.supplier_json) as PartyJson) : null;
    bill.supplier = s
      ? { id: s.id, name: s.name, vat_id: supplierVatId(s), reg_com: s.reg_com, address: s.address, email: s.email, phone: s.phone }
      : {
          id: row.supplier_id, name: fallback?.name ?? '', vat_id: fallback?.vat_id ?? fallback?.cui ?? null, reg_com: fallback?.reg_com ?? null,
          address: fallback?.address ?? null, email: fallback?.email ?? null, phone: fallback?.phone ?? null,
        };
  }
  if (o.expand.has('expense')) {
    const e = row.expense_id ? await findExpense(db, o.dialect, row.company_id, row.expense_id) : undefined;
    bill.expense = e ? await viewExpense(db, e, o.now, o.locale) : null;
  }
  if (o.expand.has('client')) {
    const c = row.client_id ? await db.selectFrom('clients').selectAll().where('id', '=', row.client_id).where('company_id', '=', row.company_id).executeTakeFirst() : undefined;
    bill.client = c ? toClient(c) : null;
  }
  if (o.expand.has('efactura_message')) {
    const m = row.efactura_message_id === null ? undefined : await db.selectFrom('efactura_messages').selectAll().where('id', '=', row.efactura_message_id).executeTakeFirst();
    bill.efactura_message = m
      ? { id: Number(m.id), message_id: m.message_id, cif: m.cif, type: m.type, creation_date: m.creation_date, environment: m.environment, upload_index: m.upload_index }
      : null;
  }
  if (o.expand.has('lines')) {
    const lines = await db.selectFrom('supplier_bill_lines').selectAll().where('bill_id', '=', row.id).orderBy('position').execute();
    bill.lines = lines.map(lineView);
  }
  if (o.balance) bill.supplier_balance = await supplierBalance(db, row);
  return bill;
}

/** A bill of the company (any work point); undefined for another company's, as for a missing one. */
export async function findBill(db: Executor, companyId: string, id: string): Promise<BillRow | undefined> {
  return db.selectFrom('supplier_bills').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
}

export function newLineId(): string {
  return newId('sbl');
}
