import { toBani } from '../money';
import { taxCodeAsWritten } from '../ro/cui';
import type { Receipt } from '../schemas/receipt';
import { formatBani, formatDate, formatRate } from '../format';
import { esc, htmlDocument, joinPresent } from './html';
import { printLabels } from './labels';
import { receiptAmountWords, representing, splitReceiptNumber, type ReceiptPrintOptions } from './receipt-template';
import { zSeller, type Seller } from './seller';
import { thermalCss } from './thermal';
import { thermalParty } from './thermal-invoice-template';

/**
 * The chitanță on an 80 mm roll, with the content of the A4 form (OMFP 2634/2015, 14-4-1): issuer,
 * series, number and date, payer with identification, sum in figures and in words, what it pays,
 * cashier's signature. One copy per strip: the firm's copy is a second print (`withStub`).
 */
export function renderThermalReceiptHtml(receipt: Receipt, sellerInput: Seller, options: ReceiptPrintOptions = {}): string {
  const seller = zSeller.parse(sellerInput);
  const labels = printLabels(receipt.language);
  const { series, number } = splitReceiptNumber(receipt.receipt_number);
  const payer = options.payer ?? {};
  const payerCountry = payer.country ?? 'RO';
  const payerCode = taxCodeAsWritten(payer.cui, payer.vat_payer ?? false, payerCountry) ?? payer.cnp ?? null;
  const payerAddress = joinPresent([payer.address, payer.city, payer.county, payerCountry !== 'RO' ? payerCountry : null]);
  const currency = receipt.currency === 'RON' ? 'lei' : receipt.currency;
  const words = receiptAmountWords(receipt);
  const stamp = receipt.is_deleted ? labels.text('print.receipt.deleted') : receipt.is_draft ? labels.text('print.draft') : '';
  const copy = (which: string) => `<section class="t receipt">
${seller.logo ? `<img class="logo" src="${esc(seller.logo)}" alt="">` : ''}
${thermalParty({ ...seller, cnp: null, iban: null, bank: null }, labels, 'seller center')}
<div class="rule"></div>
<h1>${labels.html('print.receipt.title')}</h1>
<div class="number">${esc(receipt.receipt_number)}</div>
${stamp ? `<div class="stamp">${esc(stamp)}</div>` : ''}
${series ? `<div class="kv"><span>${labels.html('print.series')} ${esc(series)}</span><span>${labels.html('print.number')} ${esc(number)}</span></div>` : ''}
<div class="kv"><span>${labels.html('print.receipt.date')}</span><span>${formatDate(receipt.date)}</span></div>
<div class="rule"></div>
<div>${labels.html('print.receipt.receivedFrom')} <strong class="payer">${esc(receipt.client.name)}</strong></div>
${payerCode ? `<div>${labels.html('print.receipt.payerCode')}: ${esc(payerCode)}</div>` : ''}
${payer.reg_com ? `<div>${labels.html('print.regCom')}: ${esc(payer.reg_com)}</div>` : ''}
${payerAddress ? `<div>${labels.html('print.receipt.payerAddress')}: ${esc(payerAddress)}</div>` : ''}
<div class="kv grand"><span>${labels.html('print.receipt.sumOf')}</span><span>${formatBani(toBani(receipt.amount), 'ro')} ${esc(currency)}</span></div>
${receipt.currency !== 'RON' && receipt.exchange_rate ? `<div class="small">1 ${esc(receipt.currency)} = ${formatRate(receipt.exchange_rate, 'ro')} lei</div>` : ''}
${words ? `<div>${labels.html('print.receipt.inWords')} ${words.equivalent ? `${labels.html('print.receipt.equivalent')} ` : ''}<em class="words">${esc(words.words)}</em></div>` : ''}
<div>${labels.html('print.receipt.representing')} <span class="representing">${representing(receipt, labels)}</span></div>
<div class="rule"></div>
<div class="center" style="margin-top: 8mm">______________________<br>${labels.html('print.receipt.cashier')}${options.cashier ? `: ${esc(options.cashier)}` : ''} · ${labels.html('print.receipt.signature')}</div>
<div class="center small">${esc(which)}</div>
</section>`;
  const copies = [copy(labels.text('print.receipt.copy1'))];
  if (options.withStub === true) copies.push(`<div class="rule"></div>${copy(labels.text('print.receipt.copy2'))}`);
  const height = (130 + (seller.logo ? 20 : 0)) * copies.length;
  return htmlDocument(`${labels.text('print.receipt.title')} ${receipt.receipt_number}`, 'ro', thermalCss(height), copies.join('\n'));
}
