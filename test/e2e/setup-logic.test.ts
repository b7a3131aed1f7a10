import { describe, expect, it } from 'vitest';
import { previewNumber, suggestSeriesName } from '../../renderer/screens/series/preview';
import { en } from '../../renderer/i18n/en';
import { ro } from '../../renderer/i18n/ro';

describe('series examples shown instead of formats', () => {
  it('previews the first number as the service will print it', () => {
    expect(previewNumber('invoice', 'ARD', 1, 2026)).toBe('ARD-2026-0001');
    expect(previewNumber('invoice', 'ARD', 1235, 2026)).toBe('ARD-2026-1235');
    expect(previewNumber('invoice', 'X', 123456, 2027)).toBe('X-2027-123456');
    expect(previewNumber('receipt', 'CH', 501)).toBe('CH-501');
    // Nothing to preview rather than a wrong number.
    expect(previewNumber('invoice', '', 1, 2026)).toBe('');
    expect(previewNumber('invoice', 'ARD', 0, 2026)).toBe('');
    expect(previewNumber('invoice', 'ARD', Number.NaN, 2026)).toBe('');
  });

  it('proposes a series name from the company name', () => {
    expect(suggestSeriesName('Ardeleana SRL')).toBe('ARD');
    expect(suggestSeriesName('Magazin Ştefăneşti Mix SRL')).toBe('MSM');
    expect(suggestSeriesName('')).toBe('FCT');
    expect(suggestSeriesName(null)).toBe('FCT');
  });

  it('says every wizard and series message in both languages, and never shows a format', () => {
    const keys = Object.keys(ro).filter((k) => k.startsWith('setup.') || k.startsWith('seriesAdmin.'));
    expect(keys.length).toBeGreaterThan(80);
    for (const k of keys) {
      expect(en[k as keyof typeof en], k).toBeTruthy();
      expect(ro[k as keyof typeof ro]).not.toMatch(/\{number/);
    }
  });
});
