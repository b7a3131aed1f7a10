import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { columnConvention, parseFlag, parsePrice, parseVatRate } from '../../../server/modules/imports/cell-values';
import { decodeText, detectDelimiter, sniffFormat } from '../../../server/modules/imports/file-reader';
import { proposeMapping } from '../../../server/modules/imports/mapping';

const bani = (cell: string | number, convention?: 'comma' | 'dot' | 'unknown') => {
  const parsed = parsePrice(cell, convention);
  return parsed.ok ? parsed.value : parsed.message.split('|')[1];
};

describe('prices as people write them', () => {
  it('reads every common format to the exact bani', () => {
    expect(bani('12,99')).toBe(1299);
    expect(bani('12.99')).toBe(1299);
    expect(bani('1.299,00')).toBe(129_900);
    expect(bani('1,299.00')).toBe(129_900);
    expect(bani('1 299,50')).toBe(129_950);
    expect(bani('1\u00a0299,5')).toBe(129_950);
    expect(bani('12,99 lei')).toBe(1299);
    expect(bani('RON 7')).toBe(700);
    expect(bani('1.234.567,89')).toBe(123_456_789);
    expect(bani('1,234,567')).toBe(123_456_700);
    expect(bani('0,01')).toBe(1);
    expect(bani('15')).toBe(1500);
    // XLSX numbers are exact as they stand, float noise of Excel's sums included.
    expect(bani(12.99)).toBe(1299);
    expect(bani(0.1 + 0.2)).toBe(30);
    expect(bani(1299)).toBe(129_900);
  });

  it('refuses ambiguous and invalid prices with a Romanian reason', () => {
    expect(bani('1.299')).toMatch(/ambiguu: 1299 lei sau 1,299 lei/);
    expect(bani('1,299')).toMatch(/ambiguu/);
    expect(bani('12,999')).toMatch(/ambiguu/);
    expect(bani('12,9999')).toMatch(/mai mult de două zecimale/);
    expect(bani('1234,567')).toMatch(/mai mult de două zecimale/);
    expect(bani(12.345)).toMatch(/mai mult de două zecimale/);
    expect(bani('-5')).toMatch(/negativ/);
    expect(bani(-5)).toMatch(/negativ/);
    expect(bani('abc')).toMatch(/nu este un preț/);
    expect(bani('1.2.3,4')).toMatch(/nu este un preț/);
    expect(bani('12,')).toMatch(/nu este un preț/);
    expect(bani('')).toMatch(/lipsește/);
  });

  it('settles 1.299 by the way the same column writes its decimals elsewhere', () => {
    expect(columnConvention(['12,99', '1.299', null])).toBe('comma');
    expect(columnConvention(['12.99', '1,299'])).toBe('dot');
    expect(columnConvention(['12,99', '3.50'])).toBe('unknown');
    expect(bani('1.299', 'comma')).toBe(129_900);
    expect(bani('1,299', 'dot')).toBe(129_900);
    expect(bani('1,299', 'comma')).toMatch(/mai mult de două zecimale/);
  });
});

describe('VAT rates and flags', () => {
  const rates = [21, 19, 11, 9, 5, 0];
  it('takes only the firm’s rates, written any usual way', () => {
    for (const [cell, rate] of [['21', 21], ['21%', 21], ['9 %', 9], ['TVA 19%', 19], [0.21, 21], [11, 11], ['0', 0], ['5,00', 5]] as const) {
      expect(parseVatRate(cell, rates)).toEqual({ ok: true, value: rate });
    }
    expect(parseVatRate('20', rates)).toMatchObject({ ok: false, message: expect.stringContaining('nu este o cotă de TVA a firmei (21, 19, 11, 9, 5, 0)') });
    expect(parseVatRate('9,5', [...rates, 9.5])).toEqual({ ok: true, value: 9.5 });
    expect(parseVatRate('douăzeci', rates).ok).toBe(false);
  });
  it('reads yes and no', () => {
    expect(parseFlag('Da')).toEqual({ ok: true, value: true });
    expect(parseFlag('Serviciu')).toEqual({ ok: true, value: true });
    expect(parseFlag('nu')).toEqual({ ok: true, value: false });
    expect(parseFlag('')).toEqual({ ok: true, value: null });
    expect(parseFlag('poate').ok).toBe(false);
  });
});

describe('files', () => {
  it('detects the delimiter outside quotes', () => {
    expect(detectDelimiter('Denumire;Preț\nMăr;12,99\nPară;3,5\n')).toBe(';');
    expect(detectDelimiter('Denumire,Preț\nMăr,12.99\n"Pere, galbene",3.5\n')).toBe(',');
    expect(detectDelimiter('a\tb\tc\n1\t2\t3\n')).toBe('\t');
  });
  it('decodes UTF-8 with and without BOM, and Windows-1250, to the Romanian letters', () => {
    const text = 'Denumire;Județ\nȘosete;Brașov\n';
    expect(decodeText(Buffer.from(text, 'utf8'))).toEqual({ text, encoding: 'utf-8' });
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]))).toEqual({ text, encoding: 'utf-8' });
    // Windows-1250 has only the cedilla letters: ş and ţ.
    const ansi = iconv.encode('Denumire;Judeţ\nŞosete;Braşov\n', 'windows-1250');
    expect(decodeText(ansi).encoding).toBe('windows-1250');
    expect(decodeText(ansi).text).toBe('Denumire;Judeţ\nŞosete;Braşov\n');
  });
  it('tells spreadsheets from other files by their bytes', () => {
    expect(sniffFormat(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe('xlsx');
    expect(sniffFormat(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1]))).toBe('xls');
    expect(sniffFormat(Buffer.from('%PDF-1.7\n\x00\x01\x02', 'latin1'))).toBe('other-binary');
    expect(sniffFormat(Buffer.from('a;b\n1;2\n'))).toBe('text');
  });
  it('proposes a mapping from the usual Romanian headers', () => {
    expect(proposeMapping('products', ['Nr. crt.', 'Denumire', 'Cod', 'Cod de bare', 'U.M.', 'Preț', 'Preț cu TVA', 'Cota TVA'])).toEqual({
      name: 1, code: 2, barcode: 3, unit: 4, price: 5, price_with_vat: 6, vat_rate: 7,
    });
    expect(proposeMapping('clients', ['Denumire', 'CUI/CIF', 'Reg. Com.', 'Adresa', 'Localitate', 'Județ', 'IBAN', 'E-mail', 'Telefon'])).toEqual({
      name: 0, cui: 1, reg_com: 2, address: 3, city: 4, county: 5, iban: 6, email: 7, phone: 8,
    });
  });
});
