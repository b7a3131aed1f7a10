import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DBFFile, type FieldDescriptor } from 'dbffile';
import type { Db } from '../../db/types';
import { mulDivRound } from '../../../shared/money';
import { rateMicro, ronAt, ronLines } from '../../../shared/accounting/journal-math';
import { storedBreakdownCategory, type LineVatCategory } from '../../../shared/invoice-math';
import { CHUNK, type Period } from './journal-source';
import { zipStream, type ZipEntry } from './zip-stream';

/**
 * Saga C's DBF import (Fișier > Import date): Clienti, Furnizori, Articole, IE (ieșiri: issued invoices)
 * and IN (intrări: received invoices), one record per document line, amounts in RON. The layouts and
 * their sources are in docs/exports-saga.md. Written with dbffile to temporary files (a chunk of
 * documents at a time), then streamed into one ZIP: memory stays flat however long the month.
 */

export const SAGA_ENCODING = 'win1250';
const DEFAULT_SALES_ACCOUNT = '707';

const C = (name: string, size: number): FieldDescriptor => ({ name, type: 'C', size });
const N = (name: string, size: number, decimalPlaces = 0): FieldDescriptor => ({ name, type: 'N', size, decimalPlaces });
const D = (name: string): FieldDescriptor => ({ name, type: 'D', size: 8 });

export const SAGA_LAYOUTS = {
  clienti: [
    C('COD', 5), C('DENUMIRE', 48), C('COD_FISCAL', 13), C('REG_COM', 16), C('ANALITIC', 16), N('ZS', 3), N('DISCOUNT', 5, 2),
    C('ADRESA', 48), C('JUDET', 36), C('BANCA', 36), C('CONT_BANCA', 36), C('TIP_TERT', 1), C('TARA', 2), N('IS_TVA', 1),
  ],
  furnizori: [
    C('COD', 5), C('DENUMIRE', 48), C('COD_FISCAL', 13), C('ANALITIC', 16), N('ZS', 3), C('ADRESA', 48), C('BANCA', 36),
    C('CONT_BANCA', 36), C('TIP_TERT', 1), C('TARA', 2), N('IS_TVA', 1),
  ],
  articole: [
    C('COD', 16), C('DENUMIRE', 60), C('UM', 5), N('TVA', 5, 2), C('TIP', 2), C('DEN_TIP', 36), N('PRET_VANZ', 15, 4), N('PRET_V_TVA', 15, 4),
    C('COD_BARE', 16), N('CANT_MIN', 14, 3), C('GRUPA', 16),
  ],
  iesiri: [
    C('NR_IESIRE', 16), C('COD', 5), D('DATA'), D('SCADENT'), C('TIP', 1), N('TVAI', 1), C('GESTIUNE', 4), C('DEN_GEST', 36),
    C('COD_ART', 16), C('DEN_ART', 60), C('UM', 5), N('CANTITATE', 14, 3), C('DEN_TIP', 36), N('TVA_ART', 2), N('VALOARE', 15, 2),
    N('TVA', 15, 2), C('CONT', 20), N('PRET_VANZ', 15, 2), C('GRUPA', 16),
  ],
  intrari: [
    N('NR_NIR', 7), C('NR_INTRARE', 16), C('GESTIUNE', 4), C('DEN_GEST', 36), C('COD', 5), D('DATA'), D('SCADENT'), C('TIP', 1),
    N('TVAI', 1), C('COD_ART', 16), C('DEN_ART', 60), C('UM', 5), N('CANTITATE', 14, 3), C('DEN_TIP', 36), N('TVA_ART', 2),
    N('VALOARE', 15, 2), N('TVA', 15, 2), C('CONT', 20), N('PRET_VANZ', 15, 2), C('GRUPA', 16),
  ],
} as const satisfies Record<string, FieldDescriptor[]>;

/** Windows-1250 has ş ţ with a cedilla, not the comma below Romanian writes today: the nearest letters. */
export function sagaText(text: string | null | undefined, size: number): string {
  return (text ?? '')
    .replace(/ș/g, 'ş').replace(/Ș/g, 'Ş').replace(/ț/g, 'ţ').replace(/Ț/g, 'Ţ')
    .replace(/[\r\n\t]+/g, ' ')
    .slice(0, size);
}

