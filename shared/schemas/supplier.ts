import { z } from 'zod';
import { validateCui } from '../ro/cui';
import { ibanMod97, normalizeIban, validateRoIban } from '../ro/iban';

/**
 * Supplier (our design; the contract shows no fields). Scoped by company. `cui` is stored as digits
 * only, whatever the caller wrote (`RO1590082`, `1590082`, `ro 159 0082`); `vat_payer` says whether
 * the `RO` prefix belongs on documents, and `vat_id` is the CUI as printed (the member name of the
 * supplier object of supplier bills).
 */
export const zSupplier = z.object({
  id: z.string(),
  object: z.literal('supplier'),
  name: z.string(),
  cui: z.string().nullable(),
  vat_payer: z.boolean(),
  vat_id: z.string().nullable(),
  reg_com: z.string().nullable(),
  address: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  iban: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int().nullable(),
});
export type Supplier = z.infer<typeof zSupplier>;

const CUI_MESSAGES = {
  format: 'CUI must be 2 to 10 digits, optionally prefixed by RO.|CUI trebuie să aibă 2-10 cifre, opțional precedate de RO.',
  checksum: 'The CUI control digit does not match (check for a typo).|Cifra de control a CUI nu se potrivește (verificați dacă e o greșeală de scriere).',
} as const;

/** A CUI as written, with or without `RO`: the digits, and whether it carried the prefix. */
export const zSupplierCui = z
  .string()
  .meta({ description: 'CUI with or without the RO prefix; stored as digits only.', examples: ['RO1590082', '1590082'] })
  .transform((input, ctx) => {
    const result = validateCui(input);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: CUI_MESSAGES[result.reason] });
      return z.NEVER;
    }
    return { digits: result.value, ro_prefix: /^\s*ro/i.test(input) };
  });

/** Any IBAN (a supplier may bank abroad); a Romanian one is checked in full. Stored uppercase, no spaces. */
export const zSupplierIban = z
  .string()
  .meta({ description: 'IBAN; spaces and lowercase accepted.' })
  .transform((input, ctx) => {
    const iban = normalizeIban(input);
    const ok = iban.startsWith('RO')
      ? validateRoIban(iban).ok
      : /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) && ibanMod97(iban) === 1;
    if (!ok) {
      ctx.addIssue({ code: 'custom', message: 'Not a valid IBAN (check for a typo).|IBAN nevalid (verificați dacă e o greșeală de scriere).' });
      return z.NEVER;
    }
    return iban;
  });

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

const supplierFields = {
  name: z.string().trim().min(1).max(200),
  cui: zSupplierCui.nullable().optional(),
  /** Default: true when `cui` was written with `RO`. */
  vat_payer: z.boolean().optional(),
  reg_com: optionalText(40),
  address: optionalText(300),
  email: z.email().max(200).nullable().optional(),
  phone: optionalText(40),
  iban: zSupplierIban.nullable().optional(),
};

/** POST /suppliers. */
export const zSupplierCreate = z.object(supplierFields);
export type SupplierCreateInput = z.input<typeof zSupplierCreate>;

/** PUT /suppliers/{id}: only the members sent change; null clears an optional member. */
export const zSupplierUpdate = z.object({ ...supplierFields, name: supplierFields.name.optional() });
export type SupplierUpdateInput = z.input<typeof zSupplierUpdate>;
