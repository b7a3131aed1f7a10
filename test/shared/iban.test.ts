import { describe, expect, it } from 'vitest';
import {
  RO_BANK_NAMES,
  formatIban,
  ibanCheckDigits,
  ibanMod97,
  isValidRoIban,
  roBankName,
  validateRoIban,
  zRoIban,
} from '../../shared/ro';

// Check digits computed with an independent script (Python big integers, int(bban + 'RO00') % 97).
// RO49AAAA1B31007593840000 is the textbook Romanian example of ISO 13616.
const VALID = [
  'RO49AAAA1B31007593840000',
  'RO16BTRLRONCRT0123456701',
  'RO60RNCB0082044562340001',
  'RO90BRDE445SV12345678450',
  'RO21INGB0000999901234567',
  'RO67TREZ7005069XXX012345',
  'RO56CECEB00030RON1234567',
  'RO54RZBR0000060012345678',
  'RO66BACX0000001234567890',
];

describe('validateRoIban', () => {
  it('accepts real-format IBANs', () => {
    for (const iban of VALID) {
      expect(validateRoIban(iban), iban).toEqual({ ok: true, value: iban, bank_code: iban.slice(4, 8) });
    }
  });

  it('accepts spaces and lowercase, normalises to uppercase without spaces', () => {
    expect(validateRoIban('ro49 aaaa 1b31 0075 9384 0000')).toEqual({
      ok: true,
      value: 'RO49AAAA1B31007593840000',
      bank_code: 'AAAA',
    });
    expect(validateRoIban(' RO16 BTRL RONC RT01 2345 6701\n').ok).toBe(true);
  });

  it('rejects wrong check digits and single-character typos', () => {
    expect(validateRoIban('RO48AAAA1B31007593840000')).toEqual({ ok: false, reason: 'checksum' });
    expect(validateRoIban('RO16BTRLRONCRT0123456702')).toEqual({ ok: false, reason: 'checksum' });
    // Swapping two adjacent different characters is always caught by mod 97.
    expect(validateRoIban('RO16BTRLRONCRT0123456710')).toEqual({ ok: false, reason: 'checksum' });
    // Any single changed digit in the account part of a valid IBAN.
    const base = 'RO21INGB0000999901234567';
    for (let i = 8; i < 24; i++) {
      const digit = Number(base[i]);
      const changed = base.slice(0, i) + String((digit + 1) % 10) + base.slice(i + 1);
      expect(isValidRoIban(changed), changed).toBe(false);
    }
  });

  it('rejects malformed input with the reason', () => {
    expect(validateRoIban('')).toEqual({ ok: false, reason: 'format' });
    expect(validateRoIban('RO49-AAAA-1B31-0075-9384-0000')).toEqual({ ok: false, reason: 'format' });
    expect(validateRoIban('DE89370400440532013000')).toEqual({ ok: false, reason: 'country' });
    expect(validateRoIban('RO49AAAA1B3100759384000')).toEqual({ ok: false, reason: 'length' });
    expect(validateRoIban('RO49AAAA1B310075938400001')).toEqual({ ok: false, reason: 'length' });
    // Bank code must be 4 letters; check digits must be digits.
    expect(validateRoIban('RO49AAA11B31007593840000')).toEqual({ ok: false, reason: 'format' });
    expect(validateRoIban('ROXXAAAA1B31007593840000')).toEqual({ ok: false, reason: 'format' });
    expect(validateRoIban('RO49ĂAAA1B31007593840000')).toEqual({ ok: false, reason: 'format' });
    expect(validateRoIban(null as unknown as string)).toEqual({ ok: false, reason: 'format' });
  });
});

describe('mod 97 arithmetic', () => {
  it('computes check digits that validate', () => {
    expect(ibanCheckDigits('RO', 'AAAA1B31007593840000')).toBe('49');
    expect(ibanCheckDigits('RO', 'BTRLRONCRT0123456701')).toBe('16');
    expect(ibanCheckDigits('DE', '370400440532013000')).toBe('89');
    expect(ibanCheckDigits('GB', 'WEST12345698765432')).toBe('82');
  });

  it('agrees with a BigInt computation on random Romanian IBANs', () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let k = 0; k < 2000; k++) {
      let bban = '';
      for (let i = 0; i < 4; i++) bban += alphabet[10 + (next() % 26)];
      for (let i = 0; i < 16; i++) bban += alphabet[next() % 36];
      const numeric = (bban + 'RO00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
      const expected = String(98n - (BigInt(numeric) % 97n)).padStart(2, '0');
      expect(ibanCheckDigits('RO', bban)).toBe(expected);
      expect(isValidRoIban(`RO${expected}${bban}`)).toBe(true);
      expect(ibanMod97(`RO${expected}${bban}`)).toBe(1);
    }
  });

  it('refuses characters outside 0-9 A-Z', () => {
    expect(() => ibanMod97('RO00AAAA-')).toThrow(RangeError);
  });
});

describe('formatIban', () => {
  it('groups by four', () => {
    expect(formatIban('RO49AAAA1B31007593840000')).toBe('RO49 AAAA 1B31 0075 9384 0000');
    expect(formatIban('ro49 aaaa1b31007593840000')).toBe('RO49 AAAA 1B31 0075 9384 0000');
    expect(formatIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
  });
});

describe('bank names', () => {
  it('knows the main Romanian banks', () => {
    expect(roBankName('BTRL')).toBe('Banca Transilvania');
    expect(roBankName('RO16BTRLRONCRT0123456701')).toBe('Banca Transilvania');
    expect(roBankName('ro16 btrl ronc rt01 2345 6701')).toBe('Banca Transilvania');
    expect(roBankName('RNCB')).toMatch(/BCR/);
    expect(roBankName('BRDE')).toMatch(/^BRD/);
    expect(roBankName('INGB')).toMatch(/ING/);
    expect(roBankName('RZBR')).toMatch(/Raiffeisen/);
    expect(roBankName('TREZ')).toMatch(/Trezoreria/);
    expect(roBankName('CECE')).toMatch(/CEC/);
    expect(roBankName('BACX')).toMatch(/UniCredit/);
    for (const code of ['PIRB', 'OTPV', 'BUCU', 'BREL']) expect(roBankName(code), code).toBeDefined();
  });

  it('returns undefined for unknown codes without failing the IBAN', () => {
    expect(roBankName('AAAA')).toBeUndefined();
    expect(roBankName('toString')).toBeUndefined();
    expect(isValidRoIban('RO49AAAA1B31007593840000')).toBe(true);
    expect(Object.keys(RO_BANK_NAMES).every((code) => /^[A-Z]{4}$/.test(code))).toBe(true);
  });
});

describe('zRoIban', () => {
  it('outputs the normalised IBAN and reports clear messages', () => {
    expect(zRoIban.parse('ro49 aaaa 1b31 0075 9384 0000')).toBe('RO49AAAA1B31007593840000');
    expect(zRoIban.safeParse('RO48AAAA1B31007593840000').error?.issues[0]?.message).toMatch(/check digits/);
    expect(zRoIban.safeParse('DE89370400440532013000').error?.issues[0]?.message).toMatch(/Romanian/);
    expect(zRoIban.safeParse('RO49AAAA').error?.issues[0]?.message).toMatch(/24 characters/);
    expect(zRoIban.safeParse(42).success).toBe(false);
  });
});
