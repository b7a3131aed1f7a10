import { sql } from 'kysely';
import type { Db } from '../../db/types';
import type { Locale } from '../../platform/locale';
import { formatRon, fromBani } from '../../../shared/money';
import type { CashCeilingWarning } from '../../../shared/schemas/accounting';

/**
 * The daily cash ceilings of Legea 70/2015 (art. 3: 5.000 lei a day from one legal person; art. 4:
 * 10.000 lei a day from one natural person, at the time of writing). Settings, since the law moves them.
 */
export const DEFAULT_CEILINGS = { b2b: 500_000, b2c: 1_000_000 } as const;

export async function cashSettings(db: Db, companyId: string): Promise<{ b2b: number; b2c: number }> {
  const row = await db.selectFrom('cash_settings').select(['b2b_daily_limit_bani', 'b2c_daily_limit_bani']).where('company_id', '=', companyId).executeTakeFirst();
  return row ? { b2b: Number(row.b2b_daily_limit_bani), b2c: Number(row.b2c_daily_limit_bani) } : { ...DEFAULT_CEILINGS };
}

/**
 * The warning for `amount` more of cash from `client` on `date`, or null. Counts the chitanțe in RON of
 * every work point of the company that day (the ceiling is per person and day, not per till).
 */
export async function ceilingWarning(
  db: Db,
  companyId: string,
  client: { id: string; type: string; cui: string | null },
  date: string,
  amountBani: number,
  locale: Locale,
): Promise<CashCeilingWarning | null> {
  const settings = await cashSettings(db, companyId);
  const kind = client.type === 'company' || client.cui ? 'b2b' : 'b2c';
  const limit = settings[kind];
  const row = await db
    .selectFrom('receipts')
    .select(sql<string>`coalesce(sum(amount_bani), 0)`.as('s'))
    .where('company_id', '=', companyId)
    .where('client_id', '=', client.id)
    .where('date', '=', date)
    .where('currency', '=', 'RON')
    .where('is_draft', '=', 0)
    .where('is_deleted', '=', 0)
    .executeTakeFirstOrThrow();
  const received = Number(row.s);
  if (received + amountBani <= limit) return null;
  const ro = `Plafonul zilnic de numerar ${kind === 'b2b' ? 'de la o persoană juridică' : 'de la o persoană fizică'} este ${formatRon(limit, 'ro')}; ` +
    `cu această încasare clientul ar ajunge la ${formatRon(received + amountBani, 'ro')} în această zi (Legea 70/2015).`;
  const en = `The daily cash ceiling from one ${kind === 'b2b' ? 'legal' : 'natural'} person is ${formatRon(limit, 'en')}; ` +
    `with this receipt the client would reach ${formatRon(received + amountBani, 'en')} on this day (Legea 70/2015).`;
  return { code: 'cash_ceiling_exceeded', message: locale === 'ro' ? ro : en, client_kind: kind, limit: fromBani(limit), received_today: fromBani(received) };
}

/**
 * The warnings of a chitanță just issued (the counter shows them): the client's cash of the day, this
 * receipt included, over the ceiling of its kind. Only a client of the catalog can be counted across the
 * day's receipts; a walk-in name is not.
 */
export async function receiptCeilingWarnings(
  db: Db,
  companyId: string,
  receipt: { client_id: string | null; currency: string; date: string | null },
  locale: Locale,
): Promise<CashCeilingWarning[]> {
  if (!receipt.client_id || receipt.currency !== 'RON' || !receipt.date) return [];
  const client = await db.selectFrom('clients').select(['id', 'type', 'cui']).where('id', '=', receipt.client_id).where('company_id', '=', companyId).executeTakeFirst();
  if (!client) return [];
  const warning = await ceilingWarning(db, companyId, client, receipt.date, 0, locale);
  return warning ? [warning] : [];
}
