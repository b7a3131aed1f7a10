import { toBani, type Bani } from './money';

/**
 * Display formats for amounts, quantities, rates and dates, written by hand (like shared/money's
 * formatRon) so the screen, the printed PDF and the tests read the same characters whatever ICU
 * data the browser or Electron ships.
 */
export type Locale = 'ro' | 'en';

function groupThousands(digits: string, separator: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += separator;
    out += digits[i];
  }
  return out;
}

function separators(locale: Locale): { group: string; decimal: string } {
  return locale === 'ro' ? { group: '.', decimal: ',' } : { group: ',', decimal: '.' };
}

/** Integer units with `decimals` implied decimals, grouped: (123450, 2, ro) -> '1.234,50'. */
export function formatScaled(units: number, decimals: number, locale: Locale, minDecimals = decimals): string {
  if (!Number.isSafeInteger(units)) throw new RangeError(`Not a safe integer: ${String(units)}`);
  const { group, decimal } = separators(locale);
  const negative = units < 0;
  const abs = String(Math.abs(units)).padStart(decimals + 1, '0');
  const whole = abs.slice(0, abs.length - decimals) || '0';
  let fraction = decimals > 0 ? abs.slice(abs.length - decimals) : '';
  while (fraction.length > minDecimals && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const text = groupThousands(whole, group) + (fraction ? decimal + fraction : '');
  return negative && units !== 0 ? `-${text}` : text;
}

/** Bani as a plain number: '1.234,50' (ro), '1,234.50' (en). */
export function formatBani(bani: Bani, locale: Locale): string {
  return formatScaled(bani, 2, locale);
}

/**
 * A unit price in ten-thousandths of a leu, with 2 to 4 decimals: (125, ro) -> '0,0125', (74590) ->
 * '7,459', (123450000) -> '12.345,00'. Prices may carry 4 decimals; amounts always carry 2.
 */
export function formatPriceE4(priceE4: number, locale: Locale): string {
  return formatScaled(priceE4, 4, locale, 2);
}

/** Bani with the currency: '1.234,50 lei' for RON in Romanian, '1.234,50 EUR' otherwise. */
export function formatMoney(bani: Bani, currency: string, locale: Locale): string {
  const number = formatBani(bani, locale);
  if (currency === 'RON') return locale === 'ro' ? `${number} lei` : `${number} RON`;
  return `${number} ${currency}`;
}

/** A wire amount (lei.bani number) with its currency. */
export function formatWireMoney(amount: number, currency: string, locale: Locale): string {
  return formatMoney(toBani(amount), currency, locale);
}

/** A wire quantity (at most 3 decimals) without trailing zeros: 1.5 -> '1,5', 2 -> '2'. */
export function formatQuantity(quantity: number, locale: Locale): string {
  const milli = Math.round(quantity * 1000);
  return formatScaled(milli, 3, locale, 0);
}

/** A wire percent: 21 -> '21%', 20.5 -> '20,5%'. */
export function formatPercent(percent: number, locale: Locale): string {
  return `${formatScaled(Math.round(percent * 100), 2, locale, 0)}%`;
}

/** An exchange rate with four decimals, as BNR publishes it: 4.9772 -> '4,9772'. */
export function formatRate(rate: number, locale: Locale): string {
  return formatScaled(Math.round(rate * 10_000), 4, locale);
}

/** 'YYYY-MM-DD' -> '21.11.2026' (the form Romanian documents print, in both languages). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return iso;
  return `${match[3]}.${match[2]}.${match[1]}`;
}

/** Unix seconds -> '21.11.2026 12:05' in Bucharest time. */
export function formatTimestamp(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '';
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Bucharest',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).formatToParts(new Date(seconds * 1000));
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')}.${get('month')}.${get('year')} ${get('hour')}:${get('minute')}`;
}

/**
 * Parses what a cashier types as an amount: '12', '12,5', '12.50', '1.234,50', '1 234,5'.
 * A single separator followed by exactly 3 digits is read as thousands ('1.234' = 1234 lei),
 * the habit of Romanian price tags. Returns bani, or null when it is not an amount.
 */
export function parseAmountInput(text: string): Bani | null {
  const cleaned = text.replace(/\s+/g, '').replace(/lei$/i, '');
  if (!/^-?[\d.,]+$/.test(cleaned)) return null;
  const negative = cleaned.startsWith('-');
  const body = negative ? cleaned.slice(1) : cleaned;
  const lastSep = Math.max(body.lastIndexOf(','), body.lastIndexOf('.'));
  let whole = body;
  let fraction = '';
  if (lastSep >= 0) {
    const tail = body.slice(lastSep + 1);
    const head = body.slice(0, lastSep);
    const sepCount = (body.match(/[.,]/g) ?? []).length;
    if (tail.length === 3 && sepCount === 1 && body[lastSep] === '.') {
      whole = head + tail;
    } else if (tail.length <= 2) {
      whole = head.replace(/[.,]/g, '');
      fraction = tail;
    } else if (tail.length === 3) {
      whole = head.replace(/[.,]/g, '') + tail;
    } else {
      return null;
    }
  }
  if (!/^\d+$/.test(whole || '0') || !/^\d*$/.test(fraction)) return null;
  const bani = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0') || '0');
  if (!Number.isSafeInteger(bani)) return null;
  return negative ? -bani : bani;
}

/** Parses a typed quantity ('2', '1,5', '0.125') into thousandths, or null. */
export function parseQuantityInput(text: string): number | null {
  const cleaned = text.trim().replace(',', '.');
  if (!/^-?\d+(\.\d{1,3})?$/.test(cleaned)) return null;
  const [whole = '0', fraction = ''] = cleaned.replace('-', '').split('.');
  const milli = Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
  if (!Number.isSafeInteger(milli)) return null;
  return cleaned.startsWith('-') ? -milli : milli;
}

/** Parses a typed percent ('10', '12,5') into basis points, or null. */
export function parsePercentInput(text: string): number | null {
  const cleaned = text.trim().replace('%', '').replace(',', '.');
  if (cleaned === '') return 0;
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole = '0', fraction = ''] = cleaned.split('.');
  const bp = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bp <= 10_000 ? bp : null;
}