const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;
const dateOf = (iso: string | null) => (iso ? new Date(`${iso}T00:00:00Z`) : null);
const lei = (bani: number) => bani / 100;

export function sagaFileNames(period: Period): Record<keyof typeof SAGA_LAYOUTS, string> {
  const span = `${ddmmyyyy(period.start_date)}_${ddmmyyyy(period.end_date)}`;
  return { clienti: `Clienti_${span}.dbf`, furnizori: `Furnizori_${span}.dbf`, articole: `Articole_${span}.dbf`, iesiri: `IE_${span}.dbf`, intrari: `IN_${span}.dbf` };
}

/** Partner codes of one export (Saga's COD is five characters): the same partner gets the same code in both files. */
class PartnerCodes<T> {
  readonly rows = new Map<string, { code: string; data: T }>();
  codeOf(key: string, data: () => T): string {
    const found = this.rows.get(key);
    if (found) return found.code;
    const code = String(this.rows.size + 1).padStart(5, '0');
    this.rows.set(key, { code, data: data() });
    return code;
  }
}

interface Party { name: string; cui: string | null; reg_com: string | null; address: string | null; county: string | null; country: string; vat_payer: boolean; iban: string | null; bank: string | null }

/** Records buffered and appended a chunk at a time. */
class Appender {
  private batch: Record<string, unknown>[] = [];
  count = 0;
  constructor(private readonly file: DBFFile) {}
  async add(record: Record<string, unknown>): Promise<void> {
    this.batch.push(record);
    this.count += 1;
    if (this.batch.length >= CHUNK) await this.flush();
  }
  async flush(): Promise<void> {
    if (!this.batch.length) return;
    await this.file.appendRecords(this.batch);
    this.batch = [];
  }
}

async function createDbf(dir: string, name: string, fields: readonly FieldDescriptor[]): Promise<Appender> {
  return new Appender(await DBFFile.create(join(dir, name), [...fields], { encoding: SAGA_ENCODING }));
}

interface StoredBreakdown { vat_rate_bp: number; vat_category?: LineVatCategory | null; net_bani: number; vat_bani: number }

async function writeIesiri(db: Db, companyId: string, period: Period, out: Appender, clients: PartnerCodes<Party>): Promise<void> {
  const profile = await db.selectFrom('company_profiles').select('vat_on_collection').where('company_id', '=', companyId).executeTakeFirst();
  const tvai = profile && Number(profile.vat_on_collection) ? 1 : 0;
  let after: { date: string; id: string } | null = null;
  for (;;) {
    let q = db
      .selectFrom('invoices')
      .select(['id', 'full_number', 'issue_date', 'due_date', 'buyer_json', 'buyer_name', 'currency', 'exchange_rate', 'reverse_charge', 'vat_breakdown_json'])
      .where('company_id', '=', companyId).where('document_type', '=', 'fiscal').where('status', 'in', ['issued', 'voided', 'storno'])
      .where('issue_date', '>=', period.start_date).where('issue_date', '<=', period.end_date);
    const cursor = after;
    if (cursor) q = q.where('issue_date', '>=', cursor.date).where((eb) => eb.or([eb('issue_date', '>', cursor.date), eb.and([eb('issue_date', '=', cursor.date), eb('id', '>', cursor.id)])]));
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
      const code = clients.codeOf(buyer?.cui ? `cui:${buyer.cui}` : `name:${name}`, () => buyer ?? {
        name, cui: null, reg_com: null, address: null, county: null, country: 'RO', vat_payer: false, iban: null, bank: null,
      });
      for (const [i, l] of own.entries()) {
        const category = storedBreakdownCategory({ vat_rate_bp: Number(l.vat_rate_bp), vat_category: l.vat_category }, reverse);
        await out.add({
          NR_IESIRE: sagaText(inv.full_number, 16), COD: code, DATA: dateOf(inv.issue_date), SCADENT: dateOf(inv.due_date ?? inv.issue_date),
          TIP: reverse ? 'T' : '', TVAI: tvai, GESTIUNE: '', DEN_GEST: '', COD_ART: '', DEN_ART: sagaText(l.description, 60), UM: sagaText(l.unit, 5),
          CANTITATE: Number(l.quantity_milli) / 1000, DEN_TIP: category && Number(l.vat_rate_bp) === 0 ? sagaText(`Scutit ${category}`, 36) : '',
          TVA_ART: reverse ? 0 : Math.round(Number(l.vat_rate_bp) / 100), VALOARE: lei(nets[i]!), TVA: lei(vats[i]!), CONT: DEFAULT_SALES_ACCOUNT,
          PRET_VANZ: 0, GRUPA: '',
        });
      }
    }
    if (invoices.length < CHUNK) return;
    const last = invoices[invoices.length - 1]!;
    after = { date: last.issue_date, id: last.id };
  }
}

