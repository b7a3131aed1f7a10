import { z } from 'zod';
import { todayAt } from '../../platform/bucharest-time';
import { validationFailed } from '../../platform/errors';
import type { Locale } from '../../platform/locale';
import { pickLanguage } from '../../platform/zod-fields';

/** Flags are 0/1 integers in both dialects. */
export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: number | boolean): boolean => value === 1 || value === true;

/** The Bucharest calendar day of a service-clock instant: what `start_date`/`end_date` compare with. */
export const createdOn = todayAt;

/** Trimmed text, with '' meaning "none": a form's empty box clears the member. */
export function textOrNull(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** A VAT percent on the wire (21, 9.5) <-> hundredths of a percent in the tables (2100, 950). */
export const percentToBp = (rate: number): number => Math.round(rate * 100);
export const bpToPercent = (bp: number): number => bp / 100;

/** 422 `validation_error` from `English|Română` messages, in the caller's language. */
export function invalidFields(fields: Record<string, string>, locale: Locale) {
  const localized: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) localized[field] = pickLanguage(message, locale);
  return validationFailed(localized);
}

export const zIdParams = z.object({ id: z.string().min(1).max(64) });

/** `?include_deleted=true`: query strings carry text, so the flag is spelt out. */
export const zQueryFlag = z.enum(['true', 'false']).transform((v) => v === 'true');

