import { describe, expect, it } from 'vitest';
import { cuiControlDigit, formatCuiWithRo, isValidCui, taxCodeAsWritten, validateCui, zCui } from '../../shared/ro';

// CUIs printed publicly by Romanian companies (invoices, websites, the brief). Each one's control
// digit was recomputed by hand with an independent script (key 753217532) before being listed here.
const REAL_CUIS = ['18547290', '14399840', '361757', '1590082', '361579', '160796', '9010105', '5022670', '43151902'];

describe('validateCui', () => {
  it('accepts real CUIs', () => {
    for (const cui of REAL_CUIS) expect(validateCui(cui), cui).toEqual({ ok: true, value: cui });
  });

  it('accepts the RO prefix, any case, and spaces, and normalises to digits', () => {
    expect(validateCui('RO 1590082')).toEqual({ ok: true, value: '1590082' });
    expect(validateCui('RO1590082')).toEqual({ ok: true, value: '1590082' });
    expect(validateCui('ro1590082')).toEqual({ ok: true, value: '1590082' });
    expect(validateCui('  RO 14 399 840 ')).toEqual({ ok: true, value: '14399840' });
    expect(validateCui('Ro\t361757')).toEqual({ ok: true, value: '361757' });
  });

  it('accepts the shortest and longest lengths', () => {
    // Two digits: body 1 -> 1 * 2 = 2, 2 * 10 % 11 = 9
    expect(cuiControlDigit('1')).toBe(9);
    expect(validateCui('19').ok).toBe(true);
    // Ten digits: body 123456789 -> 7+10+9+8+5+42+35+24+18 = 158, 1580 % 11 = 7
    expect(cuiControlDigit('123456789')).toBe(7);
    expect(validateCui('1234567897').ok).toBe(true);
  });

  it('maps a remainder of 10 to control digit 0', () => {
    // body 6 -> 12 -> 120 % 11 = 10 -> 0
    expect(cuiControlDigit('6')).toBe(0);
    expect(validateCui('60').ok).toBe(true);
    expect(validateCui('61')).toEqual({ ok: false, reason: 'checksum' });
  });

  it('rejects wrong control digits', () => {
    for (const cui of ['18547291', '14399841', '361750', '1590083', 'RO 1590081', '43151903']) {
      expect(validateCui(cui), cui).toEqual({ ok: false, reason: 'checksum' });
    }
    // Every wrong last digit of a real CUI is caught.
    for (const cui of REAL_CUIS) {
      for (let d = 0; d <= 9; d++) {
        const candidate = cui.slice(0, -1) + d;
        expect(isValidCui(candidate)).toBe(candidate === cui);
      }
    }
  });

  it('rejects malformed input', () => {
    for (const bad of ['', 'RO', '1', '12345678901', 'RO-1590082', '1590O82', '0159008', 'RORO1590082', 'DE1590082', '15 90.082']) {
      expect(validateCui(bad), bad).toEqual({ ok: false, reason: 'format' });
    }
    expect(validateCui(1590082 as unknown as string)).toEqual({ ok: false, reason: 'format' });
  });
});

describe('formatCuiWithRo', () => {
  it('adds the prefix to a valid CUI in any spelling', () => {
    expect(formatCuiWithRo('1590082')).toBe('RO1590082');
    expect(formatCuiWithRo('ro 1590082')).toBe('RO1590082');
  });

  it('throws on an invalid CUI', () => {
    expect(() => formatCuiWithRo('1590083')).toThrow(RangeError);
  });
});

describe('zCui', () => {
  it('outputs the digits alone', () => {
    expect(zCui.parse('RO 14399840')).toBe('14399840');
  });

  it('reports clear messages', () => {
    const checksum = zCui.safeParse('14399841');
    expect(checksum.success).toBe(false);
    expect(checksum.error?.issues[0]?.message).toMatch(/control digit/);
    const format = zCui.safeParse('abc');
    expect(format.success).toBe(false);
    expect(format.error?.issues[0]?.message).toMatch(/2 to 10 digits/);
    expect(zCui.safeParse(123).success).toBe(false);
  });
});

describe('taxCodeAsWritten', () => {
  it('writes a Romanian VAT payer with RO, a non-payer bare, whatever spelling was stored', () => {
    expect(taxCodeAsWritten('14399840', true, 'RO')).toBe('RO14399840');
    expect(taxCodeAsWritten('ro 1439 9840', true, 'RO')).toBe('RO14399840');
    expect(taxCodeAsWritten('RO14399840', false, 'RO')).toBe('14399840');
  });

  it('writes a foreign code as given: an EU VAT number carries its own prefix', () => {
    expect(taxCodeAsWritten('DE123456789', true, 'DE')).toBe('DE123456789');
    expect(taxCodeAsWritten('NO 999999999 MVA', false, 'NO')).toBe('NO999999999MVA');
  });

  it('writes nothing for a party without a code', () => {
    expect(taxCodeAsWritten(null, true, 'RO')).toBeNull();
    expect(taxCodeAsWritten('  ', true, 'RO')).toBeNull();
  });
});
