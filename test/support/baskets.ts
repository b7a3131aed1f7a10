import fc from 'fast-check';
import { mulDivRound } from '../../shared/money';
import type { LineInput } from '../../shared/invoice-math';

/**
 * Random counter baskets for the shelf-price property test and its benchmark: shelf prices (VAT
 * included), quantities in pieces or with decimals (kg), discounts, the rates in force on the
 * basket's date (21/11/0 from 1 August 2025, 19/9/5/0 before).
 */
export const RATES_FROM_2025_08 = [2100, 1100, 0] as const;
export const RATES_BEFORE_2025_08 = [1900, 900, 500, 0] as const;

export interface Basket {
  issue_date: string;
  lines: LineInput[];
}

const line = (rates: readonly number[]) =>
  fc.record({
    quantity_milli: fc.oneof(
      fc.integer({ min: 1, max: 24 }).map((n) => n * 1000),
      // Weighed goods: 0,001 to 25 kg.
      fc.integer({ min: 1, max: 25_000 }),
    ),
    // 0,01 to 2.000,00 lei on the shelf.
    unit_price_bani: fc.integer({ min: 1, max: 200_000 }),
    vat_rate_bp: fc.constantFrom(...rates),
    discount_bp: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 5_000 }), fc.constant(10_000)),
    price_includes_vat: fc.constant(true as const),
  });

const dateFrom = (min: string, max: string) =>
  fc.date({ min: new Date(`${min}T12:00:00Z`), max: new Date(`${max}T12:00:00Z`), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

export const basketArbitrary: fc.Arbitrary<Basket> = fc.oneof(
  fc.record({ issue_date: dateFrom('2025-08-01', '2026-12-31'), lines: fc.array(line(RATES_FROM_2025_08), { minLength: 1, maxLength: 40 }) }),
  fc.record({ issue_date: dateFrom('2024-01-01', '2025-07-31'), lines: fc.array(line(RATES_BEFORE_2025_08), { minLength: 1, maxLength: 40 }) }),
);

/** What the customer pays for a line: quantity x shelf price, less the discount, each rounded to the ban. */
export function shelfLineTotal(l: LineInput): number {
  const amount = mulDivRound(l.quantity_milli, l.unit_price_bani, 1000);
  return amount - mulDivRound(amount, l.discount_bp ?? 0, 10_000);
}
