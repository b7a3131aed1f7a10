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

export interface CounterEntry {
  /** Thousandths; 1000 when no multiplier was typed. */
  quantity_milli: number;
  query: string;
}

/**
 * What the cashier typed in the search box: `3*5941234567890` or `2,5 * mere` means that quantity of
 * the article; a plain text is a search with quantity 1.
 */
export function parseCounterEntry(text: string): CounterEntry {
  const match = /^\s*(\d+(?:[.,]\d{1,3})?)\s*[*xX]\s*(.+)$/.exec(text);
  if (match) {
    const [whole = '0', fraction = ''] = (match[1] ?? '1').replace(',', '.').split('.');
    const milli = Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
    if (milli > 0) return { quantity_milli: milli, query: (match[2] ?? '').trim() };
  }
  return { quantity_milli: 1000, query: text.trim() };
}

/** A query that looks like a barcode or a product code (digits only, 4 or more). */
export function looksLikeCode(query: string): boolean {
  return /^\d{4,14}$/.test(query.trim());
}
