import { describe, expect, it } from 'vitest';
import { rateMicro, salesAmounts, servicesShare, type BreakdownPart } from '../../../shared/accounting/journal-math';

/**
 * Goods and services of one K or G breakdown entry: the two columns always add up to the entry, whatever
 * the discounts on the whole invoice, the sign (storno) or the currency.
 */
describe('servicesShare', () => {
  it('keeps a services-only or goods-only entry whole, discounts on the whole invoice included', () => {
    // Lines 1000,00; a discount of 10,50 at K: the entry is 989,50, all of it services.
    expect(servicesShare(98_950, 100_000, 100_000)).toBe(98_950);
    expect(servicesShare(98_950, 0, 100_000)).toBe(0);
  });

  it('shares a discount on a mixed entry pro rata to the lines, half away from zero, and the same negated on a storno', () => {
    // Lines: services 300,00 + goods 100,00; discount 10,01 -> entry 389,99; services 3/4 of it = 292,4925 -> 292,49.
    expect(servicesShare(38_999, 30_000, 40_000)).toBe(29_249);
    expect(servicesShare(-38_999, -30_000, -40_000)).toBe(-29_249);
    // 1/2 of 1,01 lei is 0,505: half away from zero, both signs.
    expect(servicesShare(101, 50, 100)).toBe(51);
    expect(servicesShare(-101, -50, -100)).toBe(-51);
  });

  it('lines that cancel out keep the services at their own nets', () => {
    expect(servicesShare(0, 5000, 0)).toBe(5000);
  });
});

describe('salesAmounts, K and G with services', () => {
  const doc = { reverse_charge: false, rate_micro: rateMicro(5.0789), vat_on_collection: false };
  const part = (category: 'K' | 'G', net: number, services?: number): BreakdownPart => ({ vat_rate_bp: 0, vat_category: category, net_bani: net, vat_bani: 0, services_net_bani: services });

  it('puts goods and services in their own columns; together they are the entry in RON to the ban', () => {
    const out = salesAmounts([part('K', 45_053, 25_055), part('G', 13_010, 12_009)], doc);
    expect(out.intra_eu_services_base).toBe(127_252); // 250,55 EUR x 5,0789 = 1.272,518… lei
    expect(out.intra_eu_goods_base! + out.intra_eu_services_base!).toBe(228_820); // the entry: 450,53 EUR x 5,0789 = 2.288,196… lei
    expect(out.intra_eu_goods_base).toBe(101_568);
    expect(out.services_outside_eu_base).toBe(60_993); // 120,09 EUR x 5,0789 = 609,925… lei
    expect(out.export_base! + out.services_outside_eu_base!).toBe(66_076); // the entry: 130,10 EUR x 5,0789 = 660,764… lei
    // The goods take the rounding: 50,83 lei, a ban under their own 10,01 EUR x 5,0789 = 50,839… lei.
    expect(out.export_base).toBe(5083);
    expect(out.total).toBe(228_820 + 66_076);
  });

  it('an entry without services stays in the goods column, with no services key', () => {
    const out = salesAmounts([part('K', 10_000)], { ...doc, rate_micro: null });
    expect(out).toEqual({ total: 10_000, intra_eu_goods_base: 10_000 });
  });

  it('reverse charge is one column whatever the lines sell', () => {
    const out = salesAmounts([{ vat_rate_bp: 0, vat_category: null, net_bani: 10_000, vat_bani: 0, services_net_bani: 10_000 }], { ...doc, reverse_charge: true, rate_micro: null });
    expect(out).toEqual({ total: 10_000, reverse_charge_base: 10_000 });
  });
});
