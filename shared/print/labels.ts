import { esc } from './html';
import { PRINT_MESSAGES_EN, PRINT_MESSAGES_RO, type PrintMessageKey } from './print-messages';

/**
 * Labels of the printed documents. Romanian documents are Romanian (Legea 500/2004 on the use of
 * the language); a document for a foreign buyer (`language` = 'en') keeps the Romanian label and adds
 * the English one beside it, in italics, which is how bilingual Romanian invoices are usually set.
 * The words are shared/print's own (print-messages.ts), so the desktop and the service print alike.
 */
export type Language = 'ro' | 'en';
export type Vars = Readonly<Record<string, string | number>>;

export interface PrintLabels {
  /** Escaped HTML: the Romanian label, and the English one after a slash when bilingual. */
  html(key: PrintMessageKey, vars?: Vars): string;
  /** Plain Romanian text (for attributes and the title). */
  text(key: PrintMessageKey, vars?: Vars): string;
  bilingual: boolean;
}

const DICTIONARIES: Readonly<Record<Language, { readonly [K in PrintMessageKey]: string }>> = { ro: PRINT_MESSAGES_RO, en: PRINT_MESSAGES_EN };

/** Fills `{name}` placeholders like the renderer's translate; a placeholder with no value stays visible. */
function translate(language: Language, key: PrintMessageKey, vars?: Vars): string {
  const template = DICTIONARIES[language][key];
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export function printLabels(language: string | null | undefined): PrintLabels {
  const bilingual = language === 'en';
  return {
    bilingual,
    text: (key, vars) => translate('ro', key, vars),
    html: (key, vars) => {
      const roText = esc(translate('ro', key, vars));
      if (!bilingual) return roText;
      const enText = translate('en', key, vars);
      // The slash is its own span so table headers can stack the two languages without it.
      return enText === translate('ro', key, vars) ? roText : `${roText} <span class="en"><span class="slash">/ </span>${esc(enText)}</span>`;
    },
  };
}

export { PDF_OPTIONS, PRINT_FOOTER_TEMPLATE } from './pdf-layout';
