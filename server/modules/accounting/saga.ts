import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DBFFile, type FieldDescriptor } from 'dbffile';
import type { Db } from '../../db/types';
import { mulDivRound } from '../../../shared/money';
import { issuedDocuments, receivedDocuments, PartnerCodes, type ExportLine } from './export-documents';
import { CHUNK, type Period } from './journal-source';
import { fileChunks, zipStream, type ZipEntry } from './zip-stream';

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

/**
 * DEN_TIP of a 0% line names its exemption category (`Scutit E`…); Saga's TVA_ART is a whole percent.
 * The import has no VAT code of its own for services supplied abroad (TIP knows only `A` aviz and `T`
 * taxare inversă), so a K or G service says so here, where the accountant reads the exemption: it is not
 * exempt at all but supplied outside Romania (art. 278 alin. (2)).
 */
const exemption = (l: ExportLine) => {
  if (l.reverse_charge || !l.category || l.vat_rate_bp !== 0) return '';
  if (l.is_service && (l.category === 'K' || l.category === 'G')) return sagaText(`Servicii ${l.category} art. 278 alin. (2)`, 36);
  return sagaText(`Scutit ${l.category}`, 36);
};
const percent = (l: ExportLine) => Math.round(l.vat_rate_bp / 100);

async function writeIesiri(db: Db, companyId: string, period: Period, out: Appender, clients: PartnerCodes, tick: () => void): Promise<void> {
  for await (const doc of issuedDocuments(db, companyId, period)) {
    const code = clients.codeOf(doc);
    for (const l of doc.lines) {
      await out.add({
        NR_IESIRE: sagaText(doc.number, 16), COD: code, DATA: dateOf(doc.date), SCADENT: dateOf(doc.due_date),
        TIP: l.reverse_charge ? 'T' : '', TVAI: doc.vat_on_collection ? 1 : 0, GESTIUNE: '', DEN_GEST: '', COD_ART: '', DEN_ART: sagaText(l.name, 60), UM: sagaText(l.unit, 5),
        CANTITATE: l.quantity, DEN_TIP: exemption(l), TVA_ART: percent(l), VALOARE: lei(l.net_ron), TVA: lei(l.vat_ron), CONT: DEFAULT_SALES_ACCOUNT,
        PRET_VANZ: 0, GRUPA: '',
      });
    }
    tick();
  }
}

async function writeIntrari(db: Db, companyId: string, period: Period, out: Appender, suppliers: PartnerCodes, tick: () => void): Promise<void> {
  let nir = 0;
  for await (const doc of receivedDocuments(db, companyId, period)) {
    nir += 1;
    const code = suppliers.codeOf(doc);
    for (const l of doc.lines) {
      await out.add({
        NR_NIR: nir, NR_INTRARE: sagaText(doc.number, 16), GESTIUNE: '', DEN_GEST: '', COD: code, DATA: dateOf(doc.date), SCADENT: dateOf(doc.due_date),
        TIP: l.reverse_charge ? 'T' : '', TVAI: 0, COD_ART: '', DEN_ART: sagaText(l.name, 60), UM: '', CANTITATE: l.quantity, DEN_TIP: '', TVA_ART: percent(l),
        VALOARE: lei(l.net_ron), TVA: lei(l.vat_ron), CONT: '', PRET_VANZ: 0, GRUPA: '',
      });
    }
    tick();
  }
}

async function writePartners(out: Appender, partners: PartnerCodes, kind: 'clienti' | 'furnizori'): Promise<void> {
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
export async function writeSagaFiles(db: Db, companyId: string, period: Period, tick: () => void = () => undefined): Promise<SagaFiles> {
  const dir = await mkdtemp(join(tmpdir(), 'tejghea-saga-'));
  try {
    const names = sagaFileNames(period);
    const clients = new PartnerCodes(5);
    const suppliers = new PartnerCodes(5);
    const ie = await createDbf(dir, names.iesiri, SAGA_LAYOUTS.iesiri);
    await writeIesiri(db, companyId, period, ie, clients, tick);
    await ie.flush();
    const inn = await createDbf(dir, names.intrari, SAGA_LAYOUTS.intrari);
    await writeIntrari(db, companyId, period, inn, suppliers, tick);
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
export function sagaZip(db: Db, companyId: string, period: Period, tick?: () => void): Readable {
  async function* entries(): AsyncGenerator<ZipEntry> {
    const files = await writeSagaFiles(db, companyId, period, tick);
    try {
      for (const name of Object.values(files.names)) yield { name, data: fileChunks(join(files.dir, name)) };
    } finally {
      await rm(files.dir, { recursive: true, force: true });
    }
  }
  return zipStream(entries());
}
