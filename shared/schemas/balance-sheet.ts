import { z } from 'zod';

/**
 * Balance sheet (object = `balance_sheet`), exactly the contract's members: Romanian names, amounts
 * as numbers (lei, as ANAF publishes them), `synced_at` an ISO 8601 date-time. An indicator ANAF does
 * not publish for the statement form reads 0 here; the per-year detail says which ones were missing.
 */
export const zBalanceSheet = z.object({
  object: z.literal('balance_sheet'),
  id: z.string(),
  subject_cui: z.string(),
  an: z.number().int(),
  denumire: z.string(),
  caen: z.number().int(),
  caen_name: z.string(),
  cifra_afaceri: z.number(),
  venituri_total: z.number(),
  cheltuieli_total: z.number(),
  profit_brut: z.number(),
  pierdere_bruta: z.number(),
  profit_net: z.number(),
  pierdere_neta: z.number(),
  capitaluri_proprii: z.number(),
  datorii_total: z.number(),
  active_imobilizate: z.number(),
  active_circulante: z.number(),
  active_total: z.number(),
  nr_salariati: z.number().int(),
  synced_at: z.iso.datetime({ offset: true }),
});
export type BalanceSheet = z.infer<typeof zBalanceSheet>;

export const BALANCE_SHEET_FIELDS = [
  'cifra_afaceri', 'venituri_total', 'cheltuieli_total', 'profit_brut', 'pierdere_bruta', 'profit_net', 'pierdere_neta',
  'capitaluri_proprii', 'datorii_total', 'active_imobilizate', 'active_circulante', 'active_total', 'nr_salariati',
] as const;

/** GET /accounting/balance-sheets/{year}: the sheet plus every indicator as ANAF sent it. */
export const zBalanceSheetDetail = zBalanceSheet.extend({
  indicators: z.array(z.object({ code: z.string(), name: z.string(), value: z.number().nullable() })),
  /** Summary members computed rather than read (active_total of an abridged balance sheet). */
  derived: z.array(z.enum(BALANCE_SHEET_FIELDS)),
  /** Summary members ANAF did not publish for this statement form (shown as 0 above). */
  missing: z.array(z.enum(BALANCE_SHEET_FIELDS)),
  /** Indicator names that matched no summary member. */
  unmapped: z.array(z.string()),
});
export type BalanceSheetDetail = z.infer<typeof zBalanceSheetDetail>;

const currentYearBound = 2200;
const zYear = z.number().int().min(1990).max(currentYearBound);

/**
 * POST /accounting/balance-sheets/sync. Modes (our design, the contract names the members only):
 * - `{ year }`: that year;
 * - `{ backfill: true, from_year?, to_year? }`: every year of the range (default: the five years up to
 *   the last closed one);
 * - `{}`: the latest year ANAF has published (looking back from last year).
 */
export const zBalanceSheetSync = z
  .object({
    year: zYear.optional(),
    backfill: z.boolean().optional(),
    from_year: zYear.optional(),
    to_year: zYear.optional(),
  })
  .superRefine((b, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (b.year !== undefined && (b.backfill !== undefined || b.from_year !== undefined || b.to_year !== undefined)) {
      issue('year', '`year` selects one year: send it without backfill, from_year and to_year.|`year` alege un singur an: trimiteți-l fără backfill, from_year și to_year.');
    }
    if (b.backfill !== true && (b.from_year !== undefined || b.to_year !== undefined)) {
      issue('backfill', 'from_year and to_year need backfill: true.|from_year și to_year cer backfill: true.');
    }
    if (b.from_year !== undefined && b.to_year !== undefined) {
      if (b.from_year > b.to_year) issue('from_year', 'Must not be after to_year.|Nu poate fi după to_year.');
      else if (b.to_year - b.from_year > 19) issue('from_year', 'At most 20 years at once.|Cel mult 20 de ani odată.');
    }
  });
export type BalanceSheetSyncInput = z.input<typeof zBalanceSheetSync>;

/** Reply of the backfill mode (the two other modes answer one Balance sheet). */
export const zBalanceSheetBackfill = z.object({
  object: z.literal('balance_sheet_backfill'),
  subject_cui: z.string(),
  from_year: z.number().int(),
  to_year: z.number().int(),
  synced: z.array(zBalanceSheet),
  /** Years ANAF has no statement for (not filed, not yet published). */
  not_published: z.array(z.number().int()),
  /** Years whose request failed (ANAF unavailable); sync them again later. */
  failed: z.array(z.object({ year: z.number().int(), error: z.string() })),
});
export type BalanceSheetBackfill = z.infer<typeof zBalanceSheetBackfill>;
