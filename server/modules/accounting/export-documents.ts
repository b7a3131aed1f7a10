import type { Db } from '../../db/types';
import { mulDivRound } from '../../../shared/money';
import { rateMicro, ronAt, ronLines } from '../../../shared/accounting/journal-math';
import { percentToBp, storedBreakdownCategory, type LineVatCategory } from '../../../shared/invoice-math';
import { CHUNK, pageFrom, type Period } from './journal-source';

/**
 * The documents of a period line by line, in RON, as every accounting program's import wants them
 * (Saga's DBF, WinMentor's text files): one computation for all of them. The lines of a document are
 * made to add up to that document's RON amounts as the VAT journals show them (the rounding difference
 * goes on its largest line), so any file written from these adds up to the journals to the ban.
 * Walked in chunks by (date, id): a month of 100,000 documents is never in memory at once.
 */

export interface Party {
  name: string;
  cui: string | null;
  reg_com: string | null;
  address: string | null;
  county: string | null;
  country: string;
  vat_payer: boolean;
  iban: string | null;
  bank: string | null;
}

export interface ExportLine {
  name: string;
  unit: string;
  /** Decimal quantity (negative on a storno). */
  quantity: number;
  vat_rate_bp: number;
  /** The e-Factura VAT category of the line (S, Z, E, AE, K, G, O…), when known. */
  category: string | null;
  /** Taxare inversă on this line: no VAT charged. */
  reverse_charge: boolean;
  /** The line sells a service (frozen on an issued invoice's line); received documents do not say: false. */
  is_service: boolean;
  net_ron: number;
  vat_ron: number;
}

export interface ExportDocument {
  id: string;
  number: string;
  date: string;
  due_date: string;
  /** TVA la încasare applies to the document. */
  vat_on_collection: boolean;
  /** Names the partner the same way across the export (CUI when known). */
  partner_key: string;
  partner: Party;
  lines: ExportLine[];
}

type Cursor = { date: string; id: string } | null;

interface StoredBreakdown { vat_rate_bp: number; vat_category?: LineVatCategory | null; net_bani: number; vat_bani: number }

const noParty = (name: string): Party => ({ name, cui: null, reg_com: null, address: null, county: null, country: 'RO', vat_payer: false, iban: null, bank: null });

/** Issued fiscal invoices and stornos (negative, in the storno's own month), with their lines. */
export async function* issuedDocuments(db: Db, companyId: string, period: Period): AsyncGenerator<ExportDocument> {
  const profile = await db.selectFrom('company_profiles').select('vat_on_collection').where('company_id', '=', companyId).executeTakeFirst();
  const collection = Boolean(profile && Number(profile.vat_on_collection));
  let after: Cursor = null;
  // Read through a function: TypeScript would otherwise infer the query's type from the cursor it sets.
  const cursor = (): { date: string; id: string } | null => after;
  for (;;) {
    const q = db
      .selectFrom('invoices')
      .select(['id', 'full_number', 'issue_date', 'due_date', 'buyer_json', 'buyer_name', 'currency', 'exchange_rate', 'reverse_charge', 'vat_breakdown_json'])
      .where('company_id', '=', companyId).where('document_type', '=', 'fiscal').where('status', 'in', ['issued', 'voided', 'storno'])
      .where(pageFrom('issue_date', 'id', period.start_date, cursor())).where('issue_date', '<=', period.end_date);
    const invoices = await q.orderBy('issue_date').orderBy('id').limit(CHUNK).execute();
    if (!invoices.length) return;
    const lines = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', 'in', invoices.map((i) => i.id)).orderBy('invoice_id').orderBy('position').execute();
    const byInvoice = new Map<string, typeof lines>();
    for (const l of lines) (byInvoice.get(l.invoice_id) ?? byInvoice.set(l.invoice_id, []).get(l.invoice_id)!).push(l);
    for (const inv of invoices) {
      const rate = inv.currency !== 'RON' && inv.exchange_rate !== null ? rateMicro(Number(inv.exchange_rate)) : null;
      const reverse = Boolean(Number(inv.reverse_charge));
      const breakdown = JSON.parse(inv.vat_breakdown_json) as StoredBreakdown[];
      // The journal's own RON amounts of this invoice: the lines are made to add up to them.
      const netRon = breakdown.reduce((s, b) => s + ronAt(Number(b.net_bani), rate), 0);
      const vatRon = breakdown.reduce((s, b) => s + ronAt(Number(b.vat_bani), rate), 0);
      const own = byInvoice.get(inv.id) ?? [];
      const nets = ronLines(own.map((l) => Number(l.net_bani)), rate, netRon);
      const vats = ronLines(own.map((l) => (reverse ? 0 : Number(l.vat_bani))), rate, vatRon);
      const buyer = inv.buyer_json ? (JSON.parse(inv.buyer_json) as Party) : null;
      const name = buyer?.name ?? inv.buyer_name ?? 'Client';
      yield {
        id: inv.id,
        number: inv.full_number ?? inv.id,
        date: inv.issue_date,
        due_date: inv.due_date ?? inv.issue_date,
        vat_on_collection: collection,
        partner_key: buyer?.cui ? `cui:${buyer.cui}` : `name:${name}`,
        partner: buyer ?? noParty(name),
        lines: own.map((l, i) => ({
          name: l.description,
          unit: l.unit ?? '',
          quantity: Number(l.quantity_milli) / 1000,
          vat_rate_bp: reverse ? 0 : Number(l.vat_rate_bp),
          category: storedBreakdownCategory({ vat_rate_bp: Number(l.vat_rate_bp), vat_category: l.vat_category }, reverse) ?? null,
          reverse_charge: reverse,
          is_service: Number(l.is_service) === 1,
          net_ron: nets[i]!,
          vat_ron: vats[i]!,
        })),
      };
    }
    if (invoices.length < CHUNK) return;
    const last = invoices[invoices.length - 1]!;
    after = { date: last.issue_date, id: last.id };
  }
}

