import { INVOICE_REFERENCE_KINDS, type Invoice } from '../schemas/invoice';
import { taxCodeAsWritten } from '../ro/cui';
import { formatIban } from '../ro/iban';
import { formatBani, formatDate, formatPercent, formatQuantity, formatRate } from '../format';
import { percentToBp, storedBreakdownCategory } from '../invoice-math';
import { esc, htmlDocument, joinPresent } from './html';
import {
  adjustmentEffect, amount, breakdownLabelKey, currencyLabel, exemptionFootnotes, legalGround, mentions, money, ronTotals, titleKey, unitPriceCell, type InvoicePrintOptions,
} from './invoice-template';
import { printLabels, type PrintLabels } from './labels';
import type { PrintedParty } from './party';
import { zSeller, type Seller } from './seller';
import { thermalCss } from './thermal';

function kv(k: string, v: string, cls = ''): string {
  return `<div class="kv ${cls}"><span class="k">${k}</span><span class="v">${v}</span></div>`;
}

/** A party narrowly: one fact per line, the same facts as the A4 block (art. 319 (20) e, f). */
export function thermalParty(party: PrintedParty | null, labels: PrintLabels, cls: string): string {
  if (!party) return `<div class="${cls}">—</div>`;
  const taxCode = taxCodeAsWritten(party.cui, party.vat_payer, party.country);
  const address = joinPresent([party.address, party.city, party.county, party.country !== 'RO' ? party.country : null]);
  const rows = [
    `<div class="name">${esc(party.name)}</div>`,
    taxCode ? `<div>${labels.html('print.taxCode')}: ${esc(taxCode)}</div>` : '',
    party.reg_com ? `<div>${labels.html('print.regCom')}: ${esc(party.reg_com)}</div>` : '',
    party.cnp ? `<div>${labels.html('print.cnp')}: ${esc(party.cnp)}</div>` : '',
    party.capital_social_bani != null ? `<div>${labels.html('print.capital')}: ${formatBani(party.capital_social_bani, 'ro')} lei</div>` : '',
    address ? `<div>${labels.html('print.address')}: ${esc(address)}</div>` : '',
    party.iban ? `<div>${labels.html('print.iban')}: ${esc(formatIban(party.iban))}</div>` : '',
    party.bank ? `<div>${labels.html('print.bank')}: ${esc(party.bank)}</div>` : '',
    party.vat_on_collection ? `<div><strong>${labels.html('print.vatOnCollection')}</strong></div>` : '',
  ];
  return `<div class="${cls}">${rows.filter(Boolean).join('\n')}</div>`;
}

/**
 * The invoice on an 80 mm roll, with every mention of the A4 one (Codul fiscal art. 319 (20)):
 * series and number, dates, both parties, each line (description, quantity and unit, unit price
 * without VAT, discount, value, rate, VAT), VAT per rate, totals, VAT in lei for another currency,
 * legal grounds of 0% lines, reverse charge and references. Lines stack instead of forming columns.
 */
