/**
 * Barcodes at the counter. A store's own codes are taken as they are (an exact code or barcode
 * always wins); what is left is read by rules kept as data, the way odoo's barcode nomenclature
 * does: EAN-13 codes with a prefix from 20 to 29 are the shop's own "in-store" codes, printed by the
 * scale or the labeller with the article and its weight or price inside:
 *
 *     P P I I I I I V V V V V C      prefix (2), article (5), value (5), check digit
 *
 * The layout (which prefix carries a weight or a price, how many digits the article has) is a
 * setting of the counter, because scales are configured differently from shop to shop.
 */
export type WeighedKind = 'weight' | 'price';

export interface WeighedRule {
  /** Two digits, 20 to 29. */
  prefix: string;
  /** `weight`: the value is the quantity in grams (3 decimals of kg); `price`: the line's amount in bani. */
  kind: WeighedKind;
  /** Digits of the article code after the prefix (the value takes the rest up to the check digit). */
  item_digits: number;
}

/** The layout most Romanian scales print: 20-25 weight, 26-29 price, a 5-digit article and a 5-digit value. */
export const DEFAULT_WEIGHED_RULES: readonly WeighedRule[] = [
  ...['20', '21', '22', '23', '24', '25'].map((prefix) => ({ prefix, kind: 'weight' as const, item_digits: 5 })),
  ...['26', '27', '28', '29'].map((prefix) => ({ prefix, kind: 'price' as const, item_digits: 5 })),
];

/** GS1 check digit of the digits before it (EAN-8, UPC-A, EAN-13, GTIN-14 alike). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** A GTIN shape: 8, 12, 13 or 14 digits. */
export function looksLikeGtin(code: string): boolean {
  return /^(\d{8}|\d{12,14})$/.test(code);
}

export function gs1CheckDigitOk(code: string): boolean {
  return looksLikeGtin(code) && gs1CheckDigit(code.slice(0, -1)) === Number(code[code.length - 1]);
}

export type ScanReading =
  | { kind: 'weighed'; rule: WeighedRule; /** Codes a product may carry for the article: `PPIIIII` and the EAN with the value zeroed. */ product_keys: string[]; value: number }
  | { kind: 'bad_check' }
  | { kind: 'other' };

/** What a scanned code says once no product carries it as its code or barcode. */
export function readScan(code: string, rules: readonly WeighedRule[]): ScanReading {
  if (!looksLikeGtin(code)) return { kind: 'other' };
  if (!gs1CheckDigitOk(code)) return { kind: 'bad_check' };
  if (code.length !== 13) return { kind: 'other' };
  const rule = rules.find((r) => code.startsWith(r.prefix));
  if (!rule) return { kind: 'other' };
  const itemEnd = rule.prefix.length + rule.item_digits;
  const article = code.slice(0, itemEnd);
  const valueDigits = code.slice(itemEnd, 12);
  const zeroed = article + '0'.repeat(valueDigits.length);
  return { kind: 'weighed', rule, product_keys: [article, zeroed + String(gs1CheckDigit(zeroed)), code.slice(rule.prefix.length, itemEnd)], value: Number(valueDigits) };
}

/**
 * The quantity (thousandths) a weighed code means for a product: a weight is the quantity itself
 * (grams = thousandths of a kg); a price is divided by the product's shelf price (VAT included) and
 * rounded to the gram, so the line's amount is the label's to within a ban.
 */
export function weighedQuantityMilli(reading: Extract<ScanReading, { kind: 'weighed' }>, shelfPriceBani: number): number | null {
  if (reading.rule.kind === 'weight') return reading.value > 0 ? reading.value : null;
  if (shelfPriceBani <= 0 || reading.value <= 0) return null;
  return Math.max(1, Math.round((reading.value * 1000) / shelfPriceBani));
}
