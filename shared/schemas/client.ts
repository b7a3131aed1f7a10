import { z } from 'zod';
import { zId, zTimestamp } from './common';
import { validateCui } from '../ro/cui';
import { validateCnp, type CnpReason } from '../ro/cnp';
import { roBankName } from '../ro/iban';
import { IBAN_REASON_MESSAGES, validateIban } from './iban';

/**
 * Client (our design; the contract shows no fields). B2B clients carry a CUI, B2C clients an
 * optional CNP. `cui` is stored without the `RO` prefix; `vat_payer` says whether it is printed.
 */
export const CLIENT_TYPES = ['company', 'person'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const zClient = z.object({
  id: zId,
  object: z.literal('client'),
  type: z.enum(CLIENT_TYPES),
  name: z.string(),
  cui: z.string().nullable(),
  vat_payer: z.boolean(),
  reg_com: z.string().nullable(),
  cnp: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  county: z.string().nullable(),
  country: z.string().length(2),
  postal_code: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  iban: z.string().nullable(),
  bank: z.string().nullable(),
  notes: z.string().nullable(),
  client_local_uuid: z.string().nullable(),
  /**
   * Soft-delete flag: a deleted client stays readable (invoices still point at it) but leaves the
   * list and refuses updates. Defaulted so that code building a client without it (an invoice's
   * expanded `client`) still passes.
   */
  is_deleted: z.boolean().default(false),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});
export type Client = z.infer<typeof zClient>;

/** Body of POST /clients. Identifier checks (CUI, CNP, IBAN) are applied by the server and the app alike. */
const clientFields = {
  type: z.enum(CLIENT_TYPES),
  name: z.string().trim().min(1).max(200),
  /** With or without `RO`; a Romanian company's is checked with its control digit. */
  cui: z.string().trim().max(20).nullish(),
  /** Derived when omitted: an `RO` prefix on the CUI means a VAT payer. */
  vat_payer: z.boolean().optional(),
  reg_com: z.string().trim().max(40).nullish(),
  cnp: z.string().trim().max(13).nullish(),
  address: z.string().trim().max(300).nullish(),
  city: z.string().trim().max(100).nullish(),
  county: z.string().trim().max(100).nullish(),
  country: z
    .string()
    .trim()
    .toUpperCase()
    // refine, not regex: the message of a custom issue reaches `fields`, a regex issue's does not.
    .refine((s) => /^[A-Z]{2}$/.test(s), 'A two-letter ISO 3166 country code|Un cod de țară ISO 3166 din două litere'),
  postal_code: z.string().trim().max(12).nullish(),
  // '' is accepted (and stored as none), as for every other optional text: forms send empty boxes.
  email: z.union([z.email().max(200), z.literal('')], { error: 'Not an e-mail address|Nu este o adresă de e-mail' }).nullish(),
  phone: z.string().trim().max(40).nullish(),
  iban: z.string().trim().max(42).nullish(),
  /** Derived from a Romanian IBAN's bank code when omitted. */
  bank: z.string().trim().max(100).nullish(),
  notes: z.string().max(2000).nullish(),
  /** Set by the desktop app for a client made offline: a retry returns the client already created. */
  client_local_uuid: z.uuid().optional(),
};

export const zClientCreate = z.object({
  ...clientFields,
  type: clientFields.type.default('company'),
  country: clientFields.country.default('RO'),
});
export type ClientCreate = z.input<typeof zClientCreate>;

/** PUT body: only the members sent change (no defaults here, or an update would reset them). */
export const zClientUpdate = z.object(clientFields).omit({ client_local_uuid: true }).partial();
export type ClientUpdate = z.input<typeof zClientUpdate>;

/** The members whose rules depend on each other (type, country, identifiers). */
export interface ClientIdentityInput {
  type: ClientType;
  country: string;
  cui?: string | null | undefined;
  cnp?: string | null | undefined;
  /** Undefined: derive it. */
  vat_payer?: boolean | undefined;
  iban?: string | null | undefined;
  /** Undefined or null: derive it from a Romanian IBAN. */
  bank?: string | null | undefined;
  postal_code?: string | null | undefined;
}

export interface ClientIdentity {
  cui: string | null;
  cnp: string | null;
  vat_payer: boolean;
  iban: string | null;
  bank: string | null;
  postal_code: string | null;
}

/** Messages are `English|Română`; the server and the app pick the caller's language. */
export type ClientIdentityResult = { ok: true; value: ClientIdentity } | { ok: false; fields: Record<string, string> };

const CNP_REASON_MESSAGES: Record<CnpReason, string> = {
  format: 'CNP must be 13 digits, the first one 1 to 9|CNP-ul are 13 cifre, prima de la 1 la 9',
  date: 'CNP birth date is not a real date (or is in the future)|Data nașterii din CNP nu există (sau este în viitor)',
  county: 'CNP county code (digits 8-9) is not a known one|Codul de județ din CNP (cifrele 8-9) nu este unul cunoscut',
  serial: 'CNP serial number (digits 10-12) cannot be 000|Numărul de ordine din CNP (cifrele 10-12) nu poate fi 000',
  checksum: 'CNP control digit does not match (check for a typo)|Cifra de control a CNP-ului nu se potrivește (verificați o greșeală de tastare)',
};

const blank = (s: string | null | undefined): s is null | undefined | '' => s === null || s === undefined || s.trim() === '';

/**
 * Checks and normalizes the identifiers of a client as a whole, since each rule depends on the
 * others: a Romanian company needs a valid CUI (control digit), a person has no CUI and may have
 * a CNP, a VAT payer is told by the `RO` prefix unless said explicitly, a Romanian IBAN names its
 * bank. Used for creates and, over the merged row, for updates.
 */
export function resolveClientIdentity(input: ClientIdentityInput, options: { today?: string } = {}): ClientIdentityResult {
  const fields: Record<string, string> = {};
  const isRo = input.country === 'RO';
  let cui: string | null = null;
  let cnp: string | null = null;
  let vatPayer = false;

  if (input.type === 'company') {
    if (!blank(input.cnp)) fields.cnp = 'A CNP belongs to a person (type person)|CNP-ul este al unei persoane fizice (type person)';
    if (blank(input.cui)) {
      if (isRo) fields.cui = 'Required for a Romanian company|Obligatoriu pentru o firmă din România';
      vatPayer = input.vat_payer ?? false;
    } else if (isRo) {
      const result = validateCui(input.cui);
      if (!result.ok) {
        fields.cui =
          result.reason === 'checksum'
            ? 'CUI control digit does not match (check for a typo)|Cifra de control a CUI-ului nu se potrivește (verificați o greșeală de tastare)'
            : 'CUI must be 2 to 10 digits, optionally prefixed by RO|CUI-ul are între 2 și 10 cifre, opțional precedate de RO';
      } else {
        cui = result.value;
        vatPayer = input.vat_payer ?? /^\s*ro/i.test(input.cui);
      }
    } else {
      // A foreign company's VAT or registration number: no checksum rule common to every country.
      cui = input.cui.replace(/\s+/g, '').toUpperCase();
      vatPayer = input.vat_payer ?? true;
    }
  } else {
    if (!blank(input.cui)) fields.cui = 'A CUI belongs to a company (type company)|CUI-ul este al unei firme (type company)';
    if (input.vat_payer === true) fields.vat_payer = 'A person is not a VAT payer|O persoană fizică nu este plătitoare de TVA';
    if (!blank(input.cnp)) {
      const result = validateCnp(input.cnp, options.today ? { today: options.today } : {});
      if (result.ok) cnp = result.value;
      else fields.cnp = CNP_REASON_MESSAGES[result.reason];
    }
  }

  let iban: string | null = null;
  let bank: string | null = blank(input.bank) ? null : input.bank.trim();
  if (!blank(input.iban)) {
    const result = validateIban(input.iban);
    if (result.ok) {
      iban = result.value;
      if (bank === null && result.country === 'RO') bank = roBankName(result.value) ?? null;
    } else {
      fields.iban = IBAN_REASON_MESSAGES[result.reason];
    }
  }

  let postalCode: string | null = blank(input.postal_code) ? null : input.postal_code.trim();
  if (postalCode !== null && isRo) {
    if (!/^\d{6}$/.test(postalCode)) fields.postal_code = 'A Romanian postal code has 6 digits|Un cod poștal românesc are 6 cifre';
  } else if (postalCode !== null) {
    postalCode = postalCode.toUpperCase();
  }

  if (Object.keys(fields).length) return { ok: false, fields };
  return { ok: true, value: { cui, cnp, vat_payer: vatPayer, iban, bank, postal_code: postalCode } };
}
