import { taxCodeAsWritten } from '../ro/cui';
import { formatIban } from '../ro/iban';
import { formatBani } from '../format';
import { esc, joinPresent } from './html';
import type { PrintLabels } from './labels';

/** What both parties share on paper: the seller (zSeller) and the buyer snapshot (zPartySnapshot). */
export interface PrintedParty {
  name: string;
  cui: string | null;
  vat_payer: boolean;
  reg_com: string | null;
  cnp?: string | null;
  address: string | null;
  city: string | null;
  county: string | null;
  country: string;
  iban: string | null;
  bank: string | null;
  capital_social_bani?: number | null;
  vat_on_collection?: boolean;
}

function row(label: string, value: string | null | undefined, cls = ''): string {
  if (!value) return '';
  return `<div class="row ${cls}"><span class="k">${label}:</span><span class="v">${esc(value)}</span></div>`;
}

export function partyBlock(title: string, party: PrintedParty | null, labels: PrintLabels, cssClass: string): string {
  if (!party) return `<section class="party ${cssClass}"><h3>${title}</h3><div class="name">—</div></section>`;
  const taxCode = taxCodeAsWritten(party.cui, party.vat_payer, party.country);
  const taxLabel = labels.html('print.taxCode');
  const address = joinPresent([party.address, party.city, party.county, party.country !== 'RO' ? party.country : null]);
  return `<section class="party ${cssClass}">
<h3>${title}</h3>
<div class="name">${esc(party.name)}</div>
${row(taxLabel, taxCode, 'tax-code')}
${row(labels.html('print.regCom'), party.reg_com)}
${row(labels.html('print.cnp'), party.cnp ?? null)}
${party.capital_social_bani != null ? row(labels.html('print.capital'), `${formatBani(party.capital_social_bani, 'ro')} lei`) : ''}
${row(labels.html('print.address'), address)}
${row(labels.html('print.iban'), party.iban ? formatIban(party.iban) : null, 'iban')}
${row(labels.html('print.bank'), party.bank)}
${party.vat_on_collection ? `<div class="row mention"><strong>${labels.html('print.vatOnCollection')}</strong></div>` : ''}
</section>`;
}
