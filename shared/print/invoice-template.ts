import { mulDivRound, toBani, type Bani } from '../money';
import { lineNetUnitPrice, percentToBp, storedBreakdownCategory, toMilli, toPriceE4 } from '../invoice-math';
import { INVOICE_REFERENCE_KINDS, type Invoice, type InvoiceLine } from '../schemas/invoice';
import { formatBani, formatDate, formatPriceE4, formatScaled, formatPercent, formatQuantity, formatRate } from '../format';
import { BASE_CSS, esc, htmlDocument } from './html';
import { printLabels, type PrintLabels } from './labels';
import type { PrintMessageKey } from './print-messages';
import { partyBlock } from './party';
import { zSeller, type Seller } from './seller';

/** Another document the invoice refers to by id only; the caller looks it up for the print. */
export interface DocumentRef {
  full_number: string | null;
  issue_date: string;
}

export interface InvoicePrintOptions {
  related?: {
    /** The original this storno reverses (art. 319 (20) p: reference to the corrected invoice). */
    storno_of?: DocumentRef;
    /** The storno that voided this invoice. */
    storno_by?: DocumentRef;
    /** The proforma this fiscal invoice was issued from. */
    converted_from?: DocumentRef;
  };
}

const INVOICE_CSS = `${BASE_CSS}
.doc { position: relative; }
.titlebar { display: flex; justify-content: space-between; align-items: flex-end; border-bottom: 2.5pt solid #1f3a5f; padding-bottom: 6pt; margin-bottom: 8pt; }
.titlebar .logo { max-height: 16mm; max-width: 50mm; margin-right: auto; }
.titlebar h1 { font-size: 20pt; letter-spacing: 0.04em; text-transform: uppercase; color: #1f3a5f; }
.titlebar h1 .en { font-size: 11pt; text-transform: none; letter-spacing: 0; }
.docmeta { text-align: right; font-size: 9pt; }
.docmeta .full-number { font-size: 14pt; font-weight: bold; }
.docmeta table { width: auto; margin-left: auto; }
.docmeta td { padding: 0 0 0 8pt; }
.docmeta td.k { color: #555; text-align: right; }
.parties { display: flex; gap: 10mm; margin-bottom: 8pt; }
.parties .party { flex: 1; border: 0.75pt solid #c8d0da; border-radius: 3pt; padding: 6pt 8pt; }
.parties .party.seller { background: #f4f7fa; }
.party .mention { margin-top: 2pt; }
table.lines { margin-top: 4pt; }
table.lines thead { display: table-header-group; }
table.lines th { background: #1f3a5f; color: #fff; font-size: 7.5pt; font-weight: bold; padding: 4pt 4pt; text-align: left; vertical-align: bottom; }
table.lines th.num { text-align: right; }
table.lines th .en { color: #dbe4ee; display: block; font-size: 7pt; }
table.lines th .slash, table.breakdown th .slash { display: none; }
table.breakdown th .en { display: block; }
table.lines th.w-no { width: 8mm; } table.lines th.w-unit { width: 12mm; } table.lines th.w-qty { width: 13mm; }
table.lines th.w-price { width: 22mm; } table.lines th.w-disc { width: 16mm; } table.lines th.w-value { width: 24mm; }
table.lines th.w-rate { width: 14mm; } table.lines th.w-vat { width: 21mm; }
table.lines td { padding: 3.5pt 4pt; border-bottom: 0.5pt solid #d5dbe2; vertical-align: top; }
table.lines tr { break-inside: avoid; }
table.lines tbody tr:nth-child(even) td { background: #f7f9fb; }
table.lines td.no { width: 7mm; color: #555; }
table.lines td.desc .reason { font-size: 7.5pt; color: #555; }
table.lines sup { font-size: 6pt; }
.bottom { display: flex; gap: 8mm; margin-top: 10pt; break-inside: avoid; }
.bottom .left { flex: 1.3; }
.bottom .right { flex: 1; }
table.breakdown th { font-size: 7.5pt; text-align: right; color: #444; border-bottom: 0.75pt solid #999; padding: 2pt 4pt; }
table.breakdown th:first-child { text-align: left; }
table.breakdown td { padding: 2pt 4pt; border-bottom: 0.5pt solid #e1e5ea; }
h2.section { font-size: 8pt; text-transform: uppercase; letter-spacing: 0.06em; color: #444; margin: 0 0 3pt; }
table.totals td { padding: 2.5pt 4pt; }
table.totals td.k { color: #333; }
table.totals tr.grand td { font-size: 12pt; font-weight: bold; border-top: 1.5pt solid #1f3a5f; padding-top: 4pt; color: #1f3a5f; }
table.totals tr.ron td { font-size: 8.5pt; color: #333; }
table.totals tr.sep td { border-top: 0.5pt solid #c8d0da; }
.mentions { margin-top: 8pt; }
.mentions .box { border: 1pt solid #1f3a5f; background: #eef3f8; padding: 4pt 6pt; margin-bottom: 4pt; border-radius: 2pt; }
.mentions .box strong { text-transform: uppercase; }
.mentions .reasons { font-size: 8pt; margin-bottom: 4pt; }
.notes { margin-top: 10pt; font-size: 8pt; color: #333; break-inside: avoid; }
.notes p { margin-bottom: 2pt; }
.watermark { position: fixed; top: 40%; left: 0; right: 0; text-align: center; font-size: 72pt; font-weight: bold;
  color: rgba(200, 30, 30, 0.12); transform: rotate(-24deg); text-transform: uppercase; letter-spacing: 0.1em; }
`;