async function writeIntrari(db: Db, companyId: string, period: Period, out: Appender, suppliers: PartnerCodes<Party>): Promise<void> {
  let nir = 0;
  const supplierCode = (s: { supplier_id: string; supplier_name: string; supplier_cui: string | null; supplier_vat_payer: number; supplier_address: string | null; supplier_iban: string | null }) =>
    suppliers.codeOf(s.supplier_id, () => ({
      name: s.supplier_name, cui: s.supplier_cui, reg_com: null, address: s.supplier_address, county: null, country: 'RO',
      vat_payer: Boolean(Number(s.supplier_vat_payer)), iban: s.supplier_iban, bank: null,
    }));
  const supplierColumns = ['suppliers.id as supplier_id', 'suppliers.name as supplier_name', 'suppliers.cui as supplier_cui', 'suppliers.vat_payer as supplier_vat_payer', 'suppliers.address as supplier_address', 'suppliers.iban as supplier_iban'] as const;

  let after: { date: string; id: string } | null = null;
  for (;;) {
    let q = db.selectFrom('expenses').innerJoin('suppliers', 'suppliers.id', 'expenses.supplier_id')
      .select(['expenses.id as id', 'expenses.date as date', 'expenses.due_date', 'expenses.reference', 'expenses.description', 'expenses.exchange_rate_micro',
        'expenses.vat_percent', 'expenses.net_bani', 'expenses.vat_bani', 'expenses.account_net_bani', 'expenses.account_vat_bani', ...supplierColumns])
      .where('expenses.company_id', '=', companyId).where('expenses.date', '>=', period.start_date).where('expenses.date', '<=', period.end_date);
    const cursor = after;
    if (cursor) q = q.where('expenses.date', '>=', cursor.date).where((eb) => eb.or([eb('expenses.date', '>', cursor.date), eb.and([eb('expenses.date', '=', cursor.date), eb('expenses.id', '>', cursor.id)])]));
    const expenses = await q.orderBy('expenses.date').orderBy('expenses.id').limit(CHUNK).execute();
    if (!expenses.length) break;
    const lines = await db.selectFrom('expense_lines').selectAll().where('expense_id', 'in', expenses.map((e) => e.id)).orderBy('expense_id').orderBy('position').execute();
    const byExpense = new Map<string, typeof lines>();
    for (const l of lines) (byExpense.get(l.expense_id) ?? byExpense.set(l.expense_id, []).get(l.expense_id)!).push(l);
    for (const e of expenses) {
      nir += 1;
      const rate = e.exchange_rate_micro === null ? null : Number(e.exchange_rate_micro);
      const own = byExpense.get(e.id);
      const parts = own?.length
        ? own.map((l) => ({ name: l.description ?? e.description ?? 'Cheltuială', qty: Number(l.quantity_milli) / 1000, rate: Number(l.vat_percent), net: Number(l.net_bani), vat: Number(l.vat_bani) }))
        : [{ name: e.description ?? 'Cheltuială', qty: 1, rate: Number(e.vat_percent ?? 0), net: Number(e.net_bani), vat: Number(e.vat_bani) }];
      const nets = ronLines(parts.map((p) => p.net), rate, Number(e.account_net_bani));
      const vats = ronLines(parts.map((p) => p.vat), rate, Number(e.account_vat_bani));
      const code = supplierCode(e);
      for (const [i, p] of parts.entries()) {
        await out.add({
          NR_NIR: nir, NR_INTRARE: sagaText(e.reference ?? e.id, 16), GESTIUNE: '', DEN_GEST: '', COD: code, DATA: dateOf(e.date), SCADENT: dateOf(e.due_date ?? e.date),
          TIP: '', TVAI: 0, COD_ART: '', DEN_ART: sagaText(p.name, 60), UM: '', CANTITATE: p.qty, DEN_TIP: '', TVA_ART: Math.round(p.rate),
          VALOARE: lei(nets[i]!), TVA: lei(vats[i]!), CONT: '', PRET_VANZ: 0, GRUPA: '',
        });
      }
    }
    if (expenses.length < CHUNK) break;
    const last = expenses[expenses.length - 1]!;
    after = { date: last.date, id: last.id };
  }

  after = null;
  for (;;) {
    let q = db.selectFrom('supplier_bills').innerJoin('suppliers', 'suppliers.id', 'supplier_bills.supplier_id')
      .select(['supplier_bills.id as id', 'supplier_bills.issue_date as date', 'supplier_bills.due_date', 'supplier_bills.invoice_number', 'supplier_bills.currency',
        'supplier_bills.tax_exclusive_bani', 'supplier_bills.tax_bani', ...supplierColumns])
      .where('supplier_bills.company_id', '=', companyId).where('supplier_bills.expense_id', 'is', null)
      .where('supplier_bills.issue_date', '>=', period.start_date).where('supplier_bills.issue_date', '<=', period.end_date);
    const cursor = after;
    if (cursor) q = q.where('supplier_bills.issue_date', '>=', cursor.date).where((eb) => eb.or([eb('supplier_bills.issue_date', '>', cursor.date), eb.and([eb('supplier_bills.issue_date', '=', cursor.date), eb('supplier_bills.id', '>', cursor.id)])]));
    const bills = await q.orderBy('supplier_bills.issue_date').orderBy('supplier_bills.id').limit(CHUNK).execute();
    if (!bills.length) break;
    for (const b of bills) {
      // As in the journal: a foreign-currency bill keeps no rate of its own, so it is left out (the journal says so).
      if (b.currency !== 'RON') continue;
      nir += 1;
      const lines = await db.selectFrom('supplier_bill_lines').selectAll().where('bill_id', '=', b.id).orderBy('position').execute();
      const parts = lines.length
        ? lines.map((l) => ({ name: l.name, qty: Number(l.quantity_milli) / 1000, rate: Number(l.vat_rate_bp), net: Number(l.line_net_bani), category: l.vat_category }))
        : [{ name: `Factura ${b.invoice_number}`, qty: 1, rate: 0, net: Number(b.tax_exclusive_bani), category: 'S' }];
      const nets = ronLines(parts.map((p) => p.net), null, Number(b.tax_exclusive_bani));
      const vats = ronLines(parts.map((p) => (p.category === 'S' ? mulDivRound(p.net, p.rate, 10_000) : 0)), null, Number(b.tax_bani));
      const code = supplierCode(b);
      for (const [i, p] of parts.entries()) {
        await out.add({
          NR_NIR: nir, NR_INTRARE: sagaText(b.invoice_number, 16), GESTIUNE: '', DEN_GEST: '', COD: code, DATA: dateOf(b.date), SCADENT: dateOf(b.due_date ?? b.date),
          TIP: p.category === 'AE' ? 'T' : '', TVAI: 0, COD_ART: '', DEN_ART: sagaText(p.name, 60), UM: '', CANTITATE: p.qty, DEN_TIP: '',
          TVA_ART: Math.round(p.rate / 100), VALOARE: lei(nets[i]!), TVA: lei(vats[i]!), CONT: '', PRET_VANZ: 0, GRUPA: '',
        });
      }
    }
    if (bills.length < CHUNK) break;
    const last = bills[bills.length - 1]!;
    after = { date: last.date, id: last.id };
  }
}

