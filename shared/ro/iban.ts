import { z } from 'zod';

/**
 * Romanian IBAN: 'RO' + 2 check digits + 4-letter bank code (the first four letters of the bank's
 * BIC) + 16 alphanumerics = 24 characters. Check digits per ISO 13616 / ISO 7064 mod 97-10.
 */
export type RoIbanResult =
  | { ok: true; value: string; bank_code: string }
  | { ok: false; reason: 'format' | 'country' | 'length' | 'checksum' };

/**
 * Remainder modulo 97 of an IBAN rearranged for checking (first four characters moved to the end,
 * letters as 10..35). Fed digit by digit, so the running value never exceeds 970 + 9 and plain
 * numbers suffice: no BigInt, no precision loss on a 50-digit number.
 */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    if (code >= 48 && code <= 57) {
      remainder = (remainder * 10 + (code - 48)) % 97;
    } else if (code >= 65 && code <= 90) {
      // A letter stands for two digits (A = 10 ... Z = 35).
      remainder = (remainder * 100 + (code - 55)) % 97;
    } else {
      throw new RangeError(`Not an IBAN character: ${JSON.stringify(ch)}`);
    }
  }
  return remainder;
}

/** Check digits for a country code and BBAN ('RO', 'BTRL...'), as two characters ('49'). */
export function ibanCheckDigits(country: string, bban: string): string {
  const check = 98 - ibanMod97(`${country}00${bban}`);
  return check < 10 ? `0${check}` : String(check);
}

/** Uppercase, spaces removed: what we store and compare. */
export function normalizeIban(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

export function validateRoIban(input: string): RoIbanResult {
  if (typeof input !== 'string') return { ok: false, reason: 'format' };
  const iban = normalizeIban(input);
  if (!/^[A-Z0-9]*$/.test(iban) || iban.length < 4) return { ok: false, reason: 'format' };
  if (!iban.startsWith('RO')) return { ok: false, reason: 'country' };
  if (iban.length !== 24) return { ok: false, reason: 'length' };
  if (!/^RO\d{2}[A-Z]{4}[A-Z0-9]{16}$/.test(iban)) return { ok: false, reason: 'format' };
  if (ibanMod97(iban) !== 1) return { ok: false, reason: 'checksum' };
  return { ok: true, value: iban, bank_code: iban.slice(4, 8) };
}

export function isValidRoIban(input: string): boolean {
  return validateRoIban(input).ok;
}

/** 'RO49 AAAA 1B31 0075 9384 0000' (groups of 4, the print form). Works on any IBAN string. */
export function formatIban(input: string): string {
  return normalizeIban(input).replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Bank code (BIC prefix, IBAN characters 5-8) -> bank name, for the main banks in Romania. Not
 * exhaustive: an unknown code is not an error, the IBAN may still be valid.
 */
export const RO_BANK_NAMES: Readonly<Record<string, string>> = {
  BTRL: 'Banca Transilvania',
  RNCB: 'Banca Comercială Română (BCR)',
  BRDE: 'BRD - Groupe Société Générale',
  INGB: 'ING Bank',
  RZBR: 'Raiffeisen Bank',
  TREZ: 'Trezoreria Statului',
  CECE: 'CEC Bank',
  BACX: 'UniCredit Bank',
  PIRB: 'First Bank (fostă Piraeus Bank)',
  OTPV: 'OTP Bank România',
  BUCU: 'Alpha Bank România',
  BREL: 'Libra Internet Bank',
  WBAN: 'Intesa Sanpaolo Bank România',
  UGBI: 'Garanti BBVA',
  FNNB: 'Credit Europe Bank',
  EXIM: 'Exim Banca Românească',
  BRMA: 'Banca Românească',
  CARP: 'Patria Bank',
  EGNA: 'Vista Bank',
  MIRO: 'ProCredit Bank',
  CITI: 'Citibank Europe, sucursala România',
  PORL: 'Porsche Bank România',
  NBOR: 'Banca Națională a României',
};

/** Bank name for a bank code ('BTRL') or a whole Romanian IBAN; undefined when unknown. */
export function roBankName(codeOrIban: string): string | undefined {
  const normalized = normalizeIban(codeOrIban);
  const code = normalized.length === 4 ? normalized : normalized.slice(4, 8);
  return Object.prototype.hasOwnProperty.call(RO_BANK_NAMES, code) ? RO_BANK_NAMES[code] : undefined;
}

const IBAN_MESSAGES: Record<Extract<RoIbanResult, { ok: false }>['reason'], string> = {
  format: 'IBAN must be RO, 2 check digits, a 4-letter bank code and 16 letters or digits',
  country: 'Only Romanian IBANs (starting with RO) are accepted here',
  length: 'A Romanian IBAN has 24 characters',
  checksum: 'IBAN check digits do not match (check for a typo)',
};

/** Accepts spaces and lowercase; outputs uppercase without spaces. */
export const zRoIban = z.string().transform((input, ctx) => {
  const result = validateRoIban(input);
  if (result.ok) return result.value;
  ctx.addIssue({ code: 'custom', message: IBAN_MESSAGES[result.reason], params: { reason: result.reason } });
  return z.NEVER;
});
