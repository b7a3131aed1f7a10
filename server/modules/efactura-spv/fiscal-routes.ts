import { z } from 'zod';
import type { CompanyLookup as AnafCompanyLookup } from '../../anaf/index';
import { defineRoute } from '../../platform/route';
import { ApiError, validationFailed } from '../../platform/errors';
import { validateCui } from '../../../shared/ro/cui';
import { zCompanyLookup, zCompanyLookupQuery, zFiscalProfile, type CompanyLookup, type FiscalProfile } from '../../../shared/schemas/company-lookup';
import { callAnaf, toApiError } from './anaf-errors';
import { countyCode } from './ro-counties';
import { requireAnaf } from './token-store';
import './messages';

/** How long the firm's own registry entry is served from the cache before ANAF is asked again. */
export const FISCAL_PROFILE_TTL_SECONDS = 24 * 3600;

function lookupView(c: AnafCompanyLookup): CompanyLookup {
  return {
    object: 'company_lookup',
    cui: c.cui,
    vat_id: c.vat_payer ? `RO${c.cui}` : null,
    name: c.name,
    address: c.address,
    reg_com: c.reg_com,
    phone: c.phone,
    postal_code: c.postal_code,
    county: c.county,
    county_code: countyCode(c.county_code) ?? countyCode(c.county) ?? '',
    city: c.city,
    street: c.street,
    street_number: c.street_number,
    vat_payer: c.vat_payer,
    vat_on_collection: c.vat_on_collection,
    split_vat: c.split_vat,
    inactive: c.inactive,
    efactura_registered: c.efactura_registered,
    registration_status: c.registration_status,
    caen_code: c.caen_code,
    as_of: c.as_of,
  };
}

const companyLookup = defineRoute({
  method: 'GET',
  path: '/fiscal/company-lookup',
  operationId: 'lookupCompany',
  summary: 'Look up a Romanian company by CUI in ANAF’s registry',
  description:
    'Our design of the fields. Reads ANAF’s public VAT registry (PlatitorTvaRest v9) as of today: name, address (with the ISO county code an e-Factura needs), trade register number, VAT status (payer, on collection, split), inactive status and e-Factura registration. `cui` with or without `RO`; a CUI whose control digit is wrong answers 422, one ANAF does not know 404 `company_not_found`.',
  tags: ['fiscal'],
  scope: 'fiscal_data:read',
  query: zCompanyLookupQuery,
  response: zCompanyLookup,
  errors: { company_not_found: 404, anaf_unavailable: 502, anaf_timeout: 504 },
  handler: async (ctx) => {
    const checked = validateCui(ctx.query.cui);
    if (!checked.ok) {
      throw validationFailed({
        cui:
          checked.reason === 'checksum'
            ? 'The CUI control digit does not match (check for a typo).|Cifra de control a CUI nu se potrivește (verificați dacă e o greșeală de scriere).'
            : 'CUI must be 2 to 10 digits, optionally prefixed by RO.|CUI trebuie să aibă 2-10 cifre, opțional precedate de RO.',
      });
    }
    const anaf = requireAnaf(ctx.services, 'public registry');
    const found = await callAnaf(() => anaf.publicData.lookupCompany(checked.value));
    if (!found) throw new ApiError(404, 'invalid_request_error', 'company_not_found', { param: 'cui', vars: { cui: checked.value } });
    return lookupView(found);
  },
});

const fiscalProfile = defineRoute({
  method: 'GET',
  path: '/fiscal/profile',
  operationId: 'getFiscalProfile',
  summary: 'The firm’s own entry in ANAF’s registry',
  description:
    'Our design. The company lookup of the firm’s own CUI, cached for a day (`refresh=true` asks ANAF now). When ANAF cannot be reached the last copy is returned with `stale: true`; without one the error is returned.',
  tags: ['fiscal'],
  scope: 'fiscal_data:read',
  query: z.object({ refresh: z.enum(['true', 'false', '1', '0']).optional() }),
  response: zFiscalProfile,
  errors: { company_not_found: 404, anaf_unavailable: 502, anaf_timeout: 504 },
  handler: async (ctx) => {
    const company = await ctx.db.selectFrom('companies').select(['id', 'cui']).where('id', '=', ctx.companyId).executeTakeFirstOrThrow();
    const cached = await ctx.db.selectFrom('fiscal_profiles').selectAll().where('company_id', '=', ctx.companyId).executeTakeFirst();
    const view = (data: CompanyLookup, fetchedAt: number, stale: boolean): FiscalProfile => ({
      ...data, object: 'fiscal_profile', company_id: ctx.companyId, fetched_at: fetchedAt, stale,
    });
    const refresh = ctx.query.refresh === 'true' || ctx.query.refresh === '1';
    const usable = cached && cached.cui === company.cui;
    if (usable && !refresh && ctx.now - Number(cached.fetched_at) < FISCAL_PROFILE_TTL_SECONDS) {
      return view(JSON.parse(cached.data_json) as CompanyLookup, Number(cached.fetched_at), false);
    }
    const anaf = requireAnaf(ctx.services, 'public registry');
    let found: AnafCompanyLookup | null;
    try {
      found = await anaf.publicData.lookupCompany(company.cui);
    } catch (error) {
      if (usable) return view(JSON.parse(cached.data_json) as CompanyLookup, Number(cached.fetched_at), true);
      throw toApiError(error);
    }
    if (!found) throw new ApiError(404, 'invalid_request_error', 'company_not_found', { param: 'cui', vars: { cui: company.cui } });
    const data = lookupView(found);
    const values = { cui: company.cui, data_json: JSON.stringify(data), fetched_at: ctx.now };
    await ctx.db
      .insertInto('fiscal_profiles')
      .values({ company_id: ctx.companyId, ...values })
      .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
      .execute();
    return view(data, ctx.now, false);
  },
});

export const fiscalRoutes = [companyLookup, fiscalProfile];
