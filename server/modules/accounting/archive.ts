import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/types';
import { toUblXml } from '../../efactura/index';
import { ApiError } from '../../platform/errors';
import { invoiceToDocument, loadInvoiceSource } from '../efactura-spv/invoice-document';
import { activeKey, invoiceEnvironment } from '../efactura-spv/submission-store';
import { CHUNK, pageFrom, type Period } from './journal-source';
import { firmOf, journalHtml } from './journal-files';
import { cashRegisterHtml } from './cash-print';
import { fileChunks, zipStream, type ZipEntry } from './zip-stream';
import { invoicePrintable } from '../documents-pdf/document-html';
import { PdfRendererUnavailable, type PdfRenderer } from '../documents-pdf/pdf-renderer';
import { pdfDatedAt } from '../documents-pdf/render-pdf';

/**
 * The monthly archive: one ZIP with every issued invoice as e-Factura XML (as sent to ANAF when it was
 * sent, with ANAF's signed answer where there is one), every chitanță, every supplier bill as received,
 * the registers, and an index (CSV and JSON) naming every file with its SHA-256. Everything in it is a
 * function of the stored documents, in a fixed order, with fixed entry times: made again, it is the
 * same bytes.
 */

export interface IndexEntry {
  path: string;
  kind: string;
  document_id: string | null;
  number: string | null;
  bytes: number;
  sha256: string;
}

export const README_TEXT = [
  'Arhiva lunară Tejghea',
  '',
  'facturi-emise/    fiecare factură emisă (și storno) ca e-Factura XML (UBL 2.1, CIUS-RO): exact cum a fost trimisă la ANAF',
  '                  când a fost trimisă; *.raspuns-anaf.zip este răspunsul semnat de ANAF, unde există.',
  'chitante/         fiecare chitanță, ca date (JSON).',
  'facturi-primite/  fiecare factură primită: XML-ul din SPV și semnătura ANAF (*.semnatura.xml), sau datele introduse manual (JSON).',
  'registre/         jurnalul de vânzări, jurnalul de cumpărări, registrul de casă (HTML, de tipărit).',
  'index.csv, index.json  fiecare fișier din arhivă cu amprenta lui SHA-256.',
  '',
].join('\n');

/** What the readme says of the invoices' PDFs: there when the service can print them, else why not. */
export const README_PDF = {
  included: 'Fiecare factură emisă are alături și PDF-ul ei (*.pdf), tipărit cu același șablon ca aplicația de birou.\n',
  missing: 'PDF-urile facturilor emise NU sunt în arhivă: acest serviciu nu are configurat un motor de tipărire (le tipărește aplicația de birou).\n',
};

const safe = (text: string) => text.replace(/[^\w.-]+/g, '_');
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Receives every index entry as its file passes (the index is spooled to disk, not kept). */
type IndexSink = (entry: IndexEntry) => Promise<void>;

/**
 * A file streamed into the ZIP as it is made (a register of a long month), hashed and counted on the
 * way: its index entry is written once its last byte has passed.
 */
async function* hashed(stream: Readable, done: (bytes: number, sha256: string) => Promise<void>): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    hash.update(data);
    bytes += data.length;
    yield data;
  }
  await done(bytes, hash.digest('hex'));
}

export function monthPeriod(month: string): Period {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start_date: `${month}-01`, end_date: `${month}-${String(last).padStart(2, '0')}` };
}

