import { z } from 'zod';
import { systemClock, type Clock } from '../platform/clock';
import { mapBalanceSheetIndicators, type BalanceSheetField, type BilantIndicator } from './balance-sheet-indicators';
import { AnafError } from './errors';
import { defaultHttpPolicy, errorForStatus, joinUrl, sendToAnaf, type AnafResponse, type HttpDeps, type HttpPolicy } from './http';
import { romaniaDate } from './romania-time';

/**
 * ANAF's public, unauthenticated services on webservicesp.anaf.ro:
 * - the VAT/taxpayer registry `api/PlatitorTvaRest/v9/tva` (instructions doc_WS_V9, 04.02.2025);
 * - annual financial statements `bilant?an=&cui=` (instructions doc_WS_Bilant_V1, 20.01.2021).
 * ANAF asks for at most one request per second per client and warns that overuse is sanctioned,
 * so the client spaces its own requests (see `minIntervalMs`).
 */
export const ANAF_PUBLIC_BASE_URL = 'https://webservicesp.anaf.ro';
const TVA_PATH = 'api/PlatitorTvaRest/v9/tva';
const BILANT_PATH = 'bilant';
const MAX_CUIS_PER_REQUEST = 100;

export interface PublicDataClientOptions {
  baseUrl?: string;
  /**
   * Minimum spacing between two requests of this client. ANAF's rule for these services is one
   * request per second per client, so that is the default; tests pass 0.
   */
  minIntervalMs?: number;
  http?: Partial<HttpPolicy>;
  httpDeps?: HttpDeps;
  clock?: Clock;
}

const str = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v == null ? '' : String(v).trim()));
const bool = z
  .union([z.boolean(), z.string()])
  .nullish()
  .transform((v) => v === true || v === 'true');

const generalSchema = z
  .object({
    cui: z.union([z.number(), z.string()]),
    data: str,
    denumire: str,
    adresa: str,
    nrRegCom: str,
    telefon: str,
    fax: str,
    codPostal: str,
    act: str,
    stare_inregistrare: str,
    data_inregistrare: str,
    cod_CAEN: str,
    iban: str,
    statusRO_e_Factura: bool,
    data_inreg_Reg_RO_e_Factura: str,
    organFiscalCompetent: str,
    forma_de_proprietate: str,
    forma_organizare: str,
    forma_juridica: str,
  });

const vatPeriodSchema = z.object({
  data_inceput_ScpTVA: str,
  data_sfarsit_ScpTVA: str,
  data_anul_imp_ScpTVA: str,
  mesaj_ScpTVA: str,
});

const addressSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));

const foundSchema = z.object({
  date_generale: generalSchema,
  inregistrare_scop_Tva: z
    .object({
      scpTVA: bool,
      // Live answers send an array; the instruction file draws a single object. Accept both.
      perioade_TVA: z.union([z.array(vatPeriodSchema), vatPeriodSchema.transform((p) => [p])]).optional(),
    })
    .optional(),
  inregistrare_RTVAI: z.object({ statusTvaIncasare: bool, dataInceputTvaInc: str, dataSfarsitTvaInc: str }).partial().optional(),
  stare_inactiv: z.object({ statusInactivi: bool, dataInactivare: str, dataReactivare: str, dataRadiere: str }).partial().optional(),
  inregistrare_SplitTVA: z.object({ statusSplitTVA: bool, dataInceputSplitTVA: str, dataAnulareSplitTVA: str }).partial().optional(),
  adresa_sediu_social: addressSchema.optional(),
  adresa_domiciliu_fiscal: addressSchema.optional(),
});

const tvaResponseSchema = z.object({
  // Documented envelope; the live service omits it on success. Typed loosely: ANAF mixes "200" and 200.
  cod: z.union([z.number(), z.string()]).optional(),
  message: z.string().optional(),
  found: z.array(foundSchema).default([]),
  notFound: z.array(z.union([z.number(), z.string()])).default([]),
});

export interface CompanyLookup {
  cui: string;
  name: string;
  address: string;
  reg_com: string;
  phone: string;
  postal_code: string;
  county: string;
  /** Vehicle-plate county code (B, CJ, ...): the suffix of UBL's CountrySubentity `RO-xx`. */
  county_code: string;
  city: string;
  street: string;
  street_number: string;
  vat_payer: boolean;
  vat_on_collection: boolean;
  inactive: boolean;
  split_vat: boolean;
  efactura_registered: boolean;
  registration_status: string;
  caen_code: string;
  /** The as-of date ANAF evaluated the registers at. */
  as_of: string;
}

