import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeTotals, percentToBp, toMilli, toPriceE4 } from '../../../shared/invoice-math';
import { roundHalfAwayFromZero } from '../../../shared/money';
import { MAX_INVOICE_LINES } from '../../../shared/schemas/invoice';
import { formatFindings, ublValidatorAvailability, validateUblFiles, type UblValidationResult } from '../../../server/efactura/validator';
import { DIALECTS } from '../../support/storage';
import { expectError, fetchRaw, firm, invoice, startEnv, storno, type Env, type Firm } from '../efactura-spv/helpers';
import { pdfText, squeezed } from '../documents-pdf/pdf-text';

/**
 * Issue 14 item 4 through the service, on both dialects: unit prices with up to 4 decimals and a base
 * quantity are kept exactly (the table and the JSON), priced by the one computation, written into the
 * XML as given (the official validators report 0 fatal, for the invoice and its storno) and printed
 * with their decimals; and an invoice of 5,000 lines (a courier's monthly statement) is issued,
 * validated and printed.
 */
const availability = ublValidatorAvailability();
const skipReason = availability.available ? '' : `UBL validators unavailable: ${availability.reason}`;
if (skipReason) console.warn(`[price-decimals] skipping the validator run: ${skipReason}`);

type Item = { description: string; quantity: number; price: number; base_quantity?: number; vat_rate: number; unit?: string; unit_code?: string; discount_percent?: number; price_includes_vat?: boolean };

const ITEMS: Item[] = [
  { description: 'SMS trimise', quantity: 12_345, price: 0.0125, vat_rate: 21 },
  { description: 'Motorină', quantity: 45.37, unit: 'l', unit_code: 'LTR', price: 7.459, vat_rate: 21 },
  { description: 'Etichete (preț la mia de bucăți)', quantity: 2500, price: 12.3456, base_quantity: 1000, vat_rate: 21 },
  { description: 'Abonament', quantity: 3, price: 19.9999, vat_rate: 21, discount_percent: 7.5 },
  { description: 'Telemea (preț de raft)', quantity: 0.785, unit: 'kg', unit_code: 'KGM', price: 32.9875, vat_rate: 11, price_includes_vat: true },
];

/** The one computation on the same items, as the service must have priced them. */
function expectedTotals(items: readonly Item[], sign = 1) {
  return computeTotals(items.map((i) => {
    const e4 = toPriceE4(i.price);
    return {
      quantity_milli: sign * toMilli(i.quantity), unit_price_bani: roundHalfAwayFromZero(e4, 100), unit_price_e4: e4,
      base_quantity_milli: toMilli(i.base_quantity ?? 1), vat_rate_bp: percentToBp(i.vat_rate), discount_bp: percentToBp(i.discount_percent ?? 0),
      price_includes_vat: i.price_includes_vat ?? false,
    };
  }));
}

const lei = (bani: number) => bani / 100;

/** A courier's statement: 5,000 deliveries, prices with up to 4 decimals, every fifth per 100 units. */
const LONG: Item[] = Array.from({ length: 5000 }, (_, i) => ({
  description: `AWB ${String(100_000 + i)} livrare`, quantity: 1 + (i % 4), price: (12_500 + ((i * 7919) % 90_000)) / 10_000,
  ...(i % 5 === 0 ? { base_quantity: 100 } : {}), vat_rate: i % 7 === 0 ? 11 : 21,
}));

