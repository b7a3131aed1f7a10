import { mulDivRound, toBani } from '../money';
import { amountInWords } from '../ro/amount-in-words';
import type { Receipt } from '../schemas/receipt';
import { formatBani, formatDate, formatRate } from '../format';
import { BASE_CSS, esc, htmlDocument, joinPresent } from './html';
import { printLabels, type PrintLabels } from './labels';
import { taxCodeAsWritten } from '../ro/cui';
import { zSeller, type Seller } from './seller';

/** The payer's identification, which the receipt row carries only as `client.name`. */
export interface ReceiptPayer {
  cui?: string | null;
  vat_payer?: boolean;
  cnp?: string | null;
  reg_com?: string | null;
  address?: string | null;
  city?: string | null;
  county?: string | null;
  country?: string;
}

export interface ReceiptPrintOptions {
  payer?: ReceiptPayer;
  /** Name printed under the cashier's signature line. */
  cashier?: string;
  /** Print the stub copy below the customer's (a chitanțier's two copies on one A4). Default true. */
  withStub?: boolean;
}

const RECEIPT_CSS = `${BASE_CSS}
.copy { height: 128mm; padding: 2mm 0 0; position: relative; break-inside: avoid; }
.copy + .copy { border-top: 1pt dashed #888; padding-top: 7mm; margin-top: 5mm; }
.copy .which { position: absolute; right: 0; top: 0; font-size: 7pt; color: #777; }
.copy + .copy .which { top: 4mm; }
.head { display: flex; justify-content: space-between; align-items: flex-start; gap: 8mm; border-bottom: 2pt solid #1f3a5f; padding-bottom: 5pt; }
.head .seller .name { font-size: 11pt; font-weight: bold; }
.head .seller .row { display: flex; gap: 4pt; font-size: 8.5pt; }
.head .seller .k { color: #555; }
.head .titlebox { text-align: right; min-width: 62mm; }
.head h1 { font-size: 20pt; text-transform: uppercase; color: #1f3a5f; letter-spacing: 0.06em; }
.head h1 .en { font-size: 10pt; text-transform: none; letter-spacing: 0; }
.head .number { font-size: 13pt; font-weight: bold; }
.head .meta { font-size: 9pt; }
.text { margin-top: 9pt; font-size: 10.5pt; line-height: 2; }
.text .k { color: #333; }
.text .fill { border-bottom: 0.75pt dotted #555; font-weight: bold; }
.text .amount { font-size: 13pt; font-weight: bold; border: 1pt solid #1f3a5f; padding: 1pt 6pt; background: #eef3f8; white-space: nowrap; margin-right: -3pt; }
.text .words { font-style: italic; }
.sign { display: flex; justify-content: flex-end; margin-top: 12mm; }
.sign .box { width: 70mm; text-align: center; font-size: 9pt; }
.sign .line { border-bottom: 0.75pt solid #333; height: 12mm; margin-bottom: 2pt; }
.stamp { position: absolute; left: 30%; top: 45%; font-size: 44pt; font-weight: bold; color: rgba(200, 30, 30, 0.18); transform: rotate(-18deg); text-transform: uppercase; }
`;

/** Splits 'CH-0042' into series 'CH' and number '0042' (the contract's `<prefix>-<number>` pattern). */
export function splitReceiptNumber(receiptNumber: string): { series: string | null; number: string } {
  const match = /^(.*\S)-(\d+)$/.exec(receiptNumber);
  return match ? { series: match[1] ?? null, number: match[2] ?? receiptNumber } : { series: null, number: receiptNumber };
}

/** The amount in words the way a chitanță writes it, or null when it is not in lei and no rate is known. */
export function receiptAmountWords(receipt: Pick<Receipt, 'amount' | 'currency' | 'exchange_rate'>): { words: string; equivalent: boolean } | null {
  const bani = toBani(receipt.amount);
  if (receipt.currency === 'RON') return { words: amountInWords(bani, { omitDe: true }), equivalent: false };
  if (!receipt.exchange_rate) return null;
  const ron = mulDivRound(bani, Math.round(receipt.exchange_rate * 10_000), 10_000);
  return { words: amountInWords(ron, { omitDe: true }), equivalent: true };
}

export function representing(receipt: Receipt, labels: PrintLabels): string {
  const parts: string[] = [];
  if (receipt.invoice) parts.push(labels.html('print.receipt.invoicePayment', { number: receipt.invoice.number ?? receipt.invoice.id }));
  if (receipt.observations) parts.push(esc(receipt.observations));
  if (parts.length === 0) parts.push(labels.html('print.receipt.advance'));
  return parts.join('; ');
}

