import { z } from 'zod';

/**
 * Money inside the code is always an integer number of bani (1 leu = 100 bani). The API's wire
 * forms (a JSON number in lei with at most 2 decimals; a decimal string with two decimals for
 * expenses) are converted at the boundary only, with the functions below.
 */
export type Bani = number;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Wire numbers (JSON doubles) carry a 2- or 3-decimal value exactly only while the spacing between
 * neighbouring doubles stays well below the last decimal: below 10^15 units of the last decimal
 * (10^13 lei, 10^12 for quantities) it is under a fifth of it. Past that two different amounts
 * can arrive as the same double, so the conversions refuse them instead of guessing.
 */
export const MAX_WIRE_SCALED = 1e15 - 1;

/** Largest amount in bani that crosses the wire as a number: 9 999 999 999 999.99 lei. */
export const MAX_WIRE_BANI: Bani = MAX_WIRE_SCALED;

function assertSafeInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${what} must be a safe integer, got ${String(value)}`);
  }
}

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A wire number with at most `decimals` decimals as an integer count of 10^-decimals, or the reason
 * it is not one. Exact: String(n) is the shortest decimal that reads back as the same double, and
 * within MAX_WIRE_SCALED only one value with that many decimals maps to each double, so its digits
 * are exactly what the sender wrote (trailing zeros aside). Scaling by multiplication instead
 * would need its own rounding-error analysis (and fails past about 3 * 10^13 lei); this route has none.
 */
function parseWireNumber(n: unknown, decimals: number): number | 'not-a-number' | 'range' | 'decimals' {
  if (typeof n !== 'number' || !Number.isFinite(n)) return 'not-a-number';
  // String() switches to exponent notation from 1e21 up (far out of range) and below 1e-6 (too
  // many decimals), so the plain-decimal pattern below sees every number that could be valid.
  if (Math.abs(n) >= 1e21) return 'range';
  const match = PLAIN_DECIMAL.exec(String(n));
  if (!match) return 'decimals';
  const [, sign, whole = '', fraction = ''] = match;
  if (fraction.length > decimals) return 'decimals';
  const abs = Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0'));
  // Below the limit the sum above is exact; above it, it only has to be large enough to refuse.
  if (abs > MAX_WIRE_SCALED) return 'range';
  return sign === '-' && abs !== 0 ? -abs : abs;
}

/** Converts a wire number with at most `decimals` decimals to integer units; throws RangeError. */
export function scaleExact(n: number, decimals: number, what: string): number {
  const result = parseWireNumber(n, decimals);
  if (result === 'not-a-number') throw new RangeError(`${what} must be a finite number, got ${String(n)}`);
  if (result === 'range') throw new RangeError(`${what} is out of range: ${String(n)}`);
  if (result === 'decimals') throw new RangeError(`${what} has more than ${decimals} decimals: ${String(n)}`);
  return result;
}

/** Integer units -> wire number with `decimals` decimals; the inverse of {@link scaleExact}. */
export function unscale(units: number, decimals: number, what: string): number {
  assertSafeInteger(units, what);
  if (Math.abs(units) > MAX_WIRE_SCALED) throw new RangeError(`${what} is too large for a wire number: ${units}`);
  // Correctly rounded division yields the double nearest to the decimal, which prints as that decimal.
  const n = units / 10 ** decimals;
  return n === 0 ? 0 : n;
}

/** True when `n` is a finite wire number with at most 2 decimals within the wire range. */
export function isWireMoney(n: unknown): n is number {
  return typeof parseWireNumber(n, 2) === 'number';
}

/** Lei as the API sends them (0.29, 1234567.89, -0.07) -> integer bani. Throws RangeError. */
export function toBani(n: number): Bani {
  return scaleExact(n, 2, 'Amount');
}

/** Integer bani -> the API's wire number in lei (29 -> 0.29). JSON.stringify prints it shortest. */
export function fromBani(b: Bani): number {
  return unscale(b, 2, 'Bani');
}

/** Integer bani -> '12.34', '-0.05', '0.00' (the expense wire form). */
export function baniToDecimalString(b: Bani): string {
  assertSafeInteger(b, 'Bani');
  const negative = b < 0;
  const abs = Math.abs(b);
  const lei = Math.floor(abs / 100);
  const bani = abs % 100;
  const text = `${lei}.${bani < 10 ? '0' : ''}${bani}`;
  return negative ? `-${text}` : text;
}

const DECIMAL_STRING = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/** '12', '12.3', '12.34', '-1.00' -> bani. Rejects '12.345', '1,2', '', '.5', '+1' with RangeError. */
export function decimalStringToBani(s: string): Bani {
  const match = typeof s === 'string' ? DECIMAL_STRING.exec(s) : null;
  if (!match) {
    throw new RangeError(`Not a decimal amount with at most 2 decimals: ${JSON.stringify(s)}`);
  }
  const [, sign, whole = '', fraction = ''] = match;
  const wholeNumber = Number(whole);
  const fractionNumber = Number(fraction.padEnd(2, '0'));
  const abs = wholeNumber * 100 + fractionNumber;
  // Checking the whole part keeps the multiplication above exact.
  if (wholeNumber > Math.floor(MAX_SAFE / 100) || !Number.isSafeInteger(abs)) {
    throw new RangeError(`Decimal amount out of range: ${s}`);
  }
  return sign === '-' && abs !== 0 ? -abs : abs;
}

function groupThousands(digits: string, separator: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += separator;
    out += digits[i];
  }
  return out;
}

/**
 * Display form: ro '1.234,50 lei', en 'RON 1,234.50'; negatives '-1.234,50 lei' and '-RON 1,234.50'
 * (the sign first, as Intl's en-US currency format does). Written out by hand so the output does not
 * depend on the ICU data the runtime ships (Node's small-icu, Chromium and Node disagree on spaces).
 * Plain ASCII spaces: callers that must not wrap can swap in U+00A0 themselves.
 */
export function formatRon(b: Bani, locale: 'ro' | 'en'): string {
  assertSafeInteger(b, 'Bani');
  const negative = b < 0;
  const abs = Math.abs(b);
  const lei = String(Math.floor(abs / 100));
  const bani = String(abs % 100).padStart(2, '0');
  const sign = negative ? '-' : '';
  if (locale === 'ro') return `${sign}${groupThousands(lei, '.')},${bani} lei`;
  return `${sign}RON ${groupThousands(lei, ',')}.${bani}`;
}

/**
 * numerator / denominator rounded to the nearest integer, ties away from zero (1.5 -> 2, -1.5 -> -2),
 * the rule Romanian invoices use for VAT. Integers only. Exact for any bigint numerator; pass a
 * bigint (or use {@link mulDivRound}) when the numerator is a product that may exceed 2^53.
 */
export function roundHalfAwayFromZero(numerator: number | bigint, denominator: number | bigint): number {
  if (typeof numerator === 'bigint' || typeof denominator === 'bigint') {
    return roundBig(BigInt(numerator), BigInt(denominator));
  }
  assertSafeInteger(numerator, 'Numerator');
  assertSafeInteger(denominator, 'Denominator');
  if (denominator === 0) throw new RangeError('Division by zero');
  // For safe integers % and the division of the exact multiple (n - r) are both exact.
  const remainder = numerator % denominator;
  let quotient = (numerator - remainder) / denominator;
  // Doubling is exact in binary floating point, so this comparison is exact too.
  if (Math.abs(remainder) * 2 >= Math.abs(denominator)) {
    quotient += (numerator < 0) !== (denominator < 0) ? -1 : 1;
  }
  return quotient === 0 ? 0 : quotient;
}

function roundBig(numerator: bigint, denominator: bigint): number {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const remainder = numerator % denominator;
  let quotient = numerator / denominator;
  const absRemainder = remainder < 0n ? -remainder : remainder;
  const absDenominator = denominator < 0n ? -denominator : denominator;
  if (absRemainder * 2n >= absDenominator) {
    quotient += (numerator < 0n) !== (denominator < 0n) ? -1n : 1n;
  }
  const result = Number(quotient);
  if (!Number.isSafeInteger(result)) {
    throw new RangeError(`Result out of the safe integer range: ${quotient.toString()}`);
  }
  return result === 0 ? 0 : result;
}

/** round(a * b / denominator), ties away from zero, exact even when a * b exceeds 2^53. */
export function mulDivRound(a: number, b: number, denominator: number): number {
  assertSafeInteger(a, 'Factor');
  assertSafeInteger(b, 'Factor');
  const product = a * b;
  if (Number.isSafeInteger(product)) return roundHalfAwayFromZero(product, denominator);
  return roundBig(BigInt(a) * BigInt(b), BigInt(denominator));
}

/** a + b for bani, refusing to leave the safe integer range silently. */
export function addBani(a: Bani, b: Bani): Bani {
  const sum = a + b;
  if (!Number.isSafeInteger(sum)) throw new RangeError('Amount out of range');
  return sum;
}

/** Integer bani (what the database stores). */
export const zBani = z.number().int().min(-MAX_SAFE).max(MAX_SAFE);

/**
 * A wire amount in lei: a finite number with at most 2 decimals (0.29, 1234.5, -7), at most
 * MAX_WIRE_BANI in absolute value.
 * Output stays the wire number (so the schema also describes responses and the OpenAPI document);
 * use {@link zMoneyToBani} where the handler wants bani.
 */
export const zMoney = z
  .number()
  .min(-MAX_WIRE_BANI / 100)
  .max(MAX_WIRE_BANI / 100)
  .refine(isWireMoney, { message: 'Must be an amount in lei with at most 2 decimals|Trebuie să fie o sumă în lei cu cel mult 2 zecimale' })
  .describe('Amount in lei, at most 2 decimals');

/** {@link zMoney} transformed to integer bani. */
export const zMoneyToBani = zMoney.transform((n) => toBani(n));

/** An expense amount as the API writes it: a decimal string with at most two decimals ('12.34'). */
export const zDecimalString2 = z
  .string()
  .regex(DECIMAL_STRING, { message: "Must be a decimal amount like '12.34' (dot, at most 2 decimals)|Trebuie să fie o sumă zecimală ca '12.34' (cu punct, cel mult 2 zecimale)" })
  .refine(
    (s) => {
      try {
        decimalStringToBani(s);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'Amount out of range|Sumă în afara intervalului permis' },
  );

/** {@link zDecimalString2} transformed to integer bani. */
export const zDecimalString2ToBani = zDecimalString2.transform((s) => decimalStringToBani(s));
