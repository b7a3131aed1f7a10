import { maskCnp } from '../../shared/ro/cnp';
import { taxCodeAsWritten } from '../../shared/ro/cui';

/**
 * A party's code as a screen or list shows it: the CUI as written on documents (RO for VAT payers),
 * else the CNP masked ("1•••••••••012", shared/ro/cnp.ts). The one place screens take it from: the
 * full CNP appears only on the printed documents and in the e-Factura XML, which need it.
 */
export function partyCodeOnScreen(party: { cui: string | null; vat_payer: boolean; country: string; cnp?: string | null }): string {
  return taxCodeAsWritten(party.cui, party.vat_payer, party.country) ?? maskCnp(party.cnp) ?? '';
}