function copy(receipt: Receipt, seller: ReturnType<typeof zSeller.parse>, labels: PrintLabels, options: ReceiptPrintOptions, which: string): string {
  const { series, number } = splitReceiptNumber(receipt.receipt_number);
  const payer = options.payer ?? {};
  const payerCountry = payer.country ?? 'RO';
  const payerCode = taxCodeAsWritten(payer.cui, payer.vat_payer ?? false, payerCountry) ?? payer.cnp ?? null;
  const payerAddress = joinPresent([payer.address, payer.city, payer.county, payerCountry !== 'RO' ? payerCountry : null]);
  const currency = receipt.currency === 'RON' ? 'lei' : receipt.currency;
  const words = receiptAmountWords(receipt);
  const sellerAddress = joinPresent([seller.address, seller.city, seller.county]);
  const sellerCode = taxCodeAsWritten(seller.cui, seller.vat_payer, seller.country);
  const stamp = receipt.is_deleted ? labels.text('print.receipt.deleted') : receipt.is_draft ? labels.text('print.draft') : '';
  return `<section class="copy">
<div class="which">${esc(which)}</div>
${stamp ? `<div class="stamp">${esc(stamp)}</div>` : ''}
<div class="head">
<div class="seller">
<div class="name">${esc(seller.name)}</div>
<div class="row"><span class="k">${labels.html('print.taxCode')}:</span><span>${esc(sellerCode)}</span></div>
${seller.reg_com ? `<div class="row"><span class="k">${labels.html('print.regCom')}:</span><span>${esc(seller.reg_com)}</span></div>` : ''}
${seller.capital_social_bani != null ? `<div class="row"><span class="k">${labels.html('print.capital')}:</span><span>${formatBani(seller.capital_social_bani, 'ro')} lei</span></div>` : ''}
${sellerAddress ? `<div class="row"><span class="k">${labels.html('print.address')}:</span><span>${esc(sellerAddress)}</span></div>` : ''}
</div>
<div class="titlebox">
<h1>${labels.html('print.receipt.title')}</h1>
<div class="number">${esc(receipt.receipt_number)}</div>
<div class="meta">${series ? `${labels.html('print.series')} <strong>${esc(series)}</strong> ${labels.html('print.number')} <strong>${esc(number)}</strong><br>` : ''}${labels.html('print.receipt.date')}: <strong>${formatDate(receipt.date)}</strong></div>
</div>
</div>
<div class="text">
<span class="k">${labels.html('print.receipt.receivedFrom')}</span> <span class="fill payer">${esc(receipt.client.name)}</span>${
    payerCode ? `, <span class="k">${labels.html('print.receipt.payerCode')}</span> <span class="fill">${esc(payerCode)}</span>` : ''
  }${payer.reg_com ? `, <span class="k">${labels.html('print.regCom')}</span> <span class="fill">${esc(payer.reg_com)}</span>` : ''}${
    payerAddress ? `, <span class="k">${labels.html('print.receipt.payerAddress')}</span> <span class="fill">${esc(payerAddress)}</span>` : ''
  },<br>
<span class="k">${labels.html('print.receipt.sumOf')}</span> <span class="amount">${formatBani(toBani(receipt.amount), 'ro')} ${esc(currency)}</span>${
    receipt.currency !== 'RON' && receipt.exchange_rate ? ` <span class="muted">(1 ${esc(receipt.currency)} = ${formatRate(receipt.exchange_rate, 'ro')} lei)</span>` : ''
  }${words ? `, <span class="k">${labels.html('print.receipt.inWords')}</span> ${words.equivalent ? `${labels.html('print.receipt.equivalent')} ` : ''}<span class="fill words">${esc(words.words)}</span>` : ''},<br>
<span class="k">${labels.html('print.receipt.representing')}</span> <span class="fill representing">${representing(receipt, labels)}</span>.
</div>
<div class="sign"><div class="box"><div class="line"></div>${labels.html('print.receipt.cashier')}${options.cashier ? `: ${esc(options.cashier)}` : ''}<br><span class="muted">${labels.html('print.receipt.signature')}</span></div></div>
</section>`;
}

/**
 * The chitanță (OMFP 2634/2015, form 14-4-1): the issuer's identification, series, number and date,
 * "Am primit de la" with the payer's identification, the sum in figures and in words, what it
 * represents, and the cashier's signature. Two copies on one A4, like a receipt book: the customer's
 * and the stub that stays with the firm.
 */
export function renderReceiptHtml(receipt: Receipt, sellerInput: Seller, options: ReceiptPrintOptions = {}): string {
  const seller = zSeller.parse(sellerInput);
  const labels = printLabels(receipt.language);
  const copies = [copy(receipt, seller, labels, options, labels.text('print.receipt.copy1'))];
  if (options.withStub !== false) copies.push(copy(receipt, seller, labels, options, labels.text('print.receipt.copy2')));
  return htmlDocument(`${labels.text('print.receipt.title')} ${receipt.receipt_number}`, 'ro', RECEIPT_CSS, `<div class="doc receipt">${copies.join('\n')}</div>`);
}
