import type { SellerSnapshot } from '../schemas/invoice';
import { countyName } from '../ro/counties';
import type { Seller } from './seller';

/**
 * The seller block: the seller an issued invoice kept, else the company profile when the host has it
 * (after the first sync), else the name and CUI the settings know, so a document still prints before then.
 * A company profile has every member of a seller snapshot.
 */
export function sellerFor(profile: Omit<SellerSnapshot, 'logo_ref'> | null | undefined, settings: { company: { name: string; cui: string } | null } | undefined): Seller {
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
      // Both mentions are the service's (PUT /company/profile), the same on every device's documents.
      capital_social_bani: profile.capital_social_bani,
      vat_on_collection: profile.vat_on_collection,
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
    capital_social_bani: null,
    vat_on_collection: false,
  };
}
