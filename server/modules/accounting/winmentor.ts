import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import type { Db } from '../../db/types';
import { baniToDecimalString, mulDivRound } from '../../../shared/money';
import { issuedDocuments, receivedDocuments, PartnerCodes, type ExportDocument, type ExportLine } from './export-documents';
import type { Period } from './journal-source';
import { fileChunks, zipStream, type ZipEntry } from './zip-stream';

/**
 * WinMENTOR's text import of invoices (Mentor > Interne > Import date din alte aplicații > Facturi
 * ieșire / Facturi intrare): INI-like files, one `[Factura_k]` header and one `[Items_k]` section per
 * document, one file per working month (`AnLucru`/`LunaLucru`), plus the partners and articles they
 * name. Written from the same lines as the Saga export (export-documents.ts), so they add up to the
 * VAT journals to the ban. Layout and sources: docs/exports-winmentor.md.
 */

export const WINMENTOR_ENCODING = 'win1250';
const CRLF = '\r\n';

/** Windows-1250 text on one line, with nothing that would end a value or split an item. */
export function mentorText(text: string | null | undefined): string {
  return (text ?? '')
    .replace(/ș/g, 'ş').replace(/Ș/g, 'Ş').replace(/ț/g, 'ţ').replace(/Ț/g, 'Ţ')
    .replace(/[\r\n\t;]+/g, ' ')
    .trim();
}

const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
const lei = baniToDecimalString;
/** Milli-units → `1.5`, `-3`, `0.125`. */
const quantity = (milli: number) => String(milli / 1000);

/** `TJ-0042` → series `TJ`, number `0042` (WinMENTOR keeps them apart); a number with no digits stays whole. */
export function splitNumber(full: string): { series: string; number: string } {
  const m = /^(.*?)[\s\-/]*(\d+)$/.exec(full);
  return m ? { series: m[1]!, number: m[2]! } : { series: '', number: full };
}

/** A price in ten-thousandths of a leu → `12.3456`. */
function price4(units: number): string {
  const abs = Math.abs(units);
  const frac = String(abs % 10_000).padStart(4, '0');
  return `${units < 0 ? '-' : ''}${Math.floor(abs / 10_000)}.${frac}`;
}

export interface MentorItem { quantity_milli: number; price: string; value: number; vat: number }

/**
 * The items of a line: quantity × price (4 decimals), rounded half away from zero, is what WinMENTOR
 * values it at; where that does not give back the line's own RON value (a large quantity) a second item
 * of quantity 1 carries the difference, so the file's total is the journal's to the ban. Integers only.
 */
export function lineItems(l: ExportLine): MentorItem[] {
  const qMilli = Math.round(l.quantity * 1000);
  if (qMilli === 0) return [{ quantity_milli: 1000, price: price4(l.net_ron * 100), value: l.net_ron, vat: l.vat_ron }];
  // Ten-thousandths of a leu per unit: bani × 100 per (milli ÷ 1000).
  const unit = mulDivRound(l.net_ron * Math.sign(qMilli), 100_000, Math.abs(qMilli));
  const value = mulDivRound(qMilli, unit, 100_000);
  const items: MentorItem[] = [{ quantity_milli: qMilli, price: price4(unit), value, vat: l.vat_ron }];
  if (value !== l.net_ron) items.push({ quantity_milli: 1000, price: price4((l.net_ron - value) * 100), value: l.net_ron - value, vat: 0 });
  return items;
}

/**
 * Articles named by an export: one code per name, VAT rate and kind (WinMENTOR takes the rate and whether
 * it is a service from the article: `Serviciu=D` is what it books as a service, not as stock).
 */
class Articles {
  readonly rows = new Map<string, { code: string; name: string; unit: string; rate_bp: number; service: boolean }>();
  codeOf(name: string, unit: string, rateBp: number, service: boolean): string {
    const key = `${rateBp}|${service ? 'S' : 'B'}|${name}`;
    const found = this.rows.get(key);
    if (found) return found.code;
    const code = `TJ${String(this.rows.size + 1).padStart(6, '0')}`;
    this.rows.set(key, { code, name, unit, rate_bp: rateBp, service });
    return code;
  }
}

