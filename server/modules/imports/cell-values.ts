import type { Cell } from './file-reader';

/**
 * Values of cells as people type them in Romania and elsewhere: prices with a decimal comma or point
 * and thousands separators, VAT rates with or without `%`, yes/no flags. Each parser answers the value
 * or a problem (`English|Română`), never a guess: an ambiguous price is a row error.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (message: string): Parsed<never> => ({ ok: false, message });

/** How a column writes its decimals, learnt from its unambiguous values (`12,99`, `1.299,00`). */
export type DecimalConvention = 'comma' | 'dot' | 'unknown';

const MAX_PRICE_BANI = 1_000_000_000_000 * 100;

function compact(text: string): string {
  return text
    .replace(/[\s\u00a0\u202f\u2009']/g, '')
    .replace(/^(lei|ron)/i, '')
    .replace(/(lei|ron)$/i, '');
}

/** The decimal separator a single text proves, if any. */
function provenSeparator(text: string): DecimalConvention {
  const s = compact(text).replace(/^-/, '');
  if (/^\d{1,3}(\.\d{3})+,\d{1,2}$/.test(s) || /^\d+,\d{1,2}$/.test(s)) return 'comma';
  if (/^\d{1,3}(,\d{3})+\.\d{1,2}$/.test(s) || /^\d+\.\d{1,2}$/.test(s)) return 'dot';
  return 'unknown';
}

/** The convention of a column: one separator proven by some cell and contradicted by none. */
export function columnConvention(cells: Iterable<Cell>): DecimalConvention {
  let comma = false;
  let dot = false;
  for (const cell of cells) {
    if (typeof cell !== 'string') continue;
    const proven = provenSeparator(cell);
    if (proven === 'comma') comma = true;
    if (proven === 'dot') dot = true;
    if (comma && dot) return 'unknown';
  }
  return comma ? 'comma' : dot ? 'dot' : 'unknown';
}

const grouped = (whole: string, sep: string) => new RegExp(`^\\d{1,3}(\\${sep}\\d{3})+$`).test(whole);

function toBani(whole: string, fraction: string, shown: string): Parsed<number> {
  const bani = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(bani) || bani > MAX_PRICE_BANI) {
    return bad(`“${shown}” is too large for a price|„${shown}” este prea mare pentru un preț`);
  }
  return ok(bani);
}

/**
 * A price in bani. `12,99`, `12.99`, `1.299,00`, `1,299.00`, `1 299,00`, `12,99 lei` are read
 * exactly (no floating point); `1.299` or `1,299` alone could be either 1299 lei or 1,299 lei and are
 * refused unless the same column writes its decimals one way elsewhere (`convention`). An XLSX number
 * is exact as it stands.
 */
export function parsePrice(cell: Cell, convention: DecimalConvention = 'unknown'): Parsed<number> {
  if (typeof cell === 'number') {
    if (cell < 0) return bad('A price cannot be negative|Prețul nu poate fi negativ');
    const scaled = cell * 100;
    const bani = Math.round(scaled);
    if (Math.abs(scaled - bani) > 1e-6) return bad(`“${cell}” has more than two decimals|„${String(cell).replace('.', ',')}” are mai mult de două zecimale`);
    return toBani(String(Math.floor(bani / 100)), String(bani % 100).padStart(2, '0'), String(cell));
  }
  if (typeof cell !== 'string' || cell.trim() === '') return bad('The price is missing|Prețul lipsește');
  const shown = cell.trim();
  const s = compact(shown);
  if (s.startsWith('-')) return bad('A price cannot be negative|Prețul nu poate fi negativ');
  if (/^\d+$/.test(s)) return toBani(s, '', shown);
  const notPrice = bad(`“${shown}” is not a price (e.g. 12,99 or 1.299,00)|„${shown}” nu este un preț (exemple: 12,99 sau 1.299,00)`);
  const tooPrecise = bad(`“${shown}” has more than two decimals|„${shown}” are mai mult de două zecimale`);
  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    // Both: the last one is the decimal separator, the other groups thousands.
    const decimalSep = lastComma > lastDot ? ',' : '.';
    const thousandsSep = decimalSep === ',' ? '.' : ',';
    const at = s.lastIndexOf(decimalSep);
    const whole = s.slice(0, at);
    const fraction = s.slice(at + 1);
    if (!/^\d+$/.test(fraction) || !grouped(whole, thousandsSep)) return notPrice;
    if (fraction.length > 2) return tooPrecise;
    return toBani(whole.split(thousandsSep).join(''), fraction, shown);
  }
  const sep = lastComma >= 0 ? ',' : lastDot >= 0 ? '.' : null;
  if (sep === null || !/^[\d.,]+$/.test(s)) return notPrice;
  const parts = s.split(sep);
  if (parts.some((p) => p === '')) return notPrice;
  if (parts.length > 2) {
    // 1.299.000 or 1,299,000: thousands only.
    return grouped(s, sep) ? toBani(parts.join(''), '', shown) : notPrice;
  }
  const [whole, fraction] = parts as [string, string];
  if (fraction.length <= 2) return toBani(whole, fraction, shown);
  if (fraction.length === 3 && /^\d{1,3}$/.test(whole)) {
    const thisIsDecimal = convention === (sep === ',' ? 'comma' : 'dot');
    const thisIsThousands = convention === (sep === ',' ? 'dot' : 'comma');
    if (thisIsThousands) return toBani(whole + fraction, '', shown);
    if (thisIsDecimal) return tooPrecise;
    const asThousands = `${whole}${fraction}`;
    return bad(
      `“${shown}” is ambiguous: ${asThousands} lei or ${whole}.${fraction} lei? Write it with its decimals (${asThousands},00 or ${asThousands}.00)` +
        `|„${shown}” este ambiguu: ${asThousands} lei sau ${whole},${fraction} lei? Scrieți-l cu zecimale (${asThousands},00 sau ${asThousands}.00)`,
    );
  }
  return tooPrecise;
}

