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

/** Field names the counter may get back, in words (a wire path's last member). */
const TILL_FIELDS: Record<string, MessageKey> = {
  lines: 'till.field.lines', quantity: 'till.field.quantity', unit_price_bani: 'till.field.unit_price_bani', price: 'till.field.price',
  discount_percent: 'till.field.discount_percent', vat_rate: 'till.field.vat_rate', description: 'till.field.description',
  product_id: 'till.field.product_id', vat_exemption_reason: 'till.field.vat_exemption_reason', vat_category: 'till.field.vat_category',
  client_id: 'till.field.client_id', series_id: 'till.field.series_id', due_date: 'till.field.due_date', delivery_date: 'till.field.delivery_date',
  observations: 'till.field.observations', card_bani: 'till.field.card_bani', total: 'till.field.total', amount_bani: 'till.field.amount_bani',
  payment_method: 'till.field.payment_method', cart_id: 'till.field.cart_id',
};

/** `lines.2.quantity` as the cashier reads it: "rândul 3, cantitatea". */
export function fieldInWords(path: string, t: Translate): string {
  const parts = path.split('.');
  // The e-Factura check names the firm's own data (`seller.address.city`) or the buyer's: the cashier
  // is told where to fix it, not the member's name.
  if (parts[0] === 'seller') return t('till.field.seller');
  if (parts[0] === 'buyer') return t('till.field.buyer');
  const words: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === 'lines' && /^\d+$/.test(parts[i + 1] ?? '')) {
      words.push(t('till.field.line', { n: Number(parts[i + 1]) + 1 }));
      i++;
    } else if (!/^\d+$/.test(part)) {
      const key = TILL_FIELDS[part];
      if (key) words.push(t(key));
    }
  }
  return words.join(', ') || t('till.field.other');
}

/**
 * An error at the counter in the cashier's language, saying what to do: a refused field names the
 * field in words with the reason in her language (never "Invalid input" nor `lines.0.quantity`),
 * and every message ends by saying the cart was kept.
 */
export function describeSaleError(err: unknown, t: Translate, language: 'ro' | 'en' = 'ro'): string {
  const e = errorOf(err);
  if (!e) return `${t('error.internal')} ${t('till.error.kept')}`;
  if (e.fields && Object.keys(e.fields).length > 0) {
    const details = Object.entries(e.fields)
      .map(([path, message]) => `${fieldInWords(path, t)}: ${message.includes('|') ? inLanguage(message, language) : t('till.error.invalidValue')}`)
      .join('; ');
    return `${t('till.error.fix', { details })} ${t('till.error.kept')}`;
  }
  const known = KNOWN[e.code];
  if (known) return `${t(known)} ${t('till.error.kept')}`;
  if (e.type === 'rate_limit_error') return `${t('error.rate_limited')} ${t('till.error.kept')}`;
  if (e.code === 'invalid_payload' || e.type === 'validation_error') return `${t('till.error.generic')} ${t('till.error.kept')}`;
  // Messages from inside main are English: never shown to the cashier as such.
  return language === 'ro' ? `${t('error.internal')} ${t('till.error.kept')}` : `${e.message} ${t('till.error.kept')}`;
}
