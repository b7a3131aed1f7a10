import { describe, expect, it } from 'vitest';
import { cnpControlDigit, isValidCnp, validateCnp, zCnp } from '../../shared/ro';

// Control digits below were computed with an independent script (key 279146358279, 10 -> 1).
const TODAY = '2026-03-15';

describe('validateCnp: accepted', () => {
  it('accepts a CNP born in the 1900s and returns birth date and sex', () => {
    expect(validateCnp('1960310123456', { today: TODAY })).toEqual({
      ok: true,
      value: '1960310123456',
      info: {
        cnp: '1960310123456',
        birth_date: '1996-03-10',
        sex: 'M',
        county_code: '12',
        foreign: false,
        century_inferred: false,
      },
    });
  });

  it('handles each century digit', () => {
    const cases: [string, string, 'M' | 'F' | null][] = [
      ['2960229400011', '1996-02-29', 'F'], // leap day, county 40 (Bucharest)
      ['5021231123454', '2002-12-31', 'M'],
      ['5000101700016', '2000-01-01', 'M'], // county 70 (SIIEASC)
      ['1800101040017', '1980-01-01', 'M'],
      ['4000101400125', '1800-01-01', 'F'], // S = 4: 1800s
      ['1630615123457', '1963-06-15', 'M'],
    ];
    for (const [cnp, birth, sex] of cases) {
      const result = validateCnp(cnp, { today: TODAY });
      expect(result.ok, cnp).toBe(true);
      if (result.ok) {
        expect(result.info.birth_date).toBe(birth);
        expect(result.info.sex).toBe(sex);
        expect(result.info.century_inferred).toBe(false);
      }
    }
  });

  it('infers the century for foreign residents and foreigners', () => {
    const resident = validateCnp('7750505700125', { today: TODAY });
    expect(resident.ok && resident.info).toMatchObject({ birth_date: '1975-05-05', sex: 'M', foreign: true, century_inferred: true });
    const residentF = validateCnp('8501231801231', { today: TODAY });
    expect(residentF.ok && residentF.info).toMatchObject({ birth_date: '1950-12-31', sex: 'F', county_code: '80' });
    const foreigner = validateCnp('9700101834564', { today: TODAY });
    expect(foreigner.ok && foreigner.info).toMatchObject({ birth_date: '1970-01-01', sex: null, county_code: '83' });
  });

  it('accepts spaces and the known special county codes', () => {
    expect(validateCnp(' 196 0310 123456 ', { today: TODAY })).toMatchObject({ ok: true, value: '1960310123456' });
    for (const county of ['01', '39', '40', '41', '46', '47', '51', '52', '70', '80', '83']) {
      const first12 = `1960310${county}123`;
      expect(isValidCnp(first12 + cnpControlDigit(first12), { today: TODAY }), county).toBe(true);
    }
  });

  it('accepts a CNP born today but not tomorrow', () => {
    const first12 = '626031512345';
    const cnp = first12 + cnpControlDigit(first12);
    expect(isValidCnp(cnp, { today: '2026-03-15' })).toBe(true);
    expect(validateCnp(cnp, { today: '2026-03-14' })).toEqual({ ok: false, reason: 'date' });
  });

  it('uses today in Bucharest by default', () => {
    expect(isValidCnp('1960310123456')).toBe(true);
  });
});

describe('validateCnp: rejected', () => {
  it('rejects a wrong control digit', () => {
    expect(validateCnp('1960310123457', { today: TODAY })).toEqual({ ok: false, reason: 'checksum' });
    expect(validateCnp('1630615123458', { today: TODAY })).toEqual({ ok: false, reason: 'checksum' });
    for (let d = 0; d <= 9; d++) {
      expect(isValidCnp(`196031012345${d}`, { today: TODAY })).toBe(d === 6);
    }
  });

  it('rejects impossible dates even with a correct control digit', () => {
    expect(validateCnp('1961310123457', { today: TODAY })).toEqual({ ok: false, reason: 'date' }); // month 13
    expect(validateCnp('1960230123453', { today: TODAY })).toEqual({ ok: false, reason: 'date' }); // 30 Feb
    expect(validateCnp('1960100123453', { today: TODAY })).toEqual({ ok: false, reason: 'date' }); // day 00
    expect(validateCnp('6030229123451', { today: TODAY })).toEqual({ ok: false, reason: 'date' }); // 2003 not leap
    expect(validateCnp('1234567890128', { today: TODAY })).toEqual({ ok: false, reason: 'date' }); // month 45
    expect(validateCnp('5990101123458', { today: TODAY })).toEqual({ ok: false, reason: 'date' }); // 2099, future
  });

  it('rejects unknown county codes', () => {
    for (const cnp of ['1960310480011', '1960310501237', '1960310531239', '1960310691237', '1960310001234']) {
      expect(validateCnp(cnp, { today: TODAY }), cnp).toEqual({ ok: false, reason: 'county' });
    }
  });

  it('rejects serial 000', () => {
    expect(validateCnp('1960310120004', { today: TODAY })).toEqual({ ok: false, reason: 'serial' });
  });

  it('rejects malformed input', () => {
    for (const bad of ['', '196031012345', '19603101234567', '0960310123454', '196031012345a', '1960-310-123456']) {
      expect(validateCnp(bad, { today: TODAY }), bad).toEqual({ ok: false, reason: 'format' });
    }
  });
});

describe('zCnp', () => {
  it('outputs the digits and reports clear messages', () => {
    expect(zCnp.parse('1960310 123456')).toBe('1960310123456');
    const checksum = zCnp.safeParse('1960310123457');
    expect(checksum.error?.issues[0]?.message).toMatch(/control digit/);
    const date = zCnp.safeParse('1961310123457');
    expect(date.error?.issues[0]?.message).toMatch(/birth date/);
    const county = zCnp.safeParse('1960310480011');
    expect(county.error?.issues[0]?.message).toMatch(/county/);
    expect(zCnp.safeParse(1960310123456).success).toBe(false);
  });
});
