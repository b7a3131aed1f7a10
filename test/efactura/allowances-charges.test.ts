import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEInvoiceDocument, pricedLineFacts, NUMBER_NOT_YET_ASSIGNED, type AdjustmentFacts, type InvoiceFacts } from '../../shared/efactura/invoice-document';
import { computeTotals, type DocumentAdjustmentInput, type LineVatCategory } from '../../shared/invoice-math';
import { toUblXml } from '../../server/efactura/ubl-write';
import { COMPANY_BUYER, SELLER_FACTS, disagreements, validateMapped, validatorSkipReason, type AgreementCase } from './fixtures/validator-agreement';

/**
 * Discounts and charges on the whole invoice (BG-20/BG-21, issue 14 item 4): priced by the one
 * computation (shared/invoice-math), mapped and checked before numbering (shared/efactura), written
 * (server/efactura/ubl-write) and run through the official validators, both ways: what our rules
 * accept has no fatal finding; what they refuse has a fatal finding for the rule they name.
 */

const SELLER = SELLER_FACTS;
const COMPANY = COMPANY_BUYER;

type Line = { quantity?: number; price: number; vat?: number; category?: LineVatCategory; reason?: string; shelf?: boolean };
type Adj = { charge?: boolean; amount: number; vat?: number; category?: LineVatCategory; reason?: string; code?: string };

function facts(o: { lines: Line[]; adjustments: Adj[]; reverse?: boolean; currency?: string; rate?: number; storno?: boolean }): InvoiceFacts {
  const sign = o.storno ? -1 : 1;
  const lines = o.lines.map((l, i) => ({
    description: `Marfă ${i + 1}`, quantity_milli: sign * Math.round((l.quantity ?? 1) * 1000), unit_code: 'H87', price_bani: Math.round(l.price * 100),
    discount_bp: 0, vat_rate_bp: Math.round((l.vat ?? 21) * 100), vat_category: l.category ?? null, vat_exemption_reason: l.reason ?? null,
    price_includes_vat: l.shelf ?? false,
  }));
  const inputs: DocumentAdjustmentInput[] = o.adjustments.map((a) => ({
    charge: a.charge ?? false, amount_bani: sign * Math.round(a.amount * 100), vat_rate_bp: Math.round((a.vat ?? 21) * 100), vat_category: a.category ?? null,
  }));
  const totals = computeTotals(lines.map((l) => ({ quantity_milli: l.quantity_milli, unit_price_bani: l.price_bani, vat_rate_bp: l.vat_rate_bp, vat_category: l.vat_category, price_includes_vat: l.price_includes_vat })), { reverse_charge: o.reverse ?? false, adjustments: inputs });
  const adjustments: AdjustmentFacts[] = inputs.map((a, i) => ({
    charge: a.charge, amount_bani: a.amount_bani, vat_bani: totals.adjustments[i]!.vat_bani, vat_rate_bp: a.vat_rate_bp, vat_category: a.vat_category ?? null,
    reason: o.adjustments[i]!.reason ?? null, reason_code: o.adjustments[i]!.code ?? null,
  }));
  return {
    number: NUMBER_NOT_YET_ASSIGNED, storno: o.storno ?? false, issue_date: '2026-11-25', due_date: null, delivery_date: null,
    currency: o.currency ?? 'RON', exchange_rate: o.rate ?? null, reverse_charge: o.reverse ?? false, payment_method: null,
    observations: null, buyer: COMPANY, buyer_name: null, seller: SELLER, lines: pricedLineFacts(lines, totals.lines), adjustments,
    original: o.storno ? { full_number: 'EX-0001', issue_date: '2026-11-20', delivery_date: null } : null,
  };
}

const twoRates = { lines: [{ price: 1000, quantity: 3 }, { price: 45.9, vat: 11, quantity: 7 }], adjustments: [
  { amount: 150, reason: 'Discount volum', code: '95' }, { amount: 12.5, vat: 11, reason: 'Reducere fidelitate' },
  { charge: true, amount: 35, reason: 'Transport', code: 'FC' }, { charge: true, amount: 4.99, vat: 11, code: 'PC' },
] };
const tinyLines = Array.from({ length: 400 }, (): Line => ({ price: 0.03 }));