export function amount(value: number): Bani {
  return toBani(value);
}

export function money(value: number): string {
  return formatBani(amount(value), 'ro');
}

/**
 * The unit price column says "without VAT" (art. 319 (20)): a shelf (VAT-included) line prints its net
 * unit price as the XML states it (shared lineNetUnitPrice, with its decimals), and its shelf price under it.
 */
export function unitPriceCell(line: InvoiceLine, labels: PrintLabels): string {
  if (!line.price_includes_vat) return `${unitPrice(line.price)}${basePart(line)}`;
  const decimal = lineNetUnitPrice(toMilli(line.quantity), amount(line.net) + amount(line.discount));
  const [whole = '0', fraction = ''] = decimal.split('.');
  const net = formatScaled(Number(whole + fraction), fraction.length, 'ro');
  return `${net}<br><span class="muted">${labels.html('shelf.printWithVat', { price: unitPrice(line.price) })}</span>`;
}

/** A unit price with the decimals it has, 2 to 4 ('0,0125', '7,459', '12,00'); amounts keep 2. */
export function unitPrice(value: number): string {
  return formatPriceE4(toPriceE4(value), 'ro');
}

/** A price for more than one unit says for how many: ' / 1.000 buc'. */
function basePart(line: InvoiceLine): string {
  const base = line.base_quantity ?? 1;
  return base === 1 ? '' : ` / ${formatQuantity(base, 'ro')} ${esc(line.unit)}`;
}

export function titleKey(invoice: Invoice): 'print.invoice.title' | 'print.invoice.titleProforma' | 'print.invoice.titleStorno' {
  if (invoice.document_type === 'proforma') return 'print.invoice.titleProforma';
  if (invoice.status === 'storno' || invoice.storno_of) return 'print.invoice.titleStorno';
  return 'print.invoice.title';
}

/**
 * The legal ground a 0% line prints (art. 319 (20) k), as HTML: an exempt (E) line's own reason;
 * for an intra-community supply (K) or an export (G) of goods the fixed mention of art. 294, and of a
 * service the place-of-supply rule of art. 278 (2) ("taxare inversă" within the EU, art. 319 (20) m),
 * the line's reason set aside as e-Factura sets it aside; nothing for a zero-rated (Z) line.
 */
