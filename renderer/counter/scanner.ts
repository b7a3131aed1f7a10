/**
 * Barcode scanners at a counter are "keyboard wedges": they type the code's digits very fast and
 * press Enter. A person types a few characters a second; a scanner types one every few milliseconds.
 * The detector tells a scan apart by speed, so a scan lands on the invoice even when the focus is
 * not in the search box (on a button, on the page), and a person's typing is left alone.
 */
export interface ScanResult {
  code: string;
}

export interface WedgeOptions {
  /** Longest pause between two keys of one scan. Scanners: 5-30 ms; people: 80 ms and more. */
  maxGapMs?: number;
  /** Shortest code accepted (EAN-8 has 8; store codes may be shorter). */
  minLength?: number;
}

export class WedgeDetector {
  private buffer = '';
  private lastAt = -Infinity;
  private readonly maxGapMs: number;
  private readonly minLength: number;

  constructor(options: WedgeOptions = {}) {
    this.maxGapMs = options.maxGapMs ?? 40;
    this.minLength = options.minLength ?? 4;
  }

  /**
   * Feed every key (KeyboardEvent.key) with its time. Returns the code when an Enter ends a burst of
   * fast characters long enough to be a scan; null otherwise.
   */
  key(key: string, atMs: number): ScanResult | null {
    const gap = atMs - this.lastAt;
    this.lastAt = atMs;
    if (key === 'Enter') {
      const code = this.buffer;
      this.buffer = '';
      return code.length >= this.minLength && gap <= this.maxGapMs * 2 ? { code } : null;
    }
    if (key.length !== 1 || !/[0-9A-Za-z-]/.test(key)) {
      this.buffer = '';
      return null;
    }
    this.buffer = gap <= this.maxGapMs ? this.buffer + key : key;
    return null;
  }

  /** Characters of the burst so far (the caller may need to remove them from an input). */
  pending(): string {
    return this.buffer;
  }

  reset(): void {
    this.buffer = '';
    this.lastAt = -Infinity;
  }
}

/** Why a typed quantity is refused (each has its Romanian message, `till.qty.*`). */
export type QuantityProblem = 'not_a_number' | 'zero' | 'negative' | 'too_large' | 'too_many_decimals';

/** More than any counter sells in one line (100 000 units or kg): a typo, such as a barcode typed as a quantity. */
export const MAX_QUANTITY_MILLI = 100_000_000;

/**
 * A quantity as typed at the counter: '2', '1,5' (kg with a comma), '0.125'. Three decimals at most
 * (grams); zero, negative (a return is a storno of the original invoice, never a flipped sign) and
 * absurd sizes are refused with a reason.
 */
export function readQuantity(text: string): { milli: number } | { problem: QuantityProblem } {
  const cleaned = text.trim().replace(',', '.');
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(cleaned);
  if (!match) return { problem: /^-?\d*[.,]?\d*e\d+$/i.test(cleaned) ? 'too_large' : 'not_a_number' };
  const [, sign = '', whole = '0', fraction = ''] = match;
  if (fraction.length > 3) return { problem: 'too_many_decimals' };
  const milli = Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
  if (!Number.isSafeInteger(milli) || milli > MAX_QUANTITY_MILLI) return { problem: 'too_large' };
  if (milli === 0) return { problem: 'zero' };
  if (sign === '-') return { problem: 'negative' };
  return { milli };
}

export interface CounterEntry {
  /** Thousandths; 1000 when no multiplier was typed. */
  quantity_milli: number;
  query: string;
  /** The multiplier typed is refused: nothing is added, the cashier reads why. */
  problem?: QuantityProblem;
}

/**
 * What the cashier typed in the search box: `3*5941234567890` or `2,5 * mere` means that quantity of
 * the article; a plain text is a search with quantity 1.
 */
export function parseCounterEntry(text: string): CounterEntry {
  const match = /^\s*(-?[\d.,e]+)\s*[*xX]\s*(.+)$/.exec(text);
  if (match && /\d/.test(match[1] ?? '')) {
    const read = readQuantity(match[1] ?? '');
    const query = (match[2] ?? '').trim();
    if ('milli' in read) return { quantity_milli: read.milli, query };
    return { quantity_milli: 0, query, problem: read.problem };
  }
  return { quantity_milli: 1000, query: text.trim() };
}

/** A query that looks like a barcode or a product code (digits only, 4 or more). */
export function looksLikeCode(query: string): boolean {
  return /^\d{4,14}$/.test(query.trim());
}
