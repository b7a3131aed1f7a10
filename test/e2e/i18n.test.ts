import { describe, expect, it } from 'vitest';
import { en } from '../../renderer/i18n/en';
import { ro } from '../../renderer/i18n/ro';
import { interpolate, translate } from '../../renderer/i18n';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('i18n dictionaries', () => {
  it('have exactly the same keys in Romanian and English', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(ro).sort());
  });

  it('use the same placeholders in both languages', () => {
    const mismatched = Object.keys(ro).filter((k) => placeholders(ro[k as keyof typeof ro]).join() !== placeholders(en[k as keyof typeof en]).join());
    expect(mismatched).toEqual([]);
  });

  it('have no empty message', () => {
    expect(Object.entries(ro).filter(([, v]) => v.trim() === '')).toEqual([]);
    expect(Object.entries(en).filter(([, v]) => v.trim() === '')).toEqual([]);
  });

  it('write Romanian with comma-below ș and ț, never the cedilla forms', () => {
    const cedilla = Object.entries(ro).filter(([, v]) => /[şţŞŢ]/.test(v));
    expect(cedilla).toEqual([]);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('ro', 'invoices.count', { count: 3 })).toBe('3 facturi');
    expect(translate('en', 'invoices.count', { count: 3 })).toBe('3 invoices');
    expect(interpolate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});
