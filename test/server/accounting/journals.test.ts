import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { expectError, issue, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { toBani } from '../../../shared/money';

/**
 * The VAT journals rebuilt from the documents themselves: every column total must be the sum, to the
 * ban, of what the invoices and expenses say of themselves through their own API (their VAT breakdown,
 * in RON at their own rate), never of what the journal computed.
 */

interface BreakdownEntry { vat_rate: number; vat_category: string | null; net: number; vat: number; total: number }
interface LineView { vat_rate: number; vat_category: string | null; is_service: boolean; net: number }
interface InvoiceView {
  id: string; issue_date: string; currency: string; exchange_rate: number | null; reverse_charge: boolean; vat_breakdown: BreakdownEntry[]; lines: LineView[];
}

const ron = (lei: number, rate: number | null) => (rate === null ? toBani(lei) : Math.round(toBani(lei) * rate));

/** A 0% K or G entry's services, in RON, as the invoice's own lines say (`is_service`, frozen at issue). */
function servicesOf(inv: InvoiceView, e: BreakdownEntry, rate: number | null): number {
  const own = inv.lines.filter((l) => l.vat_rate === 0 && l.vat_category === e.vat_category);
  const services = own.filter((l) => l.is_service).reduce((s, l) => s + toBani(l.net), 0);
  const all = own.reduce((s, l) => s + toBani(l.net), 0);
  if (services === 0) return 0;
  // Services only: the whole entry, with any discount on the whole invoice at that category.
  if (services === all) return ron(e.net, rate);
  if (all !== toBani(e.net)) throw new Error('a mixed goods/services entry with a document-level discount is not modelled here');
  return rate === null ? services : Math.round(services * rate);
}

const SPLIT: Record<string, [goods: string, services: string]> = {
  K: ['intra_eu_goods_base', 'intra_eu_services_base'],
  G: ['export_base', 'services_outside_eu_base'],
};

/** The columns an invoice's own breakdown puts amounts in, by the law's reading of each entry. */
function expectedSales(invoices: InvoiceView[]): Record<string, number> {
  const t: Record<string, number> = {};
  const add = (c: string, b: number) => { t[c] = (t[c] ?? 0) + b; };
  for (const inv of invoices) {
    const rate = inv.currency === 'RON' ? null : inv.exchange_rate;
    for (const e of inv.vat_breakdown) {
      const net = ron(e.net, rate);
      const vat = ron(e.vat, rate);
      add('total', net + vat);
      if (inv.reverse_charge) add('reverse_charge_base', net);
      else if (e.vat_rate > 0) { add(`base_${e.vat_rate}`, net); add(`vat_${e.vat_rate}`, vat); }
      else if (SPLIT[e.vat_category ?? '']) {
        const [goods, services] = SPLIT[e.vat_category!]!;
        const s = servicesOf(inv, e, rate);
        if (net - s !== 0) add(goods, net - s);
        if (s !== 0) add(services, s);
      } else add(e.vat_category === 'Z' ? 'exempt_deductible_base' : 'exempt_non_deductible_base', net);
    }
  }
  return t;
}

function inBani(lei: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(lei).filter(([, v]) => v !== 0).map(([k, v]) => [k, toBani(v)]));
}