/** Every file of the archive but the index, each once, in a fixed order; `index` fills as they pass. */
async function* documents(db: Db, companyId: string, month: string, index: IndexSink, pdf: PdfRenderer | null, tick: () => void): AsyncGenerator<ZipEntry> {
  const period = monthPeriod(month);
  const entry = async (path: string, kind: string, data: Uint8Array, id: string | null = null, number: string | null = null): Promise<ZipEntry> => {
    await index({ path, kind, document_id: id, number, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') });
    return { name: path, data };
  };
  const streamed = (path: string, kind: string, stream: Readable): ZipEntry => ({
    name: path,
    data: hashed(stream, (bytes, sha256) => index({ path, kind, document_id: null, number: null, bytes, sha256 })),
  });
  yield await entry('CITESTE-MA.txt', 'readme', utf8(`${README_TEXT}${pdf ? README_PDF.included : README_PDF.missing}`));

  let after: { date: string; id: string } | null = null;

  // Read through a function: TypeScript would otherwise infer the query's type from the cursor it sets.

  const cursor = (): { date: string; id: string } | null => after;
  for (;;) {
    const q = db.selectFrom('invoices').select(['id', 'full_number', 'issue_date', 'spv_environment'])
      .where('company_id', '=', companyId).where('document_type', '=', 'fiscal').where('status', 'in', ['issued', 'voided', 'storno'])
      .where(pageFrom('issue_date', 'id', period.start_date, cursor())).where('issue_date', '<=', period.end_date);
    const invoices = await q.orderBy('issue_date').orderBy('id').limit(CHUNK).execute();
    for (const inv of invoices) {
      const name = `facturi-emise/${safe(inv.full_number ?? inv.id)}`;
      const sent = await db.selectFrom('efactura_submissions').select(['xml', 'answer_zip'])
        .where('company_id', '=', companyId).where('active_key', '=', activeKey(inv.id, invoiceEnvironment(inv.spv_environment))).executeTakeFirst();
      let xml = sent?.xml ?? null;
      if (xml === null) {
        try {
          xml = toUblXml(invoiceToDocument(await loadInvoiceSource(db, companyId, inv.id)).document);
        } catch (err) {
          // An invoice that cannot make a valid e-Factura (no seller address yet…): listed, said why, no XML.
          if (!(err instanceof ApiError)) throw err;
          yield await entry(`${name}.eroare.txt`, 'invoice_xml_error', utf8(`Factura ${inv.full_number ?? inv.id} nu poate fi scrisă ca e-Factura: ${err.code}\n`), inv.id, inv.full_number);
          tick();
          continue;
        }
      }
      yield await entry(`${name}.xml`, 'invoice_xml', utf8(xml), inv.id, inv.full_number);
      if (pdf) yield await invoicePdfEntry(db, companyId, pdf, inv, name, entry);
      if (sent?.answer_zip) yield await entry(`${name}.raspuns-anaf.zip`, 'anaf_answer', new Uint8Array(Buffer.from(sent.answer_zip, 'base64')), inv.id, inv.full_number);
      tick();
    }
    if (invoices.length < CHUNK) break;
    const last = invoices[invoices.length - 1]!;
    after = { date: last.issue_date, id: last.id };
  }

  after = null;
  for (;;) {
    const rq = db.selectFrom('receipts')
      .select(['id', 'receipt_number', 'date', 'client_name', 'client_id', 'amount_bani', 'amount_without_vat_bani', 'amount_vat_bani', 'currency', 'type', 'invoice_id', 'work_point_id', 'observations'])
      .where('company_id', '=', companyId).where('is_draft', '=', 0).where('is_deleted', '=', 0)
      .where(pageFrom('date', 'id', period.start_date, cursor())).where('date', '<=', period.end_date);
    const receipts = await rq.orderBy('date').orderBy('id').limit(CHUNK).execute();
    for (const r of receipts) {
      const json = JSON.stringify({
        receipt_number: r.receipt_number, date: r.date, client_name: r.client_name, client_id: r.client_id, currency: r.currency,
        amount_bani: Number(r.amount_bani), amount_without_vat_bani: Number(r.amount_without_vat_bani), amount_vat_bani: Number(r.amount_vat_bani),
        type: r.type, invoice_id: r.invoice_id, work_point_id: r.work_point_id, observations: r.observations, id: r.id,
      }, null, 2);
      yield await entry(`chitante/${safe(r.receipt_number)}-${r.id}.json`, 'receipt', utf8(`${json}\n`), r.id, r.receipt_number);
      tick();
    }
    if (receipts.length < CHUNK) break;
    const last = receipts[receipts.length - 1]!;
    after = { date: last.date ?? '', id: last.id };
  }

  after = null;
  for (;;) {
    const bq = db.selectFrom('supplier_bills')
      .leftJoin('efactura_messages', 'efactura_messages.id', 'supplier_bills.efactura_message_id')
      .select([
        'supplier_bills.id as id', 'supplier_bills.invoice_number', 'supplier_bills.issue_date', 'supplier_bills.source', 'supplier_bills.supplier_json',
        'supplier_bills.currency', 'supplier_bills.tax_exclusive_bani', 'supplier_bills.tax_bani', 'supplier_bills.tax_inclusive_bani', 'supplier_bills.due_date',
        'efactura_messages.xml as xml', 'efactura_messages.signature as signature',
      ])
      .where('supplier_bills.company_id', '=', companyId)
      .where(pageFrom('supplier_bills.issue_date', 'supplier_bills.id', period.start_date, cursor())).where('supplier_bills.issue_date', '<=', period.end_date);
    const bills = await bq.orderBy('supplier_bills.issue_date').orderBy('supplier_bills.id').limit(CHUNK).execute();
    for (const b of bills) {
      const name = `facturi-primite/${safe(b.invoice_number)}-${b.id}`;
      if (b.xml) {
        yield await entry(`${name}.xml`, 'supplier_bill_xml', utf8(b.xml), b.id, b.invoice_number);
        if (b.signature) yield await entry(`${name}.semnatura.xml`, 'supplier_bill_signature', utf8(b.signature), b.id, b.invoice_number);
      } else {
        const json = JSON.stringify({
          invoice_number: b.invoice_number, issue_date: b.issue_date, due_date: b.due_date, source: b.source, currency: b.currency,
          supplier: b.supplier_json ? (JSON.parse(b.supplier_json) as unknown) : null, tax_exclusive_bani: Number(b.tax_exclusive_bani),
          tax_bani: Number(b.tax_bani), tax_inclusive_bani: Number(b.tax_inclusive_bani), id: b.id,
        }, null, 2);
        yield await entry(`${name}.json`, 'supplier_bill_manual', utf8(`${json}\n`), b.id, b.invoice_number);
      }
      tick();
    }
    if (bills.length < CHUNK) break;
    const last = bills[bills.length - 1]!;
    after = { date: last.issue_date, id: last.id };
  }

  const firm = await firmOf(db, companyId);
  yield streamed('registre/jurnal-vanzari.html', 'sales_journal', journalHtml(db, companyId, 'sales', period, firm));
  yield streamed('registre/jurnal-cumparari.html', 'purchase_journal', journalHtml(db, companyId, 'purchases', period, firm));
  // A cash register per work point and currency that had cash in the month (or before: its balance carries).
  const registers = await db.selectFrom('receipts').select(['work_point_id', 'currency']).where('company_id', '=', companyId).where('date', '<=', period.end_date).distinct()
    .union(db.selectFrom('cash_movements').select(['work_point_id', 'currency']).where('company_id', '=', companyId).where('date', '<=', period.end_date).distinct())
    .execute();
  const seen = [...new Set(registers.map((r) => `${r.work_point_id}|${r.currency}`))].sort();
  for (const key of seen) {
    const [workPointId, currency] = key.split('|') as [string, string];
    const wp = await db.selectFrom('work_points').select(['name', 'address']).where('id', '=', workPointId).executeTakeFirstOrThrow();
    yield streamed(`registre/registru-casa-${safe(wp.name)}-${workPointId}-${currency}.html`, 'cash_register', cashRegisterHtml(db, { companyId, workPointId, currency }, period, firm, wp));
  }
}

type Entry = (path: string, kind: string, data: Uint8Array, id?: string | null, number?: string | null) => Promise<ZipEntry>;

/** The invoice as the desktop prints it, dated with its issue date (the same bytes when made again); or why it is missing. */
async function invoicePdfEntry(db: Db, companyId: string, pdf: PdfRenderer, inv: { id: string; full_number: string | null; issue_date: string }, name: string, entry: Entry): Promise<ZipEntry> {
  try {
    const { html } = await invoicePrintable(db, companyId, inv.id, 'ro');
    return entry(`${name}.pdf`, 'invoice_pdf', new Uint8Array(pdfDatedAt(await pdf.render(html), inv.issue_date)), inv.id, inv.full_number);
  } catch (err) {
    // A printer that would not start must not lose the month's archive: the file says so instead.
    if (!(err instanceof PdfRendererUnavailable)) throw err;
    return entry(`${name}.pdf.eroare.txt`, 'invoice_pdf_error', utf8(`PDF-ul facturii ${inv.full_number ?? inv.id} nu a putut fi generat: ${err.detail}\n`), inv.id, inv.full_number);
  }
}

const INDEX_COLUMNS = ['path', 'kind', 'document_id', 'number', 'bytes', 'sha256'] as const;

function csvRow(e: IndexEntry): string {
  const field = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return `${INDEX_COLUMNS.map((c) => field(e[c])).join(',')}\r\n`;
}

/** One entry of `files` as JSON.stringify(…, null, 2) writes it inside `{ "files": [ … ] }`. */
const jsonItem = (e: IndexEntry) => JSON.stringify(e, null, 2).replace(/^/gm, '    ');

/** Text appended to a temporary file, read back in pieces: the index of 100,000 files is never in memory. */
class Spool {
  private readonly out: WriteStream;
  constructor(readonly path: string) {
    this.out = createWriteStream(path);
  }
  async write(text: string): Promise<void> {
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'close');
  }
}

async function* spooled(head: string, path: string, tail: string): AsyncGenerator<Uint8Array> {
  if (head) yield utf8(head);
  yield* fileChunks(path);
  if (tail) yield utf8(tail);
}

/**
 * The archive of `month` (`YYYY-MM`), streamed. The index comes last, once every file is known; its rows
 * are spooled to temporary files as the files pass, so memory stays flat however long the month (the
 * same bytes as building it whole: JSON.stringify's layout, written a row at a time).
 */
export function monthlyArchive(db: Db, companyId: string, month: string, pdf: PdfRenderer | null = null, tick: () => void = () => undefined): Readable {
  async function* all(): AsyncGenerator<ZipEntry> {
    const dir = await mkdtemp(join(tmpdir(), 'tejghea-archive-'));
    try {
      const csv = new Spool(join(dir, 'index.csv'));
      const json = new Spool(join(dir, 'index.json'));
      let count = 0;
      const sink: IndexSink = async (e) => {
        await csv.write(csvRow(e));
        await json.write(`${count ? ',\n' : ''}${jsonItem(e)}`);
        count += 1;
      };
      try {
        yield* documents(db, companyId, month, sink, pdf, tick);
      } finally {
        await csv.close();
        await json.close();
      }
      yield { name: 'index.csv', data: spooled(`${INDEX_COLUMNS.join(',')}\r\n`, csv.path, count ? '' : '\r\n') };
      const head = `{\n  "month": ${JSON.stringify(month)},\n  "files": [${count ? '\n' : ''}`;
      yield { name: 'index.json', data: spooled(head, json.path, count ? '\n  ]\n}\n' : ']\n}\n') };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return zipStream(all());
}
