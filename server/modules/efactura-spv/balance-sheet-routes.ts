import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { BalanceSheetData } from '../../anaf/index';
import { romaniaDate } from '../../anaf/romania-time';
import type { Db } from '../../db/types';
import { defineRoute } from '../../platform/route';
import { ApiError, notFound, validationFailed } from '../../platform/errors';
import { listPageSchema, listQuery, mapPage, paginate } from '../../platform/list';
import {
  BALANCE_SHEET_FIELDS,
  zBalanceSheet,
  zBalanceSheetBackfill,
  zBalanceSheetDetail,
  zBalanceSheetSync,
  type BalanceSheet,
  type BalanceSheetBackfill,
  type BalanceSheetDetail,
} from '../../../shared/schemas/balance-sheet';
import { anafDetail, toApiError } from './anaf-errors';
import { requireAnaf, type EfacturaServices } from './token-store';
import type { BalanceSheetsTable } from './tables';
import { AnafError } from '../../anaf/index';
import { newId } from '../../platform/ids';
import './messages';

type SheetRow = Selectable<BalanceSheetsTable>;
type Field = (typeof BALANCE_SHEET_FIELDS)[number];

/** How many years back the "latest" mode looks (last year first: statements are filed the year after). */
export const LATEST_LOOKBACK_YEARS = 3;
/** Default span of a backfill without from_year. */
export const BACKFILL_DEFAULT_YEARS = 5;

function sheetView(row: SheetRow): BalanceSheet {
  const n = (v: number | null) => (v === null ? 0 : Number(v));
  return {
    object: 'balance_sheet',
    id: row.id,
    subject_cui: row.subject_cui,
    an: Number(row.an),
    denumire: row.denumire,
    caen: row.caen === null ? 0 : Number(row.caen),
    caen_name: row.caen_name,
    cifra_afaceri: n(row.cifra_afaceri),
    venituri_total: n(row.venituri_total),
    cheltuieli_total: n(row.cheltuieli_total),
    profit_brut: n(row.profit_brut),
    pierdere_bruta: n(row.pierdere_bruta),
    profit_net: n(row.profit_net),
    pierdere_neta: n(row.pierdere_neta),
    capitaluri_proprii: n(row.capitaluri_proprii),
    datorii_total: n(row.datorii_total),
    active_imobilizate: n(row.active_imobilizate),
    active_circulante: n(row.active_circulante),
    active_total: n(row.active_total),
    nr_salariati: Math.round(n(row.nr_salariati)),
    synced_at: new Date(Number(row.synced_at) * 1000).toISOString(),
  };
}

function detailView(row: SheetRow): BalanceSheetDetail {
  const indicators = JSON.parse(row.indicators_json) as BalanceSheetData['indicators'];
  return {
    ...sheetView(row),
    indicators: indicators.map((i) => ({ code: i.indicator, name: i.val_den_indicator.trim(), value: i.val_indicator })),
    derived: JSON.parse(row.derived_json) as Field[],
    missing: BALANCE_SHEET_FIELDS.filter((f) => row[f] === null),
    unmapped: JSON.parse(row.unmapped_json) as string[],
  };
}

async function store(db: Db, companyId: string, sheet: BalanceSheetData, now: number): Promise<SheetRow> {
  const values = {
    subject_cui: sheet.subject_cui,
    denumire: sheet.denumire,
    caen: sheet.caen,
    caen_name: sheet.caen_name,
    ...Object.fromEntries(BALANCE_SHEET_FIELDS.map((f) => [f, sheet[f]])),
    indicators_json: JSON.stringify(sheet.indicators),
    derived_json: JSON.stringify(sheet.derived),
    unmapped_json: JSON.stringify(sheet.unmapped),
    synced_at: now,
  } as Omit<SheetRow, 'id' | 'company_id' | 'an'>;
  await db
    .insertInto('balance_sheets')
    .values({ id: newId('bs'), company_id: companyId, an: sheet.an, ...values })
    .onConflict((oc) => oc.columns(['company_id', 'an']).doUpdateSet(values))
    .execute();
  return db.selectFrom('balance_sheets').selectAll().where('company_id', '=', companyId).where('an', '=', sheet.an).executeTakeFirstOrThrow();
}

type Fetched = { status: 'published'; row: SheetRow } | { status: 'not_published' };

async function fetchYear(services: EfacturaServices, db: Db, companyId: string, cui: string, year: number, now: number): Promise<Fetched> {
  const result = await requireAnaf(services, 'public balance sheets').publicData.balanceSheet(cui, year);
  if (result.status === 'not_published') return { status: 'not_published' };
  return { status: 'published', row: await store(db, companyId, result.sheet, now) };
}

const notPublished = (cui: string, years: string) =>
  new ApiError(404, 'invalid_request_error', 'balance_sheet_not_published', { param: 'year', vars: { cui, years } });