/** A month's invoices of one direction: the body spooled to disk, the header written once they are counted. */
class MonthFile {
  count = 0;
  private readonly out: WriteStream;
  constructor(readonly path: string, readonly month: string) {
    this.out = createWriteStream(path);
  }
  async write(text: string): Promise<void> {
    if (!this.out.write(iconv.encode(text, WINMENTOR_ENCODING))) await once(this.out, 'drain');
  }
  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'close');
  }
}

type Direction = 'iesire' | 'intrare';

const FILE_PREFIX: Record<Direction, string> = { iesire: 'FacturiIesire', intrare: 'FacturiIntrare' };
const DOC_TYPE: Record<Direction, string> = { iesire: 'FACTURA IESIRE', intrare: 'FACTURA INTRARE' };

function invoiceText(direction: Direction, k: number, doc: ExportDocument, partnerCode: string, nir: number, articles: Articles): string {
  const items: string[] = [];
  let j = 0;
  for (const l of doc.lines) {
    const code = articles.codeOf(mentorText(l.name) || 'Articol', mentorText(l.unit), l.vat_rate_bp, l.is_service);
    for (const item of lineItems(l)) {
      j += 1;
      // Code; unit; quantity; price without VAT; gestiune (the accountant's, left empty) [; discount; account for received services].
      items.push(`Item_${j}=${code};${mentorText(l.unit)};${quantity(item.quantity_milli)};${item.price};${direction === 'intrare' ? ';;' : ''}`);
      items.push(`Item_${j}_TVA=${lei(item.vat)}`);
    }
  }
  const reverse = doc.lines.some((l) => l.reverse_charge);
  const { series, number } = splitNumber(doc.number);
  const header = direction === 'iesire'
    ? [`NrDoc=${mentorText(number)}`, `SerieCarnet=${mentorText(series)}`, `Data=${ddmmyyyy(doc.date)}`, `Scadenta=${ddmmyyyy(doc.due_date)}`, `CodClient=${partnerCode}`,
      `TaxareInversa=${reverse ? 'D' : 'N'}`, `TVAINCASARE=${doc.vat_on_collection ? 'D' : 'N'}`]
    : [`NrDoc=${mentorText(doc.number)}`, `Data=${ddmmyyyy(doc.date)}`, `NrNir=${nir}`, `CodFurnizor=${partnerCode}`, `TVAINCASARE=N`,
      `TaxareInversa=${reverse ? 'D' : 'N'}`, `Scadenta=${ddmmyyyy(doc.due_date)}`];
  return [`[Factura_${k}]`, ...header, `Observatii=`, `TotalArticole=${j}`, '', `[Items_${k}]`, ...items, '', ''].join(CRLF);
}

function infoPachet(month: string, direction: Direction, count: number): string {
  const [year, m] = month.split('-') as [string, string];
  return [`[InfoPachet]`, `AnLucru=${year}`, `LunaLucru=${Number(m)}`, `Tipdocument=${DOC_TYPE[direction]}`, `TotalFacturi=${count}`, '', ''].join(CRLF);
}

function partnersText(clients: PartnerCodes, suppliers: PartnerCodes): string {
  const out: string[] = [];
  for (const { code, data } of [...clients.rows.values(), ...suppliers.rows.values()]) {
    const foreign = data.country && data.country !== 'RO';
    const cui = data.cui ? `${data.vat_payer && !foreign && !/^RO/i.test(data.cui) ? 'RO' : ''}${data.cui}` : '';
    out.push(`[ParteneriNoi_${code}]`, `Denumire=${mentorText(data.name)}`, `CodFiscal=${mentorText(cui)}`, `RegistruComert=${mentorText(data.reg_com)}`,
      `Adresa=${mentorText(data.address)}`, `Judet=${mentorText(data.county)}`, `Tara=${mentorText(data.country || 'RO')}`,
      `PersoanaFizica=${cui ? 'NU' : 'DA'}`, `CodExtern=${code}`, '');
  }
  return out.join(CRLF) + CRLF;
}

