import { translate, type Language, type MessageKey, type Vars } from '../i18n';
import { esc } from './html';

/**
 * Labels of the printed documents. Romanian documents are Romanian (Legea 500/2004 on the use of
 * the language); a document for a foreign buyer (`language` = 'en') keeps the Romanian label and adds
 * the English one beside it, in italics, which is how bilingual Romanian invoices are usually set.
 */
export interface PrintLabels {
  /** Escaped HTML: the Romanian label, and the English one after a slash when bilingual. */
  html(key: MessageKey, vars?: Vars): string;
  /** Plain Romanian text (for attributes and the title). */
  text(key: MessageKey, vars?: Vars): string;
  bilingual: boolean;
}

export function printLabels(language: string | null | undefined): PrintLabels {
  const bilingual = language === 'en';
  const lang: Language = 'ro';
  return {
    bilingual,
    text: (key, vars) => translate(lang, key, vars),
    html: (key, vars) => {
      const roText = esc(translate('ro', key, vars));
      if (!bilingual) return roText;
      const enText = translate('en', key, vars);
      // The slash is its own span so table headers can stack the two languages without it.
      return enText === translate('ro', key, vars) ? roText : `${roText} <span class="en"><span class="slash">/ </span>${esc(enText)}</span>`;
    },
  };
}

/**
 * Footer for Chromium's PDF printer (Electron printToPDF and Playwright page.pdf take the same
 * template): page x of y, which CSS cannot number on its own.
 */
export const PRINT_FOOTER_TEMPLATE = `<div style="font-family: Arial, sans-serif; font-size: 7pt; color: #666; width: 100%; padding: 0 12mm; display: flex; justify-content: space-between;"><span>${esc(
  translate('ro', 'print.generatedBy'),
)}</span><span>${esc(translate('ro', 'print.page'))} <span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`;

/** The options both PDF printers need to lay a template out as designed. */
export const PDF_OPTIONS = {
  format: 'A4',
  printBackground: true,
  displayHeaderFooter: true,
  headerTemplate: '<div></div>',
  footerTemplate: PRINT_FOOTER_TEMPLATE,
  preferCSSPageSize: true,
} as const;

export type { Language };