const syncSheets = defineRoute({
  method: 'POST',
  path: '/accounting/balance-sheets/sync',
  operationId: 'syncBalanceSheets',
  summary: 'Sync the firm’s annual balance sheets from ANAF',
  description:
    'Modes (our design of the parameter combination): `{ year }` syncs that year and answers its Balance sheet; `{ backfill: true, from_year?, to_year? }` syncs every year of the range (default: the five years up to last year, at most 20) and answers a `balance_sheet_backfill` with the synced sheets, the years ANAF has not published and the years that failed; `{}` syncs the latest year ANAF has published (last year, else the two before) and answers its Balance sheet. `year` cannot be combined with the others; from_year/to_year need backfill. 404 `balance_sheet_not_published` when a single-sheet mode finds nothing.',
  tags: ['accounting'],
  scope: 'accounting:write',
  body: zBalanceSheetSync,
  response: z.union([zBalanceSheet, zBalanceSheetBackfill]),
  errors: { balance_sheet_not_published: 404, anaf_unavailable: 502, anaf_timeout: 504 },
  handler: async (ctx) => {
    const company = await ctx.db.selectFrom('companies').select('cui').where('id', '=', ctx.companyId).executeTakeFirstOrThrow();
    const thisYear = Number(romaniaDate(ctx.now * 1000).slice(0, 4));
    const b = ctx.body;
    const tooLate = (y: number | undefined) => y !== undefined && y > thisYear;
    if (tooLate(b.year) || tooLate(b.from_year) || tooLate(b.to_year)) {
      const field = tooLate(b.year) ? 'year' : tooLate(b.from_year) ? 'from_year' : 'to_year';
      throw validationFailed({ [field]: `Must not be after ${thisYear}.|Nu poate fi după ${thisYear}.` });
    }
    const fetchOne = async (year: number) => {
      try {
        return await fetchYear(ctx.services, ctx.db, ctx.companyId, company.cui, year, ctx.now);
      } catch (error) {
        throw toApiError(error);
      }
    };

    if (b.year !== undefined) {
      const r = await fetchOne(b.year);
      if (r.status === 'not_published') throw notPublished(company.cui, String(b.year));
      return sheetView(r.row);
    }

    if (b.backfill === true) {
      const to = b.to_year ?? (b.from_year !== undefined ? Math.max(b.from_year, thisYear - 1) : thisYear - 1);
      const from = b.from_year ?? to - (BACKFILL_DEFAULT_YEARS - 1);
      if (to - from > 19) throw validationFailed({ from_year: 'At most 20 years at once.|Cel mult 20 de ani odată.' });
      const out: BalanceSheetBackfill = { object: 'balance_sheet_backfill', subject_cui: company.cui, from_year: from, to_year: to, synced: [], not_published: [], failed: [] };
      let firstError: unknown = null;
      for (let year = to; year >= from; year--) {
        try {
          const r = await fetchYear(ctx.services, ctx.db, ctx.companyId, company.cui, year, ctx.now);
          if (r.status === 'published') out.synced.push(sheetView(r.row));
          else out.not_published.push(year);
        } catch (error) {
          if (!(error instanceof AnafError)) throw error;
          firstError ??= error;
          out.failed.push({ year, error: anafDetail(error) });
        }
      }
      // Nothing got through at all: that is ANAF being down, not a partial result.
      if (out.failed.length === to - from + 1) throw toApiError(firstError);
      out.synced.sort((x, y) => x.an - y.an);
      out.not_published.sort((x, y) => x - y);
      out.failed.sort((x, y) => x.year - y.year);
      return out;
    }

    for (let year = thisYear - 1; year >= thisYear - LATEST_LOOKBACK_YEARS; year--) {
      const r = await fetchOne(year);
      if (r.status === 'published') return sheetView(r.row);
    }
    throw notPublished(company.cui, `${thisYear - LATEST_LOOKBACK_YEARS}-${thisYear - 1}`);
  },
});

const getSheet = defineRoute({
  method: 'GET',
  path: '/accounting/balance-sheets/:year',
  operationId: 'getBalanceSheet',
  summary: 'A synced balance sheet with every indicator',
  description:
    'Our design of the per-year detail: the Balance sheet plus `indicators` (code, name, value, as ANAF published them), the summary members `derived` (computed) and `missing` (not published for this statement form, shown as 0), and indicator names that matched no member. 404 when the year was not synced.',
  tags: ['accounting'],
  scope: 'accounting:read',
  params: z.object({ year: z.coerce.number().int().min(1990).max(2200) }),
  response: zBalanceSheetDetail,
  errors: { resource_missing: 404 },
  handler: async (ctx) => {
    const row = await ctx.db.selectFrom('balance_sheets').selectAll().where('company_id', '=', ctx.companyId).where('an', '=', ctx.params.year).executeTakeFirst();
    if (!row) throw notFound('year');
    return detailView(row);
  },
});

const listSheets = defineRoute({
  method: 'GET',
  path: '/accounting/balance-sheets',
  operationId: 'listBalanceSheets',
  summary: 'List the synced balance sheets',
  description: 'Newest year first (`sort=an`, `order=asc` reverses).',
  tags: ['accounting'],
  scope: 'accounting:read',
  query: listQuery(['an'] as const),
  response: listPageSchema(zBalanceSheet),
  handler: async (ctx) => {
    const page = await paginate(ctx.db.selectFrom('balance_sheets').selectAll().where('company_id', '=', ctx.companyId), ctx.query, {
      sortColumns: { an: 'an' },
      defaultSort: 'an',
      tieBreaker: 'id',
    });
    return mapPage(page, sheetView);
  },
});

export const balanceSheetRoutes = [syncSheets, listSheets, getSheet];
