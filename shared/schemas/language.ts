import { z } from 'zod';
import { zId } from './common';

/**
 * Document languages of a firm (our design; the contract shows only `id` and the delete reply).
 * Romanian is the fixed default; the others can be enabled for invoices to foreign clients.
 */
export const LANGUAGE_CODES = ['ro', 'en', 'fr', 'de', 'hu', 'it', 'es'] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

/** Each language by its own name, as a picker shows it to someone who reads that language. */
export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  ro: 'Română',
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  hu: 'Magyar',
  it: 'Italiano',
  es: 'Español',
};

export const zLanguage = z.object({
  id: zId,
  object: z.literal('language'),
  code: z.enum(LANGUAGE_CODES),
  name: z.string(),
  is_default: z.boolean(),
});
export type Language = z.infer<typeof zLanguage>;

/** GET /languages: shaped like GET /currencies (payload at top level), with what can still be enabled. */
export const zLanguageList = z.object({
  object: z.literal('list'),
  data: z.array(zLanguage),
  total: z.number().int(),
  available: z.array(z.object({ code: z.enum(LANGUAGE_CODES), name: z.string() })),
  default_code: z.literal('ro'),
});
export type LanguageList = z.infer<typeof zLanguageList>;

export const zLanguageEnable = z.object({
  code: z.string().trim().toLowerCase().pipe(z.enum(LANGUAGE_CODES)),
});
export type LanguageEnable = z.input<typeof zLanguageEnable>;

/**
 * PUT /languages/{id} (the contract names the CRUD of languages, shapes not shown): the one member a
 * row has, `code`, optional; changing it swaps the enabled language for another in place.
 */
export const zLanguageUpdate = z.object({ code: zLanguageEnable.shape.code.optional() });
export type LanguageUpdate = z.input<typeof zLanguageUpdate>;

/** DELETE /languages/{id}, at top level (contract). */
export const zLanguageDeleted = z.object({ object: z.literal('language'), deleted: z.literal(true) });
