import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildEInvoiceDocument, pricedLineFacts, NUMBER_NOT_YET_ASSIGNED, type BuyerFacts, type InvoiceFacts } from '../../shared/efactura/invoice-document';
import { computeTotals, lineAmountBani, type LineVatCategory } from '../../shared/invoice-math';
import { roundHalfAwayFromZero } from '../../shared/money';
import { MAX_AMOUNT_BANI } from '../../shared/schemas/common';
import type { SellerSnapshot } from '../../shared/schemas/invoice';
import { toUblXml } from '../../server/efactura/ubl-write';
import { formatFindings, ublValidatorAvailability, validateUblFiles } from '../../server/efactura/validator';

/**
 * Over generated invoices of every kind (sellers with and without VAT, on collection or not; buyers
 * at home and abroad, firms and people, with and without ids and addresses; every 0% category,
 * reverse charge, foreign currency, storno; prices in bani or with 4 decimals, per unit or per a base
 * quantity): an invoice the checks before numbering let through is
 * never refused by our XML generator once numbered, and a batch of them passes the official validators.
 */

const sellerArb: fc.Arbitrary<SellerSnapshot> = fc.record({
  vat_payer: fc.boolean(),
  vat_on_collection: fc.boolean(),
  bucharest: fc.boolean(),
  iban: fc.option(fc.constant('RO49AAAA1B31007593840000'), { nil: null }),
}).map((s) => ({
  name: 'Vânzător & Fiii SRL', cui: '18547290', vat_payer: s.vat_payer, vat_id: s.vat_payer ? 'RO18547290' : null, reg_com: 'J12/1234/2020',
  street: 'Str. Memorandumului nr. 28', city: s.bucharest ? 'Sector 3' : 'Cluj-Napoca', county_code: s.bucharest ? 'RO-B' : 'RO-CJ',
  postal_code: '400114', country_code: 'RO', iban: s.iban, bank: null, email: null, phone: null, capital_social_bani: null,
  vat_on_collection: s.vat_on_collection, logo_ref: null,
}));

const roPlace = fc.constantFrom(
  { address: 'Bd. Independenței 5', city: 'Iași', county: 'Iași' },
  { address: 'Str. Lipscani 1', city: 'București', county: 'Sector 4' },
  { address: 'Bd. Iuliu Maniu 7, sectorul 6', city: 'Bucuresti', county: 'Municipiul București' },
  { address: 'Calea Victoriei 10', city: 'Sector 1', county: 'B' },
  { address: 'Str. Lungă 1, cod 500001', city: 'Brașov', county: 'jud. Brașov' },
  { address: 'Str. Mare 2', city: 'Cluj-Napoca', county: 'CJ' },
  { address: null, city: null, county: null },
);

const buyerArb: fc.Arbitrary<BuyerFacts> = fc.oneof(
  fc.record({ place: roPlace, vat: fc.boolean(), postal: fc.option(fc.constant('700001'), { nil: null }) }).map(({ place, vat, postal }) => ({
    name: 'Client Român SRL', cui: vat ? 'RO14186770' : '14186770', vat_payer: vat, reg_com: 'J22/987/2019', cnp: null, country: 'RO', postal_code: postal, ...place,
  })),
  fc.record({ place: roPlace, cnp: fc.constantFrom(null, '1850101400017', '0000000000000') }).map(({ place, cnp }) => ({
    name: 'Ion Popescu', cui: null, vat_payer: false, reg_com: null, cnp, country: 'RO', ...place,
  })),
  fc.constantFrom<BuyerFacts>(
    { name: 'Muster GmbH', cui: '129273398', vat_payer: true, reg_com: null, cnp: null, address: 'Leopoldstraße 10', city: 'München', county: 'Bayern', country: 'DE' },
    { name: 'Muster GmbH', cui: 'DE 129 273 398', vat_payer: true, reg_com: null, cnp: null, address: 'Leopoldstraße 10', city: 'München', county: 'Bayern', country: 'DE' },
    { name: 'Hellas AE', cui: '094014201', vat_payer: true, reg_com: null, cnp: null, address: 'Odos 1', city: 'Athina', county: 'Attiki', country: 'GR' },
    { name: 'Alpen AG', cui: 'CHE-123.456.789 MWST', vat_payer: true, reg_com: null, cnp: null, address: 'Bahnhofstrasse 1', city: 'Zürich', county: null, country: 'CH' },
    { name: 'Nordisk AS', cui: 'NO999999999MVA', vat_payer: true, reg_com: null, cnp: null, address: 'Karl Johans gate 1', city: 'Oslo', county: null, country: 'NO' },
    { name: 'Acme Inc.', cui: '12-3456789', vat_payer: true, reg_com: null, cnp: null, address: '1 Main St', city: 'Springfield', county: 'IL', country: 'US' },
    { name: 'UK Trading Ltd', cui: 'GB123456789012345', vat_payer: true, reg_com: null, cnp: null, address: '1 High St', city: 'London', county: null, country: 'GB' },
    { name: 'Marie Dupont', cui: null, vat_payer: false, reg_com: null, cnp: null, address: '1 rue de Rivoli', city: 'Paris', county: null, country: 'FR' },
  ),
);