export function renderThermalInvoiceHtml(invoice: Invoice, sellerInput: Seller, options: InvoicePrintOptions = {}): string {
  const seller = zSeller.parse(sellerInput);
  const lines = invoice.lines;
  if (!lines) throw new Error('renderThermalInvoiceHtml needs the invoice with its lines (expand lines)');
  const labels = printLabels(invoice.language);
  const footnotes = exemptionFootnotes(lines, invoice.reverse_charge, labels);
  const isDraft = invoice.is_draft || invoice.status === 'draft';
  const cur = esc(currencyLabel(invoice.currency));
  const numberText = isDraft ? labels.text('print.draft') : (invoice.full_number ?? String(invoice.number ?? ''));

  const meta: string[] = [];
  if (!isDraft && invoice.series_name) {
    meta.push(kv(`${labels.html('print.series')} ${esc(invoice.series_name)}`, `${labels.html('print.number')} ${esc(invoice.number)}`));
  }
  meta.push(kv(labels.html('print.issueDate'), formatDate(invoice.issue_date)));
  if (invoice.delivery_date && invoice.delivery_date !== invoice.issue_date) meta.push(kv(labels.html('print.deliveryDate'), formatDate(invoice.delivery_date)));
  if (invoice.due_date) meta.push(kv(labels.html('print.dueDate'), formatDate(invoice.due_date)));
  meta.push(kv(labels.html('print.currency'), esc(invoice.currency)));
  if (invoice.currency !== 'RON' && invoice.exchange_rate) {
    meta.push(kv(labels.html('print.exchangeRate'), `1 ${esc(invoice.currency)} = ${formatRate(invoice.exchange_rate, 'ro')} lei`));
  }
  if (invoice.payment_method) meta.push(kv(labels.html('print.paymentMethod'), labels.html(`print.payment.${invoice.payment_method}`)));
  for (const kind of INVOICE_REFERENCE_KINDS) {
    const value = invoice.references?.[kind];
    if (value) meta.push(kv(labels.html(`print.ref.${kind}`), esc(value)));
  }

  const lineRows = lines.map((line, index) => {
    const ground = legalGround(line, labels);
    const note = ground ? footnotes.get(ground) : undefined;
    const rate = invoice.reverse_charge ? 'TI' : `${formatPercent(line.vat_rate, 'ro')}${note ? `<sup>${note}</sup>` : ''}`;
    const discount = line.discount_percent > 0 || line.discount !== 0
      ? `<div class="calc small"><span>${labels.html('print.col.discount')}${line.discount_percent > 0 ? ` ${formatPercent(line.discount_percent, 'ro')}` : ''}</span><span>-${money(Math.abs(line.discount))}</span></div>`
      : '';
    return `<div class="line">
<div class="desc">${index + 1}. ${esc(line.description)}</div>
<div class="calc"><span>${formatQuantity(line.quantity, 'ro')} ${esc(line.unit)} × ${unitPriceCell(line, labels)}</span><span>${money(line.net)}</span></div>
${discount}
<div class="calc small"><span>${labels.html('print.col.vatRate')} ${rate}</span><span>${labels.html('print.vat')} ${money(line.vat)}</span></div>
</div>`;
  });

  const breakdown = invoice.vat_breakdown.map((entry) => {
    const category = storedBreakdownCategory({ vat_rate_bp: percentToBp(entry.vat_rate), vat_category: entry.vat_category }, false);
    const rate = invoice.reverse_charge ? labels.html('print.reverseCharge') : `${formatPercent(entry.vat_rate, 'ro')}${category ? ` (${labels.html(breakdownLabelKey(invoice, category))})` : ''}`;
    return `<tr><td>${rate}</td><td>${money(entry.net)}</td><td>${money(entry.vat)}</td></tr>`;
  });

  const ron = ronTotals(invoice);
  // Discounts and charges on the whole invoice: the lines' sum, each of them, then the taxable total (as on A4 and in the XML).
  const adjustments = invoice.allowances_charges ?? [];
  const adjustmentRows = adjustments.length && invoice.totals.lines_net !== undefined
    ? [
        kv(labels.html('print.linesNet'), `${money(invoice.totals.lines_net)} ${cur}`),
        ...adjustments.map((a) => kv(
          `<span class="small">${labels.html(a.charge ? 'print.charge' : 'print.allowance')}${a.reason ? `: ${esc(a.reason)}` : ''} (${formatPercent(a.vat_rate, 'ro')})</span>`,
          `${money(adjustmentEffect(a))} ${cur}`,
        )),
      ]
    : [];
  const totals = [
    ...adjustmentRows,
    kv(labels.html('print.totalNet'), `${money(invoice.totals.net)} ${cur}`),
    amount(invoice.totals.discount) !== 0 ? kv(labels.html('print.totalDiscount'), `-${formatBani(Math.abs(amount(invoice.totals.discount)), 'ro')} ${cur}`) : '',
    kv(labels.html('print.totalVat'), `${money(invoice.totals.vat)} ${cur}`),
    kv(labels.html('print.totalDue'), `${money(invoice.totals.total)} ${cur}`, 'grand'),
    ron ? kv(labels.html('print.equivalentRon'), `${formatBani(ron.total, 'ro')} lei`) : '',
    ron ? kv(`<strong>${labels.html('print.vatInRon')}</strong>`, `<strong>${formatBani(ron.vat, 'ro')} lei</strong>`) : '',
  ];
  const paid = amount(invoice.amount_paid);
  if (paid !== 0 && invoice.document_type === 'fiscal') {
    totals.push(kv(labels.html('print.paid'), `${money(invoice.amount_paid)} ${cur}`));
    totals.push(kv(`<strong>${labels.html('print.amountDue')}</strong>`, `<strong>${money(invoice.amount_due)} ${cur}</strong>`));
  }

  const notes: string[] = [];
  if (invoice.observations) notes.push(`<div><strong>${labels.html('print.observations')}:</strong> ${esc(invoice.observations)}</div>`);
  if (invoice.document_type === 'proforma') notes.push(`<div><strong>${labels.html('print.proformaNote')}</strong></div>`);
  if (invoice.efactura_status === 'accepted') notes.push(`<div>${labels.html('print.efactura')}</div>`);
  if (invoice.document_type === 'fiscal') notes.push(`<div class="small">${labels.html('print.signatureNote')}</div>`);

  const body = `<div class="t invoice">
${seller.logo ? `<img class="logo" src="${esc(seller.logo)}" alt="">` : ''}
${thermalParty({ ...seller, cnp: null }, labels, 'seller center')}
<div class="rule"></div>
<h1>${labels.html(titleKey(invoice))}</h1>
<div class="number">${esc(numberText)}</div>
${isDraft ? `<div class="stamp">${esc(labels.text('print.draft'))}</div>` : ''}
${meta.join('\n')}
<div class="rule"></div>
<div class="small"><strong>${labels.html('print.buyer')}</strong></div>
${thermalParty(invoice.buyer, labels, 'buyer')}
<div class="rule"></div>
${lineRows.join('\n')}
<div class="rule"></div>
<div class="small"><strong>${labels.html('print.vatBreakdown')}</strong></div>
<table><thead><tr><th>${labels.html('print.col.vatRate')}</th><th>${labels.html('print.taxBase')}</th><th>${labels.html('print.vat')}</th></tr></thead>
<tbody>${breakdown.join('\n')}</tbody></table>
<div class="rule"></div>
${totals.filter(Boolean).join('\n')}
${mentions(invoice, labels, footnotes, options).replace(/class="box/g, 'class="mention')}
<div class="rule"></div>
${notes.join('\n')}
</div>`;
  // About 14 mm per line, 6 per VAT rate, plus the fixed blocks; a long invoice runs on to a second strip.
  const height = 150 + lines.length * 14 + invoice.vat_breakdown.length * 6 + adjustmentRows.length * 6 + meta.length * 2 + (footnotes.size + notes.length) * 8 + (seller.logo ? 20 : 0);
  return htmlDocument(`${labels.text(titleKey(invoice))} ${numberText}`, 'ro', thermalCss(height), body);
}
