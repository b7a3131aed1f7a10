import type { Locale } from '../../platform/locale';
import { validationFailed } from '../../platform/errors';
import { pickLanguage } from '../../platform/zod-fields';

/** A 422 validation_error whose field messages are written `English|Română`, answered in the caller's language. */
export function invalid(locale: Locale, fields: Record<string, string>) {
  return validationFailed(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, pickLanguage(v, locale)])));
}
