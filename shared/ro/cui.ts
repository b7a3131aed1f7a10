import { z } from 'zod';

/**
 * CUI / CIF: the Romanian company tax code (cod unic de înregistrare). 2 to 10 digits, the last one a
 * control digit over the others with the key 753217532. Printed with an `RO` prefix when the firm is
 * registered for VAT; the prefix is not part of the number, so we store the digits alone.
 */
export type CuiResult = { ok: true; value: string } | { ok: false; reason: 'format' | 'checksum' };

const CONTROL_KEY = [7, 5, 3, 2, 1, 7, 5, 3, 2] as const;

/** Control digit for the body (the CUI without its last digit, 1 to 9 digits). */
export function cuiControlDigit(body: string): number {
  const padded = body.padStart(9, '0');
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(padded[i]) * CONTROL_KEY[i]!;
  const control = (sum * 10) % 11;
  return control === 10 ? 0 : control;
}

/** Strips an optional `RO` prefix (any case) and whitespace: ' ro 1590082 ' -> '1590082'. */
function stripCui(input: string): string {
  return input.replace(/\s+/g, '').replace(/^ro/i, '');
}

export function validateCui(input: string): CuiResult {
  if (typeof input !== 'string') return { ok: false, reason: 'format' };
  const digits = stripCui(input);
  // A leading zero is never issued and would make two spellings of one CUI.
  if (!/^[1-9]\d{1,9}$/.test(digits)) return { ok: false, reason: 'format' };
  const control = cuiControlDigit(digits.slice(0, -1));
  if (control !== Number(digits[digits.length - 1])) return { ok: false, reason: 'checksum' };
  return { ok: true, value: digits };
}

export function isValidCui(input: string): boolean {
  return validateCui(input).ok;
}

/** 'RO1590082' for a valid CUI in any accepted spelling; throws RangeError on an invalid one. */
export function formatCuiWithRo(input: string): string {
  const result = validateCui(input);
  if (!result.ok) throw new RangeError(`Invalid CUI (${result.reason}): ${input}`);
  return `RO${result.value}`;
}

/**
 * A party's tax code as written on documents and screens. A Romanian VAT payer's code is its VAT
 * registration number, RO + digits (art. 319 (20) d, f Cod fiscal); a Romanian non-payer writes the
 * bare CIF. A foreign party's code is written as given: an EU VAT number already carries its own
 * country prefix (DE123456789), which an added RO would falsify.
 */
export function taxCodeAsWritten(cui: string | null | undefined, vatPayer: boolean, country: string): string | null {
  if (!cui || cui.trim() === '') return null;
  const trimmed = cui.replace(/\s+/g, '');
  if (country !== 'RO') return trimmed;
  const digits = trimmed.replace(/^ro/i, '');
  return vatPayer ? `RO${digits}` : digits;
}

const CUI_MESSAGES: Record<Extract<CuiResult, { ok: false }>['reason'], string> = {
  format: 'CUI must be 2 to 10 digits, optionally prefixed by RO',
  checksum: 'CUI control digit does not match (check for a typo)',
};

/** Accepts '1590082', 'RO1590082', 'ro 159 0082'; outputs the digits alone ('1590082'). */
export const zCui = z.string().transform((input, ctx) => {
  const result = validateCui(input);
  if (result.ok) return result.value;
  ctx.addIssue({ code: 'custom', message: CUI_MESSAGES[result.reason], params: { reason: result.reason } });
  return z.NEVER;
});
