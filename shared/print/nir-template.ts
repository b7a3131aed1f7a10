import type { NirView } from '../ipc/contract-stock';
import { toMilli } from '../invoice-math';
import { mulDivRound, toBani } from '../money';
import { taxCodeAsWritten } from '../ro/cui';
import { formatBani, formatDate, formatQuantity, formatScaled } from '../format';
import { BASE_CSS, esc, htmlDocument, joinPresent } from './html';
import { zSeller, type Seller } from './seller';

/**
 * The printed NIR: form 14-3-1A "Notă de recepție și constatare de diferențe" (OMFP 2634/2015), the
 * legal reception document of goods entering a warehouse. Its columns: the goods, the unit, the
 * quantity on the supplier's documents and the quantity received, the purchase price and value
 * without VAT, the VAT, the sale price (shelf price, VAT included) and its value, and the
 * differences found (quantity and value), then the reception committee's and the storekeeper's
 * signatures. A Romanian legal form: printed in Romanian whatever the UI language. A4 landscape, so
 * the thirteen columns keep legible widths.
 */

const NIR_CSS = `${BASE_CSS}
@page { size: A4 landscape; margin: 10mm 10mm 12mm 10mm; }
.top { display: flex; justify-content: space-between; align-items: flex-start; gap: 10mm; }
.top .unit .name { font-size: 11pt; font-weight: bold; }
.top .unit .row { font-size: 8.5pt; }
.top .form { font-size: 7.5pt; color: #555; text-align: right; }
h1 { text-align: center; font-size: 14pt; text-transform: uppercase; letter-spacing: 0.04em; margin-top: 4mm; color: #1f3a5f; }
.ids { display: flex; justify-content: center; gap: 10mm; font-size: 10pt; margin-top: 2mm; }
.ids b { font-size: 11pt; }
.intro { margin-top: 4mm; font-size: 9.5pt; line-height: 1.6; }
table.nir { width: 100%; border-collapse: collapse; margin-top: 3mm; font-size: 8pt; }
table.nir th, table.nir td { border: 0.75pt solid #333; padding: 2pt 3pt; vertical-align: top; }
table.nir th { background: #eef3f8; font-weight: bold; text-align: center; font-size: 7.5pt; }
table.nir td.n { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
table.nir td.c { text-align: center; }
table.nir tr.colno td { text-align: center; font-size: 7pt; color: #555; padding: 1pt; }
table.nir tr.total td { font-weight: bold; background: #f5f7fa; }
.signs { display: flex; justify-content: space-between; margin-top: 8mm; font-size: 9pt; }
.signs .box { width: 45%; }
.signs .line { border-bottom: 0.75pt dotted #555; height: 8mm; }
`;

interface NirLineMath {
  receivedMilli: number;
  invoicedMilli: number;
  costBani: number;
  vatBani: number;
  salePriceBani: number;
  saleValueBani: number;
  diffMilli: number;
  diffBani: number;
}

/** The amounts of one line, in integers: value received at cost, its VAT at the product's rate, the value at the shelf price. */
function lineMath(nir: NirView, i: number): NirLineMath {
  const line = nir.nir.lines![i]!;
  const product = nir.lines[i]!;
  const receivedMilli = toMilli(line.quantity_received);
  const invoicedMilli = toMilli(line.quantity_invoiced);
  const costBani = toBani(line.value);
  const rateBp = Math.round(product.vat_rate * 100);
  const vatBani = mulDivRound(costBani, rateBp, 10_000);
  const salePriceBani = product.price_includes_vat ? product.price_bani : product.price_bani + mulDivRound(product.price_bani, rateBp, 10_000);
  const saleValueBani = mulDivRound(receivedMilli, salePriceBani, 1000);
  const unitCostMilli = Math.round(line.unit_cost * 100_000);
  const diffMilli = receivedMilli - invoicedMilli;
  const diffBani = mulDivRound(diffMilli, unitCostMilli, 1_000_000);
  return { receivedMilli, invoicedMilli, costBani, vatBani, salePriceBani, saleValueBani, diffMilli, diffBani };
}

