import { Readable } from 'node:stream';
import type { Db } from '../../db/types';
import { escapeHtml as esc } from '../../../shared/print/pdf-layout';
import { formatRon } from '../../../shared/money';
import { formatDateRo } from '../../../shared/accounting/format';
import { dailyNetsFrom, entriesOn, balanceBefore, type Register } from './cash-register';
import type { Firm } from './journal-files';
import type { Period } from './journal-source';

/**
 * Registrul de casă printed on its legal form (OMFP 2634/2015, cod 14-4-7A): one page per day that has
 * entries, the previous day's balance carried over, the day's receipts and payments, the closing
 * balance, and the cashier's and the accountant's signatures.
 */

const CSS = `
@page { size: A4; margin: 12mm; }
body { font-family: 'Liberation Sans', Arial, sans-serif; font-size: 9pt; color: #000; }
.day { page-break-after: always; }
.day:last-child { page-break-after: auto; }
.head { display: flex; justify-content: space-between; }
h1 { text-align: center; font-size: 14pt; margin: 4mm 0 1mm; letter-spacing: 1pt; }
.sub { text-align: center; margin-bottom: 4mm; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.6pt solid #000; padding: 2px 4px; }
th { font-weight: bold; background: #eee; }
td.n { text-align: right; white-space: nowrap; }
tr.carry td, tr.total td, tr.final td { font-weight: bold; }
.sign { display: flex; justify-content: space-between; margin-top: 12mm; }
.form { font-size: 7pt; }
`;

function amount(bani: number, currency: string): string {
  const text = formatRon(bani, 'ro');
  return currency === 'RON' ? text.replace(/ lei$/, '') : text.replace(/ lei$/, '');
}

export function cashRegisterHtml(db: Db, r: Register, period: Period, firm: Firm, wp: { name: string; address: string | null }): Readable {
  async function* parts(): AsyncGenerator<string> {
    yield `<!doctype html><html lang="ro"><head><meta charset="utf-8"><title>Registru de casă</title><style>${CSS}</style></head><body>`;
    let balance = await balanceBefore(db, r, period.start_date);
    const days = await dailyNetsFrom(db, r, period.start_date, period.end_date);
    if (!days.length) {
      yield `<div class="day"><h1>REGISTRU DE CASĂ</h1><div class="sub">${esc(firm.name)} · ${esc(wp.name)} · ${esc(r.currency)}</div>`;
      yield `<p>Nicio operațiune de casă între ${esc(formatDateRo(period.start_date))} și ${esc(formatDateRo(period.end_date))}. Sold: ${esc(amount(balance, r.currency))} ${esc(r.currency === 'RON' ? 'lei' : r.currency)}.</p></div>`;
    }
    for (const d of days) {
      const entries = await entriesOn(db, r, d.date);
      const opening = balance;
      const totalIn = entries.reduce((s, e) => s + e.in_bani, 0);
      const totalOut = entries.reduce((s, e) => s + e.out_bani, 0);
      balance = opening + totalIn - totalOut;
      yield `<div class="day"><div class="head"><div><b>${esc(firm.name)}</b><br>CUI ${esc(firm.cui)}<br>${esc(wp.name)}${wp.address ? `, ${esc(wp.address)}` : ''}</div>` +
        `<div class="form">Cod 14-4-7A</div></div>`;
      yield `<h1>REGISTRU DE CASĂ</h1><div class="sub">Ziua ${esc(formatDateRo(d.date))} · ${esc(r.currency === 'RON' ? 'lei' : r.currency)}</div>`;
      yield '<table><thead><tr><th>Nr. crt.</th><th>Nr. act casă</th><th>Nr. anexă</th><th>Explicații</th><th>Încasări</th><th>Plăți</th></tr></thead><tbody>';
      yield `<tr class="carry"><td></td><td></td><td></td><td>Report / Sold ziua precedentă</td><td class="n">${esc(amount(opening, r.currency))}</td><td></td></tr>`;
      let n = 0;
      for (const e of entries) {
        n += 1;
        yield `<tr><td class="n">${n}</td><td>${esc(e.document_number ?? '')}</td><td></td><td>${esc(e.explanation)}</td>` +
          `<td class="n">${e.in_bani ? esc(amount(e.in_bani, r.currency)) : ''}</td><td class="n">${e.out_bani ? esc(amount(e.out_bani, r.currency)) : ''}</td></tr>`;
      }
      yield `<tr class="total"><td></td><td></td><td></td><td>TOTAL</td><td class="n">${esc(amount(opening + totalIn, r.currency))}</td><td class="n">${esc(amount(totalOut, r.currency))}</td></tr>`;
      yield `<tr class="final"><td></td><td></td><td></td><td>SOLD FINAL</td><td class="n">${esc(amount(balance, r.currency))}</td><td></td></tr>`;
      yield '</tbody></table><div class="sign"><div>Casier,<br><br>..............................</div><div>Compartiment financiar-contabil,<br><br>..............................</div></div></div>';
    }
    yield '</body></html>';
  }
  return Readable.from(parts());
}
