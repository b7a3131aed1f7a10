import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEInvoiceDocument, pricedLineFacts, NUMBER_NOT_YET_ASSIGNED, type InvoiceFacts } from '../../shared/efactura/invoice-document';
import { computeTotals, priceE4Text, toPriceE4, type LineInput, type LineVatCategory } from '../../shared/invoice-math';
import { roundHalfAwayFromZero } from '../../shared/money';
import { toUblXml } from '../../server/efactura/ubl-write';
import { COMPANY_BUYER, SELLER_FACTS, disagreements, validateMapped, validatorSkipReason, type AgreementCase } from './fixtures/validator-agreement';

/**
 * Unit prices with up to 4 decimals and a base quantity (issue 14 item 4, "amounts as firms write
 * them"): the line's amount is rounded to the ban once, from quantity x price / base quantity; all
 * after it stays in bani in the one computation (shared/invoice-math). Checked three ways: against an
 * independent BigInt reference over random invoices with the EN 16931 sums (BR-CO-10..17), through
 * our pre-numbering rules, and through the official validators on the XML of an invoice and its storno.
 */

type Line = { quantity: number; price: number; base?: number; vat?: number; discount?: number; shelf?: boolean; unit?: string; category?: LineVatCategory };

function lineInputs(lines: readonly Line[], sign = 1) {
  return lines.map((l, i) => {
    const e4 = toPriceE4(l.price);
    return {
      description: `Articol ${i + 1}`, quantity_milli: sign * Math.round(l.quantity * 1000), unit_code: l.unit ?? 'H87',
      price_bani: roundHalfAwayFromZero(e4, 100), price_e4: e4, base_quantity_milli: Math.round((l.base ?? 1) * 1000),
      discount_bp: Math.round((l.discount ?? 0) * 100), vat_rate_bp: Math.round((l.vat ?? 21) * 100), vat_category: l.category ?? null,
      vat_exemption_reason: (l.vat ?? 21) === 0 ? 'art. 292 alin. (2) lit. a) Cod fiscal' : null, price_includes_vat: l.shelf ?? false,
    };
  });
}

function mathLines(lines: ReturnType<typeof lineInputs>): LineInput[] {
  return lines.map((l) => ({
    quantity_milli: l.quantity_milli, unit_price_bani: l.price_bani, unit_price_e4: l.price_e4, base_quantity_milli: l.base_quantity_milli,
    vat_rate_bp: l.vat_rate_bp, discount_bp: l.discount_bp, vat_category: l.vat_category, price_includes_vat: l.price_includes_vat,
  }));
}

function facts(lines: readonly Line[], storno = false): InvoiceFacts {
  const inputs = lineInputs(lines, storno ? -1 : 1);
  const totals = computeTotals(mathLines(inputs));
  return {
    number: NUMBER_NOT_YET_ASSIGNED, storno, issue_date: '2026-11-25', due_date: null, delivery_date: null, currency: 'RON', exchange_rate: null,
    reverse_charge: false, payment_method: null, observations: null, buyer: COMPANY_BUYER, buyer_name: null, seller: SELLER_FACTS,
    lines: pricedLineFacts(inputs, totals.lines),
    original: storno ? { full_number: 'PD-0001', issue_date: '2026-11-20', delivery_date: null } : null,
  };
}

