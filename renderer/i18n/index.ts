import { en } from './en';
import { ro } from './ro';
import type { Language, MessageKey, Messages } from './types';

export type { Language, MessageKey, Messages } from './types';

/**
 * Both directions, at compile time: en.ts is typed `Messages` (no key missing, none extra), and
 * this line fails if ro.ts ever stops being a `Messages` itself.
 */
const dictionaries: Readonly<Record<Language, Messages>> = { ro, en };

export const LANGUAGES: readonly Language[] = ['ro', 'en'];

export type Vars = Readonly<Record<string, string | number>>;

/** Fills `{name}` placeholders; a placeholder with no value stays visible rather than vanishing. */
export function interpolate(template: string, vars?: Vars): string {
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

const pluralRules = new Map<Language, Intl.PluralRules>();

/**
 * A message with a numeric `count` takes its plural form when the catalogue has one: `<key>#one`,
 * `<key>#other` beside the plain key (which serves the remaining form, Romanian's "few"). Intl.PluralRules
 * picks the form: "1 factură", "2 facturi", "20 de facturi".
 */
export function translate(language: Language, key: MessageKey, vars?: Vars): string {
  const dictionary = dictionaries[language];
  const count = vars?.count;
  if (typeof count === 'number') {
    let rules = pluralRules.get(language);
    if (!rules) {
      rules = new Intl.PluralRules(language);
      pluralRules.set(language, rules);
    }
    const form = rules.select(count);
    const variant = (dictionary as Readonly<Record<string, string>>)[`${key}#${form}`];
    if (variant !== undefined) return interpolate(variant, vars);
  }
  return interpolate(dictionary[key], vars);
}

export function dictionary(language: Language): Messages {
  return dictionaries[language];
}

export type Translate = (key: MessageKey, vars?: Vars) => string;

export function translator(language: Language): Translate {
  return (key, vars) => translate(language, key, vars);
}
