import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { issue, newClient, newFirm, newSeries, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { lineItems, splitNumber } from '../../../server/modules/accounting/winmentor';
import { toBani } from '../../../shared/money';
import { seedOctober } from './export-fixture';

/**
 * The WinMENTOR export read back with a reader written here from the documented layout (Windows-1250
 * decoded by the platform's TextDecoder, not the iconv-lite that wrote it): every document a
 * `[Factura_k]` with its `[Items_k]`, values (quantity × price, rounded half away from zero) and VAT
 * adding up to the VAT journals to the ban, partners and articles named by the invoices all defined.
 */

type Section = Map<string, string>;

function readIni(bytes: Uint8Array): Map<string, Section> {
  const text = new TextDecoder('windows-1250').decode(bytes);
  expect(/(^|[^\r])\n/.test(text)).toBe(false); // CRLF only
  const sections = new Map<string, Section>();
  let current: Section | null = null;
  for (const line of text.split('\r\n')) {
    const head = /^\[(.+)\]$/.exec(line);
    if (head) sections.set(head[1]!, (current = new Map()));
    else if (line.includes('=') && current) current.set(line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1));
  }
  return sections;
}

/** Bani of quantity × price, exact (decimal strings scaled to integers), half away from zero. */
function itemValue(qty: string, price: string): number {
  const scaled = (s: string, d: number) => {
    const [i, f = ''] = s.replace('-', '').split('.');
    return (s.startsWith('-') ? -1 : 1) * Number(`${i}${f.padEnd(d, '0')}`);
  };
  const product = scaled(qty, 3) * scaled(price, 4); // 1e-7 lei
  return Math.sign(product) * Math.round(Math.abs(product) / 100_000);
}

interface Read { documents: number; value: number; vat: number; partners: Set<string>; articles: Set<string> }

function invoicesOf(file: Map<string, Section>, partnerKey: string): Read {
  const info = file.get('InfoPachet')!;
  const out: Read = { documents: 0, value: 0, vat: 0, partners: new Set(), articles: new Set() };
  for (let k = 1; file.has(`Factura_${k}`); k += 1) {
    const head = file.get(`Factura_${k}`)!;
    const items = file.get(`Items_${k}`)!;
    out.documents += 1;
    out.partners.add(head.get(partnerKey)!);
    const count = Number(head.get('TotalArticole'));
    expect(items.size).toBe(count * 2);
    for (let j = 1; j <= count; j += 1) {
      const [code, , qty, price] = items.get(`Item_${j}`)!.split(';') as [string, string, string, string];
      out.articles.add(code);
      out.value += itemValue(qty, price);
      out.vat += toBani(Number(items.get(`Item_${j}_TVA`)));
    }
  }
  expect(Number(info.get('TotalFacturi'))).toBe(out.documents);
  return out;
}

const VAT_COLUMNS = ['vat_21', 'vat_11', 'vat_19', 'vat_9', 'vat_5', 'vat_other'];

describe('WinMENTOR items', () => {
  it('quantity × price gives back the line to the ban, with a difference item where 4 decimals are not enough', () => {
    const line = { name: 'x', unit: 'buc', vat_rate_bp: 2100, category: 'S', reverse_charge: false, is_service: false, vat_ron: 0 };
    for (const [quantity, net] of [[3, 3297], [1.5, 5000], [-3, -118_687], [7, 1000], [12_345.678, 987_654_321], [0, 150]] as const) {
      const items = lineItems({ ...line, quantity, net_ron: net });
      expect(items.reduce((s, i) => s + itemValue(String(i.quantity_milli / 1000), i.price), 0)).toBe(net);
    }
    expect(lineItems({ ...line, quantity: 12_345.678, net_ron: 987_654_321 })).toHaveLength(2);
    expect(splitNumber('TJ-0042')).toEqual({ series: 'TJ', number: '0042' });
    expect(splitNumber('FACT')).toEqual({ series: '', number: 'FACT' });
  });
});

