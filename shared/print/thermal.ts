import { BASE_CSS } from './html';

/**
 * The 80 mm thermal roll (issue 12): 72 mm printable, one column, 8 pt type. A roll has no page
 * height, but a PDF and the print dialog need one: the page is as tall as the content is likely to
 * be (a few rows per line), so a receipt comes out as one strip, never as a mostly empty A4.
 */
export function thermalCss(heightMm: number): string {
  return `${BASE_CSS}
@page { size: 80mm ${Math.round(heightMm)}mm; margin: 3mm 4mm 9mm 4mm; }
body { font-size: 8pt; line-height: 1.3; }
.t { width: 72mm; }
.t .center { text-align: center; }
.t .logo { display: block; margin: 0 auto 2mm; max-width: 40mm; max-height: 18mm; }
.t .name { font-weight: bold; }
.t .seller .name { font-size: 10pt; text-align: center; }
.t .seller div, .t .buyer div { overflow-wrap: anywhere; }
.t h1 { font-size: 11pt; text-align: center; text-transform: uppercase; margin: 2mm 0 0; }
.t .number { font-size: 10pt; font-weight: bold; text-align: center; }
.t .rule { border-top: 0.75pt dashed #000; margin: 1.6mm 0; }
.t .k { color: #000; }
.t .kv { display: flex; justify-content: space-between; gap: 2mm; }
.t .kv .v { text-align: right; }
.t .line .desc { font-weight: bold; overflow-wrap: anywhere; }
.t .line .calc { display: flex; justify-content: space-between; gap: 2mm; }
.t .line + .line { margin-top: 1mm; }
.t table { width: 100%; }
.t table th { font-size: 7pt; text-align: right; font-weight: normal; border-bottom: 0.5pt solid #000; }
.t table th:first-child, .t table td:first-child { text-align: left; }
.t table td { text-align: right; white-space: nowrap; }
.t .grand { font-size: 11pt; font-weight: bold; }
.t .mention { border: 0.75pt solid #000; padding: 1mm; margin-top: 1mm; }
.t .small { font-size: 7pt; }
.t .stamp { text-align: center; font-size: 14pt; font-weight: bold; border: 1pt solid #000; margin: 1mm 0; }
`;
}