function articlesText(articles: Articles): string {
  const out: string[] = [];
  for (const a of articles.rows.values()) {
    out.push(`[ArticoleNoi_${a.code}]`, `Denumire=${a.name}`, `Serviciu=${a.service ? 'D' : 'N'}`, `ProcTVA=${a.rate_bp / 100}`, `UM=${a.unit}`, `CodExtern=${a.code}`, '');
  }
  return out.join(CRLF) + CRLF;
}

export interface WinMentorFiles {
  dir: string;
  /** In the order they go into the ZIP: partners and articles first (WinMENTOR must know them before the invoices). */
  files: { name: string; header: string | null; body: string }[];
  documents: number;
}

/** Writes a period's files into a new temporary folder (the caller removes it). */
export async function writeWinMentorFiles(db: Db, companyId: string, period: Period, tick: () => void = () => undefined): Promise<WinMentorFiles> {
  const dir = await mkdtemp(join(tmpdir(), 'tejghea-winmentor-'));
  const months = new Map<string, MonthFile>();
  try {
    const clients = new PartnerCodes(6, 'C');
    const suppliers = new PartnerCodes(6, 'F');
    const articles = new Articles();
    const fileOf = (direction: Direction, month: string) => {
      const key = `${FILE_PREFIX[direction]}_${month}`;
      return months.get(key) ?? months.set(key, new MonthFile(join(dir, `${key}.body`), month)).get(key)!;
    };
    let documents = 0;
    for await (const doc of issuedDocuments(db, companyId, period)) {
      const file = fileOf('iesire', doc.date.slice(0, 7));
      file.count += 1;
      documents += 1;
      await file.write(invoiceText('iesire', file.count, doc, clients.codeOf(doc), 0, articles));
      tick();
    }
    let nir = 0;
    for await (const doc of receivedDocuments(db, companyId, period)) {
      const file = fileOf('intrare', doc.date.slice(0, 7));
      file.count += 1;
      documents += 1;
      nir += 1;
      await file.write(invoiceText('intrare', file.count, doc, suppliers.codeOf(doc), nir, articles));
      tick();
    }
    for (const f of months.values()) await f.close();
    const small = async (name: string, text: string) => {
      const out = new MonthFile(join(dir, name), '');
      await out.write(text);
      await out.close();
      return { name, header: null, body: name };
    };
    const files: WinMentorFiles['files'] = [await small('Parteneri.txt', partnersText(clients, suppliers)), await small('Articole.txt', articlesText(articles))];
    for (const [key, f] of [...months.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const direction: Direction = key.startsWith(FILE_PREFIX.iesire) ? 'iesire' : 'intrare';
      files.push({ name: `${key}.txt`, header: infoPachet(f.month, direction, f.count), body: `${key}.body` });
    }
    return { dir, files, documents };
  } catch (err) {
    for (const f of months.values()) await f.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

async function* withHeader(header: string | null, path: string): AsyncGenerator<Uint8Array> {
  if (header !== null) yield new Uint8Array(iconv.encode(header, WINMENTOR_ENCODING));
  yield* fileChunks(path);
}

/** The files as one ZIP, streamed; the temporary folder goes once the last byte is read. */
export function winMentorZip(db: Db, companyId: string, period: Period, tick?: () => void): Readable {
  async function* entries(): AsyncGenerator<ZipEntry> {
    const written = await writeWinMentorFiles(db, companyId, period, tick);
    try {
      for (const f of written.files) yield { name: f.name, data: withHeader(f.header, join(written.dir, f.body)) };
    } finally {
      await rm(written.dir, { recursive: true, force: true });
    }
  }
  return zipStream(entries());
}
