import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { openDbf } from 'shapefile';
import { DIALECTS } from '../../support/storage';
import type { TestServer } from '../../support/server';
import { newFirm, startInvoicingServer, type Firm } from '../invoicing/helpers';
import { CHUNK } from '../../../server/modules/accounting/journal-source';
import { toBani } from '../../../shared/money';

/**
 * A month longer than one chunk, with many documents on the same day across chunk boundaries: every
 * document is read once, none twice, by the journal, the Saga and WinMENTOR exports and the CSV. The rows are written
 * straight to the tables (as the bench does): what is tested is the walking, not the issuing.
 */
const N = CHUNK * 2 + 37;

describe.each(DIALECTS)('reading a month chunk by chunk (%s)', (dialect) => {
  let server: TestServer;
  let firm: Firm;
  let expectedTotal = 0;

  beforeAll(async () => {
    server = await startInvoicingServer(dialect);
    firm = await newFirm(server);
    const rows = [];
    const lines = [];
    for (let i = 0; i < N; i += 1) {
      // Three days only: hundreds of documents share a date, so chunks end in the middle of a day.
      const day = `2026-09-0${1 + (i % 3)}`;
      const net = 1000 + i;
      const vat = Math.round((net * 21) / 100);
      expectedTotal += net + vat;
      const id = `inv_chunk${String((i * 7919) % 100_000).padStart(6, '0')}${i}`;
      rows.push({
        id, company_id: firm.companyId, work_point_id: firm.workPointId, document_type: 'fiscal' as const, status: 'issued' as const, series_id: null,
        series_name: 'TJ', year: 2026, number: i + 1, full_number: `TJ-${i + 1}`, issue_date: day, due_date: null, delivery_date: null, client_id: null,
        buyer_json: null, buyer_name: 'Client', currency: 'RON', exchange_rate: null, language: 'ro', reverse_charge: 0, net_bani: net, vat_bani: vat,
        total_bani: net + vat, discount_bani: 0,
        vat_breakdown_json: JSON.stringify([{ vat_rate_bp: 2100, vat_category: null, net_bani: net, vat_bani: vat, total_bani: net + vat }]),
        amount_paid_bani: 0, paid_state: 'unpaid' as const, payment_method: null, observations: null, storno_of: null, storno_id: null, converted_from: null,
        converted_to: null, efactura_enabled: 0, spv_environment: 'live' as const, efactura_status: 'not_sent' as const, client_local_uuid: null,
        device_id: null, reservation_token: null, issued_at: 1, created_at: 1, updated_at: null,
      });
      lines.push({
        id: `invl_chunk${i}`, invoice_id: id, company_id: firm.companyId, position: 1, product_id: null, description: 'Marfă', quantity_milli: 1000,
        unit: 'buc', unit_code: 'H87', price_bani: net, vat_rate_bp: 2100, discount_bp: 0, vat_exemption_reason: null, vat_category: null, price_includes_vat: 0, is_service: 0,
        discount_bani: 0, net_bani: net, vat_bani: vat, total_bani: net + vat,
      });
    }
    for (let i = 0; i < N; i += 200) {
      await server.storage.db.insertInto('invoices').values(rows.slice(i, i + 200)).execute();
      await server.storage.db.insertInto('invoice_lines').values(lines.slice(i, i + 200)).execute();
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const PERIOD = 'start_date=2026-09-01&end_date=2026-09-30';

  it('the journal counts every document once and totals them to the ban', async () => {
    const j = await firm.ok('GET', `/accounting/journals/sales?${PERIOD}&per_page=1000`);
    expect(j.document_count).toBe(N);
    expect(toBani(j.totals.total)).toBe(expectedTotal);
    const page2 = await firm.ok('GET', `/accounting/journals/sales?${PERIOD}&per_page=1000&page=2`);
    const ids = new Set([...j.rows.data, ...page2.rows.data].map((r: { document_id: string }) => r.document_id));
    expect(ids.size).toBe(N);
  });

  it('the Saga IE file and the CSV have every document once', async () => {
    const res = await fetch(`${server.base}/accounting/exports/saga?${PERIOD}`, { headers: { authorization: `Bearer ${firm.key}` } });
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const source = await openDbf(files['IE_01-09-2026_30-09-2026.dbf']!, { encoding: 'windows-1250' });
    const numbers = new Set<string>();
    let total = 0;
    for (let r = await source.read(); !r.done; r = await source.read()) {
      numbers.add(String(r.value.NR_IESIRE));
      total += toBani(Number(r.value.VALOARE)) + toBani(Number(r.value.TVA));
    }
    expect(numbers.size).toBe(N);
    expect(total).toBe(expectedTotal);
    const csv = await (await fetch(`${server.base}/accounting/exports/documents/csv?${PERIOD}`, { headers: { authorization: `Bearer ${firm.key}` } })).text();
    expect(new Set(csv.trim().split('\r\n').slice(1).map((l) => l.split(',')[1])).size).toBe(N);
  });

  it('the WinMENTOR file of issued invoices has every document once', async () => {
    const res = await fetch(`${server.base}/accounting/exports/winmentor?${PERIOD}`, { headers: { authorization: `Bearer ${firm.key}` } });
    const text = new TextDecoder('windows-1250').decode(unzipSync(new Uint8Array(await res.arrayBuffer()))['FacturiIesire_2026-09.txt']!);
    expect(text).toContain(`TotalFacturi=${N}\r\n`);
    const numbers = [...text.matchAll(/\[Factura_\d+\]\r\nNrDoc=(.*)\r\nSerieCarnet=(.*)\r\n/g)].map((m) => `${m[2]}-${m[1]}`);
    expect(numbers).toHaveLength(N);
    expect(new Set(numbers).size).toBe(N);
  });
});
