import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, zipSync } from 'fflate';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { issue, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { SELLER_PROFILE } from '../efactura-spv/helpers';
import { pdfText } from '../documents-pdf/pdf-text';
import { startTestServer } from '../../support/server';

/**
 * The monthly archive: made twice from the same documents it is the same bytes; its index names every
 * other file with the SHA-256 of exactly what is in the ZIP; each document is there once.
 */
describe.each(DIALECTS)('monthly archive (%s)', (dialect) => {
  let server: TestServer;
  let firm: Firm;
  let invoiceIds: string[] = [];
  const answer = zipSync({ 'semnatura.xml': new TextEncoder().encode('<Signature>ANAF</Signature>') });

  const download = async (month: string) => {
    const res = await fetch(`${server.base}/accounting/archive?month=${month}`, { headers: { authorization: `Bearer ${firm.key}` } });
    expect(res.status).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  };

  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
    firm = await newFirm(server);
    await firm.ok('PUT', '/company/profile', { ...SELLER_PROFILE, vat_payer: true });
    const client = await newClient(firm);
    const series = await newSeries(firm);
    await firm.ok('POST', '/receipt-series', {});
    const a = await issue(firm, { client_id: client.id, series_id: series.id, issue_date: '2026-10-02' });
    const b = await issue(firm, { client_id: client.id, series_id: series.id, issue_date: '2026-10-03' });
    const storno = await firm.ok('POST', `/invoices/${a.id}/storno`, { issue_date: '2026-10-04' });
    invoiceIds = [a.id, b.id, storno.id];
    // As the e-Factura module stores a verdict: the XML sent and ANAF's signed answer (base64).
    await server.storage.db.insertInto('efactura_submissions').values({
      id: 'efs_archive1', company_id: firm.companyId, work_point_id: firm.workPointId, invoice_id: b.id, invoice_number: b.full_number,
      environment: 'prod', status: 'accepted', active_key: `${b.id}:prod`, xml: '<Invoice>as sent</Invoice>', upload_standard: 'UBL', upload_b2c: 0,
      upload_extern: 0, upload_index: '5001', download_id: '6001', uncertain: 0, attempts: 1, polls: 1, message: 'ok', errors_json: '[]',
      answer_zip: Buffer.from(answer).toString('base64'), next_check_at: null, last_error: null, attempt_started_at: null, uploaded_at: 1, finished_at: 2,
      created_at: 1, updated_at: 2,
    }).execute();
    await firm.ok('POST', '/receipts', { client_name: 'Ion Popescu', amount: 20, payment_date: '2026-10-05' });
    await firm.ok('POST', '/supplier-bills', { supplier: { name: 'Exemplu Furnizor SRL', cui: '1590082' }, invoice_number: 'B-1', issue_date: '2026-10-09', tax_exclusive: 100, tax: 21 });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('is byte-identical when made again, and its index matches its files', async () => {
    const first = await download('2026-10');
    const second = await download('2026-10');
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const files = unzipSync(first);
    const index = JSON.parse(new TextDecoder().decode(files['index.json']!)) as { month: string; files: { path: string; sha256: string; bytes: number; kind: string }[] };
    expect(index.month).toBe('2026-10');
    // Written a row at a time, laid out as JSON.stringify lays out the whole.
    expect(new TextDecoder().decode(files['index.json']!)).toBe(`${JSON.stringify(index, null, 2)}\n`);
    const listed = index.files.map((f) => f.path).sort();
    expect(listed).toEqual(Object.keys(files).filter((p) => !p.startsWith('index.')).sort());
    for (const f of index.files) {
      expect(createHash('sha256').update(files[f.path]!).digest('hex'), f.path).toBe(f.sha256);
      expect(files[f.path]!.length).toBe(f.bytes);
    }
    const csv = new TextDecoder().decode(files['index.csv']!).trim().split('\r\n');
    expect(csv).toHaveLength(index.files.length + 1);
  });

  it('holds every document once: e-Factura XML (as sent where sent) with ANAF\'s answer, receipts, supplier bills, registers', async () => {
    const files = unzipSync(await download('2026-10'));
    const index = JSON.parse(new TextDecoder().decode(files['index.json']!)) as { files: { path: string; kind: string; document_id: string | null }[] };
    const xmls = index.files.filter((f) => f.kind === 'invoice_xml');
    expect(xmls.map((f) => f.document_id).sort()).toEqual([...invoiceIds].sort());
    const sent = index.files.find((f) => f.kind === 'invoice_xml' && f.document_id === invoiceIds[1])!;
    expect(new TextDecoder().decode(files[sent.path]!)).toBe('<Invoice>as sent</Invoice>');
    const generated = index.files.find((f) => f.kind === 'invoice_xml' && f.document_id === invoiceIds[0])!;
    expect(new TextDecoder().decode(files[generated.path]!)).toContain('urn:cen.eu:en16931:2017#compliant#urn:efactura.mfinante.ro:CIUS-RO:1.0.1');
    const anaf = index.files.find((f) => f.kind === 'anaf_answer')!;
    expect(Buffer.from(files[anaf.path]!).equals(Buffer.from(answer))).toBe(true);
    expect(index.files.filter((f) => f.kind === 'receipt')).toHaveLength(1);
    expect(index.files.filter((f) => f.kind === 'supplier_bill_manual')).toHaveLength(1);
    expect(index.files.map((f) => f.kind)).toEqual(expect.arrayContaining(['sales_journal', 'purchase_journal', 'cash_register', 'readme']));
    // Each invoice also as the desktop prints it (issue 16): the service's renderer, the same template.
    const pdfs = index.files.filter((f) => f.kind === 'invoice_pdf');
    expect(pdfs.map((f) => f.document_id).sort()).toEqual([...invoiceIds].sort());
    const first = pdfs.find((f) => f.document_id === invoiceIds[0])!;
    expect(Buffer.from(files[first.path]!.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const printed = pdfText(files[first.path]!);
    expect(printed).toContain(SELLER_PROFILE.name);
    expect(printed).toContain('02.10.2026');
    // Dated with the invoice's issue date, not the moment it was printed: what keeps the archive the same bytes.
    expect(Buffer.from(files[first.path]!).toString('latin1')).toContain('/CreationDate (D:20261002000000');
    expect(new TextDecoder().decode(files['CITESTE-MA.txt']!)).toContain('are alături și PDF-ul ei');
  });

  it('a month with no documents: the readme, the empty registers and the index', async () => {
    const files = unzipSync(await download('2020-02'));
    const index = JSON.parse(new TextDecoder().decode(files['index.json']!)) as { files: { kind: string }[] };
    expect(index.files.map((f) => f.kind)).toEqual(['readme', 'sales_journal', 'purchase_journal']);
    expect(new TextDecoder().decode(files['registre/jurnal-vanzari.html']!)).toContain('Niciun document în această perioadă.');
    const bad = await firm.call('GET', '/accounting/archive?month=2026-13');
    expect(bad.status).toBe(422);
  });
});

describe('monthly archive without a PDF renderer', () => {
  it('holds the XML and says in its readme why the PDFs are missing', async () => {
    const server = await startTestServer('sqlite', { extraServices: { pdf: null } });
    try {
      const firm = await newFirm(server);
      await firm.ok('PUT', '/company/profile', { ...SELLER_PROFILE, vat_payer: true });
      const client = await newClient(firm);
      const series = await newSeries(firm);
      await issue(firm, { client_id: client.id, series_id: series.id, issue_date: '2026-10-02' });
      const res = await fetch(`${server.base}/accounting/archive?month=2026-10`, { headers: { authorization: `Bearer ${firm.key}` } });
      expect(res.status).toBe(200);
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      expect(Object.keys(files).filter((p) => p.endsWith('.pdf'))).toEqual([]);
      expect(Object.keys(files).filter((p) => p.endsWith('.xml'))).toHaveLength(1);
      expect(new TextDecoder().decode(files['CITESTE-MA.txt']!)).toContain('PDF-urile facturilor emise NU sunt în arhivă');
    } finally {
      await server.close();
    }
  });
});