export interface CompanyLookupBatch {
  found: CompanyLookup[];
  notFound: string[];
}

type Found = z.infer<typeof foundSchema>;

function addressPart(addr: Record<string, string | number | null> | undefined, prefix: 's' | 'd', key: string): string {
  const v = addr?.[`${prefix}${key}`];
  return v == null ? '' : String(v).trim();
}

function toCompanyLookup(f: Found): CompanyLookup {
  const g = f.date_generale;
  // The registered office (sediu social) is what goes on invoices; the fiscal domicile is the fallback.
  const useSediu = Boolean(f.adresa_sediu_social && addressPart(f.adresa_sediu_social, 's', 'denumire_Localitate'));
  const addr = useSediu ? f.adresa_sediu_social : f.adresa_domiciliu_fiscal;
  const p: 's' | 'd' = useSediu ? 's' : 'd';
  return {
    cui: String(g.cui),
    name: g.denumire,
    address: g.adresa,
    reg_com: g.nrRegCom,
    phone: g.telefon,
    postal_code: addressPart(addr, p, 'cod_Postal') || g.codPostal,
    county: addressPart(addr, p, 'denumire_Judet'),
    county_code: addressPart(addr, p, 'cod_JudetAuto'),
    city: addressPart(addr, p, 'denumire_Localitate'),
    street: addressPart(addr, p, 'denumire_Strada'),
    street_number: addressPart(addr, p, 'numar_Strada'),
    vat_payer: f.inregistrare_scop_Tva?.scpTVA ?? false,
    vat_on_collection: f.inregistrare_RTVAI?.statusTvaIncasare ?? false,
    inactive: f.stare_inactiv?.statusInactivi ?? false,
    split_vat: f.inregistrare_SplitTVA?.statusSplitTVA ?? false,
    efactura_registered: g.statusRO_e_Factura ?? false,
    registration_status: g.stare_inregistrare,
    caen_code: g.cod_CAEN ?? '',
    as_of: g.data,
  };
}

const CUI_RE = /^(RO)?\s*(\d{2,10})$/i;

export function parseCui(cui: string | number): number {
  const m = CUI_RE.exec(String(cui).trim());
  if (!m) throw new RangeError(`not a CUI: ${cui}`);
  return Number(m[2]);
}

const bilantSchema = z.object({
  an: z.coerce.number().int().optional(),
  cui: z.coerce.number().int().optional(),
  deni: z.string().nullish(),
  caen: z.union([z.number(), z.string()]).nullish(),
  den_caen: z.string().nullish(),
  i: z
    .array(
      z.object({
        indicator: z.string(),
        val_indicator: z.union([z.number(), z.string(), z.null()]).transform((v): number | null => {
          if (v === null || v === '') return null;
          const n = Number(v);
          return Number.isFinite(n) ? n : null;
        }),
        val_den_indicator: z.string(),
      }),
    )
    .nullish(),
});

export interface BalanceSheetData {
  an: number;
  subject_cui: string;
  denumire: string;
  caen: number | null;
  caen_name: string;
  cifra_afaceri: number | null;
  venituri_total: number | null;
  cheltuieli_total: number | null;
  profit_brut: number | null;
  pierdere_bruta: number | null;
  profit_net: number | null;
  pierdere_neta: number | null;
  capitaluri_proprii: number | null;
  datorii_total: number | null;
  active_imobilizate: number | null;
  active_circulante: number | null;
  active_total: number | null;
  nr_salariati: number | null;
  /** Every indicator as ANAF sent it (the per-year detail of the contract). */
  indicators: BilantIndicator[];
  derived: BalanceSheetField[];
  unmapped: string[];
}

export type BalanceSheetResult =
  | { status: 'published'; sheet: BalanceSheetData }
  /** ANAF has no indicators for that CUI and year (not filed yet, not published yet, or no such firm). */
  | { status: 'not_published'; an: number; subject_cui: string };

function parseJson(res: AnafResponse): unknown {
  try {
    return JSON.parse(res.text());
  } catch {
    return undefined;
  }
}

export class PublicDataClient {
  private readonly baseUrl: string;
  private readonly policy: HttpPolicy;
  private readonly clock: Clock;
  private readonly minIntervalMs: number;
  /** When the next request may start (performance.now() scale); chained so concurrent callers queue. */
  private nextSlot: Promise<number> = Promise.resolve(0);

  constructor(private readonly options: PublicDataClientOptions = {}) {
    this.baseUrl = options.baseUrl ?? ANAF_PUBLIC_BASE_URL;
    this.policy = { ...defaultHttpPolicy, ...options.http };
    this.clock = options.clock ?? systemClock;
    this.minIntervalMs = options.minIntervalMs ?? 1_000;
  }

