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

export function translate(language: Language, key: MessageKey, vars?: Vars): string {
  return interpolate(dictionaries[language][key], vars);
}

export function dictionary(language: Language): Messages {
  return dictionaries[language];
}

export type Translate = (key: MessageKey, vars?: Vars) => string;

export function translator(language: Language): Translate {
  return (key, vars) => translate(language, key, vars);
}
