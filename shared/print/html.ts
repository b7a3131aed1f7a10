/** Small helpers for building the print documents as strings (no DOM: they also run in Node tests). */

/** Escapes text for an HTML element or a quoted attribute. Every value from data passes through it. */
import { escapeHtml as esc } from './pdf-layout';

export { esc };

/** Joins the present parts with a separator: address lines, city and county. */
export function joinPresent(parts: readonly (string | null | undefined)[], separator = ', '): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(separator);
}

/** A full HTML document with the A4 page set up and the styles inline (printToPDF and page.pdf read it alike). */
export function htmlDocument(title: string, lang: string, css: string, body: string): string {
  return `<!doctype html>
<html lang="${esc(lang)}">
<head>
<meta charset="utf-8">
<title>${esc(title)}</title>
<style>${css}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * Styles common to both documents. Fonts: a generic sans-serif stack that has the Romanian comma-below
 * letters (ș, ț) on every system we print on (DejaVu/Liberation on Linux, Arial/Segoe on Windows).
 */
export const BASE_CSS = `
@page { size: A4; margin: 12mm 12mm 14mm 12mm; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: "Liberation Sans", Arial, "Segoe UI", "DejaVu Sans", Helvetica, sans-serif; font-size: 9pt;
  color: #111; line-height: 1.35; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
h1, h2, h3, p { margin: 0; }
.en { color: #555; font-weight: normal; font-style: italic; }
.muted { color: #555; }
.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.nowrap { white-space: nowrap; }
table { border-collapse: collapse; width: 100%; }
.party h3 { font-size: 8pt; text-transform: uppercase; letter-spacing: 0.06em; color: #444; margin-bottom: 2pt; }
.party .name { font-size: 11pt; font-weight: bold; margin-bottom: 2pt; }
.party .row { display: flex; gap: 4pt; }
.party .row .k { color: #555; min-width: 22mm; }
`;