describe.each(DIALECTS)('unit prices with 4 decimals, base quantities and long invoices on %s', (dialect) => {
  let env: Env;
  let seller: Firm;
  let dir: string;
  const xml: Record<string, string> = {};
  const files: Record<string, string> = {};
  let result: UblValidationResult | null = null;
  const made: Record<string, Record<string, unknown> & { id: string }> = {};
  let issueMs = 0;
  let validateMs = 0;

  beforeAll(async () => {
    env = await startEnv(dialect);
    seller = await firm(env, { link: false });
    dir = mkdtempSync(join(tmpdir(), 'price-decimals-'));
    made.mixed = await invoice(seller, { items: ITEMS });
    made.mixedStorno = await storno(seller, made.mixed.id);
    const t = performance.now();
    made.long = await invoice(seller, { items: LONG });
    issueMs = performance.now() - t;
    for (const name of ['mixed', 'mixedStorno', 'long']) {
      const res = await fetchRaw(env, seller.key, `/invoices/${made[name]!.id}/efactura-xml`);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.bytes.toString('utf8').slice(0, 500)}`);
      xml[name] = res.bytes.toString('utf8');
      files[name] = join(dir, `${name}.xml`);
      writeFileSync(files[name], xml[name]);
    }
    const v = performance.now();
    if (!skipReason) result = await validateUblFiles(Object.values(files), 'strict');
    validateMs = performance.now() - v;
  }, 600_000);

  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await env?.close();
  });

  it('prices the lines by the one computation and answers each price with its decimals and base quantity', async () => {
    const inv = (await seller.ok('GET', `/invoices/${made.mixed!.id}?expand=lines`)).body.data;
    const t = expectedTotals(ITEMS);
    expect(inv.totals).toMatchObject({ net: lei(t.net_bani), vat: lei(t.vat_bani), total: lei(t.total_bani) });
    expect(inv.lines.map((l: { price: number; base_quantity: number }) => [l.price, l.base_quantity])).toEqual([[0.0125, 1], [7.459, 1], [12.3456, 1000], [19.9999, 1], [32.9875, 1]]);
    expect(inv.lines.map((l: { net: number }) => l.net)).toEqual(t.lines.map((a) => lei(a.net_bani)));
    // Rounded once per line: 12 345 x 0,0125 = 154,3125 -> 154,31; 45,37 x 7,459 = 338,41483 -> 338,41; 2 500 x 12,3456 / 1 000 = 30,864 -> 30,86.
    expect(inv.lines.slice(0, 3).map((l: { net: number }) => l.net)).toEqual([154.31, 338.41, 30.86]);
    // The shelf line costs exactly round(0,785 x 32,9875 = 25,8951875) = 25,90.
    expect(inv.lines[4].total).toBe(25.9);
  });

  it('keeps the price exactly in the table, in integers', async () => {
    const rows = await env.server.storage.db.selectFrom('invoice_lines').select(['price_bani', 'price_e4', 'base_quantity_milli'])
      .where('invoice_id', '=', made.mixed!.id).orderBy('position').execute();
    expect(rows.map((r) => [Number(r.price_e4), Number(r.base_quantity_milli), Number(r.price_bani)])).toEqual([
      [125, 1000, 1], [74_590, 1000, 746], [123_456, 1_000_000, 1235], [199_999, 1000, 2000], [329_875, 1000, 3299],
    ]);
  });

  it('makes the storno with the same prices and base quantities, every amount negated', async () => {
    const s = (await seller.ok('GET', `/invoices/${made.mixedStorno!.id}?expand=lines`)).body.data;
    const t = expectedTotals(ITEMS, -1);
    expect(s.totals).toMatchObject({ net: lei(t.net_bani), vat: lei(t.vat_bani), total: lei(t.total_bani) });
    expect(s.lines.map((l: { price: number; base_quantity: number; quantity: number }) => [l.price, l.base_quantity, l.quantity]))
      .toEqual(ITEMS.map((i) => [i.price, i.base_quantity ?? 1, -i.quantity]));
    expect(t.total_bani).toBe(-expectedTotals(ITEMS).total_bani);
  });

  it('writes PriceAmount as given and BaseQuantity with the unit code', () => {
    expect(xml.mixed).toContain('<cbc:PriceAmount currencyID="RON">0.0125</cbc:PriceAmount>');
    expect(xml.mixed).toContain('<cbc:PriceAmount currencyID="RON">7.459</cbc:PriceAmount>');
    expect(xml.mixed).toMatch(/<cbc:PriceAmount currencyID="RON">12\.3456<\/cbc:PriceAmount>\s*<cbc:BaseQuantity unitCode="H87">1000<\/cbc:BaseQuantity>/);
    expect(xml.mixed).toContain('<cbc:LineExtensionAmount currencyID="RON">30.86</cbc:LineExtensionAmount>');
    expect(xml.mixedStorno).toContain('<cbc:PriceAmount currencyID="RON">0.0125</cbc:PriceAmount>');
    expect(xml.mixedStorno).toContain('<cbc:LineExtensionAmount currencyID="RON">-154.31</cbc:LineExtensionAmount>');
    expect(xml.long!.match(/<cac:InvoiceLine>/g)).toHaveLength(5000);
  });

  it.skipIf(Boolean(skipReason))('the official validators report 0 fatal on the invoice, its storno and the 5,000-line invoice', () => {
    expect(result?.available).toBe(true);
    if (!result?.available) return;
    const fatal = result.files.filter((f) => f.fatal.length).map((f) => `${f.file}:\n${formatFindings(f.fatal)}`);
    expect(fatal.join('\n')).toBe('');
    console.log(`[price-decimals ${dialect}] 5,000-line invoice issued in ${(issueMs / 1000).toFixed(1)} s; validators on the 3 XML files ${(validateMs / 1000).toFixed(1)} s`);
  });

  it('issues 5,000 lines priced by the one computation, refuses one line more, and prints them', async () => {
    const t = expectedTotals(LONG);
    const long = (await seller.ok('GET', `/invoices/${made.long!.id}?expand=lines`)).body.data;
    expect(long.lines).toHaveLength(5000);
    expect(long.totals).toMatchObject({ net: lei(t.net_bani), vat: lei(t.vat_bani), total: lei(t.total_bani) });
    expect(long.lines[4999]).toMatchObject({ description: 'AWB 104999 livrare', price: LONG[4999]!.price });
    // 5,000 lines with long descriptions are a body well past the service's usual 1 MiB: the invoice routes take 16 MiB.
    const wordy = { walk_in: true, is_draft: true, items: LONG.map((l) => ({ ...l, description: `${l.description} — ${'descriere lungă a livrării '.repeat(10)}` })) };
    expect(JSON.stringify(wordy).length).toBeGreaterThan(1.5 * 1024 * 1024);
    const draft = await seller.call('POST', '/invoices', wordy);
    expect(draft.status, draft.text.slice(0, 300)).toBe(201);
    expect(draft.body.data.lines).toHaveLength(5000);
    const tooMany = await seller.call('POST', '/invoices', { walk_in: true, is_draft: true, items: [...LONG, LONG[0]] });
    expect(MAX_INVOICE_LINES).toBe(5000);
    expectError(tooMany, 422, 'validation_error');
    const started = performance.now();
    const pdf = await fetchRaw(env, seller.key, `/invoices/${made.long!.id}/pdf`);
    expect(pdf.status, pdf.bytes.toString('utf8').slice(0, 300)).toBe(200);
    console.log(`[price-decimals ${dialect}] PDF of 5,000 lines: ${(pdf.bytes.length / 1024).toFixed(0)} KiB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const text = squeezed(pdfText(pdf.bytes));
    expect(text).toContain('AWB 100000 livrare');
    expect(text).toContain('AWB 104999 livrare');
  }, 300_000);

  it('prints prices with their decimals and totals with two', async () => {
    const pdf = await fetchRaw(env, seller.key, `/invoices/${made.mixed!.id}/pdf`);
    expect(pdf.status).toBe(200);
    const text = squeezed(pdfText(pdf.bytes));
    expect(text).toContain('0,0125');
    expect(text).toContain('7,459');
    expect(text).toContain('12,3456 / 1.000 buc');
    expect(text).toContain('154,31');
  }, 120_000);

  it('keeps a draft\'s 4-decimal price when PUT changes only the header, and refuses a fifth decimal at the member', async () => {
    const draft = await invoice(seller, { is_draft: true, items: [ITEMS[0]!, ITEMS[2]!] });
    const updated = (await seller.ok('PUT', `/invoices/${draft.id}`, { observations: 'Luna noiembrie' })).body.data;
    expect(updated.lines.map((l: { price: number; base_quantity: number }) => [l.price, l.base_quantity])).toEqual([[0.0125, 1], [12.3456, 1000]]);
    const five = await seller.call('POST', '/invoices', { walk_in: true, is_draft: true, items: [{ ...ITEMS[0], price: 0.01255 }] });
    expect(expectError(five, 422, 'validation_error')).toMatchObject({ fields: { 'items.0.price': expect.stringMatching(/4/) } });
    const zeroBase = await seller.call('POST', '/invoices', { walk_in: true, is_draft: true, items: [{ ...ITEMS[0], base_quantity: 0 }] });
    expect(Object.keys(expectError(zeroBase, 422, 'validation_error').fields as object)).toEqual(['items.0.base_quantity']);
  });
});
