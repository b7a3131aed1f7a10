import { z } from 'zod';
import { zTimestamp } from './common';

/**
 * Public fiscal data of a Romanian company as ANAF's registry (PlatitorTvaRest) reports it. The
 * contract names `GET` company lookup and fiscal profile without their fields; these are our design.
 */
export const zCompanyLookup = z.object({
  object: z.literal('company_lookup'),
  cui: z.string(),
  /** `RO` + CUI when registered for VAT, else null. */
  vat_id: z.string().nullable(),
  name: z.string(),
  /** The registered address as one line, as ANAF writes it. */
  address: z.string(),
  reg_com: z.string(),
  phone: z.string(),
  postal_code: z.string(),
  county: z.string(),
  /** ISO 3166-2:RO (RO-CJ, RO-B), ready for an e-Factura address; empty when ANAF gives none. */
  county_code: z.string(),
  city: z.string(),
  street: z.string(),
  street_number: z.string(),
  vat_payer: z.boolean(),
  vat_on_collection: z.boolean(),
  split_vat: z.boolean(),
  inactive: z.boolean(),
  efactura_registered: z.boolean(),
  registration_status: z.string(),
  caen_code: z.string(),
  /** The day ANAF evaluated its registers at (YYYY-MM-DD). */
  as_of: z.string(),
});
export type CompanyLookup = z.infer<typeof zCompanyLookup>;

export const zCompanyLookupQuery = z.object({
  cui: z.string().trim().min(1).max(20),
});

/** GET /fiscal/profile: the firm's own registry entry, cached for a day. */
export const zFiscalProfile = zCompanyLookup.extend({
  object: z.literal('fiscal_profile'),
  company_id: z.string(),
  /** When this data was read from ANAF (Unix seconds). */
  fetched_at: zTimestamp,
  /** true when ANAF could not be reached and the last copy is shown. */
  stale: z.boolean(),
});
export type FiscalProfile = z.infer<typeof zFiscalProfile>;