const supplierColumns = [
  'suppliers.id as supplier_id', 'suppliers.name as supplier_name', 'suppliers.cui as supplier_cui', 'suppliers.vat_payer as supplier_vat_payer',
  'suppliers.address as supplier_address', 'suppliers.iban as supplier_iban',
] as const;

interface SupplierColumns { supplier_id: string; supplier_name: string; supplier_cui: string | null; supplier_vat_payer: number; supplier_address: string | null; supplier_iban: string | null }

const supplierParty = (s: SupplierColumns): Party => ({
  name: s.supplier_name, cui: s.supplier_cui, reg_com: null, address: s.supplier_address, county: null, country: 'RO',
  vat_payer: Boolean(Number(s.supplier_vat_payer)), iban: s.supplier_iban, bank: null,
});

/**
 * Received documents: expenses, then supplier bills that no expense records (as the purchase journal).
 * A foreign-currency bill keeps no rate of its own: it is left out, as the journal leaves it out.
 */
export async function* receivedDocuments(db: Db, companyId: string, period: Period): AsyncGenerator<ExportDocument> {
  let after: Cursor = null;
  // Read through a function: TypeScript would otherwise infer the query's type from the cursor it sets.
  const cursor = (): { date: string; id: string } | null => after;
  for (;;) {
    const q = db.selectFrom('expenses').innerJoin('suppliers', 'suppliers.id', 'expenses.supplier_id')
      .select(['expenses.id as id', 'expenses.date as date', 'expenses.due_date', 'expenses.reference', 'expenses.description', 'expenses.exchange_rate_micro',
        'expenses.vat_percent', 'expenses.net_bani', 'expenses.vat_bani', 'expenses.account_net_bani', 'expenses.account_vat_bani', ...supplierColumns])
      .where('expenses.company_id', '=', companyId).where(pageFrom('expenses.date', 'expenses.id', period.start_date, cursor())).where('expenses.date', '<=', period.end_date);
    const expenses = await q.orderBy('expenses.date').orderBy('expenses.id').limit(CHUNK).execute();
    if (!expenses.length) break;
    const lines = await db.selectFrom('expense_lines').selectAll().where('expense_id', 'in', expenses.map((e) => e.id)).orderBy('expense_id').orderBy('position').execute();
    const byExpense = new Map<string, typeof lines>();
    for (const l of lines) (byExpense.get(l.expense_id) ?? byExpense.set(l.expense_id, []).get(l.expense_id)!).push(l);
    for (const e of expenses) {
      const rate = e.exchange_rate_micro === null ? null : Number(e.exchange_rate_micro);
      const own = byExpense.get(e.id);
      const parts = own?.length
        ? own.map((l) => ({ name: l.description ?? e.description ?? 'Cheltuială', qty: Number(l.quantity_milli) / 1000, bp: percentToBp(Number(l.vat_percent)), net: Number(l.net_bani), vat: Number(l.vat_bani) }))
        : [{ name: e.description ?? 'Cheltuială', qty: 1, bp: percentToBp(Number(e.vat_percent ?? 0)), net: Number(e.net_bani), vat: Number(e.vat_bani) }];
      const nets = ronLines(parts.map((p) => p.net), rate, Number(e.account_net_bani));
      const vats = ronLines(parts.map((p) => p.vat), rate, Number(e.account_vat_bani));
      yield {
        id: e.id, number: e.reference ?? e.id, date: e.date, due_date: e.due_date ?? e.date, vat_on_collection: false,
        partner_key: e.supplier_id, partner: supplierParty(e),
        lines: parts.map((p, i) => ({ name: p.name, unit: '', quantity: p.qty, vat_rate_bp: p.bp, category: null, reverse_charge: false, is_service: false, net_ron: nets[i]!, vat_ron: vats[i]! })),
      };
    }
    if (expenses.length < CHUNK) break;
    const last = expenses[expenses.length - 1]!;
    after = { date: last.date, id: last.id };
  }

  after = null;
  for (;;) {
    const q = db.selectFrom('supplier_bills').innerJoin('suppliers', 'suppliers.id', 'supplier_bills.supplier_id')
      .select(['supplier_bills.id as id', 'supplier_bills.issue_date as date', 'supplier_bills.due_date', 'supplier_bills.invoice_number', 'supplier_bills.currency',
        'supplier_bills.tax_exclusive_bani', 'supplier_bills.tax_bani', ...supplierColumns])
      .where('supplier_bills.company_id', '=', companyId).where('supplier_bills.expense_id', 'is', null)
      .where(pageFrom('supplier_bills.issue_date', 'supplier_bills.id', period.start_date, cursor())).where('supplier_bills.issue_date', '<=', period.end_date);
    const bills = await q.orderBy('supplier_bills.issue_date').orderBy('supplier_bills.id').limit(CHUNK).execute();
    if (!bills.length) break;
    for (const b of bills) {
      if (b.currency !== 'RON') continue;
      const lines = await db.selectFrom('supplier_bill_lines').selectAll().where('bill_id', '=', b.id).orderBy('position').execute();
      const parts = lines.length
        ? lines.map((l) => ({ name: l.name, unit: '', qty: Number(l.quantity_milli) / 1000, bp: Number(l.vat_rate_bp), net: Number(l.line_net_bani), category: l.vat_category as string }))
        : [{ name: `Factura ${b.invoice_number}`, unit: '', qty: 1, bp: 0, net: Number(b.tax_exclusive_bani), category: 'S' }];
      const nets = ronLines(parts.map((p) => p.net), null, Number(b.tax_exclusive_bani));
      const vats = ronLines(parts.map((p) => (p.category === 'S' ? mulDivRound(p.net, p.bp, 10_000) : 0)), null, Number(b.tax_bani));
      yield {
        id: b.id, number: b.invoice_number, date: b.date, due_date: b.due_date ?? b.date, vat_on_collection: false,
        partner_key: b.supplier_id, partner: supplierParty(b),
        lines: parts.map((p, i) => ({ name: p.name, unit: p.unit, quantity: p.qty, vat_rate_bp: p.bp, category: p.category, reverse_charge: p.category === 'AE', is_service: false, net_ron: nets[i]!, vat_ron: vats[i]! })),
      };
    }
    if (bills.length < CHUNK) break;
    const last = bills[bills.length - 1]!;
    after = { date: last.date, id: last.id };
  }
}

/** Partner codes of one export: the same partner gets the same code in every file of it. */
export class PartnerCodes {
  readonly rows = new Map<string, { code: string; data: Party }>();
  constructor(private readonly width: number, private readonly prefix = '') {}
  codeOf(doc: ExportDocument): string {
    const found = this.rows.get(doc.partner_key);
    if (found) return found.code;
    const code = `${this.prefix}${String(this.rows.size + 1).padStart(this.width - this.prefix.length, '0')}`;
    this.rows.set(doc.partner_key, { code, data: doc.partner });
    return code;
  }
}