type Zero = { category: LineVatCategory | null; reason: string | null };
const zeroArb: fc.Arbitrary<Zero> = fc.constantFrom<Zero>(
  { category: null, reason: 'art. 292 alin. (2) lit. a) Cod fiscal' },
  { category: 'E', reason: 'VATEX-EU-132-1C Scutit cf. art. 292' },
  { category: 'E', reason: null },
  { category: 'Z', reason: null },
  { category: 'K', reason: null },
  { category: 'G', reason: null },
);

/**
 * The API's `price` (up to 4 decimals) as the service keeps it: ten-thousandths of a leu. Whole bani, sub-ban
 * prices (0,0125 lei), prices whose last decimals are zeros (12,5000) and large ones.
 */
const priceE4Arb = fc.oneof(
  fc.integer({ min: 0, max: 5_000_000 }).map((bani) => bani * 100),
  fc.integer({ min: 0, max: 500_000_000 }),
  fc.integer({ min: 1, max: 999 }),
  fc.constantFrom(1, 125, 74_590, 99_999, 10_005, 123_456_789),
);

/** The API's `base_quantity` (BT-149, 0,001 to 1.000.000 with 3 decimals) in thousandths; undefined = per unit. */
const baseMilliArb = fc.oneof(
  fc.constant(undefined),
  fc.constant(undefined),
  fc.constantFrom(1, 10, 500, 1000, 12_500, 100_000, 1_000_000, 1_000_000_000),
  fc.integer({ min: 1, max: 1_000_000_000 }),
);

const lineArb = fc.record({
  description: fc.constantFrom('Marfă', 'Servicii de consultanță <IT> & suport', 'Ș', 'Pâine albă 500 g'),
  quantity_milli: fc.integer({ min: 1, max: 100_000 }),
  price_e4: priceE4Arb,
  base_quantity_milli: baseMilliArb,
  discount_bp: fc.constantFrom(0, 0, 500, 1000, 417),
  vat_rate_bp: fc.constantFrom(2100, 1900, 1100, 900, 500, 0),
  zero: zeroArb,
});

