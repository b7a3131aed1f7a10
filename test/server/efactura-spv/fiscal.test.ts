import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/storage';
import { expectError, firm, startEnv, type Env, type Firm } from './helpers';

const MARCH_2026 = Math.floor(Date.parse('2026-03-02T09:00:00Z') / 1000);

describe.each(DIALECTS)('public fiscal data on %s', (dialect) => {
  let env: Env;
  let f: Firm;
  beforeAll(async () => {
    env = await startEnv(dialect, { start: MARCH_2026 });
    // The simulator's fixture firm with published balance sheets for 2023 and 2024.
    f = await firm(env, { cui: '12345674', link: false, profile: false });
  });
  afterAll(async () => {
    await env?.close();
  });

  const tvaCalls = () => env.sim.state.requestsTo('/PlatitorTvaRest').length;
  const bilantCalls = () => env.sim.state.requestsTo('/webservicesp/bilant');

  it('looks a company up by CUI, with or without RO', async () => {
    const res = await f.ok('GET', '/fiscal/company-lookup?cui=RO76543210');
    expect(res.body.data).toEqual({
      object: 'company_lookup', cui: '76543210', vat_id: 'RO76543210', name: 'EXEMPLU CLIENT SRL',
      address: 'JUD. CLUJ, MUN. CLUJ-NAPOCA, STR. CLIENTULUI, NR.2, ET.1', reg_com: 'J12/567/2015', phone: '0264123456',
      postal_code: '400001', county: 'CLUJ', county_code: 'RO-CJ', city: 'Mun. Cluj-Napoca', street: 'Str. Clientului', street_number: '2',
      vat_payer: true, vat_on_collection: true, split_vat: false, inactive: false, efactura_registered: false,
      registration_status: 'INREGISTRAT din data 11.05.2015', caen_code: '4690', as_of: '2026-03-02',
    });
    const inactive = await f.ok('GET', '/fiscal/company-lookup?cui=39012345');
    expect(inactive.body.data).toMatchObject({ vat_payer: false, vat_id: null, inactive: true });
    expect((await f.ok('GET', '/fiscal/company-lookup?cui=%2012345674%20')).body.data).toMatchObject({ county_code: 'RO-B', efactura_registered: true });
  });

  it('answers 404 company_not_found, 422 for a malformed CUI and 502 when ANAF fails', async () => {
    const nf = expectError(await f.call('GET', '/fiscal/company-lookup?cui=12345607'), 404, 'company_not_found');
    expect(nf).toMatchObject({ param: 'cui', message: 'ANAF’s registry has no company with CUI 12345607.' });
    const before = tvaCalls();
    expect(expectError(await f.call('GET', '/fiscal/company-lookup?cui=12345675'), 422, 'validation_error').fields).toEqual({
      cui: 'The CUI control digit does not match (check for a typo).',
    });
    expectError(await f.call('GET', '/fiscal/company-lookup?cui=abc'), 422, 'validation_error');
    expectError(await f.call('GET', '/fiscal/company-lookup'), 422, 'validation_error');
    expect(tvaCalls()).toBe(before);
    env.sim.state.failNext(3, 500, '/PlatitorTvaRest');
    const down = expectError(await f.call('GET', '/fiscal/company-lookup?cui=76543210'), 502, 'anaf_unavailable');
    expect(down.message).toContain('A aparut o eroare tehnica');
    env.sim.state.stallNext(3_000, 1, '/PlatitorTvaRest');
    expectError(await f.call('GET', '/fiscal/company-lookup?cui=76543210'), 504, 'anaf_timeout');
  });

  it('keeps the firm’s own fiscal profile for a day, and falls back to it when ANAF is down', async () => {
    const before = tvaCalls();
    const first = await f.ok('GET', '/fiscal/profile');
    expect(first.body.data).toMatchObject({
      object: 'fiscal_profile', company_id: f.companyId, cui: '12345674', name: 'EXEMPLU FURNIZOR SRL', reg_com: 'J40/1234/2020',
      vat_payer: true, county_code: 'RO-B', fetched_at: env.clock.now(), stale: false,
    });
    expect(tvaCalls()).toBe(before + 1);
    env.clock.advance(3600);
    expect((await f.ok('GET', '/fiscal/profile')).body.data.fetched_at).toBe(env.clock.now() - 3600);
    expect(tvaCalls()).toBe(before + 1);
    env.sim.state.failNext(3, 503, '/PlatitorTvaRest');
    const stale = await f.ok('GET', '/fiscal/profile?refresh=true');
    expect(stale.body.data).toMatchObject({ stale: true, fetched_at: env.clock.now() - 3600 });
    env.clock.advance(24 * 3600);
    const fresh = await f.ok('GET', '/fiscal/profile');
    expect(fresh.body.data).toMatchObject({ stale: false, fetched_at: env.clock.now() });

    const unknown = await firm(env, { cui: '12345607', link: false, profile: false });
    expectError(await unknown.call('GET', '/fiscal/profile'), 404, 'company_not_found');
    const other = await firm(env, { link: false, profile: false });
    env.sim.state.failNext(3, 500, '/PlatitorTvaRest');
    expectError(await other.call('GET', '/fiscal/profile'), 502, 'anaf_unavailable');
  });

  it('syncs one year and answers the Balance sheet exactly as the contract shapes it', async () => {
    const res = await f.ok('POST', '/accounting/balance-sheets/sync', { year: 2024 });
    expect(res.body).toMatchObject({ success: true, meta: { version: 'v1' } });
    expect(res.body.data).toEqual({
      object: 'balance_sheet',
      id: expect.stringMatching(/^bs_/),
      subject_cui: '12345674',
      an: 2024,
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
      // The abridged form has no total: fixed + current assets + prepaid expenses.
      active_total: 1_345_000,
      nr_salariati: 17,
      synced_at: new Date(env.clock.now() * 1000).toISOString(),
    });
    expect(bilantCalls().at(-1)!.query).toEqual({ an: '2024', cui: '12345674' });

    const detail = await f.ok('GET', '/accounting/balance-sheets/2024');
    expect(detail.body.data).toMatchObject({ id: res.body.data.id, an: 2024, derived: ['active_total'], missing: [] });
    expect(detail.body.data.indicators).toHaveLength(20);
    expect(detail.body.data.indicators[12]).toEqual({ code: 'I13', name: 'Cifra de afaceri neta', value: 2_980_000 });
    expect(detail.body.data.unmapped).toContain('Creante');

    // A later sync refreshes the same row.
    env.clock.advance(60);
    const again = await f.ok('POST', '/accounting/balance-sheets/sync', { year: 2024 });
    expect(again.body.data).toMatchObject({ id: res.body.data.id, synced_at: new Date(env.clock.now() * 1000).toISOString() });
    expectError(await f.call('POST', '/accounting/balance-sheets/sync', { year: 2022 }), 404, 'balance_sheet_not_published');
    expectError(await f.call('GET', '/accounting/balance-sheets/2019'), 404, 'resource_missing');
  });

  it('finds the latest published year when no year is given', async () => {
    const before = bilantCalls().length;
    const res = await f.ok('POST', '/accounting/balance-sheets/sync', {});
    expect(res.body.data).toMatchObject({ object: 'balance_sheet', an: 2024 });
    // 2025 is not published yet (March 2026), so it went one year back.
    expect(bilantCalls().slice(before).map((r) => r.query.an)).toEqual(['2025', '2024']);
    const nobody = await firm(env, { link: false, profile: false });
    const none = expectError(await nobody.call('POST', '/accounting/balance-sheets/sync', {}), 404, 'balance_sheet_not_published');
    expect(none.message).toContain('2023-2025');
  });

  it('backfills a range, reporting what is not published and what failed', async () => {
    const res = await f.ok('POST', '/accounting/balance-sheets/sync', { backfill: true, from_year: 2022, to_year: 2024 });
    expect(res.body.data).toMatchObject({ object: 'balance_sheet_backfill', subject_cui: '12345674', from_year: 2022, to_year: 2024, not_published: [2022], failed: [] });
    expect(res.body.data.synced.map((s: { an: number; object: string }) => [s.object, s.an])).toEqual([['balance_sheet', 2023], ['balance_sheet', 2024]]);
    const defaults = await f.ok('POST', '/accounting/balance-sheets/sync', { backfill: true });
    expect(defaults.body.data).toMatchObject({ from_year: 2021, to_year: 2025, not_published: [2021, 2022, 2025] });
    // ANAF fails for the first year asked (the newest); the rest still syncs.
    env.sim.state.failNext(3, 500, '/bilant');
    const partial = await f.ok('POST', '/accounting/balance-sheets/sync', { backfill: true, from_year: 2023, to_year: 2024 });
    expect(partial.body.data).toMatchObject({ failed: [{ year: 2024, error: expect.stringContaining('eroare tehnica') }], not_published: [] });
    expect(partial.body.data.synced.map((s: { an: number }) => s.an)).toEqual([2023]);
    env.sim.state.failNext(6, 500, '/bilant');
    expectError(await f.call('POST', '/accounting/balance-sheets/sync', { backfill: true, from_year: 2023, to_year: 2024 }), 502, 'anaf_unavailable');

    const list = await f.ok('GET', '/accounting/balance-sheets');
    expect(list.body.data).toMatchObject({ object: 'list', total: 2, page: 1 });
    expect(list.body.data.data.map((s: { an: number }) => s.an)).toEqual([2024, 2023]);
    expect((await f.ok('GET', '/accounting/balance-sheets?order=asc')).body.data.data.map((s: { an: number }) => s.an)).toEqual([2023, 2024]);
  });

  it('refuses parameter combinations that name no mode', async () => {
    const bad = async (body: unknown, field: string) => {
      const error = expectError(await f.call('POST', '/accounting/balance-sheets/sync', body), 422, 'validation_error');
      expect(Object.keys(error.fields as object)).toContain(field);
    };
    await bad({ year: 2024, backfill: true }, 'year');
    await bad({ from_year: 2020 }, 'backfill');
    await bad({ backfill: false, to_year: 2024 }, 'backfill');
    await bad({ backfill: true, from_year: 2025, to_year: 2020 }, 'from_year');
    await bad({ backfill: true, from_year: 2000, to_year: 2024 }, 'from_year');
    await bad({ year: 2027 }, 'year');
    await bad({ year: '2024' }, 'year');
  });
});
