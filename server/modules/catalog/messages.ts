import { addMessages, hasMessage } from '../../platform/messages';

/**
 * Error codes of the catalog. `in_use` and `is_default` are the contract's own codes (currency and
 * language); other modules may answer them too, so their texts stay generic, and they are registered
 * only when no module did first: `addMessages` refuses one code registered with two different texts,
 * and a start-up crash over a wording would be the worse outcome.
 */
export const CATALOG_MESSAGES = {
  in_use: {
    en: 'This resource is in use and cannot be removed or changed that way.',
    ro: 'Această resursă este folosită și nu poate fi eliminată sau modificată astfel.',
  },
  is_default: {
    en: 'This is the default and stays enabled.',
    ro: 'Aceasta este valoarea implicită și rămâne activă.',
  },
  is_standard: {
    en: 'Standard VAT rates are fixed by law and cannot be changed or deleted.',
    ro: 'Cotele standard de TVA sunt stabilite prin lege și nu pot fi modificate sau șterse.',
  },
  already_enabled: {
    en: 'This is already enabled for the company.',
    ro: 'Aceasta este deja activată pentru firmă.',
  },
  duplicate_code: {
    en: 'Another product of the company already has this code.',
    ro: 'Un alt produs al firmei are deja acest cod.',
  },
  duplicate_barcode: {
    en: 'Another product of the company already has this barcode.',
    ro: 'Un alt produs al firmei are deja acest cod de bare.',
  },
  duplicate_iban: {
    en: 'The company already has a bank account with this IBAN.',
    ro: 'Firma are deja un cont bancar cu acest IBAN.',
  },
  duplicate_rate: {
    en: 'This VAT rate already exists for the company (as a standard or a custom rate).',
    ro: 'Această cotă de TVA există deja pentru firmă (ca standard sau personalizată).',
  },
} as const;

export type CatalogErrorCode = keyof typeof CATALOG_MESSAGES;

const SHARED_CODES = new Set<string>(['in_use', 'is_default']);
for (const [code, text] of Object.entries(CATALOG_MESSAGES)) {
  if (SHARED_CODES.has(code) && hasMessage(code)) continue;
  addMessages({ [code]: text });
}
