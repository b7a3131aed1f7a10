import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapBalanceSheetIndicators, normalizeIndicatorName } from '../../server/anaf/balance-sheet-indicators';
import { PublicDataClient } from '../../server/anaf/public-data-client';
import { fixedClock } from '../../server/platform/clock';
import { startAnafSimulator, type AnafSimulator } from '../support/anaf-simulator';
import { SIM_BUYER_CUI, SIM_INACTIVE_CUI, SIM_INSURER_CUI, SIM_SELLER_CUI, SIM_UNKNOWN_CUI } from '../support/anaf-sim/public-fixtures';
import { expectAnafError, fastPolicy } from './helpers';

let sim: AnafSimulator;
let client: PublicDataClient;
beforeAll(async () => {
  sim = await startAnafSimulator();
  client = new PublicDataClient({ baseUrl: sim.baseUrls.publicApi, http: fastPolicy, minIntervalMs: 300 });
});
afterAll(async () => {
  await sim.close();
});

describe('VAT payer lookup (PlatitorTvaRest v9)', () => {
  it('POSTs ANAF\'s JSON array and normalises a VAT payer', async () => {
    const company = await client.lookupCompany(`RO${SIM_SELLER_CUI}`, { date: '2026-11-21' });
    expect(company).toEqual({
      cui: '12345674',
      name: 'EXEMPLU FURNIZOR SRL',
      address: 'MUN. BUCUREŞTI, SECT. 1, STR. EXEMPLU, NR.1',
      reg_com: 'J40/1234/2020',
      phone: '0211234567',
      postal_code: '010011',
      county: 'MUNICIPIUL BUCUREŞTI',
      county_code: 'B',
      city: 'Mun. Bucureşti, Sect. 1',
      street: 'Str. Exemplu',
      street_number: '1',
      vat_payer: true,
      vat_on_collection: false,
      inactive: false,
      split_vat: false,
      efactura_registered: true,
      registration_status: 'INREGISTRAT din data 02.03.2020',
      caen_code: '6201',
      as_of: '2026-11-21',
    });
    const call = sim.state.requestsTo('PlatitorTvaRest').at(-1)!;
    expect(call.method).toBe('POST');
    expect(call.path).toBe('/webservicesp/api/PlatitorTvaRest/v9/tva');
    expect(call.contentType).toBe('application/json');
  });

  it('reads VAT on collection, inactivity and split VAT', async () => {
    const batch = await client.lookupCompanies([SIM_BUYER_CUI, SIM_INACTIVE_CUI, SIM_INSURER_CUI], { date: '2026-11-21' });
    const byCui = Object.fromEntries(batch.found.map((c) => [c.cui, c]));
    expect(byCui['76543210']).toMatchObject({ vat_payer: true, vat_on_collection: true, inactive: false, county_code: 'CJ', city: 'Mun. Cluj-Napoca' });
    expect(byCui['39012345']).toMatchObject({ vat_payer: false, inactive: true, vat_on_collection: false });
    expect(byCui['44710212']).toMatchObject({ vat_payer: false, split_vat: true });
    expect(batch.notFound).toEqual([]);
  });

  it('answers as of the date asked: before the VAT registration the same firm is not a VAT payer', async () => {
    const early = await client.lookupCompany(SIM_BUYER_CUI, { date: '2015-05-20' });
    expect(early?.vat_payer).toBe(false);
    expect(early?.vat_on_collection).toBe(false);
  });

  it('defaults the date to today in Romania', async () => {
    const c = new PublicDataClient({ baseUrl: sim.baseUrls.publicApi, minIntervalMs: 0, clock: fixedClock(Date.UTC(2026, 11, 31, 22, 30) / 1000) });
    const found = await c.lookupCompany(SIM_SELLER_CUI);
    // 22:30 UTC on 31 December is already 1 January in Bucharest.
    expect(found?.as_of).toBe('2027-01-01');
  });

  it('returns null for a CUI ANAF does not know', async () => {
    expect(await client.lookupCompany(SIM_UNKNOWN_CUI, { date: '2026-11-21' })).toBeNull();
    const batch = await client.lookupCompanies([SIM_UNKNOWN_CUI, SIM_SELLER_CUI], { date: '2026-11-21' });
    expect(batch.notFound).toEqual(['12345607']);
    expect(batch.found.map((c) => c.cui)).toEqual(['12345674']);
  });

  it('accepts the live answer without the cod/message envelope', async () => {
    const live = await startAnafSimulator({ tvaEnvelope: false });
    try {
      const c = new PublicDataClient({ baseUrl: live.baseUrls.publicApi, minIntervalMs: 0 });
      expect((await c.lookupCompany(SIM_SELLER_CUI, { date: '2026-01-05' }))?.name).toBe('EXEMPLU FURNIZOR SRL');
    } finally {
      await live.close();
    }
  });

  it('refuses input that is not a CUI before calling ANAF', async () => {
    const before = sim.state.requests.length;
    await expect(client.lookupCompany('RO12AB')).rejects.toThrow(RangeError);
    expect(sim.state.requests.length).toBe(before);
  });
});