const factsArb: fc.Arbitrary<InvoiceFacts> = fc.record({
  seller: sellerArb,
  buyer: buyerArb,
  lines: fc.array(lineArb, { minLength: 1, maxLength: 8 }),
  reverse: fc.boolean(),
  foreign: fc.boolean(),
  storno: fc.boolean(),
  payment: fc.constantFrom(null, 'receipt', 'card', 'bank_order', 'other'),
  delivered: fc.boolean(),
}).map((o) => {
  const sign = o.storno ? -1 : 1;
  // As the service prices a line (server/modules/invoicing/pricing.ts): the price rounded to the ban beside
  // the exact one; a line or an invoice above the largest amount is refused at input, so never generated
  // here (lines are dropped while the sum, VAT included, could pass it).
  let room = MAX_AMOUNT_BANI;
  const lines = o.lines
    .filter((l) => {
      const amount = Math.abs(lineAmountBani(l.quantity_milli, l.price_e4, l.base_quantity_milli ?? 1000)) * 2;
      if (amount > room) return false;
      room -= amount;
      return true;
    })
    .map((l) => ({
      description: l.description, quantity_milli: sign * l.quantity_milli, unit_code: 'H87', price_bani: roundHalfAwayFromZero(l.price_e4, 100),
      price_e4: l.price_e4, base_quantity_milli: l.base_quantity_milli, discount_bp: l.discount_bp,
      vat_rate_bp: l.vat_rate_bp, vat_category: l.vat_rate_bp === 0 ? l.zero.category : null, vat_exemption_reason: l.vat_rate_bp === 0 ? l.zero.reason : null,
    }));
  if (lines.length === 0) lines.push({ description: 'Marfă', quantity_milli: sign * 1000, price_bani: 100, price_e4: 10_000, base_quantity_milli: undefined, discount_bp: 0, vat_rate_bp: 2100, vat_category: null, vat_exemption_reason: null, unit_code: 'H87' });
  const totals = computeTotals(lines.map((l) => ({ ...l, unit_price_bani: l.price_bani, unit_price_e4: l.price_e4 })), { reverse_charge: o.reverse });
  return {
    number: NUMBER_NOT_YET_ASSIGNED, storno: o.storno, issue_date: '2026-11-25', due_date: null, delivery_date: o.delivered ? '2026-11-20' : null,
    currency: o.foreign ? 'EUR' : 'RON', exchange_rate: o.foreign ? 5.0789 : null, reverse_charge: o.reverse, payment_method: o.payment,
    observations: null, buyer: o.buyer, buyer_name: null, seller: o.seller, lines: pricedLineFacts(lines, totals.lines),
    original: o.storno ? { full_number: 'F-2026-0001', issue_date: '2026-11-20', delivery_date: null } : null,
  };
});

const availability = ublValidatorAvailability();
const skipReason = availability.available ? '' : `UBL validators unavailable: ${availability.reason}`;

describe('a numbered invoice is never refused by our own generator', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('holds over generated invoices of every kind', () => {
    let accepted = 0;
    let withDecimals = 0;
    let withBase = 0;
    fc.assert(
      fc.property(factsArb, fc.integer({ min: 1, max: 99_999 }), (facts, n) => {
        const { document, problems } = buildEInvoiceDocument(facts);
        if (Object.keys(problems).length) return;
        accepted += 1;
        if (document.lines.some((l) => l.unit_price_decimal)) withDecimals += 1;
        if (document.lines.some((l) => l.base_quantity_milli !== undefined)) withBase += 1;
        expect(() => toUblXml({ ...document, number: `F-2026-${String(n).padStart(5, '0')}` })).not.toThrow();
      }),
      // NEVER_REFUSED_SEED / NEVER_REFUSED_RUNS explore further by hand; the suite runs the fixed seed.
      { numRuns: Number(process.env.NEVER_REFUSED_RUNS ?? 600), seed: Number(process.env.NEVER_REFUSED_SEED ?? 14) },
    );
    // The property says something only if most generated invoices are issuable, and many of them carry
    // prices with more than two decimals and prices for a base quantity.
    expect(accepted).toBeGreaterThan(250);
    expect(withDecimals).toBeGreaterThan(100);
    expect(withBase).toBeGreaterThan(100);
  });

  it.skipIf(Boolean(skipReason))('the ones it lets through pass the official validators (a batch of 60)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'never-refused-'));
    dirs.push(dir);
    const files: string[] = [];
    let withDecimals = 0;
    let withBase = 0;
    const samples = fc.sample(factsArb, { numRuns: 400, seed: Number(process.env.NEVER_REFUSED_SEED ?? 2026) });
    for (const facts of samples) {
      const { document, problems } = buildEInvoiceDocument(facts);
      if (Object.keys(problems).length) continue;
      if (document.lines.some((l) => l.unit_price_decimal)) withDecimals += 1;
      if (document.lines.some((l) => l.base_quantity_milli !== undefined)) withBase += 1;
      const file = join(dir, `inv-${files.length}.xml`);
      writeFileSync(file, toUblXml({ ...document, number: `F-2026-${files.length + 1}` }));
      files.push(file);
      if (files.length === 60) break;
    }
    expect(files).toHaveLength(60);
    expect(withDecimals).toBeGreaterThan(15);
    expect(withBase).toBeGreaterThan(15);
    const result = await validateUblFiles(files, 'strict');
    expect(result.available).toBe(true);
    if (result.available) expect(formatFindings(result.findings.filter((f) => f.flag === 'fatal'))).toBe('');
  }, 180_000);
});