const CASES: Record<string, AgreementCase & { facts: InvoiceFacts }> = {
  twoRates: { facts: facts(twoRates) },
  twoRatesStorno: { facts: facts({ ...twoRates, storno: true }) },
  // A charge alone, in euro: the RON VAT (BT-111) comes from the same VAT total.
  foreignCharge: { facts: facts({ currency: 'EUR', rate: 5.0789, lines: [{ price: 1200 }], adjustments: [{ charge: true, amount: 80.55, reason: 'Ambalare', code: 'ABL' }] }) },
  exemptAllowance: { facts: facts({ lines: [{ price: 300, vat: 0, reason: 'art. 292 alin. (2) lit. a) Cod fiscal' }, { price: 100 }], adjustments: [{ amount: 30, vat: 0, reason: 'Reducere' }] }) },
  exportCharge: { facts: facts({ lines: [{ price: 900, vat: 0, category: 'G' }], adjustments: [{ charge: true, amount: 50, vat: 0, category: 'G', reason: 'Transport extern', code: 'FC' }] }) },
  reverseCharge: { facts: facts({ reverse: true, lines: [{ price: 27500 }], adjustments: [{ amount: 500, reason: 'Discount comercial', code: '95' }] }) },
  shelfLines: { facts: facts({ lines: [{ price: 2.1, shelf: true, vat: 11 }, { price: 11.2, quantity: 3, shelf: true }], adjustments: [{ amount: 1.5, reason: 'Voucher' }] }) },
  // 400 lines of 0,03 lei less 0,37 lei: the rate's VAT is 21% of 11,63 lei, rounded once.
  manyLinesAllowance: { facts: facts({ lines: tinyLines, adjustments: [{ amount: 0.37, reason: 'Rotunjire' }] }) },
  // Refused before numbering, for the rule the validators name.
  unknownReasonCode: { facts: facts({ lines: [{ price: 100 }], adjustments: [{ amount: 10, code: '999' }] }), refusedFor: ['BR-CL-19'] },
  chargeWithoutReason: { facts: facts({ lines: [{ price: 100 }], adjustments: [{ charge: true, amount: 10 }] }), refusedFor: ['BR-38', 'BR-CO-22'] },
};

const skipReason = validatorSkipReason;
if (skipReason) console.warn(`[allowances-charges] skipping the validator run: ${skipReason}`);

describe('document-level allowances and charges', () => {
  let run: Awaited<ReturnType<typeof validateMapped>> | undefined;
  const mapped = Object.fromEntries(Object.entries(CASES).map(([name, c]) => [name, buildEInvoiceDocument(c.facts)]));

  beforeAll(async () => {
    run = await validateMapped('AC', mapped);
  }, 180_000);

  afterAll(() => run?.close());

  it('prices them per VAT rate: taxable, VAT and totals from the one computation', () => {
    const t = mapped.twoRates!.document;
    // 21%: 3 000,00 - 150,00 + 35,00 = 2 885,00, VAT 605,85; 11%: 321,30 - 12,50 + 4,99 = 313,79, VAT 34,52 (34,5169).
    expect(t.vat_breakdown).toEqual([
      { category: 'S', vat_rate_bp: 2100, taxable_bani: 288_500, vat_bani: 60_585 },
      { category: 'S', vat_rate_bp: 1100, taxable_bani: 31_379, vat_bani: 3_452 },
    ]);
    expect(t.totals).toEqual({ net_bani: 332_130, vat_bani: 64_037, total_bani: 383_916, payable_bani: 383_916, allowance_total_bani: 16_250, charge_total_bani: 3_999 });
    const s = mapped.twoRatesStorno!.document;
    expect(s.totals).toEqual({ net_bani: -332_130, vat_bani: -64_037, total_bani: -383_916, payable_bani: -383_916, allowance_total_bani: -16_250, charge_total_bani: -3_999 });
    expect(mapped.manyLinesAllowance!.document.vat_breakdown).toEqual([{ category: 'S', vat_rate_bp: 2100, taxable_bani: 1_163, vat_bani: 244 }]);
    expect(mapped.reverseCharge!.document.vat_breakdown[0]).toMatchObject({ category: 'AE', taxable_bani: 2_700_000, vat_bani: 0 });
    const xml = toUblXml(mapped.twoRates!.document);
    expect(xml).toContain('<cbc:ChargeIndicator>true</cbc:ChargeIndicator>\n    <cbc:AllowanceChargeReasonCode>FC</cbc:AllowanceChargeReasonCode>');
    expect(xml).toContain('<cbc:ChargeTotalAmount currencyID="RON">39.99</cbc:ChargeTotalAmount>');
    expect(xml).toContain('<cbc:TaxExclusiveAmount currencyID="RON">3198.79</cbc:TaxExclusiveAmount>');
  });

  it('refuses before numbering what ANAF would refuse, in Romanian at the member', () => {
    for (const [name, c] of Object.entries(CASES)) {
      if (c.refusedFor) expect(Object.keys(mapped[name]!.problems), name).not.toHaveLength(0);
      else expect(mapped[name]!.problems, name).toEqual({});
    }
    expect(Object.keys(mapped.unknownReasonCode!.problems)).toEqual(['allowances.0.reason_code']);
    expect(Object.keys(mapped.chargeWithoutReason!.problems)).toEqual(['allowances.0.reason']);
    for (const name of ['unknownReasonCode', 'chargeWithoutReason']) {
      for (const message of Object.values(mapped[name]!.problems)) expect(message.split('|')[1]).toMatch(/[ăâîșț]/);
    }
    // An allowance at a rate no line has is refused at the member, before anything is priced wrong.
    expect(() => computeTotals([{ quantity_milli: 1000, unit_price_bani: 100, vat_rate_bp: 2100 }], { adjustments: [{ charge: false, amount_bani: 5, vat_rate_bp: 1100 }] })).toThrow(RangeError);
  });

  it.skipIf(Boolean(skipReason))('the official validators agree, both ways', () => {
    expect(run?.result?.available).toBe(true);
    expect(disagreements(CASES, mapped, run!.files, run!.result!)).toBe('');
  });
});