async function writePartners(out: Appender, partners: PartnerCodes<Party>, kind: 'clienti' | 'furnizori'): Promise<void> {
  for (const { code, data } of partners.rows.values()) {
    const foreign = data.country && data.country !== 'RO';
    const common = {
      COD: code, DENUMIRE: sagaText(data.name, 48), COD_FISCAL: sagaText(data.cui ? `${data.vat_payer && !foreign ? 'RO' : ''}${data.cui}` : '', 13),
      ANALITIC: '', ZS: 0, ADRESA: sagaText(data.address, 48), BANCA: sagaText(data.bank, 36), CONT_BANCA: sagaText(data.iban, 36),
      TIP_TERT: foreign ? 'E' : '', TARA: sagaText(data.country || 'RO', 2), IS_TVA: data.vat_payer ? 1 : 0,
    };
    await out.add(kind === 'clienti' ? { ...common, REG_COM: sagaText(data.reg_com, 16), DISCOUNT: 0, JUDET: sagaText(data.county, 36) } : common);
  }
}

async function writeArticole(db: Db, companyId: string, out: Appender): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await db.selectFrom('products').select(['id', 'name', 'code', 'unit', 'price', 'price_includes_vat', 'vat_rate_bp', 'currency'])
      .where('company_id', '=', companyId).where('id', '>', after).orderBy('id').limit(CHUNK).execute();
    for (const p of rows) {
      const price = Number(p.price);
      const bp = Number(p.vat_rate_bp);
      const net = Number(p.price_includes_vat) ? price - mulDivRound(price, bp, 10_000 + bp) : price;
      const gross = Number(p.price_includes_vat) ? price : price + mulDivRound(price, bp, 10_000);
      await out.add({
        COD: sagaText(p.code ?? p.id.slice(-16), 16), DENUMIRE: sagaText(p.name, 60), UM: sagaText(p.unit, 5), TVA: bp / 100, TIP: '', DEN_TIP: '',
        PRET_VANZ: p.currency === 'RON' ? net / 100 : 0, PRET_V_TVA: p.currency === 'RON' ? gross / 100 : 0, COD_BARE: '', CANT_MIN: 0, GRUPA: '',
      });
    }
    if (rows.length < CHUNK) return;
    after = rows[rows.length - 1]!.id;
  }
}