/**
 * A VAT rate in percent: `21`, `21%`, `21 %`, `9,5`, `TVA 19%`; an Excel percentage cell holds a
 * fraction (0.21), which reads as 21 when that is an allowed rate. Only `allowed` rates pass.
 */
export function parseVatRate(cell: Cell, allowed: readonly number[]): Parsed<number> {
  const list = allowed.join(', ');
  const refuse = (shown: string) =>
    bad(`“${shown}” is not a VAT rate of the firm (${list})|„${shown}” nu este o cotă de TVA a firmei (${list})`);
  let value: number;
  let shown: string;
  if (typeof cell === 'number') {
    value = cell;
    shown = String(cell);
  } else if (typeof cell === 'string') {
    shown = cell.trim();
    const s = shown.replace(/^tva/i, '').replace(/\s+/g, '').replace(/%$/, '').replace(',', '.');
    if (!/^\d+(\.\d+)?$/.test(s)) return refuse(shown);
    value = Number(s);
  } else {
    return bad('The VAT rate is missing|Cota de TVA lipsește');
  }
  const matches = (n: number) => allowed.some((a) => Math.abs(a - n) < 1e-9);
  if (matches(value)) return ok(allowed.find((a) => Math.abs(a - value) < 1e-9)!);
  if (value > 0 && value < 1 && matches(Math.round(value * 10_000) / 100)) return ok(Math.round(value * 10_000) / 100);
  return refuse(shown);
}

const YES = new Set(['da', 'd', 'yes', 'y', 'true', '1', 'x', 'serviciu', 'servicii', 'service', 's', 'adevarat']);
const NO = new Set(['nu', 'n', 'no', 'false', '0', 'produs', 'produse', 'marfa', 'bun', 'b', 'p', 'fals']);

/** A yes/no cell (`Da`/`Nu`, `1`/`0`, `Serviciu`/`Produs`); empty is no answer. */
export function parseFlag(cell: Cell): Parsed<boolean | null> {
  if (cell === null || cell === '') return ok(null);
  if (typeof cell === 'boolean') return ok(cell);
  const folded = String(cell).normalize('NFD').replace(/[\u0300-\u036f]/g, '').trim().toLowerCase();
  if (YES.has(folded)) return ok(true);
  if (NO.has(folded)) return ok(false);
  return bad(`“${String(cell)}”: expected Yes or No|„${String(cell)}”: se aștepta Da sau Nu`);
}

/** Text of a cell: numbers written as Excel shows them (a barcode 5941234567890 stays whole). */
export function cellText(cell: Cell): string | null {
  if (cell === null) return null;
  if (typeof cell === 'number') return Number.isInteger(cell) ? BigInt(cell).toString() : String(cell);
  if (typeof cell === 'boolean') return cell ? 'DA' : 'NU';
  const trimmed = cell.trim();
  return trimmed === '' ? null : trimmed;
}