export function legalGround(line: InvoiceLine, labels: PrintLabels): string | undefined {
  if (line.vat_rate !== 0) return undefined;
  switch (line.vat_category ?? 'E') {
    case 'K':
      return labels.html(line.is_service ? 'print.vatCategory.K.service' : 'print.vatCategory.K');
    case 'G':
      return labels.html(line.is_service ? 'print.vatCategory.G.service' : 'print.vatCategory.G');
    case 'Z':
      return undefined;
    case 'E': {
      const reason = line.vat_exemption_reason?.trim();
      return reason ? esc(reason) : undefined;
    }
  }
}

/** The legal grounds of 0% lines, numbered once each, for the footnotes. */
/**
 * The label of a 0% breakdown row: K and G name goods, services or both, after the lines of that
 * category (the breakdown keeps one row per category, as e-Factura does).
 */
export function breakdownLabelKey(invoice: Pick<Invoice, 'lines'>, category: NonNullable<InvoiceLine['vat_category']>): PrintMessageKey {
  if (category !== 'K' && category !== 'G') return `print.breakdown.${category}`;
  const of = (invoice.lines ?? []).filter((l) => l.vat_rate === 0 && (l.vat_category ?? 'E') === category);
  const services = of.filter((l) => l.is_service).length;
  if (services === 0) return `print.breakdown.${category}`;
  return services === of.length ? `print.breakdown.${category}.service` : `print.breakdown.${category}.mixed`;
}

export function exemptionFootnotes(lines: readonly InvoiceLine[], reverseCharge: boolean, labels: PrintLabels): Map<string, number> {
  const notes = new Map<string, number>();
  if (reverseCharge) return notes;
  for (const line of lines) {
    const ground = legalGround(line, labels);
    if (ground && !notes.has(ground)) notes.set(ground, notes.size + 1);
  }
  return notes;
}

export function currencyLabel(currency: string): string {
  return currency === 'RON' ? 'lei' : currency;
}

function linesTable(invoice: Invoice, lines: readonly InvoiceLine[], labels: PrintLabels, footnotes: Map<string, number>): string {
  const hasDiscount = lines.some((l) => l.discount_percent > 0 || l.discount !== 0);
  const head = `<thead><tr>
<th class="w-no">${labels.html('print.col.no')}</th>
<th>${labels.html('print.col.description')}</th>
<th class="w-unit">${labels.html('print.col.unit')}</th>
<th class="num w-qty">${labels.html('print.col.quantity')}</th>
<th class="num w-price">${labels.html('print.col.unitPrice')} (${esc(currencyLabel(invoice.currency))})</th>
${hasDiscount ? `<th class="num w-disc">${labels.html('print.col.discount')}</th>` : ''}
<th class="num w-value">${labels.html('print.col.value')} (${esc(currencyLabel(invoice.currency))})</th>
<th class="num w-rate">${labels.html('print.col.vatRate')}</th>
<th class="num w-vat">${labels.html('print.col.vatValue')} (${esc(currencyLabel(invoice.currency))})</th>
</tr></thead>`;
  const rows = lines
    .map((line, index) => {
      const ground = legalGround(line, labels);
      const note = ground ? footnotes.get(ground) : undefined;
      const rate = invoice.reverse_charge ? 'TI' : `${formatPercent(line.vat_rate, 'ro')}${note ? `<sup>${note}</sup>` : ''}`;
      const discount = hasDiscount
        ? `<td class="num">${line.discount_percent > 0 ? `${formatPercent(line.discount_percent, 'ro')}<br>` : ''}${line.discount !== 0 ? `-${money(Math.abs(line.discount))}` : ''}</td>`
        : '';
      return `<tr>
<td class="no">${index + 1}</td>
<td class="desc">${esc(line.description)}</td>
<td>${esc(line.unit)}</td>
<td class="num">${formatQuantity(line.quantity, 'ro')}</td>
<td class="num">${unitPriceCell(line, labels)}</td>
${discount}
<td class="num">${money(line.net)}</td>
<td class="num">${rate}</td>
<td class="num">${money(line.vat)}</td>
</tr>`;
    })
    .join('\n');
  return `<table class="lines">${head}<tbody>${rows}</tbody></table>`;
}

