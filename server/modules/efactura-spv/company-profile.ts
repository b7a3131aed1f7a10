import type { Db } from '../../db/types';
import { defineRoute } from '../../platform/route';
import { validationFailed } from '../../platform/errors';
import { zCompanyProfile, zCompanyProfileUpdate, type CompanyProfile } from '../../../shared/schemas/efactura';
import { validateIban } from '../../../shared/schemas/iban';
import { roBankName } from '../../../shared/ro/iban';
import { countyCode } from './ro-counties';
import type { CompanyProfilesTable } from './tables';
import './messages';

/**
 * The seller data an e-Factura needs beyond the company's name and CUI (address with county code,
 * trade register number, IBAN). Nobody else kept it, so this module owns `GET/PUT /company/profile`.
 * Without a row the company is taken as VAT-registered with no address yet.
 */
export async function loadCompanyProfile(db: Db, companyId: string): Promise<CompanyProfile> {
  const company = await db.selectFrom('companies').select(['id', 'name', 'cui']).where('id', '=', companyId).executeTakeFirstOrThrow();
  const row = await db.selectFrom('company_profiles').selectAll().where('company_id', '=', companyId).executeTakeFirst();
  return profileView(company, row);
}

function profileView(company: { id: string; name: string; cui: string }, row: CompanyProfilesTable | undefined): CompanyProfile {
  const vatPayer = row ? Boolean(Number(row.vat_payer)) : true;
  const countryCode = row?.country_code ?? 'RO';
  const profile = {
    object: 'company_profile' as const,
    company_id: company.id,
    name: row?.name ?? company.name,
    cui: company.cui,
    vat_payer: vatPayer,
    vat_id: vatPayer ? `RO${company.cui}` : null,
    reg_com: row?.reg_com ?? null,
    street: row?.street ?? null,
    city: row?.city ?? null,
    county_code: row?.county_code ?? null,
    postal_code: row?.postal_code ?? null,
    country_code: countryCode,
    iban: row?.iban ?? null,
    bank: row?.bank ?? null,
    email: row?.email ?? null,
    phone: row?.phone ?? null,
    capital_social_bani: row?.capital_social_bani == null ? null : Number(row.capital_social_bani),
    vat_on_collection: row ? Boolean(Number(row.vat_on_collection)) : false,
    updated_at: row ? Number(row.updated_at) : null,
  };
  const missing: string[] = [];
  if (!profile.street) missing.push('street');
  if (!profile.city) missing.push('city');
  if (countryCode === 'RO' && !profile.county_code) missing.push('county');
  return { ...profile, missing_for_efactura: missing };
}

const getProfile = defineRoute({
  method: 'GET',
  path: '/company/profile',
  operationId: 'getCompanyProfile',
  summary: 'The company’s seller data (address, trade register number, IBAN)',
  description:
    'Our design: what an e-Factura needs of the seller beyond the company name and CUI. `missing_for_efactura` lists what must still be filled in before invoices can be sent to ANAF.',
  tags: ['company'],
  scope: 'fiscal_data:read',
  response: zCompanyProfile,
  handler: async (ctx) => loadCompanyProfile(ctx.db, ctx.companyId),
});

const putProfile = defineRoute({
  method: 'PUT',
  path: '/company/profile',
  operationId: 'updateCompanyProfile',
  summary: 'Update the company’s seller data',
  description:
    'Our design. Only the members sent change; null clears one. `capital_social_bani` (integer bani) and `vat_on_collection` are the share capital and the "TVA la încasare" mention printed on documents. `county` takes the ISO code (RO-CJ), the plate letters (CJ) or the name (Cluj, București) and is stored as the ISO code. A Romanian IBAN fills `bank` when it is not given.',
  tags: ['company'],
  scope: 'fiscal_data:write',
  body: zCompanyProfileUpdate,
  response: zCompanyProfile,
  handler: async (ctx) => {
    const current = await ctx.db.selectFrom('company_profiles').selectAll().where('company_id', '=', ctx.companyId).executeTakeFirst();
    const b = ctx.body;
    const fields: Record<string, string> = {};
    const country = b.country_code ?? current?.country_code ?? 'RO';
    let county: string | null | undefined;
    if (b.county === null) county = null;
    else if (b.county !== undefined) {
      county = country === 'RO' ? countyCode(b.county) : b.county;
      if (county === null) fields.county = 'Not a Romanian county (e.g. RO-CJ, CJ, Cluj, București).|Nu este un județ (de ex. RO-CJ, CJ, Cluj, București).';
    }
    let iban: string | null | undefined = b.iban;
    let bank = b.bank;
    if (typeof b.iban === 'string') {
      const checked = validateIban(b.iban);
      if (!checked.ok) fields.iban = 'Not a valid IBAN (check for a typo).|IBAN nevalid (verificați dacă e o greșeală de scriere).';
      else {
        iban = checked.value;
        if (bank === undefined && checked.country === 'RO') bank = roBankName(checked.value) ?? undefined;
      }
    }
    if (Object.keys(fields).length) throw validationFailed(fields);
    const pick = <T>(next: T | undefined, prev: T): T => (next === undefined ? prev : next);
    const values = {
      name: pick(b.name, current?.name ?? null),
      vat_payer: b.vat_payer === undefined ? (current?.vat_payer ?? 1) : b.vat_payer ? 1 : 0,
      reg_com: pick(b.reg_com, current?.reg_com ?? null),
      street: pick(b.street, current?.street ?? null),
      city: pick(b.city, current?.city ?? null),
      county_code: pick(county, current?.county_code ?? null),
      postal_code: pick(b.postal_code, current?.postal_code ?? null),
      country_code: country,
      iban: pick(iban, current?.iban ?? null),
      bank: pick(bank, current?.bank ?? null),
      email: pick(b.email, current?.email ?? null),
      phone: pick(b.phone, current?.phone ?? null),
      capital_social_bani: pick(b.capital_social_bani, current?.capital_social_bani ?? null),
      vat_on_collection: b.vat_on_collection === undefined ? (current?.vat_on_collection ?? 0) : b.vat_on_collection ? 1 : 0,
      updated_at: ctx.now,
    };
    await ctx.db
      .insertInto('company_profiles')
      .values({ company_id: ctx.companyId, ...values, created_at: ctx.now })
      .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
      .execute();
    return loadCompanyProfile(ctx.db, ctx.companyId);
  },
});

export const companyProfileRoutes = [getProfile, putProfile];
