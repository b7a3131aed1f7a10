import type { Language, MessageKey, Translate } from './index';

/** Keys that come in plural forms: `<base>.one`, `<base>.few`, `<base>.other` (English uses one/other, few = other). */
type PluralBase = { [K in MessageKey]: K extends `${infer B}.one` ? (`${B}.few` extends MessageKey ? B : never) : never }[MessageKey];

const rules = new Map<Language, Intl.PluralRules>();

/**
 * A counted noun in the language's own plural form, chosen by Intl.PluralRules: Romanian has three
 * ("1 factură", "2 facturi", "20 de facturi"), English two. `{count}` in the message is the number.
 */
export function plural(t: Translate, language: Language, base: PluralBase, count: number): string {
  let r = rules.get(language);
  if (!r) {
    r = new Intl.PluralRules(language);
    rules.set(language, r);
  }
  const category = r.select(count);
  const form = category === 'one' ? 'one' : category === 'few' ? 'few' : 'other';
  return t(`${base}.${form}` as MessageKey, { count: count.toLocaleString(language === 'ro' ? 'ro-RO' : 'en-GB') });
}
