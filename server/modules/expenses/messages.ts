import { addMessages, hasMessage } from '../../platform/messages';
import type { Locale } from '../../platform/locale';
import { pickLanguage } from '../../platform/zod-fields';

/** Error codes of the expenses module, in English and Romanian. */
addMessages({
  expense_already_paid: {
    en: 'This expense is already paid.',
    ro: 'Această cheltuială este deja plătită.',
  },
  expense_locked: {
    en: 'This expense is dated in the closed accounting month {month} and can no longer be changed.',
    ro: 'Această cheltuială este datată în luna contabilă închisă {month} și nu mai poate fi modificată.',
  },
  accounting_period_closed: {
    en: 'The accounting month {month} is closed: nothing dated in it can be recorded or changed.',
    ro: 'Luna contabilă {month} este închisă: nu se mai poate înregistra sau modifica nimic datat în ea.',
  },
  supplier_exists: {
    en: 'A supplier with this CUI already exists: {id}.',
    ro: 'Există deja un furnizor cu acest CUI: {id}.',
  },
  supplier_in_use: {
    en: 'This supplier has expenses and cannot be deleted.',
    ro: 'Acest furnizor are cheltuieli și nu poate fi șters.',
  },
  expense_category_exists: {
    en: 'An expense category with this name already exists: {id}.',
    ro: 'Există deja o categorie de cheltuieli cu acest nume: {id}.',
  },
  expense_category_in_use: {
    en: 'This expense category has expenses and cannot be deleted.',
    ro: 'Această categorie de cheltuieli are cheltuieli și nu poate fi ștearsă.',
  },
});

// A generic code other modules may register too: add it only when nobody has, so that two
// registrations can never clash on wording at start-up.
if (!hasMessage('parameter_missing')) {
  addMessages({
    parameter_missing: {
      en: 'A required parameter is missing: `{param}`.',
      ro: 'Lipsește un parametru obligatoriu: `{param}`.',
    },
  });
}

/** The `message` of successful actions (PUT and pay answer `{ success, expense, message }`). */
const ACTION_MESSAGES = {
  expense_updated: { en: 'Expense updated.', ro: 'Cheltuiala a fost actualizată.' },
  expense_paid: { en: 'Expense marked as paid.', ro: 'Cheltuiala a fost marcată ca plătită.' },
} as const;

export function actionMessage(code: keyof typeof ACTION_MESSAGES, locale: Locale): string {
  return ACTION_MESSAGES[code][locale];
}

/** A field message written `English|Română`, in the caller's language. */
export function fieldText(message: string, locale: Locale): string {
  return pickLanguage(message, locale);
}
