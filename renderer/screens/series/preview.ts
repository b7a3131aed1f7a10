import { todayInBucharest } from '../../../shared/dates';
import { formatReceiptNumber } from '../../../shared/schemas/receipt-series';
import { formatSeriesNumber } from '../../../shared/schemas/series';

/** The format the service gives a series made without one (server/modules/invoicing/series-routes.ts). */
export const DEFAULT_INVOICE_FORMAT = '{name}-{year}-{number:4}';

/**
 * The number a new series will print first, as the cashier will read it ("ARD-2026-0001", "CH-1"):
 * never the format string. Invalid input previews as an empty string.
 */
export function previewNumber(kind: 'invoice' | 'receipt', name: string, start: number, year = Number(todayInBucharest().slice(0, 4))): string {
  const prefix = name.trim();
  if (!prefix || !Number.isInteger(start) || start < 1) return '';
  return kind === 'invoice' ? formatSeriesNumber(DEFAULT_INVOICE_FORMAT, start, year, prefix) : formatReceiptNumber(prefix, start);
}

/** A series name proposed from the company's name: its initials, or its first letters ("Ardeleana SRL" -> "ARD"). */
export function suggestSeriesName(companyName: string | null | undefined): string {
  const words = (companyName ?? '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase()
    .split(/[^A-Z0-9]+/).filter((w) => w && !['SRL', 'SA', 'PFA', 'II', 'IF', 'SNC', 'SCS'].includes(w));
  if (words.length === 0) return 'FCT';
  if (words.length === 1) return words[0]!.slice(0, 3);
  return words.slice(0, 3).map((w) => w[0]).join('');
}