export function renderNirHtml(nir: NirView, sellerInput: Seller): string {
  const seller = zSeller.parse(sellerInput);
  const n = nir.nir;
  const lines = n.lines ?? [];
  const q = (v: number) => formatQuantity(v, 'ro');
  const lei = (bani: number) => formatBani(bani, 'ro');
  const maths = lines.map((_l, i) => lineMath(nir, i));
  const sum = (pick: (m: NirLineMath) => number) => maths.reduce((s, m) => s + pick(m), 0);
  const rows = lines
    .map((l, i) => {
      const m = maths[i]!;
      const p = nir.lines[i]!;
      return `<tr>
<td class="c">${i + 1}</td>
<td>${esc(p.name)}</td>
<td class="c">${esc(p.unit)}</td>
<td class="n">${q(l.quantity_invoiced)}</td>
<td class="n">${q(l.quantity_received)}</td>
<td class="n">${formatScaled(Math.round(l.unit_cost * 100_000), 5, 'ro', 2)}</td>
<td class="n">${lei(m.costBani)}</td>
<td class="n">${formatScaled(Math.round(p.vat_rate * 100), 2, 'ro', 0)}%</td>
<td class="n">${lei(m.vatBani)}</td>
<td class="n">${lei(m.salePriceBani)}</td>
<td class="n">${lei(m.saleValueBani)}</td>
<td class="n">${m.diffMilli ? q(l.difference) : ''}</td>
<td class="n">${m.diffMilli ? lei(m.diffBani) : ''}</td>
</tr>`;
    })
    .join('\n');
  const supplierCui = n.supplier_cui ? taxCodeAsWritten(n.supplier_cui, false, 'RO') ?? n.supplier_cui : null;
  const body = `
<div class="top">
  <div class="unit">
    <div class="name">Unitatea: ${esc(seller.name)}</div>
    <div class="row">CUI: ${esc(taxCodeAsWritten(seller.cui, seller.vat_payer, seller.country) ?? seller.cui)}${seller.reg_com ? ` · Reg. Com.: ${esc(seller.reg_com)}` : ''}</div>
    <div class="row">${esc(joinPresent([seller.address, seller.city, seller.county]))}</div>
  </div>
  <div class="form">Cod 14-3-1A</div>
</div>
<h1>Notă de recepție și constatare de diferențe</h1>
<div class="ids"><span>Nr. <b>${esc(n.full_number)}</b></span><span>Data: <b>${esc(formatDate(n.date))}</b></span><span>Gestiunea: <b>${esc(nir.warehouse_name)}</b></span></div>
<p class="intro">Subsemnații, membri ai comisiei de recepție, am procedat la recepționarea valorilor materiale furnizate de
<b>${esc(n.supplier_name)}</b>${supplierCui ? `, CUI ${esc(supplierCui)}` : ''}, pe baza documentului
<b>factura nr. ${esc(n.document_number ?? '—')}</b>, constatându-se următoarele:</p>
<table class="nir">
<thead>
<tr>
  <th rowspan="2">Nr. crt.</th>
  <th rowspan="2">Denumirea bunurilor recepționate</th>
  <th rowspan="2">U.M.</th>
  <th colspan="2">Cantitatea</th>
  <th colspan="2">Preț de achiziție (fără TVA)</th>
  <th colspan="2">TVA</th>
  <th colspan="2">Preț de vânzare (cu TVA)</th>
  <th colspan="2">Diferențe</th>
</tr>
<tr>
  <th>conform documentelor</th><th>recepționată</th>
  <th>preț unitar (lei)</th><th>valoare (lei)</th>
  <th>cota</th><th>valoare (lei)</th>
  <th>preț unitar (lei)</th><th>valoare (lei)</th>
  <th>cantitate</th><th>valoare (lei)</th>
</tr>
</thead>
<tbody>
<tr class="colno"><td>0</td><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td><td>6</td><td>7</td><td>8</td><td>9</td><td>10</td><td>11</td><td>12</td></tr>
${rows}
<tr class="total">
  <td></td><td colspan="5">Total</td>
  <td class="n">${lei(sum((m) => m.costBani))}</td><td></td>
  <td class="n">${lei(sum((m) => m.vatBani))}</td><td></td>
  <td class="n">${lei(sum((m) => m.saleValueBani))}</td><td></td>
  <td class="n">${sum((m) => Math.abs(m.diffBani)) ? lei(sum((m) => m.diffBani)) : ''}</td>
</tr>
</tbody>
</table>
<div class="signs">
  <div class="box">
    <div><b>Comisia de recepție</b> (numele, prenumele și semnătura)</div>
    <div class="line"></div><div class="line"></div><div class="line"></div>
  </div>
  <div class="box">
    <div><b>Primit în gestiune</b> — gestionar (numele, prenumele, semnătura și data)</div>
    <div class="line"></div><div class="line"></div>
  </div>
</div>`;
  return htmlDocument(`NIR ${n.full_number}`, 'ro', NIR_CSS, body);
}
