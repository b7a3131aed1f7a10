import { formatRon, type Bani } from '../../shared/money';

/**
 * An amount in an outbox label the sync centre shows the cashier: "8,99 lei", never "8.99 RON"; another
 * currency keeps its code after the Romanian-formatted number ("12,50 EUR").
 */
export function amountLabel(bani: Bani, currency: string): string {
  const ro = formatRon(bani, 'ro');
  return currency === 'RON' ? ro : ro.replace(/ lei$/, ` ${currency}`);
}
