import { z } from 'zod';

/**
 * The issuing company as printed on its documents. Codul fiscal art. 319 (20) d) asks for name,
 * address and VAT code; Legea 31/1990 art. 74 adds the trade register number and, for companies,
 * the share capital; the IBAN and bank are what a buyer needs to pay.
 */
export const zSeller = z.object({
  name: z.string().min(1),
  /** Digits only, without RO; the template adds RO when `vat_payer`. */
  cui: z.string().min(1),
  vat_payer: z.boolean(),
  reg_com: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  county: z.string().nullable(),
  country: z.string().length(2).default('RO'),
  iban: z.string().nullable(),
  bank: z.string().nullable(),
  /** Share capital in bani (SRL/SA print it); null for a PFA or II. */
  capital_social_bani: z.number().int().nonnegative().nullable().optional(),
  /** "TVA la încasare" (art. 282): the mention is mandatory on every invoice while the firm applies it. */
  vat_on_collection: z.boolean().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  /** This device's logo (a data URL kept in the local settings; see docs/api-decisions.md, issue 12). */
  logo: z.string().regex(/^data:image\/(png|jpeg|webp);base64,/).nullable().optional(),
});
export type Seller = z.input<typeof zSeller>;