function breakdownTable(invoice: Invoice, labels: PrintLabels): string {
  // Each exemption is its own base (art. 319 (20) l Cod fiscal): a 0% row names its kind.
  const rowLabel = (entry: Invoice['vat_breakdown'][number]): string => {
    if (invoice.reverse_charge) return labels.html('print.reverseCharge');
    const category = storedBreakdownCategory({ vat_rate_bp: percentToBp(entry.vat_rate), vat_category: entry.vat_category }, false);
    const rate = formatPercent(entry.vat_rate, 'ro');
    return category ? `${rate} (${labels.html(breakdownLabelKey(invoice, category))})` : rate;
  };
  const rows = invoice.vat_breakdown
    .map(
      (entry) => `<tr>
<td>${rowLabel(entry)}</td>
<td class="num">${money(entry.net)}</td>
<td class="num">${money(entry.vat)}</td>
<td class="num">${money(entry.total)}</td>
</tr>`,
    )
    .join('\n');
  return `<h2 class="section">${labels.html('print.vatBreakdown')}</h2>
<table class="breakdown"><thead><tr>
<th>${labels.html('print.col.vatRate')}</th><th>${labels.html('print.taxBase')}</th><th>${labels.html('print.vat')}</th><th>${labels.html('print.total')}</th>
</tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * RON amounts of a foreign-currency invoice. Art. 319 (20) j asks for the VAT in lei: the server's
 * totals_ron carries it; when a local copy lacks it we convert at the invoice's rate with the same
 * half-away-from-zero rounding the server uses.
 */
export function ronTotals(invoice: Invoice): { net: Bani; vat: Bani; total: Bani } | null {
  if (invoice.currency === 'RON') return null;
  if (invoice.totals_ron) {
    return { net: amount(invoice.totals_ron.net), vat: amount(invoice.totals_ron.vat), total: amount(invoice.totals_ron.total) };
  }
  if (!invoice.exchange_rate) return null;
  const rate = Math.round(invoice.exchange_rate * 10_000);
  const net = mulDivRound(amount(invoice.totals.net), rate, 10_000);
  const vat = mulDivRound(amount(invoice.totals.vat), rate, 10_000);
  return { net, vat, total: net + vat };
}

function totalsTable(invoice: Invoice, labels: PrintLabels): string {
  const cur = esc(currencyLabel(invoice.currency));
  const ron = ronTotals(invoice);
  const discount = amount(invoice.totals.discount);
  const rows: string[] = [];
  // Discounts and charges on the whole invoice (BG-20/BG-21): the lines' sum, each of them, then the taxable total, as the XML says it.
  const adjustments = invoice.allowances_charges ?? [];
  if (adjustments.length && invoice.totals.lines_net !== undefined) {
    rows.push(`<tr><td class="k">${labels.html('print.linesNet')}</td><td class="num">${money(invoice.totals.lines_net)} ${cur}</td></tr>`);
    for (const a of adjustments) {
      const what = `${labels.html(a.charge ? 'print.charge' : 'print.allowance')}${a.reason ? `: ${esc(a.reason)}` : ''} (${formatPercent(a.vat_rate, 'ro')})`;
      rows.push(`<tr><td class="k muted">${what}</td><td class="num muted">${money(adjustmentEffect(a))} ${cur}</td></tr>`);
    }
  }
  rows.push(`<tr><td class="k">${labels.html('print.totalNet')}</td><td class="num">${money(invoice.totals.net)} ${cur}</td></tr>`);
  if (discount !== 0) {
    rows.push(`<tr><td class="k muted">${labels.html('print.totalDiscount')}</td><td class="num muted">-${formatBani(Math.abs(discount), 'ro')} ${cur}</td></tr>`);
  }
  rows.push(`<tr><td class="k">${labels.html('print.totalVat')}</td><td class="num">${money(invoice.totals.vat)} ${cur}</td></tr>`);
  rows.push(`<tr class="grand"><td class="k">${labels.html('print.totalDue')}</td><td class="num">${money(invoice.totals.total)} ${cur}</td></tr>`);
  if (ron) {
    rows.push(`<tr class="ron sep"><td class="k">${labels.html('print.equivalentRon')}</td><td class="num">${formatBani(ron.total, 'ro')} lei</td></tr>`);
    rows.push(`<tr class="ron"><td class="k">${labels.html('print.totalNet')}</td><td class="num">${formatBani(ron.net, 'ro')} lei</td></tr>`);
    rows.push(`<tr class="ron"><td class="k"><strong>${labels.html('print.vatInRon')}</strong></td><td class="num"><strong>${formatBani(ron.vat, 'ro')} lei</strong></td></tr>`);
  }
  const paid = amount(invoice.amount_paid);
  if (paid !== 0 && invoice.document_type === 'fiscal') {
    rows.push(`<tr class="sep"><td class="k">${labels.html('print.paid')}</td><td class="num">${money(invoice.amount_paid)} ${cur}</td></tr>`);
    rows.push(`<tr><td class="k"><strong>${labels.html('print.amountDue')}</strong></td><td class="num"><strong>${money(invoice.amount_due)} ${cur}</strong></td></tr>`);
  }
  return `<table class="totals"><tbody>${rows.join('\n')}</tbody></table>`;
}

/** How a discount or charge on the whole invoice moves the taxable total: a discount down, a charge up (reversed on a storno). */
export function adjustmentEffect(a: { charge: boolean; amount: number }): number {
  return a.charge ? a.amount : -a.amount;
}

export function mentions(invoice: Invoice, labels: PrintLabels, footnotes: Map<string, number>, options: InvoicePrintOptions): string {
  const out: string[] = [];
  if (invoice.reverse_charge) {
    out.push(`<div class="box reverse-charge"><strong>${labels.html('print.reverseCharge')}</strong> — ${labels.html('print.reverseChargeLaw')}</div>`);
  }
  if (footnotes.size > 0) {
    const items = [...footnotes.entries()].map(([ground, n]) => `<div><sup>${n}</sup> ${ground}</div>`).join('');
    out.push(`<div class="reasons"><strong>${labels.html('print.exemptionReasons')}:</strong>${items}</div>`);
  }
  const ref = (key: 'print.stornoOf' | 'print.stornoedBy' | 'print.convertedFrom', doc: DocumentRef | undefined, fallbackId: string | null) => {
    if (!doc && !fallbackId) return;
    const vars = { number: doc?.full_number ?? fallbackId ?? '', date: doc ? formatDate(doc.issue_date) : '' };
    out.push(`<div class="box reference">${labels.html(key, vars)}</div>`);
  };
  ref('print.stornoOf', options.related?.storno_of, invoice.storno_of);
  ref('print.stornoedBy', options.related?.storno_by, invoice.storno_id);
  ref('print.convertedFrom', options.related?.converted_from, invoice.converted_from);
  return out.length ? `<div class="mentions">${out.join('\n')}</div>` : '';
}

/**
 * The invoice as a complete A4 HTML document, inline styles, no scripts and no external resources:
 * Electron's printToPDF and Playwright's page.pdf turn the same string into the same PDF.
 * Mentions follow Codul fiscal art. 319 (20): series and number, dates, both parties' identification,
 * lines with unit, quantity, unit price without VAT, discounts, value, VAT per line and per rate,
 * VAT in lei for another currency with the exchange rate, the legal ground of 0% lines, "taxare
 * inversă", "TVA la încasare" and the reference to the invoice a storno corrects.
 */
export function renderInvoiceHtml(invoice: Invoice, sellerInput: Seller, options: InvoicePrintOptions = {}): string {
  const seller = zSeller.parse(sellerInput);
  const lines = invoice.lines;
  if (!lines) throw new Error('renderInvoiceHtml needs the invoice with its lines (expand lines)');
  const labels = printLabels(invoice.language);
  const footnotes = exemptionFootnotes(lines, invoice.reverse_charge, labels);
  const isDraft = invoice.is_draft || invoice.status === 'draft';
  const title = labels.html(titleKey(invoice));
  const numberText = isDraft ? labels.text('print.draft') : (invoice.full_number ?? String(invoice.number ?? ''));
  const meta: string[] = [];
  if (!isDraft && invoice.series_name) {
    meta.push(`<tr><td class="k">${labels.html('print.series')}</td><td><strong>${esc(invoice.series_name)}</strong></td><td class="k">${labels.html('print.number')}</td><td><strong>${esc(invoice.number)}</strong></td></tr>`);
  }
  meta.push(`<tr><td class="k">${labels.html('print.issueDate')}</td><td colspan="3"><strong>${formatDate(invoice.issue_date)}</strong></td></tr>`);
  // Art. 319 (20) d Cod fiscal: the delivery date, when it is not the issue date.
  if (invoice.delivery_date && invoice.delivery_date !== invoice.issue_date) {
    meta.push(`<tr><td class="k">${labels.html('print.deliveryDate')}</td><td colspan="3">${formatDate(invoice.delivery_date)}</td></tr>`);
  }
  if (invoice.due_date) meta.push(`<tr><td class="k">${labels.html('print.dueDate')}</td><td colspan="3">${formatDate(invoice.due_date)}</td></tr>`);
  meta.push(`<tr><td class="k">${labels.html('print.currency')}</td><td colspan="3">${esc(invoice.currency)}</td></tr>`);
  if (invoice.currency !== 'RON' && invoice.exchange_rate) {
    meta.push(`<tr><td class="k">${labels.html('print.exchangeRate')}</td><td colspan="3">1 ${esc(invoice.currency)} = ${formatRate(invoice.exchange_rate, 'ro')} lei</td></tr>`);
  }
  // The references the buyer asked for (order, contract, delivery note...), as the XML carries them.
  for (const kind of INVOICE_REFERENCE_KINDS) {
    const value = invoice.references?.[kind];
    if (value) meta.push(`<tr><td class="k">${labels.html(`print.ref.${kind}`)}</td><td colspan="3">${esc(value)}</td></tr>`);
  }
  if (invoice.payment_method) {
    meta.push(`<tr><td class="k">${labels.html('print.paymentMethod')}</td><td colspan="3">${labels.html(`print.payment.${invoice.payment_method}`)}</td></tr>`);
  }

  const notes: string[] = [];
  if (invoice.observations) notes.push(`<p><strong>${labels.html('print.observations')}:</strong> ${esc(invoice.observations)}</p>`);
  if (invoice.document_type === 'proforma') notes.push(`<p><strong>${labels.html('print.proformaNote')}</strong></p>`);
  if (invoice.efactura_status === 'accepted') notes.push(`<p>${labels.html('print.efactura')}</p>`);
  if (invoice.document_type === 'fiscal') notes.push(`<p class="muted">${labels.html('print.signatureNote')}</p>`);

  const body = `<div class="doc invoice">
${isDraft ? `<div class="watermark">${esc(labels.text('print.draft'))}</div>` : ''}
<header class="titlebar">
${seller.logo ? `<img class="logo" src="${esc(seller.logo)}" alt="">` : ''}<h1>${title}</h1>
<div class="docmeta">
<div class="full-number">${esc(numberText)}</div>
<table><tbody>${meta.join('\n')}</tbody></table>
</div>
</header>
<div class="parties">
${partyBlock(labels.html('print.supplier'), { ...seller, cnp: null }, labels, 'seller')}
${partyBlock(labels.html('print.buyer'), invoice.buyer, labels, 'buyer')}
</div>
${linesTable(invoice, lines, labels, footnotes)}
<div class="bottom">
<div class="left">
${breakdownTable(invoice, labels)}
${mentions(invoice, labels, footnotes, options)}
</div>
<div class="right">
${totalsTable(invoice, labels)}
</div>
</div>
<div class="notes">${notes.join('\n')}</div>
</div>`;
  const docTitle = `${labels.text(titleKey(invoice))} ${numberText}`;
  return htmlDocument(docTitle, 'ro', INVOICE_CSS, body);
}
