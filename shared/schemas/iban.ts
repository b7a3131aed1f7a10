import { ibanMod97, normalizeIban, validateRoIban } from '../ro/iban';

/**
 * Any country's IBAN, for bank accounts and clients: Romanian ones get the strict Romanian rules
 * (`shared/ro/iban.ts`), foreign ones the ISO 13616 checks every IBAN obeys (two letters, two check
 * digits, the registry length of that country when we know it, mod 97-10 = 1). A foreign IBAN of a
 * country missing from the table below is still accepted on its checksum: the registry grows, and
 * refusing a real account is worse than missing a length check.
 */
export type IbanReason = 'format' | 'length' | 'checksum';
export type IbanResult = { ok: true; value: string; country: string } | { ok: false; reason: IbanReason };

/** IBAN lengths of the SWIFT IBAN registry (ISO 13616), by country. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21,
  CR: 22, CY: 28, CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27,
  GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26,
  IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24,
  ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29,
  RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24,
  TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

export function validateIban(input: string): IbanResult {
  if (typeof input !== 'string') return { ok: false, reason: 'format' };
  const iban = normalizeIban(input);
  if (iban.startsWith('RO')) {
    const ro = validateRoIban(iban);
    if (ro.ok) return { ok: true, value: ro.value, country: 'RO' };
    return { ok: false, reason: ro.reason === 'checksum' || ro.reason === 'length' ? ro.reason : 'format' };
  }
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return { ok: false, reason: 'format' };
  const country = iban.slice(0, 2);
  const expected = IBAN_LENGTHS[country];
  if (expected !== undefined && iban.length !== expected) return { ok: false, reason: 'length' };
  if (ibanMod97(iban) !== 1) return { ok: false, reason: 'checksum' };
  return { ok: true, value: iban, country };
}

/** `English|Română` texts, picked by the caller's locale where they are shown. */
export const IBAN_REASON_MESSAGES: Record<IbanReason, string> = {
  format:
    'Not an IBAN: 2 letters, 2 check digits, then letters and digits|Nu este un IBAN: 2 litere, 2 cifre de control, apoi litere și cifre',
  length: 'Wrong IBAN length for its country|Lungimea IBAN-ului nu corespunde țării',
  checksum: 'IBAN check digits do not match (check for a typo)|Cifrele de control ale IBAN-ului nu se potrivesc (verificați o greșeală de tastare)',
};
