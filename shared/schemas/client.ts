import { z } from 'zod';
import { zId, zTimestamp } from './common';

/**
 * Client (our design; the contract shows no fields). B2B clients carry a CUI, B2C clients an
 * optional CNP. `cui` is stored without the `RO` prefix; `vat_payer` says whether it is printed.
 */
export const CLIENT_TYPES = ['company', 'person'] as const;

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
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});
export type Client = z.infer<typeof zClient>;

/** Body of POST /clients. Identifier checks (CUI, CNP, IBAN) are applied by the server and the app alike. */
const clientFields = {
  type: z.enum(CLIENT_TYPES),
  name: z.string().trim().min(1).max(200),
  cui: z.string().trim().max(14).nullish(),
  vat_payer: z.boolean().optional(),
  reg_com: z.string().trim().max(40).nullish(),
  cnp: z.string().trim().max(13).nullish(),
  address: z.string().trim().max(300).nullish(),
  city: z.string().trim().max(100).nullish(),
  county: z.string().trim().max(100).nullish(),
  country: z.string().length(2).toUpperCase(),
  postal_code: z.string().trim().max(12).nullish(),
  email: z.email().nullish(),
  phone: z.string().trim().max(40).nullish(),
  iban: z.string().trim().max(42).nullish(),
  bank: z.string().trim().max(100).nullish(),
  notes: z.string().max(2000).nullish(),
  /** Set by the desktop app for a client made offline: a retry returns the client already created. */
  client_local_uuid: z.string().uuid().optional(),
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
