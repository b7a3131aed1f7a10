import type { IpcError } from '../../shared/ipc';
import type { MessageKey, Translate } from '../i18n';
import { IpcCallError } from '../ipc';

/**
 * The user reads errors in words. Codes the app knows get a sentence of ours (with what to do);
 * anything else shows the message the server or the host wrote, which is already human-readable
 * and in the requested language.
 */
const KNOWN: Record<string, MessageKey> = {
  no_number_available: 'error.no_number_available',
  series_not_set_up: 'seriesAdmin.error.notSetUp',
  series_locked: 'seriesAdmin.error.locked',
  offline: 'error.offline',
  not_configured: 'error.not_configured',
  invalid_state: 'error.invalid_state',
  has_dependents: 'error.has_dependents',
  not_supported_in_host: 'error.not_supported_in_host',
  invalid_api_key: 'error.invalid_api_key',
  expired_api_key: 'error.invalid_api_key',
  missing_api_key: 'error.not_configured',
  rate_limited: 'error.rate_limited',
  internal_error: 'error.internal',
  invalid_reply: 'error.internal',
};

export function errorOf(err: unknown): IpcError | null {
  if (err instanceof IpcCallError) return err.error;
  return null;
}

export function describeError(err: unknown, t: Translate): string {
  const e = errorOf(err);
  if (!e) return err instanceof Error ? err.message : String(err);
  return describeIpcError(e, t);
}

/** Field paths of the e-Factura document (shared/efactura): what the checks before numbering name. */
const EFACTURA_FIELD = /^(buyer|seller|items|vat_breakdown|totals|exchange_rate|delivery|payment|invoice)(\.|$)/;

export function describeIpcError(e: IpcError, t: Translate): string {
  const key = KNOWN[e.code];
  if (key) return t(key);
  const efactura = Object.entries(e.fields ?? {}).filter(([path]) => EFACTURA_FIELD.test(path));
  if (e.code === 'invalid_payload' && efactura.length) {
    const language = t('efacturaCheck.language') === 'en' ? 'en' : 'ro';
    return t('efacturaCheck.refused', { details: efactura.map(([, message]) => inLanguage(message, language)).join(' ') });
  }
  if (e.type === 'rate_limit_error') return t('error.rate_limited');
  return e.message;
}

/** `fields` of a validation error as shown beside the inputs (`lines.0.quantity` kept as is). */
export function fieldErrors(err: unknown): Record<string, string> {
  return errorOf(err)?.fields ?? {};
}

/** A message written `English|Română` (the shared schemas' field messages), in the UI's language. */
export function inLanguage(message: string, language: 'ro' | 'en'): string {
  const [en, ro] = message.split('|');
  return (language === 'ro' ? ro : en) ?? message;
}
