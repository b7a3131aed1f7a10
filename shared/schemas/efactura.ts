import { z } from 'zod';
import { zTimestamp } from './common';

/**
 * Wire shapes of the e-Factura side of the service: the OAuth link of a company with ANAF, the
 * submissions of invoices to the national system, and the company profile (the seller data an
 * e-Factura needs). The contract shows only `POST /invoices/{id}/send-to-spv`; the rest is our
 * design, recorded in docs/api-decisions.md ("e-Factura and SPV").
 */

export const EFACTURA_ENVIRONMENTS = ['test', 'prod'] as const;
export type EfacturaEnvironmentName = (typeof EFACTURA_ENVIRONMENTS)[number];

// ---- OAuth link ------------------------------------------------------------------------------

export const zOAuthAuthorization = z.object({
  object: z.literal('efactura_oauth_authorization'),
  /** Open in a browser holding the company's qualified certificate; ANAF redirects to the registered callback. */
  authorize_url: z.string(),
  /** Echoed by ANAF to the callback; send it back with the code. Single use. */
  state: z.string(),
  expires_at: zTimestamp,
});
export type OAuthAuthorization = z.infer<typeof zOAuthAuthorization>;

export const zOAuthCallback = z.object({
  code: z.string().trim().min(1).max(4000),
  state: z.string().trim().min(1).max(200),
});

export const OAUTH_LINK_STATUSES = ['not_linked', 'linked', 'reconsent_required'] as const;

export const zOAuthStatus = z.object({
  object: z.literal('efactura_oauth'),
  status: z.enum(OAUTH_LINK_STATUSES),
  linked: z.boolean(),
  connected_at: zTimestamp.nullable(),
  /** When the access token expires; it is refreshed by the service before that. */
  access_expires_at: zTimestamp.nullable(),
  /** When the refresh token expires (ANAF: a year): the company must consent again before then. */
  refresh_expires_at: zTimestamp.nullable(),
  refreshed_at: zTimestamp.nullable(),
  /** Whether the stored tokens are encrypted at rest (ANAF_TOKEN_KEY set on the server). */
  encrypted_at_rest: z.boolean().nullable(),
});
export type OAuthStatus = z.infer<typeof zOAuthStatus>;

export const zOAuthUnlinked = z.object({ object: z.literal('efactura_oauth'), deleted: z.literal(true) });

// ---- Submissions -----------------------------------------------------------------------------

/**
 * uploading: the upload is in flight. uploaded: ANAF took it (it has an upload index). processing:
 * ANAF is still validating it. retrying: the last attempt failed in transit; the poller checks ANAF's
 * message list (when the upload may have arrived) and uploads again later. accepted / rejected:
 * ANAF's verdict. failed: given up (no verdict; a new send-to-spv starts over).
 */
export const SUBMISSION_STATUSES = ['uploading', 'uploaded', 'processing', 'retrying', 'accepted', 'rejected', 'failed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const zSendToSpv = z.object({
  /** true: ANAF's test environment; false: production. Omitted: the invoice's own `spv_environment`. */
  test_mode: z.boolean().optional(),
});

/** The contract's reply of POST /invoices/{id}/send-to-spv: all strings. */
export const zSendToSpvResult = z.object({
  submission_id: z.string(),
  status: z.string(),
  message: z.string(),
});

export const zEfacturaSubmission = z.object({
  id: z.string(),
  object: z.literal('efactura_submission'),
  invoice_id: z.string(),
  invoice_number: z.string(),
  environment: z.enum(EFACTURA_ENVIRONMENTS),
  status: z.enum(SUBMISSION_STATUSES),
  message: z.string(),
  /** ANAF's `index_incarcare`. */
  upload_index: z.string().nullable(),
  /** ANAF's `id_descarcare` of the verdict (signed invoice or error report). */
  download_id: z.string().nullable(),
  /** ANAF's error messages, verbatim, when rejected. */
  errors: z.array(z.string()),
  attempts: z.number().int(),
  next_check_at: zTimestamp.nullable(),
  uploaded_at: zTimestamp.nullable(),
  finished_at: zTimestamp.nullable(),
  created_at: zTimestamp,
  updated_at: zTimestamp,
});
export type EfacturaSubmission = z.infer<typeof zEfacturaSubmission>;

// ---- Company profile -------------------------------------------------------------------------

const optionalText = (max: number) => z.string().trim().min(1).max(max).nullable().optional();

/** What an e-Factura needs of the seller beyond the company name and CUI. */
export const zCompanyProfile = z.object({
  object: z.literal('company_profile'),
  company_id: z.string(),
  /** The registration name printed on invoices; defaults to the company name. */
  name: z.string(),
  cui: z.string(),
  vat_payer: z.boolean(),
  /** `RO` + CUI when VAT-registered. */
  vat_id: z.string().nullable(),
  reg_com: z.string().nullable(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  /** ISO 3166-2:RO (RO-CJ, RO-B) for Romania. */
  county_code: z.string().nullable(),
  postal_code: z.string().nullable(),
  country_code: z.string(),
  iban: z.string().nullable(),
  bank: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /**
   * Share capital in bani, printed on the company's documents (Legea 31/1990 art. 74 asks it of an
   * SRL or SA); null when not given (a PFA or II has none).
   */
  capital_social_bani: z.number().int().nonnegative().nullable(),
  /** The company applies "TVA la încasare" (Codul fiscal art. 282): every invoice must say so (art. 319 (20) o). */
  vat_on_collection: z.boolean(),
  /** What a valid e-Factura still lacks (member names); empty when complete. */
  missing_for_efactura: z.array(z.string()),
  updated_at: zTimestamp.nullable(),
});
export type CompanyProfile = z.infer<typeof zCompanyProfile>;

export const zCompanyProfileUpdate = z.object({
  name: optionalText(200),
  vat_payer: z.boolean().optional(),
  reg_com: optionalText(100),
  street: optionalText(150),
  city: optionalText(50),
  /** RO-CJ, CJ or the county name (Cluj, București): stored as the ISO code. */
  county: optionalText(50),
  postal_code: optionalText(20),
  country_code: z.string().trim().toUpperCase().refine((s) => /^[A-Z]{2}$/.test(s), 'A two-letter ISO 3166 country code|Un cod de țară ISO 3166 din două litere').optional(),
  iban: optionalText(42),
  bank: optionalText(100),
  email: z.email().max(100).nullable().optional(),
  phone: optionalText(100),
  /** Bani; null clears it. */
  capital_social_bani: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  vat_on_collection: z.boolean().optional(),
});
export type CompanyProfileUpdate = z.input<typeof zCompanyProfileUpdate>;