describe('annual balance sheets (bilant)', () => {
  it('maps a commercial company\'s published sheet and keeps the raw indicators', async () => {
    const result = await client.balanceSheet(SIM_SELLER_CUI, 2024);
    if (result.status !== 'published') throw new Error('expected a published sheet');
    const s = result.sheet;
    expect(s).toMatchObject({
      an: 2024,
      subject_cui: '12345674',
      denumire: 'EXEMPLU FURNIZOR SRL',
      caen: 6201,
      caen_name: 'Activitati de realizare a soft-ului la comanda (software orientat client)',
      cifra_afaceri: 2_980_000,
      venituri_total: 3_005_000,
      cheltuieli_total: 2_810_000,
      profit_brut: 195_000,
      pierdere_bruta: 0,
      profit_net: 166_000,
      pierdere_neta: 0,
      capitaluri_proprii: 888_000,
      datorii_total: 455_000,
      active_imobilizate: 210_000,
      active_circulante: 1_120_000,
      // A + B + C of the abridged balance sheet: 210 000 + 1 120 000 + 15 000 prepaid expenses.
      active_total: 1_345_000,
      nr_salariati: 17,
    });
    expect(s.derived).toEqual(['active_total']);
    expect(s.indicators).toHaveLength(20);
    expect(s.indicators[12]).toEqual({ indicator: 'I13', val_indicator: 2_980_000, val_den_indicator: 'Cifra de afaceri neta' });
    expect(s.unmapped).toEqual([
      'Stocuri (materii prime, materiale, productie in curs de executie, semifabricate, produse finite, marfuri etc.)',
      'Creante',
      'Casa si conturi la banci',
      'VENITURI IN AVANS',
      'PROVIZIOANE',
      'Capital subscris varsat',
      'Patrimoniul regiei',
    ]);
    const call = sim.state.requestsTo('/bilant').at(-1)!;
    expect(call.query).toEqual({ an: '2024', cui: '12345674' });
  });

  it('tolerates ANAF\'s spelling variations (diacritics, doubled and trailing spaces) and a loss year', async () => {
    const result = await client.balanceSheet(SIM_BUYER_CUI, 2024);
    if (result.status !== 'published') throw new Error('expected a published sheet');
    expect(result.sheet).toMatchObject({
      profit_brut: 0,
      pierdere_bruta: 220_000,
      pierdere_neta: 220_000,
      datorii_total: 3_050_000,
      active_imobilizate: 1_400_000,
      nr_salariati: 23,
    });
  });

  it('maps another form type by description, not by indicator code', async () => {
    const result = await client.balanceSheet(SIM_INSURER_CUI, 2024);
    if (result.status !== 'published') throw new Error('expected a published sheet');
    expect(result.sheet).toMatchObject({
      venituri_total: 33_000_000, // I27 on this form
      cheltuieli_total: 29_400_000,
      profit_brut: 3_600_000,
      profit_net: 3_024_000,
      capitaluri_proprii: 21_000_000, // "Capital şi rezerve - Total", I13 here (turnover on the commercial form)
      datorii_total: 7_300_000,
      nr_salariati: 112,
      cifra_afaceri: null,
      active_total: null,
    });
  });

  it('reports a year with no published statement as not_published', async () => {
    expect(await client.balanceSheet(SIM_SELLER_CUI, 2025)).toEqual({ status: 'not_published', an: 2025, subject_cui: '12345674' });
    expect(await client.balanceSheet(SIM_UNKNOWN_CUI, 2024)).toEqual({ status: 'not_published', an: 2024, subject_cui: '12345607' });
  });

  it('a 404 or an answer that is not ANAF\'s JSON is a protocol error, never "not published"', async () => {
    sim.state.failNext(1, 404, '/bilant');
    expect((await expectAnafError(client.balanceSheet(SIM_SELLER_CUI, 2024))).kind).toBe('protocol');
    const broken = new PublicDataClient({ baseUrl: `${sim.baseUrls.publicApi}/nowhere`, http: fastPolicy, minIntervalMs: 300 });
    const err = await expectAnafError(broken.balanceSheet(SIM_SELLER_CUI, 2024));
    expect(err.kind).toBe('protocol');
    expect(err.status).toBe(404);
  });
});

describe('pacing', () => {
  it('spaces its requests as ANAF asks (one per interval), even when callers run concurrently', async () => {
    const paced = new PublicDataClient({ baseUrl: sim.baseUrls.publicApi, http: fastPolicy, minIntervalMs: 300 });
    const before = sim.state.requestsTo('/bilant').length;
    await Promise.all([paced.balanceSheet(SIM_SELLER_CUI, 2023), paced.balanceSheet(SIM_SELLER_CUI, 2024), paced.balanceSheet(SIM_SELLER_CUI, 2025)]);
    const at = sim.state.requestsTo('/bilant').slice(before).map((r) => r.at);
    expect(at).toHaveLength(3);
    // The client spaces its sends; the simulator sees arrivals, which a busy machine delays unevenly
    // (21 ms seen under the full suite). Unpaced, the three arrive within a few ms of each other.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(200);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(200);
  });
});

describe('indicator description matching', () => {
  it('normalises case, diacritics, spacing and the "din care" tail', () => {
    expect(normalizeIndicatorName('CAPITALURI - TOTAL, din care:')).toBe('capitaluri - total');
    expect(normalizeIndicatorName('Casa şi conturi la bănci')).toBe('casa si conturi la banci');
    expect(normalizeIndicatorName('Capital și rezerve – Total ')).toBe('capital si rezerve - total');
    expect(normalizeIndicatorName('Pierdere  neta')).toBe('pierdere neta');
  });

  it('leaves a field null when the form has no such line, and never derives totals from half the data', () => {
    const m = mapBalanceSheetIndicators([
      { indicator: 'I1', val_indicator: 10, val_den_indicator: 'ACTIVE IMOBILIZATE - TOTAL' },
      { indicator: 'I9', val_indicator: 5, val_den_indicator: 'Numar mediu de salariati' },
    ]);
    expect(m.values.active_imobilizate).toBe(10);
    expect(m.values.active_circulante).toBeNull();
    expect(m.values.active_total).toBeNull();
    expect(m.derived).toEqual([]);
    expect(m.values.nr_salariati).toBe(5);
  });
});