export interface SagaFiles {
  dir: string;
  names: Record<keyof typeof SAGA_LAYOUTS, string>;
  counts: Record<keyof typeof SAGA_LAYOUTS, number>;
}

/** Writes the five DBF files of a period into a new temporary folder (the caller removes it). */
export async function writeSagaFiles(db: Db, companyId: string, period: Period): Promise<SagaFiles> {
  const dir = await mkdtemp(join(tmpdir(), 'tejghea-saga-'));
  try {
    const names = sagaFileNames(period);
    const clients = new PartnerCodes<Party>();
    const suppliers = new PartnerCodes<Party>();
    const ie = await createDbf(dir, names.iesiri, SAGA_LAYOUTS.iesiri);
    await writeIesiri(db, companyId, period, ie, clients);
    await ie.flush();
    const inn = await createDbf(dir, names.intrari, SAGA_LAYOUTS.intrari);
    await writeIntrari(db, companyId, period, inn, suppliers);
    await inn.flush();
    const cl = await createDbf(dir, names.clienti, SAGA_LAYOUTS.clienti);
    await writePartners(cl, clients, 'clienti');
    await cl.flush();
    const fu = await createDbf(dir, names.furnizori, SAGA_LAYOUTS.furnizori);
    await writePartners(fu, suppliers, 'furnizori');
    await fu.flush();
    const ar = await createDbf(dir, names.articole, SAGA_LAYOUTS.articole);
    await writeArticole(db, companyId, ar);
    await ar.flush();
    return { dir, names, counts: { iesiri: ie.count, intrari: inn.count, clienti: cl.count, furnizori: fu.count, articole: ar.count } };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The five files as one ZIP, streamed; the temporary folder goes once the last byte is read. */
export function sagaZip(db: Db, companyId: string, period: Period): Readable {
  async function* entries(): AsyncGenerator<ZipEntry> {
    const files = await writeSagaFiles(db, companyId, period);
    try {
      for (const name of Object.values(files.names)) yield { name, data: createReadStream(join(files.dir, name)) };
    } finally {
      await rm(files.dir, { recursive: true, force: true });
    }
  }
  return zipStream(entries());
}