/** round(a / b) half away from zero, in BigInt, written apart from shared/money. */
function refRound(a: bigint, b: bigint): bigint {
  const negative = a < 0n !== b < 0n;
  const n = a < 0n ? -a : a;
  const d = b < 0n ? -b : b;
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

/** Deterministic PRNG (mulberry32), so a failure names its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RATES = [2100, 1900, 1100, 900, 500, 0];
const BASES = [1000, 1000, 1000, 10_000, 100_000, 1_000_000, 500, 12_000];

function randomInvoice(next: () => number): LineInput[] {
  const count = 1 + Math.floor(next() * 40);
  return Array.from({ length: count }, (): LineInput => {
    const decimals = Math.floor(next() * 5);
    const priceE4 = Math.floor(next() * 10 ** (2 + Math.floor(next() * 6))) * 10 ** (4 - decimals);
    return {
      quantity_milli: 1 + Math.floor(next() * 10 ** (1 + Math.floor(next() * 7))),
      unit_price_bani: roundHalfAwayFromZero(priceE4, 100),
      unit_price_e4: priceE4,
      base_quantity_milli: BASES[Math.floor(next() * BASES.length)]!,
      vat_rate_bp: RATES[Math.floor(next() * RATES.length)]!,
      discount_bp: next() < 0.3 ? Math.floor(next() * 10_001) : 0,
      price_includes_vat: next() < 0.3,
    };
  });
}

const negate = (lines: LineInput[]) => lines.map((l) => ({ ...l, quantity_milli: -l.quantity_milli }));

describe('unit prices with up to 4 decimals and a base quantity: the arithmetic', () => {
  it('rounds a line once, from quantity x price / base quantity', () => {
    // 12 345 SMS at 0,0125 lei: 154,3125 -> 154,31.
    expect(computeTotals([{ quantity_milli: 12_345_000, unit_price_bani: 1, unit_price_e4: 125, vat_rate_bp: 2100 }]).lines[0]!.net_bani).toBe(15_431);
    // 45,37 l of fuel at 7,4590 lei: 338,41483 -> 338,41 (not 45,37 x 7,46 = 338,46).
    expect(computeTotals([{ quantity_milli: 45_370, unit_price_bani: 746, unit_price_e4: 74_590, vat_rate_bp: 2100 }]).lines[0]!.net_bani).toBe(33_841);
    // 2 500 pieces at 12,3456 lei per 1 000: 30,864 -> 30,86.
    expect(computeTotals([{ quantity_milli: 2_500_000, unit_price_bani: 1235, unit_price_e4: 123_456, base_quantity_milli: 1_000_000, vat_rate_bp: 2100 }]).lines[0]!.net_bani).toBe(3086);
    // Half a ban rounds away from zero, both ways: 1 x 0,0050 = 0,005 -> 0,01; the storno -0,01.
    expect(computeTotals([{ quantity_milli: 1000, unit_price_bani: 1, unit_price_e4: 50, vat_rate_bp: 0 }]).lines[0]!.net_bani).toBe(1);
    expect(computeTotals([{ quantity_milli: -1000, unit_price_bani: 1, unit_price_e4: 50, vat_rate_bp: 0 }]).lines[0]!.net_bani).toBe(-1);
    // Past 2^53 the product stays exact: 999 999 999,999 x 0,0001 lei = 99 999,9999999 -> 100 000,00.
    expect(computeTotals([{ quantity_milli: 999_999_999_999, unit_price_bani: 0, unit_price_e4: 1, vat_rate_bp: 0 }]).lines[0]!.net_bani).toBe(10_000_000);
    // A price with 2 decimals gives what it always gave.
    expect(computeTotals([{ quantity_milli: 3_500, unit_price_bani: 1999, unit_price_e4: 199_900, vat_rate_bp: 2100 }]))
      .toEqual(computeTotals([{ quantity_milli: 3_500, unit_price_bani: 1999, vat_rate_bp: 2100 }]));
    expect(priceE4Text(125)).toBe('0.0125');
    expect(priceE4Text(74_590)).toBe('7.459');
    expect(priceE4Text(120_000)).toBe('12.00');
  });

  it('agrees with a BigInt reference and keeps BR-CO-10..17 on 2,000 random invoices, and a storno negates them exactly (property)', () => {
    const next = rng(20261126);
    for (let n = 0; n < 2000; n++) {
      const lines = randomInvoice(next);
      const t = computeTotals(lines);
      lines.forEach((l, i) => {
        const gross = refRound(BigInt(l.quantity_milli) * BigInt(l.unit_price_e4!), 100n * BigInt(l.base_quantity_milli!));
        const discount = refRound(gross * BigInt(l.discount_bp ?? 0), 10_000n);
        const a = t.lines[i]!;
        if (l.price_includes_vat) {
          // A shelf line's total is what the customer pays: the amount less the discount, each rounded once.
          expect(BigInt(a.total_bani), `invoice ${n} line ${i}`).toBe(gross - discount);
        } else {
          expect(BigInt(a.gross_before_discount_bani), `invoice ${n} line ${i}`).toBe(gross);
          expect(BigInt(a.net_bani), `invoice ${n} line ${i}`).toBe(gross - discount);
        }
        expect(a.net_bani + a.vat_bani).toBe(a.total_bani);
      });
      // BR-CO-10: Σ line nets = the net; BR-CO-13..15: the breakdown adds up to the totals.
      expect(t.lines.reduce((s, a) => s + a.net_bani, 0)).toBe(t.net_bani);
      expect(t.breakdown.reduce((s, b) => s + b.net_bani, 0)).toBe(t.net_bani);
      expect(t.breakdown.reduce((s, b) => s + b.vat_bani, 0)).toBe(t.vat_bani);
      expect(t.total_bani).toBe(t.net_bani + t.vat_bani);
      // BR-CO-17: each rate's VAT within a ban of taxable x rate when its lines are all net or all shelf
      // prices, within two when it has both (each part is within one); the validators allow under a leu.
      for (const b of t.breakdown) {
        const kinds = new Set(lines.filter((l) => l.vat_rate_bp === b.vat_rate_bp).map((l) => l.price_includes_vat === true));
        expect(Math.abs(b.vat_bani * 10_000 - b.net_bani * b.vat_rate_bp), `invoice ${n} rate ${b.vat_rate_bp}`).toBeLessThanOrEqual(kinds.size * 10_000);
      }
      const s = computeTotals(negate(lines));
      expect([s.net_bani, s.vat_bani, s.total_bani]).toEqual([-t.net_bani, -t.vat_bani || 0, -t.total_bani || 0].map((v) => v || 0));
      s.lines.forEach((a, i) => expect([a.net_bani, a.vat_bani].map((v) => v || 0)).toEqual([-t.lines[i]!.net_bani || 0, -t.lines[i]!.vat_bani || 0]));
    }
  });

  it('passes our pre-numbering rules (line net = quantity x price / base, BR-CO-*) on random invoices and their stornos', () => {
    const next = rng(14);
    for (let n = 0; n < 300; n++) {
      const lines: Line[] = randomInvoice(next).map((l) => ({
        quantity: l.quantity_milli / 1000, price: l.unit_price_e4! / 10_000, base: l.base_quantity_milli! / 1000, vat: l.vat_rate_bp / 100,
        discount: (l.discount_bp ?? 0) / 100, shelf: l.price_includes_vat ?? false,
      }));
      expect(buildEInvoiceDocument(facts(lines)).problems, `invoice ${n}`).toEqual({});
      expect(buildEInvoiceDocument(facts(lines, true)).problems, `storno ${n}`).toEqual({});
    }
  });
});

const mixed: Line[] = [
  { quantity: 12_345, price: 0.0125, unit: 'H87' },
  { quantity: 45.37, price: 7.459, unit: 'LTR' },
  { quantity: 2500, price: 12.3456, base: 1000, unit: 'H87' },
  { quantity: 3, price: 19.9999, discount: 7.5 },
  { quantity: 0.785, price: 32.9875, vat: 11, shelf: true, unit: 'KGM' },
  { quantity: 1, price: 0.0049, vat: 11 },
  { quantity: 250, price: 4.5, base: 100, vat: 0, unit: 'KGM' },
];

const CASES: Record<string, AgreementCase & { lines: Line[]; storno?: boolean }> = {
  mixed: { lines: mixed },
  mixedStorno: { lines: mixed, storno: true },
  // 1,000 lines at prices per 1,000 units with 4 decimals: BR-CO-17 per rate, however many lines.
  thousandLines: { lines: Array.from({ length: 1000 }, (_, i) => ({ quantity: 137 + i, price: (137 + (i % 97)) / 10_000, base: i % 3 ? 1 : 1000 })) },
};

const skipReason = validatorSkipReason;
if (skipReason) console.warn(`[price-decimals] skipping the validator run: ${skipReason}`);

describe('unit prices with up to 4 decimals and a base quantity: the XML', () => {
  let run: Awaited<ReturnType<typeof validateMapped>> | undefined;
  const mapped = Object.fromEntries(Object.entries(CASES).map(([name, c]) => [name, buildEInvoiceDocument(facts(c.lines, c.storno))]));

  beforeAll(async () => {
    run = await validateMapped('PD', mapped);
  }, 300_000);

  afterAll(() => run?.close());

  it('writes PriceAmount with its decimals as given, BaseQuantity with the unit code when not 1, and the line net rounded once', () => {
    for (const [name, m] of Object.entries(mapped)) expect(m.problems, name).toEqual({});
    const xml = toUblXml(mapped.mixed!.document);
    expect(xml).toContain('<cbc:InvoicedQuantity unitCode="H87">12345</cbc:InvoicedQuantity>\n    <cbc:LineExtensionAmount currencyID="RON">154.31</cbc:LineExtensionAmount>');
    expect(xml).toContain('<cbc:PriceAmount currencyID="RON">0.0125</cbc:PriceAmount>');
    expect(xml).toContain('<cbc:PriceAmount currencyID="RON">7.459</cbc:PriceAmount>');
    expect(xml).toContain('<cbc:LineExtensionAmount currencyID="RON">338.41</cbc:LineExtensionAmount>');
    expect(xml).toMatch(/<cbc:PriceAmount currencyID="RON">12\.3456<\/cbc:PriceAmount>\s*<cbc:BaseQuantity unitCode="H87">1000<\/cbc:BaseQuantity>/);
    expect(xml).toContain('<cbc:LineExtensionAmount currencyID="RON">30.86</cbc:LineExtensionAmount>');
    expect(xml).toMatch(/<cbc:PriceAmount currencyID="RON">4\.50<\/cbc:PriceAmount>\s*<cbc:BaseQuantity unitCode="KGM">100<\/cbc:BaseQuantity>/);
    // Amounts keep 2 decimals (BR-DEC): only PriceAmount carries more.
    for (const m of xml.matchAll(/<cbc:(\w+Amount) currencyID="RON">(-?\d+\.\d+)</g)) {
      if (m[1] !== 'PriceAmount') expect(m[2]!.split('.')[1]!.length, m[0]).toBe(2);
    }
    // The storno: negative quantities, the same positive prices and base quantities, the amounts negated.
    const storno = toUblXml(mapped.mixedStorno!.document);
    expect(storno).toContain('<cbc:InvoicedQuantity unitCode="H87">-12345</cbc:InvoicedQuantity>\n    <cbc:LineExtensionAmount currencyID="RON">-154.31</cbc:LineExtensionAmount>');
    expect(storno).toContain('<cbc:PriceAmount currencyID="RON">0.0125</cbc:PriceAmount>');
    expect(mapped.mixedStorno!.document.totals.total_bani).toBe(-mapped.mixed!.document.totals.total_bani);
  });

  it.skipIf(Boolean(skipReason))('the official validators report 0 fatal on the invoice, its storno and 1,000 such lines', () => {
    expect(run?.result?.available).toBe(true);
    expect(disagreements(CASES, mapped, run!.files, run!.result!)).toBe('');
  });
});
