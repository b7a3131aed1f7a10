import { z } from 'zod';
import type { CompanyProfile } from '../../shared/schemas/efactura';
import { countyName } from '../lib/counties';
import type { Seller } from '../print/seller';

/**
 * The seller printed on documents comes from the host's `company.profile` (the server's company
 * profile, kept locally so it prints offline). Two mentions the profile does not carry yet are kept
 * in this window's localStorage (see renderer/NEEDED-IPC.md): the share capital (Legea 31/1990
 * art. 74) and "TVA la încasare". Read through zod: anything may be in storage.
 */
const EXTRAS_KEY = 'tejghea.printExtras';

const zPrintExtras = z.object({
  capital_social_bani: z.number().int().nonnegative().nullable(),
  vat_on_collection: z.boolean(),
});
export type PrintExtras = z.infer<typeof zPrintExtras>;

export function loadPrintExtras(): PrintExtras {
  try {
    const parsed = zPrintExtras.safeParse(JSON.parse(localStorage.getItem(EXTRAS_KEY) ?? 'null'));
    if (parsed.success) return parsed.data;
  } catch {
    // Unreadable storage: the defaults below.
  }
  return { capital_social_bani: null, vat_on_collection: false };
}

export function savePrintExtras(extras: PrintExtras): void {
  localStorage.setItem(EXTRAS_KEY, JSON.stringify(zPrintExtras.parse(extras)));
}

/**
 * The seller block: the company profile when the host has it (after the first sync), else the name
 * and CUI the settings know, so a document still prints before then.
 */
export function sellerFor(profile: CompanyProfile | null | undefined, settings: { company: { name: string; cui: string } | null } | undefined): Seller {
  const extras = loadPrintExtras();
  if (profile) {
    return {
      name: profile.name,
      cui: profile.cui,
      vat_payer: profile.vat_payer,
      reg_com: profile.reg_com,
      address: profile.street,
      city: profile.city,
      county: countyName(profile.county_code),
      country: profile.country_code || 'RO',
      iban: profile.iban,
      bank: profile.bank,
      email: profile.email,
      phone: profile.phone,
      capital_social_bani: extras.capital_social_bani,
      vat_on_collection: extras.vat_on_collection,
    };
  }
  return {
    name: settings?.company?.name ?? '—',
    cui: settings?.company?.cui ?? '—',
    vat_payer: true,
    reg_com: null,
    address: null,
    city: null,
    county: null,
    country: 'RO',
    iban: null,
    bank: null,
    capital_social_bani: extras.capital_social_bani,
    vat_on_collection: extras.vat_on_collection,
  };
}
