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

/** The PDF page layout and footer live in shared/print: Electron's printToPDF (main) uses them too. */
export { PDF_OPTIONS, PRINT_FOOTER_TEMPLATE } from '../../shared/print/pdf-layout';

export type { Language };