describe.each(DIALECTS)('VAT journals (%s)', (dialect) => {
  let server: TestServer;
  let firm: Firm;
  const july: InvoiceView[] = [];
  const august: InvoiceView[] = [];
  let stornoOfJuly: InvoiceView;

  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
    firm = await newFirm(server);
    const client = await newClient(firm);
    const series = await newSeries(firm);
    const base = { client_id: client.id, series_id: series.id };
    await firm.ok('POST', '/currencies', { code: 'EUR' });
    const old = await issue(firm, {
      ...base, issue_date: '2025-07-20',
      items: [
        { description: 'Cafea', quantity: 3, price: 10.99, vat_rate: 19 },
        { description: 'Carte', quantity: 1, price: 45, vat_rate: 5 },
        { description: 'Pâine', quantity: 7, price: 3.33, vat_rate: 9 },
      ],
    });
    july.push(old);
    august.push(await issue(firm, {
      ...base, issue_date: '2025-08-05',
      items: [
        { description: 'Cafea', quantity: 3, price: 10.99, vat_rate: 21 },
        { description: 'Pâine', quantity: 7, price: 3.33, vat_rate: 11 },
        { description: 'Curs autorizat', quantity: 1, price: 100, vat_rate: 0, vat_category: 'E' },
      ],
    }));
    august.push(await issue(firm, {
      ...base, issue_date: '2025-08-06', currency: 'EUR', exchange_rate: 4.9771,
      items: [{ description: 'Consultanță', quantity: 1.5, price: 333.33, vat_rate: 21 }],
    }));
    august.push(await issue(firm, { ...base, issue_date: '2025-08-07', reverse_charge: true, items: [{ description: 'Deșeuri', quantity: 10, price: 12.5, vat_rate: 21 }] }));
    august.push(await issue(firm, {
      ...base, issue_date: '2025-08-08', currency: 'EUR', exchange_rate: 5.0123,
      items: [
        { description: 'Livrare UE', quantity: 2, price: 99.99, vat_rate: 0, vat_category: 'K' },
        { description: 'Export', quantity: 1, price: 10.01, vat_rate: 0, vat_category: 'G' },
      ],
    }));
    // The July invoice cancelled in September: its storno belongs to September, negative.
    server.clock.set(Math.floor(Date.parse('2025-09-03T10:00:00Z') / 1000));
    const storno = await firm.call('POST', `/invoices/${old.id}/storno`, { issue_date: '2025-09-03' });
    expect(storno.status, storno.text).toBe(201);
    stornoOfJuly = storno.body.data;
    // A draft and a proforma are not in any journal.
    await firm.ok('POST', '/invoices', { ...base, is_draft: true, issue_date: '2025-08-09', items: [{ description: 'Ciornă', quantity: 1, price: 1, vat_rate: 21 }] });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('sales across the rate change: both rates, each on its side, totals equal to the documents to the ban', async () => {
    const res = await firm.call('GET', '/accounting/journals/sales?start_date=2025-07-01&end_date=2025-08-31&per_page=2');
    expect(res.status, res.text).toBe(200);
    const j = res.body.data;
    expect(j.document_count).toBe(5);
    expect(inBani(j.totals)).toEqual(expectedSales([...july, ...august]));
    expect(j.totals.base_19).toBeGreaterThan(0);
    expect(j.totals.base_21).toBeGreaterThan(0);
    expect(j.totals.base_11).toBeGreaterThan(0);
    expect(j.totals.base_9).toBeGreaterThan(0);
    // The July invoice has only old rates, the August ones only new.
    const all = [];
    for (let page = 1; page <= j.rows.total_pages; page += 1) {
      all.push(...(await firm.ok('GET', `/accounting/journals/sales?start_date=2025-07-01&end_date=2025-08-31&per_page=2&page=${page}`)).rows.data);
    }
    expect(all.map((r: { number: string }) => r.number)).toHaveLength(5);
    const first = all[0];
    expect(first.date).toBe('2025-07-20');
    expect(first.amounts.base_21).toBe(0);
    expect(all[1].amounts.base_19).toBe(0);
    // Every column's total is the sum of its rows.
    for (const column of j.columns) {
      const sum = all.reduce((s: number, r: { amounts: Record<string, number> }) => s + toBani(r.amounts[column]!), 0);
      expect(sum, column).toBe(toBani(j.totals[column]));
    }
    // Foreign currency at the document's own rate.
    const eur = all.find((r: { currency: string; amounts: Record<string, number> }) => r.currency === 'EUR' && r.amounts.base_21 !== 0);
    expect(eur.exchange_rate).toBe(4.9771);
    expect(toBani(eur.amounts.base_21)).toBe(Math.round(toBani(500) * 4.9771));
  });

  it('a storno in a later month is negative in its own month, and leaves the original month as it was', async () => {
    const sep = await firm.ok('GET', '/accounting/journals/sales?start_date=2025-09-01&end_date=2025-09-30');
    expect(sep.document_count).toBe(1);
    expect(sep.rows.data[0]).toMatchObject({ kind: 'storno', document_id: stornoOfJuly.id, date: '2025-09-03' });
    expect(inBani(sep.totals)).toEqual(expectedSales([stornoOfJuly]));
    expect(sep.totals.base_19).toBeLessThan(0);
    const jul = await firm.ok('GET', '/accounting/journals/sales?start_date=2025-07-01&end_date=2025-07-31');
    expect(inBani(jul.totals)).toEqual(expectedSales(july));
  });

  it('a period with no documents: zero totals, no rows; a period backwards: a Romanian error at end_date', async () => {
    const empty = await firm.ok('GET', '/accounting/journals/sales?start_date=2024-01-01&end_date=2024-01-31');
    expect(empty).toMatchObject({ document_count: 0, rows: { data: [], has_more: false, total: 0 } });
    expect(Object.values(empty.totals).every((v) => v === 0)).toBe(true);
    const bad = await firm.call('GET', '/accounting/journals/sales?start_date=2025-02-01&end_date=2025-01-31&locale=ro');
    expectError(bad, 422, 'validation_error');
    expect(bad.body.error.fields.end_date).toBe('Data de sfârșit este înaintea datei de început.');
    expectError(await firm.call('GET', '/accounting/journals/sales?start_date=2025-02-30&end_date=2025-03-01'), 422, 'validation_error');
    expect((await firm.call('GET', '/accounting/journals/other?start_date=2025-01-01&end_date=2025-01-31')).status).toBe(404);
  });

  it('another company sees none of these documents', async () => {
    const other = await newFirm(server);
    expect((await other.ok('GET', '/accounting/journals/sales?start_date=2025-07-01&end_date=2025-09-30')).document_count).toBe(0);
  });

  it('intra-community and non-EU services each in their own column, apart from the goods; totals equal the documents to the ban', async () => {
    const client = await newClient(firm, 'Kunde GmbH');
    const series = await newSeries(firm, { name: 'UE' });
    const base = { client_id: client.id, series_id: series.id };
    server.clock.set(Math.floor(Date.parse('2025-11-03T10:00:00Z') / 1000));
    const mixed: InvoiceView = await issue(firm, {
      ...base, issue_date: '2025-11-03', currency: 'EUR', exchange_rate: 5.0789,
      items: [
        { description: 'Piese de schimb', quantity: 2, price: 99.99, vat_rate: 0, vat_category: 'K' },
        { description: 'Mentenanță software', quantity: 1, price: 250.55, vat_rate: 0, vat_category: 'K', is_service: true },
        { description: 'Consultanță (Elveția)', quantity: 3, price: 40.03, vat_rate: 0, vat_category: 'G', is_service: true },
        { description: 'Export utilaj', quantity: 1, price: 10.01, vat_rate: 0, vat_category: 'G' },
        { description: 'Cafea', quantity: 1, price: 10.99, vat_rate: 21 },
      ],
    });
    expect(mixed.lines.map((l) => l.is_service)).toEqual([false, true, true, false, false]);
    // Services only at K, with a discount on the whole invoice at K: all of it is services.
    const servicesOnly: InvoiceView = await issue(firm, {
      ...base, issue_date: '2025-11-04',
      items: [{ description: 'Dezvoltare software', quantity: 1, price: 1000, vat_rate: 0, vat_category: 'K', is_service: true }],
      allowances_charges: [{ amount: 10.5, vat_rate: 0, vat_category: 'K', reason: 'Reducere' }],
    });
    const nov = await firm.ok('GET', '/accounting/journals/sales?start_date=2025-11-01&end_date=2025-11-30');
    expect(nov.document_count).toBe(2);
    expect(inBani(nov.totals)).toEqual(expectedSales([mixed, servicesOnly]));
    const rate = 5.0789;
    const row = nov.rows.data.find((r: { document_id: string }) => r.document_id === mixed.id).amounts as Record<string, number>;
    expect(toBani(row.intra_eu_services_base!)).toBe(Math.round(25_055 * rate));
    expect(toBani(row.services_outside_eu_base!)).toBe(Math.round(12_009 * rate));
    // The goods are the rest of their category's entry, converted as a whole: so goods and services add up
    // to the entry on the invoice, in RON, to the ban (the goods alone within a ban of their own conversion).
    const entry = (inv: InvoiceView, c: string) => inv.vat_breakdown.find((e) => e.vat_rate === 0 && e.vat_category === c)!;
    expect(toBani(row.intra_eu_goods_base!) + toBani(row.intra_eu_services_base!)).toBe(ron(entry(mixed, 'K').net, rate));
    expect(toBani(row.export_base!) + toBani(row.services_outside_eu_base!)).toBe(ron(entry(mixed, 'G').net, rate));
    expect(Math.abs(toBani(row.intra_eu_goods_base!) - 19_998 * rate)).toBeLessThanOrEqual(1);
    expect(Math.abs(toBani(row.export_base!) - 1001 * rate)).toBeLessThanOrEqual(1);
    const other = nov.rows.data.find((r: { document_id: string }) => r.document_id === servicesOnly.id).amounts as Record<string, number>;
    expect(toBani(other.intra_eu_services_base!)).toBe(98_950);
    expect(other.intra_eu_goods_base).toBe(0);
    // The whole period: every column is the sum of the documents' own totals.
    const documentsTotal = [mixed, servicesOnly].reduce((s, inv) => s + inv.vat_breakdown.reduce((t, e) => t + ron(e.net, inv.currency === 'RON' ? null : rate) + ron(e.vat, inv.currency === 'RON' ? null : rate), 0), 0);
    expect(toBani(nov.totals.total)).toBe(documentsTotal);
    // The storno (next month) keeps what each line sells: negative, in the same columns.
    server.clock.set(Math.floor(Date.parse('2025-12-02T10:00:00Z') / 1000));
    const storno = await firm.call('POST', `/invoices/${mixed.id}/storno`, { issue_date: '2025-12-02' });
    expect(storno.status, storno.text).toBe(201);
    const dec = await firm.ok('GET', '/accounting/journals/sales?start_date=2025-12-01&end_date=2025-12-31');
    expect(inBani(dec.totals)).toEqual(expectedSales([storno.body.data]));
    expect(toBani(dec.totals.intra_eu_services_base)).toBe(-Math.round(25_055 * rate));
    expect(toBani(dec.totals.services_outside_eu_base)).toBe(-Math.round(12_009 * rate));
    // The printed form and the spreadsheet head the new columns with their legal ground.
    const html = await (await fetch(`${server.base}/accounting/journals/sales/html?start_date=2025-11-01&end_date=2025-11-30`, { headers: { authorization: `Bearer ${firm.key}` } })).text();
    expect(html).toContain('Prestări de servicii intracomunitare');
    expect(html).toContain('Livrări intracomunitare de bunuri scutite (art. 294 alin. (2))');
    expect(nov.column_titles.services_outside_eu_base).toContain('art. 278 alin. (2)');
  });

  it('purchases: expenses (RON and EUR, several rates) and bills entered by hand, to the ban', async () => {
    const supplier = (await firm.ok('POST', '/suppliers', { name: 'Furnizor Jurnal SRL', vat_payer: true })).id as string;
    const made = [
      await firm.ok('POST', '/expenses', { supplier_id: supplier, reference: 'F-1', date: '2025-07-15', amount: 100, vat: 19, with_vat: false }),
      await firm.ok('POST', '/expenses', { supplier_id: supplier, reference: 'F-2', date: '2025-08-15', amount: 121.37, vat: 21, with_vat: true }),
      await firm.ok('POST', '/expenses', { supplier_id: supplier, reference: 'F-3', date: '2025-08-16', amount: 77.77, vat: 11, with_vat: false, currency: 'EUR', exchange_rate: 4.9765 }),
      await firm.ok('POST', '/expenses', { supplier_id: supplier, reference: 'F-4', date: '2025-08-17', amount: 50, vat: 0 }),
    ];
    const bill = await firm.ok('POST', '/supplier-bills', {
      supplier: { name: 'Exemplu Furnizor SRL', cui: '18547290' }, invoice_number: 'B-1', issue_date: '2025-08-20', tax_exclusive: 870, tax: 182.7,
    });
    const j = await firm.ok('GET', '/accounting/journals/purchases?start_date=2025-07-01&end_date=2025-08-31');
    expect(j.document_count).toBe(5);
    const accountTotals = made.reduce((s: number, e: { account_amount: { total: string } }) => s + toBani(Number(e.account_amount.total)), 0);
    expect(toBani(j.totals.total)).toBe(accountTotals + toBani(bill.supplier_bill.tax_inclusive ?? 1052.7));
    const vatSum = made.reduce((s: number, e: { account_amount: { vat: string } }) => s + toBani(Number(e.account_amount.vat)), 0) + toBani(182.7);
    const journalVat = ['vat_21', 'vat_19', 'vat_11', 'vat_9', 'vat_5', 'vat_other'].reduce((s, c) => s + toBani(j.totals[c]), 0);
    expect(journalVat).toBe(vatSum);
    expect(toBani(j.totals.vat_19)).toBe(1900);
    expect(toBani(j.totals.exempt_base)).toBe(5000);
    expect(toBani(j.totals.vat_21)).toBe(toBani(Number(made[1].account_amount.vat)) + toBani(182.7));
  });

  it('TVA la încasare: issued VAT not yet chargeable, then what was cashed in the period, from the payments', async () => {
    const f = await newFirm(server);
    await f.ok('PUT', '/company/profile', { vat_on_collection: true });
    const client = await newClient(f);
    const series = await newSeries(f);
    const inv = await issue(f, { client_id: client.id, series_id: series.id, issue_date: '2025-10-02', items: [{ description: 'Servicii', quantity: 1, price: 1000, vat_rate: 21 }] });
    await f.ok('POST', '/payments', { invoice_id: inv.id, amount: 605, date: '2025-10-20', type: 'bank_order' });
    const oct = await f.ok('GET', '/accounting/journals/sales?start_date=2025-10-01&end_date=2025-10-31');
    expect(oct.document_count).toBe(2);
    expect(oct.totals).toMatchObject({ base_21: 1000, vat_21: 210, collection_issued_base: 1000, collection_issued_vat: 210 });
    const payments = (await f.ok('GET', `/invoices/${inv.id}?expand[]=payments`)).payments as { amount_without_vat: number; amount_vat: number }[];
    expect(oct.totals.collection_cashed_base).toBe(payments[0]!.amount_without_vat);
    expect(oct.totals.collection_cashed_vat).toBe(payments[0]!.amount_vat);
    expect(toBani(oct.totals.collection_cashed_base) + toBani(oct.totals.collection_cashed_vat)).toBe(60_500);
    expect(oct.rows.data.map((r: { kind: string }) => r.kind)).toEqual(['invoice', 'collection']);
  });

  it('a received invoice in a foreign currency with no rate is left out and said, in Romanian', async () => {
    const f = await newFirm(server);
    await f.ok('POST', '/currencies', { code: 'EUR' });
    const res = await f.call('POST', '/supplier-bills', { supplier: { name: 'Lieferant GmbH', cui: '18547290' }, invoice_number: 'DE-1', issue_date: '2025-10-09', currency: 'EUR', tax_exclusive: 100, tax: 0 });
    expect(res.status, res.text).toBe(201);
    const j = await f.ok('GET', '/accounting/journals/purchases?start_date=2025-10-01&end_date=2025-10-31&locale=ro');
    expect(j.document_count).toBe(0);
    expect(j.warnings).toEqual([expect.objectContaining({ code: 'missing_exchange_rate', number: 'DE-1', message: expect.stringContaining('Factură primită în valută fără curs de schimb') })]);
  });

  it('the XLSX has one row per document and the same totals', async () => {
    const res = await fetch(`${server.base}/accounting/journals/sales/xlsx?start_date=2025-07-01&end_date=2025-08-31`, { headers: { authorization: `Bearer ${firm.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('jurnal-vanzari-2025-07-01-2025-08-31.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const json = await firm.ok('GET', '/accounting/journals/sales?start_date=2025-07-01&end_date=2025-08-31');
    const head = (ws.getRow(3).values as unknown[]).slice(1);
    const totalRow = ws.getRow(3 + json.document_count + 1);
    expect(totalRow.getCell(2).value).toBe('TOTAL');
    for (const column of json.columns as string[]) {
      const idx = head.indexOf(json.column_titles[column]) + 1;
      expect(idx, column).toBeGreaterThan(0);
      expect(totalRow.getCell(idx).type, column).toBe(ExcelJS.ValueType.Number);
      expect(totalRow.getCell(idx).numFmt, column).toBe('#,##0.00');
      expect(toBani(Number(totalRow.getCell(idx).value)), column).toBe(toBani(json.totals[column]));
    }
    // Each document's row as the JSON journal has it: the date an Excel date, the rate and every amount
    // a number with two decimals (what the accountant adds up), the amounts summing to the total row.
    const rows = json.rows.data as { position: number; number: string; date: string; partner_name: string; currency: string; exchange_rate: number | null; amounts: Record<string, number> }[];
    expect(rows).toHaveLength(json.document_count);
    const sums: Record<string, number> = {};
    rows.forEach((r, i) => {
      const x = ws.getRow(4 + i);
      expect(x.getCell(1).value).toBe(r.position);
      expect(x.getCell(3).value).toBe(r.number);
      expect(x.getCell(4).value).toEqual(new Date(`${r.date}T00:00:00Z`));
      expect(x.getCell(4).numFmt).toBe('dd.mm.yyyy');
      expect(x.getCell(5).value).toBe(r.partner_name);
      expect(x.getCell(7).value).toBe(r.currency);
      expect(x.getCell(8).value).toBe(r.exchange_rate);
      for (const column of json.columns as string[]) {
        const cell = x.getCell(head.indexOf(json.column_titles[column]) + 1);
        expect(cell.type, `${r.number} ${column}`).toBe(ExcelJS.ValueType.Number);
        expect(cell.numFmt).toBe('#,##0.00');
        expect(cell.value, `${r.number} ${column}`).toBe(r.amounts[column] ?? 0);
        sums[column] = (sums[column] ?? 0) + toBani(Number(cell.value));
      }
    });
    for (const column of json.columns as string[]) expect(sums[column], column).toBe(toBani(Number(totalRow.getCell(head.indexOf(json.column_titles[column]) + 1).value)));
    expect(rows.some((r) => r.exchange_rate !== null), 'the period has a document in EUR').toBe(true);
  });
});