describe.each(DIALECTS)('WinMENTOR export (%s)', (dialect) => {
  let server: TestServer;
  let firm: Firm;
  let files: Record<string, Uint8Array>;
  const PERIOD = 'start_date=2026-10-01&end_date=2026-11-30';
  const get = async (query: string) => {
    const res = await fetch(`${server.base}/accounting/exports/winmentor?${query}`, { headers: { authorization: `Bearer ${firm.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    return unzipSync(new Uint8Array(await res.arrayBuffer()));
  };

  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
    firm = await newFirm(server);
    await seedOctober(firm);
    // A second month: WinMENTOR imports one working month per file.
    const client = await newClient(firm, 'Client Noiembrie SRL');
    const series = await newSeries(firm, { name: 'NV' });
    await issue(firm, { client_id: client.id, series_id: series.id, issue_date: '2026-11-03', items: [
      { description: 'Făină', quantity: 2.5, price: 4.33, vat_rate: 11 },
      { description: 'Mentenanță', quantity: 1, price: 120.45, vat_rate: 0, vat_category: 'K', is_service: true },
      { description: 'Piese', quantity: 2, price: 30.5, vat_rate: 0, vat_category: 'K' },
    ] });
    files = await get(PERIOD);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('has the partners, the articles, and per month the issued and received invoices', () => {
    expect(Object.keys(files)).toEqual([
      'Parteneri.txt', 'Articole.txt', 'FacturiIesire_2026-10.txt', 'FacturiIesire_2026-11.txt', 'FacturiIntrare_2026-10.txt',
    ]);
    const info = readIni(files['FacturiIesire_2026-11.txt']!).get('InfoPachet')!;
    expect(Object.fromEntries(info)).toEqual({ AnLucru: '2026', LunaLucru: '11', Tipdocument: 'FACTURA IESIRE', TotalFacturi: '1' });
  });

  it('issued invoices: values and VAT add up to the sales journal to the ban, month by month', async () => {
    const partners = readIni(files['Parteneri.txt']!);
    const articles = readIni(files['Articole.txt']!);
    for (const month of ['10', '11']) {
      const read = invoicesOf(readIni(files[`FacturiIesire_2026-${month}.txt`]!), 'CodClient');
      const end = month === '10' ? '31' : '30';
      const journal = await firm.ok('GET', `/accounting/journals/sales?start_date=2026-${month}-01&end_date=2026-${month}-${end}`);
      const vat = VAT_COLUMNS.reduce((s, c) => s + toBani(journal.totals[c] ?? 0), 0);
      expect(read.vat).toBe(vat);
      expect(read.value).toBe(toBani(journal.totals.total) - vat);
      expect(read.documents).toBe(journal.document_count);
      for (const p of read.partners) expect(partners.has(`ParteneriNoi_${p}`)).toBe(true);
      for (const a of read.articles) expect(articles.has(`ArticoleNoi_${a}`)).toBe(true);
    }
    const october = readIni(files['FacturiIesire_2026-10.txt']!);
    const reverse = [...october.entries()].find(([name, s]) => name.startsWith('Factura_') && s.get('TaxareInversa') === 'D');
    expect(reverse).toBeDefined();
    expect(october.get('Factura_1')!.get('Data')).toBe('02.10.2026');
    // The storno: negative quantities, in its own month.
    expect([...october.values()].some((s) => [...s.values()].some((v) => /^TJ\d+;[^;]*;-/.test(v)))).toBe(true);
    const client = [...partners.values()].find((s) => s.get('Denumire') === 'Brutăria Ştirbei SRL');
    expect(client?.get('PersoanaFizica')).toBe('NU');
    expect([...articles.values()].map((a) => a.get('Denumire'))).toContain('Pâine ţărănească');
    // What the line sells reaches the article: WinMENTOR books a service as such, not as stock.
    const byName = (name: string) => [...articles.values()].find((a) => a.get('Denumire') === name);
    expect(byName('Mentenanţă')?.get('Serviciu')).toBe('D');
    expect(byName('Piese')?.get('Serviciu')).toBe('N');
    expect(byName('Făină')?.get('Serviciu')).toBe('N');
  });

  it('received invoices: values and VAT add up to the purchase journal to the ban', async () => {
    const read = invoicesOf(readIni(files['FacturiIntrare_2026-10.txt']!), 'CodFurnizor');
    const journal = await firm.ok('GET', '/accounting/journals/purchases?start_date=2026-10-01&end_date=2026-10-31');
    const vat = VAT_COLUMNS.reduce((s, c) => s + toBani(journal.totals[c] ?? 0), 0);
    expect(read.vat).toBe(vat);
    expect(read.value + read.vat).toBe(toBani(journal.totals.total));
    expect(read.documents).toBe(3);
    const partners = readIni(files['Parteneri.txt']!);
    expect([...read.partners].map((p) => partners.get(`ParteneriNoi_${p}`)!.get('Denumire')).sort()).toEqual(['Exemplu Furnizor SRL', 'Papetăria Ştefan SRL']);
  });

  it('a period with no documents gives the partner and article files, empty, and no invoice file', async () => {
    const empty = await get('start_date=2020-01-01&end_date=2020-01-31');
    expect(Object.keys(empty)).toEqual(['Parteneri.txt', 'Articole.txt']);
    expect(readIni(empty['Parteneri.txt']!).size).toBe(0);
  });
});
