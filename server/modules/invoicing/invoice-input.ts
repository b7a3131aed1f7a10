import type { Db } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { notFound } from '../../platform/errors';
import { invalid } from './fail';
import { adjustmentsToIntegers, linesToIntegers, price, STANDARD_RATES, type AdjustmentInput, type LineInput, type Priced } from './pricing';
import {
  allowedVatRatesBp, buyerSnapshot, createInlineClient, findClient, isCurrencyEnabled, isLanguageEnabled, serviceProductIds,
  type ClientRow, type InlineClientInput, type PartySnapshot,
} from './catalog-bridge';

export interface HeaderInput {
  currency: string;
  exchange_rate?: number | null | undefined;
  issue_date: string;
  due_date?: string | null | undefined;
  reverse_charge: boolean;
  language?: string | undefined;
  items: readonly LineInput[];
  /** Discounts and charges on the whole invoice (absent: none). */
  allowances_charges?: readonly AdjustmentInput[] | undefined;
}

export const CURRENCY_NOT_ENABLED = 'Not a currency enabled for the company (see POST /currencies).|Nu este o monedă activată pentru firmă (vezi POST /currencies).';

/**
 * Checks what a body says about money and dates and prices its lines, collecting every problem into
 * one 422 so the caller fixes them all at once.
 */
export async function checkAndPrice(db: Db, companyId: string, locale: Locale, input: HeaderInput, extra: Record<string, string> = {}): Promise<Priced> {
  const problems: Record<string, string> = { ...extra };
  if (input.currency !== 'RON' && (input.exchange_rate === undefined || input.exchange_rate === null)) {
    problems.exchange_rate = 'Required for a currency other than RON.|Obligatoriu pentru o altă monedă decât RON.';
  }
  if (!(await isCurrencyEnabled(db, companyId, input.currency))) problems.currency = CURRENCY_NOT_ENABLED;
  if (input.language !== undefined && !(await isLanguageEnabled(db, companyId, input.language))) {
    problems.language = 'Not a language enabled for the company.|Nu este o limbă activată pentru firmă.';
  }
  if (input.due_date && input.due_date < input.issue_date) {
    problems.due_date = 'Must not be before the issue date.|Nu poate fi înaintea datei emiterii.';
  }
  // The company's custom rates are read only when a line needs one: most invoices use the standard rates.
  const allStandard = input.items.every((item) => STANDARD_RATES.has(Math.round(item.vat_rate * 100)));
  const rates = allStandard ? STANDARD_RATES : await allowedVatRatesBp(db, companyId);
  const { lines, problems: lineProblems } = linesToIntegers(input.items, rates);
  Object.assign(problems, lineProblems);
  const { adjustments, problems: adjustmentProblems } = adjustmentsToIntegers(input.allowances_charges ?? [], lines);
  Object.assign(problems, adjustmentProblems);
  if (Object.keys(problems).length) throw invalid(locale, problems);
  // Goods or service: as the item says, else as its product is now; kept on the line from then on.
  const unsaid = [...new Set(lines.filter((l) => l.is_service === null && l.product_id).map((l) => l.product_id!))];
  const services = await serviceProductIds(db, companyId, unsaid);
  for (const l of lines) l.is_service ??= l.product_id !== null && services.has(l.product_id);
  return price(lines, input.reverse_charge, adjustments);
}

/** RON carries no rate: the contract shows `exchange_rate` only for another currency. */
export function storedRate(currency: string, rate: number | null | undefined): number | null {
  return currency === 'RON' ? null : (rate ?? null);
}

export interface ClientChoice {
  client_id?: string | null | undefined;
  client?: InlineClientInput | undefined;
  walk_in?: boolean | undefined;
}

/** The client an invoice names (by id, or created with it), and its buyer snapshot. */
export async function resolveClient(
  trx: Db,
  companyId: string,
  locale: Locale,
  choice: ClientChoice,
  now: number,
): Promise<{ client: ClientRow; buyer: PartySnapshot } | null> {
  if (choice.client_id && choice.client) {
    throw invalid(locale, { client: 'Send either client_id or client, not both.|Trimiteți fie client_id, fie client, nu amândouă.' });
  }
  if (choice.walk_in && (choice.client_id || choice.client)) {
    throw invalid(locale, { walk_in: 'A walk-in sale has no client: send walk_in or a client, not both.|O vânzare fără client nu are client: trimiteți walk_in sau un client, nu amândouă.' });
  }
  if (choice.client_id) {
    const client = await findClient(trx, companyId, choice.client_id);
    if (!client) throw notFound('client_id');
    return { client, buyer: buyerSnapshot(client) };
  }
  if (choice.client) {
    const client = await createInlineClient(trx, companyId, choice.client, now, locale);
    return { client, buyer: buyerSnapshot(client) };
  }
  return null;
}

export const requireClient = (locale: Locale) =>
  invalid(locale, {
    client_id: 'An issued invoice needs a buyer: send client_id, client, or walk_in: true for a person who gives no identification.|O factură emisă are nevoie de un cumpărător: trimiteți client_id, client sau walk_in: true pentru o persoană care nu se identifică.',
  });
