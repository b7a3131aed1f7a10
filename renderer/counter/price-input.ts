import { PRICE_DECIMALS } from '../../shared/invoice-math';

/** Why a typed unit price is refused (each has its Romanian message, `counter.price.*`). */
export type PriceProblem = 'not_a_number' | 'negative' | 'too_many_decimals' | 'zero' | 'too_large';

/**
 * Ten million lei for one unit: past anything sold at a counter, yet a real machine or a car fits.
 * With the counter's largest quantity (100 000) a line stays within the service's largest amount,
 * and a barcode typed into the price cell by mistake is caught.
 */
export const MAX_PRICE_E4 = 10_000_000 * 10 ** PRICE_DECIMALS;

/** `1.234.567` or `1,234,567`: digits grouped by three with `separator`. */
function grouped(text: string, separator: string): boolean {
  const sep = separator === '.' ? '\\.' : separator;
  return new RegExp(`^\\d{1,3}(${sep}\\d{3})+$`).test(text);
}

/**
 * Whole and decimal digits of a typed number, or null. One separator (comma or dot) is the decimal
 * point: a unit price may have 4 decimals, so "12.345" is twelve lei and a bit, never 12 345 lei.
 * With both, the last one is the decimal point and the other groups thousands, as the cell itself
 * shows a price ("1.234,5678" in Romanian, "1,234.5678" in English), so an untouched cell reads back.
 */
function digitsOf(body: string): { whole: string; fraction: string } | null {
  if (!/^[\d.,]+$/.test(body) || !/\d/.test(body)) return null;
  const last = Math.max(body.lastIndexOf(','), body.lastIndexOf('.'));
  if (last < 0) return { whole: body, fraction: '' };
  const decimal = body[last]!;
  const group = decimal === ',' ? '.' : ',';
  const head = body.slice(0, last);
  const fraction = body.slice(last + 1);
  if (!/^\d*$/.test(fraction)) return null;
  if (head.includes(decimal)) {
    // "1.234.567" with no other separator: grouped thousands, no decimals.
    return !head.includes(group) && fraction.length === 3 && grouped(body, decimal) ? { whole: body.split(decimal).join(''), fraction: '' } : null;
  }
  if (head.includes(group)) return grouped(head, group) ? { whole: head.split(group).join(''), fraction } : null;
  return { whole: head, fraction };
}

/**
 * A unit price as typed at the counter: "12,3456" (Romanian comma), "12.3456", "1.234,50", "7 lei".
 * Four decimals at most (ten-thousandths of a leu, what the invoice carries); negative, zero and
 * absurd prices are refused with a reason. Returns the price in ten-thousandths of a leu.
 */
export function readUnitPrice(text: string): { e4: number } | { problem: PriceProblem } {
  const cleaned = text.replace(/[\s\u00a0\u202f]+/g, '').replace(/(lei|ron)$/i, '');
  const negative = /^[-−]/.test(cleaned);
  const digits = digitsOf(negative ? cleaned.slice(1) : cleaned);
  if (!digits) return { problem: 'not_a_number' };
  if (negative) return { problem: 'negative' };
  if (digits.fraction.length > PRICE_DECIMALS) return { problem: 'too_many_decimals' };
  const whole = digits.whole.replace(/^0+(?=\d)/, '') || '0';
  // Past 12 digits the number is absurd whatever it is; stopping here keeps the sum an exact integer.
  if (whole.length > 12) return { problem: 'too_large' };
  const e4 = Number(whole) * 10 ** PRICE_DECIMALS + Number(digits.fraction.padEnd(PRICE_DECIMALS, '0') || '0');
  if (e4 === 0) return { problem: 'zero' };
  if (e4 > MAX_PRICE_E4) return { problem: 'too_large' };
  return { e4 };
}
