/**
 * The page layout both PDF printers share: Electron's `webContents.printToPDF` (main process, the
 * desktop app's "Save PDF") and Chromium's `page.pdf` (the browser tests, which print the same
 * templates). Pure strings and numbers: it runs in the main process and in the renderer alike, so it
 * imports nothing (no DOM, no Node, no i18n dictionary).
 *
 * The footer is Chromium's own (page x of y cannot be numbered by CSS). Its labels are Romanian on
 * every document, like the rest of a Romanian invoice (Legea 500/2004); the renderer's dictionary
 * takes the same words from here, so the screen and the PDF never disagree.
 */

export const FOOTER_LABELS = {
  ro: { generatedBy: 'Document emis cu Tejghea', page: 'Pagina' },
  en: { generatedBy: 'Issued with Tejghea', page: 'Page' },
} as const;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML element or a quoted attribute. */
export function escapeHtml(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

/**
 * Chromium fills `pageNumber` and `totalPages`. The template is rendered in its own context, without
 * the document's styles, so everything it shows is styled inline.
 */
export const PRINT_FOOTER_TEMPLATE =
  '<div style="font-family: Arial, sans-serif; font-size: 7pt; color: #666; width: 100%; padding: 0 12mm; display: flex; justify-content: space-between;">' +
  `<span>${escapeHtml(FOOTER_LABELS.ro.generatedBy)}</span>` +
  `<span>${escapeHtml(FOOTER_LABELS.ro.page)} <span class="pageNumber"></span> / <span class="totalPages"></span></span></div>`;

/** An empty header: Chromium prints the title and date there otherwise. */
export const PRINT_HEADER_TEMPLATE = '<div></div>';

/** Options of Chromium's `page.pdf` (Playwright, Puppeteer): A4 as the template's CSS `@page` sets it. */
export const PDF_OPTIONS = {
  format: 'A4',
  printBackground: true,
  displayHeaderFooter: true,
  headerTemplate: PRINT_HEADER_TEMPLATE,
  footerTemplate: PRINT_FOOTER_TEMPLATE,
  preferCSSPageSize: true,
} as const;

/**
 * The same layout in the shape of Electron's `webContents.printToPDF` options. The margins come from
 * the template's `@page` rule (`preferCSSPageSize`); Chromium draws the footer inside the bottom margin.
 */
export const ELECTRON_PDF_OPTIONS = {
  pageSize: 'A4',
  printBackground: true,
  displayHeaderFooter: true,
  headerTemplate: PRINT_HEADER_TEMPLATE,
  footerTemplate: PRINT_FOOTER_TEMPLATE,
  preferCSSPageSize: true,
} as const;
