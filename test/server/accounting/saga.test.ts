import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import ExcelJS from 'exceljs';
import { openDbf } from 'shapefile';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { issue, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { seedOctober } from './export-fixture';
import { SAGA_LAYOUTS } from '../../../server/modules/accounting/saga';
import { toBani } from '../../../shared/money';

/**
 * The Saga export read back with another library than the one that wrote it (shapefile's dBASE reader):
 * every line of every document is a record, the records add up to the VAT journals to the ban, partner
 * codes tie IE/IN to Clienti/Furnizori, Romanian letters survive Windows-1250.
 */

async function readDbf(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  const source = await openDbf(bytes, { encoding: 'windows-1250' });
  const rows: Record<string, unknown>[] = [];
  for (let r = await source.read(); !r.done; r = await source.read()) rows.push(r.value);
  return rows;
}

function fieldNames(bytes: Uint8Array): string[] {
  const headerLength = bytes[8]! | (bytes[9]! << 8);
  const names: string[] = [];
  for (let at = 32; at < headerLength && bytes[at] !== 0x0d; at += 32) names.push(Buffer.from(bytes.subarray(at, at + 11)).toString('latin1').replace(/\0.*$/, ''));
  return names;
}

const bani = (rows: Record<string, unknown>[], field: string) => rows.reduce((s, r) => s + toBani(Number(r[field])), 0);

describe.each(DIALECTS)('Saga export (%s)', (dialect) => {
  let server: TestServer;
  let firm: Firm;
  let files: Record<string, Uint8Array>;
  const PERIOD = 'start_date=2026-10-01&end_date=2026-10-31';

  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
    firm = await newFirm(server);
    await seedOctober(firm);
    await firm.ok('POST', '/products', { name: 'Cafea boabe', code: 'CAF1', unit: 'buc', price: 50, vat_rate: 21 });

    const res = await fetch(`${server.base}/accounting/exports/saga?${PERIOD}`, { headers: { authorization: `Bearer ${firm.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('has the five files, named as Saga expects, with the documented fields', () => {
    expect(Object.keys(files).sort()).toEqual([
      'Articole_01-10-2026_31-10-2026.dbf', 'Clienti_01-10-2026_31-10-2026.dbf', 'Furnizori_01-10-2026_31-10-2026.dbf',
      'IE_01-10-2026_31-10-2026.dbf', 'IN_01-10-2026_31-10-2026.dbf',
    ]);
    expect(fieldNames(files['IE_01-10-2026_31-10-2026.dbf']!)).toEqual(SAGA_LAYOUTS.iesiri.map((f) => f.name));
    expect(fieldNames(files['IN_01-10-2026_31-10-2026.dbf']!)).toEqual(SAGA_LAYOUTS.intrari.map((f) => f.name));
    expect(fieldNames(files['Clienti_01-10-2026_31-10-2026.dbf']!)).toEqual(SAGA_LAYOUTS.clienti.map((f) => f.name));
  });

  it('IE: a record per line; values and VAT add up to the sales journal to the ban', async () => {
    const ie = await readDbf(files['IE_01-10-2026_31-10-2026.dbf']!);
    expect(ie).toHaveLength(2 + 2 + 1 + 2);
    const journal = await firm.ok('GET', `/accounting/journals/sales?${PERIOD}`);
    const vat = ['vat_21', 'vat_11', 'vat_19', 'vat_9', 'vat_5', 'vat_other'].reduce((s, c) => s + toBani(journal.totals[c]), 0);
    expect(bani(ie, 'TVA')).toBe(vat);
    expect(bani(ie, 'VALOARE')).toBe(toBani(journal.totals.total) - vat);
    expect(ie.find((r) => r.DEN_ART === 'Pâine ţărănească')).toMatchObject({ TVA_ART: 11, CANTITATE: 3, TIP: null, CONT: '707', DATA: new Date('2026-10-02T00:00:00Z') });
    expect(ie.find((r) => r.DEN_ART === 'Deşeuri')).toMatchObject({ TIP: 'T', TVA_ART: 0, TVA: 0 });
    // The storno's lines are negative, in its own month.
    expect(ie.filter((r) => Number(r.CANTITATE) < 0)).toHaveLength(2);
    const clients = await readDbf(files['Clienti_01-10-2026_31-10-2026.dbf']!);
    expect(clients).toHaveLength(1);
    expect(clients[0]).toMatchObject({ DENUMIRE: 'Brutăria Ştirbei SRL', IS_TVA: 1 });
    expect(new Set(ie.map((r) => r.COD))).toEqual(new Set([clients[0]!.COD]));
  });

  it('IN: expenses and received invoices, adding up to the purchase journal to the ban', async () => {
    const inn = await readDbf(files['IN_01-10-2026_31-10-2026.dbf']!);
    const journal = await firm.ok('GET', `/accounting/journals/purchases?${PERIOD}`);
    const vat = ['vat_21', 'vat_11', 'vat_19', 'vat_9', 'vat_5', 'vat_other'].reduce((s, c) => s + toBani(journal.totals[c]), 0);
    expect(bani(inn, 'TVA')).toBe(vat);
    expect(bani(inn, 'VALOARE') + bani(inn, 'TVA')).toBe(toBani(journal.totals.total));
    expect(new Set(inn.map((r) => r.NR_NIR))).toEqual(new Set([1, 2, 3]));
    const suppliers = await readDbf(files['Furnizori_01-10-2026_31-10-2026.dbf']!);
    expect(suppliers.map((s) => s.DENUMIRE).sort()).toEqual(['Exemplu Furnizor SRL', 'Papetăria Ştefan SRL']);
    expect(suppliers.find((s) => s.DENUMIRE === 'Papetăria Ştefan SRL')).toMatchObject({ COD_FISCAL: 'RO18547290' });
    const articole = await readDbf(files['Articole_01-10-2026_31-10-2026.dbf']!);
    expect(articole).toEqual([expect.objectContaining({ COD: 'CAF1', DENUMIRE: 'Cafea boabe', TVA: 21 })]);
  });

  it('IE: a K or G service says it is supplied abroad (art. 278), goods keep their exemption; still the journal to the ban', async () => {
    const client = await newClient(firm, 'Kunde GmbH');
    const series = await newSeries(firm, { name: 'UE' });
    await issue(firm, { client_id: client.id, series_id: series.id, issue_date: '2026-11-05', items: [
      { description: 'Piese', quantity: 2, price: 30.5, vat_rate: 0, vat_category: 'K' },
      { description: 'Mentenanţă', quantity: 1, price: 120.45, vat_rate: 0, vat_category: 'K', is_service: true },
      { description: 'Consultanţă', quantity: 1, price: 80, vat_rate: 0, vat_category: 'G', is_service: true },
    ] });
    const nov = 'start_date=2026-11-01&end_date=2026-11-30';
    const res = await fetch(`${server.base}/accounting/exports/saga?${nov}`, { headers: { authorization: `Bearer ${firm.key}` } });
    const ie = await readDbf(unzipSync(new Uint8Array(await res.arrayBuffer()))['IE_01-11-2026_30-11-2026.dbf']!);
    expect(Object.fromEntries(ie.map((r) => [r.DEN_ART, r.DEN_TIP]))).toEqual({
      Piese: 'Scutit K', 'Mentenanţă': 'Servicii K art. 278 alin. (2)', 'Consultanţă': 'Servicii G art. 278 alin. (2)',
    });
    const journal = await firm.ok('GET', `/accounting/journals/sales?${nov}`);
    expect(bani(ie, 'VALOARE')).toBe(toBani(journal.totals.total));
    const services = ie.filter((r) => String(r.DEN_TIP).startsWith('Servicii K')).reduce((s, r) => s + toBani(Number(r.VALOARE)), 0);
    expect(services).toBe(toBani(journal.totals.intra_eu_services_base));
  });

  it('a period with no documents gives the five files, empty', async () => {
    const res = await fetch(`${server.base}/accounting/exports/saga?start_date=2020-01-01&end_date=2020-01-31`, { headers: { authorization: `Bearer ${firm.key}` } });
    const empty = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(await readDbf(empty['IE_01-01-2020_31-01-2020.dbf']!)).toEqual([]);
    expect(await readDbf(empty['IN_01-01-2020_31-01-2020.dbf']!)).toEqual([]);
  });

  it('the CSV of every document: one row each, totals as the journals', async () => {
    const res = await fetch(`${server.base}/accounting/exports/documents/csv?${PERIOD}`, { headers: { authorization: `Bearer ${firm.key}` } });
    const lines = (await res.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Tip,Număr,Data,Partener,CUI/CNP,Monedă,Curs,Bază (lei),TVA (lei),Total (lei)');
    expect(lines).toHaveLength(1 + 4 + 3);
    const sales = await firm.ok('GET', `/accounting/journals/sales?${PERIOD}`);
    const salesTotal = lines.slice(1).filter((l) => /^Factură( storno)?,/.test(l)).reduce((s, l) => s + toBani(Number(l.split(',').at(-1))), 0);
    expect(salesTotal).toBe(toBani(sales.totals.total));
  });

  it('the XLSX of every document: the CSV\'s rows, with dates as Excel dates and amounts as numbers', async () => {
    const auth = { headers: { authorization: `Bearer ${firm.key}` } };
    const csv = (await (await fetch(`${server.base}/accounting/exports/documents/csv?${PERIOD}`, auth)).text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    const res = await fetch(`${server.base}/accounting/exports/documents/xlsx?${PERIOD}`, auth);
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(csv.length);
    expect((ws.getRow(1).values as unknown[]).slice(1).join(',')).toBe(csv[0]);
    // The fixture's names have no comma or quote: a plain split reads the CSV.
    csv.slice(1).forEach((line, i) => {
      const [kind, number, date, partner, cui, currency, rate, base, vat, total] = line.split(',');
      const row = ws.getRow(2 + i);
      expect([row.getCell(1).value, row.getCell(2).value, row.getCell(4).value, row.getCell(6).value]).toEqual([kind, number, partner, currency]);
      expect(row.getCell(5).value ?? '').toBe(cui);
      expect(row.getCell(3).value).toEqual(new Date(`${date!}T00:00:00Z`));
      expect(row.getCell(3).numFmt).toBe('dd.mm.yyyy');
      expect(row.getCell(7).value).toBe(rate === '' ? null : Number(rate));
      [base, vat, total].forEach((amount, k) => {
        const cell = row.getCell(8 + k);
        expect(cell.type, `${number!} ${k}`).toBe(ExcelJS.ValueType.Number);
        expect(cell.numFmt).toBe('#,##0.00');
        expect(toBani(Number(cell.value))).toBe(toBani(Number(amount)));
      });
    });
    const sales = await firm.ok('GET', `/accounting/journals/sales?${PERIOD}`);
    let salesTotal = 0;
    for (let r = 2; r <= ws.rowCount; r += 1) if (/^Factură( storno)?$/.test(String(ws.getRow(r).getCell(1).value))) salesTotal += toBani(Number(ws.getRow(r).getCell(10).value));
    expect(salesTotal).toBe(toBani(sales.totals.total));
    expect(csv.slice(1).some((l) => l.split(',')[6] !== ''), 'the month has a document in EUR').toBe(true);
  });
});