  private async paced<T>(run: () => Promise<T>): Promise<T> {
    if (this.minIntervalMs <= 0) return run();
    const slot = this.nextSlot.then(async (earliest) => {
      const wait = earliest - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      return performance.now() + this.minIntervalMs;
    });
    this.nextSlot = slot;
    await slot;
    return run();
  }

  async lookupCompanies(cuis: Array<string | number>, options: { date?: string; signal?: AbortSignal } = {}): Promise<CompanyLookupBatch> {
    const what = 'ANAF PlatitorTvaRest v9';
    if (cuis.length === 0) return { found: [], notFound: [] };
    if (cuis.length > MAX_CUIS_PER_REQUEST) throw new RangeError(`at most ${MAX_CUIS_PER_REQUEST} CUIs per request`);
    const date = options.date ?? romaniaDate(this.clock.now() * 1000);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`date must be YYYY-MM-DD: ${date}`);
    const url = joinUrl(this.baseUrl, TVA_PATH);
    const res = await this.paced(() => sendToAnaf(
      {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(cuis.map((c) => ({ cui: parseCui(c), data: date }))),
        // A lookup changes nothing on ANAF's side.
        idempotent: true,
        signal: options.signal,
      },
      this.policy,
      this.options.httpDeps,
    ));
    const json = parseJson(res);
    if (res.status !== 200) {
      const env = z.object({ cod: z.union([z.number(), z.string()]), message: z.string() }).safeParse(json);
      if (env.success) throw new AnafError('rejected', `${what}: ${env.data.message}`, { status: res.status, anafMessages: [env.data.message], url });
      throw errorForStatus(res, what);
    }
    const parsed = tvaResponseSchema.safeParse(json);
    if (!parsed.success) throw new AnafError('protocol', `${what}: unrecognised JSON`, { url, status: 200 });
    const { cod, message } = parsed.data;
    if (cod !== undefined && String(cod) !== '200') {
      throw new AnafError('rejected', `${what}: cod=${cod} ${message ?? ''}`.trim(), { url, status: 200, anafMessages: message ? [message] : [] });
    }
    return {
      found: parsed.data.found.map(toCompanyLookup),
      notFound: parsed.data.notFound.map(String),
    };
  }

  /** One company, or null when ANAF lists it under `notFound`. */
  async lookupCompany(cui: string | number, options: { date?: string; signal?: AbortSignal } = {}): Promise<CompanyLookup | null> {
    const batch = await this.lookupCompanies([cui], options);
    const wanted = String(parseCui(cui));
    return batch.found.find((c) => c.cui === wanted) ?? batch.found[0] ?? null;
  }

  async balanceSheet(cui: string | number, year: number, options: { signal?: AbortSignal } = {}): Promise<BalanceSheetResult> {
    const what = `ANAF bilant ${year}`;
    if (!Number.isInteger(year) || year < 1990 || year > 2200) throw new RangeError(`not a year: ${year}`);
    const cuiNumber = parseCui(cui);
    const url = new URL(joinUrl(this.baseUrl, BILANT_PATH));
    url.searchParams.set('an', String(year));
    url.searchParams.set('cui', String(cuiNumber));
    const res = await this.paced(() =>
      sendToAnaf(
        { method: 'GET', url: url.toString(), headers: { accept: 'application/json' }, idempotent: true, signal: options.signal },
        this.policy,
        this.options.httpDeps,
      ),
    );
    if (res.status !== 200) throw errorForStatus(res, what);
    const parsed = bilantSchema.safeParse(parseJson(res));
    if (!parsed.success) throw new AnafError('protocol', `${what}: unrecognised JSON`, { url: res.url, status: 200 });
    const b = parsed.data;
    const indicators: BilantIndicator[] = b.i ?? [];
    if (indicators.length === 0) return { status: 'not_published', an: year, subject_cui: String(cuiNumber) };

    const mapped = mapBalanceSheetIndicators(indicators);
    const caen = b.caen == null || b.caen === '' ? null : Number(b.caen);
    return {
      status: 'published',
      sheet: {
        an: b.an ?? year,
        subject_cui: String(b.cui ?? cuiNumber),
        denumire: (b.deni ?? '').trim(),
        caen: caen !== null && Number.isFinite(caen) && caen > 0 ? caen : null,
        caen_name: (b.den_caen ?? '').trim(),
        ...mapped.values,
        indicators,
        derived: mapped.derived,
        unmapped: mapped.unmapped,
      },
    };
  }
}
