import { useEffect, useState } from 'react';
import type { IpcError, RecordSync } from '../../../shared/ipc';
import { navigate } from '../../app/router';
import { useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import type { Translate } from '../../i18n';
import { fieldInWords, inLanguage } from '../../lib/errors';

/** How often the sale just issued is looked at while it goes up to the service. */
const WATCH_MS = 700;

/**
 * Why the service refused a sale, in the cashier's words. A 409 on the number (the reservation the
 * device used was released or taken on the service) has its own sentence; a 422 names the fields in
 * words; anything else is the service's own message, which it writes in the language the device asks.
 */
export function refusalReason(error: IpcError, t: Translate, language: 'ro' | 'en'): string {
  return reasonOf(error, t, language).replace(/[.\s]+$/, '');
}

function reasonOf(error: IpcError, t: Translate, language: 'ro' | 'en'): string {
  if (error.code === 'reservation_released' || error.code === 'reservation_consumed' || error.code === 'number_taken') return t('counterRefusal.reason.number');
  if (error.fields && Object.keys(error.fields).length > 0) {
    return Object.entries(error.fields)
      .map(([path, message]) => `${fieldInWords(path, t)}: ${message.includes('|') ? inLanguage(message, language) : message}`)
      .join('; ');
  }
  return error.message.includes('|') ? inLanguage(error.message, language) : error.message;
}

/**
 * The counter issues locally, then the sale goes up to the service. When the service refuses it
 * (409, 422: not retried, see main/sync/push.ts) the cashier learns it here, at once, in one
 * message that says what to do, instead of only in the sync centre. The sale stays ONE document on
 * this device, its cart in the invoice: pressing F9 again could only replay it (the cart's id is the
 * sale's key), so the way out is the sync centre's fix-and-retry or discard.
 */
export function useWatchedSync(invoiceId: string): RecordSync | undefined {
  // Watched until the service has it or refused it; then the data.changed events are enough.
  const [settled, setSettled] = useState(false);
  const watched = useIpcQuery('invoices.get', { id: invoiceId }, settled ? {} : { refetchIntervalMs: WATCH_MS });
  const state = watched.data?.sync.state;
  useEffect(() => setSettled(state === 'synced' || state === 'failed'), [state]);
  return watched.data?.sync;
}

export function SaleRefusal({ sync, number }: { sync: RecordSync | undefined; number: string }) {
  const { t, language } = useI18n();
  if (!sync || sync.state !== 'failed' || !sync.error) return null;
  return (
    <div className="banner bad small col" role="alert" data-testid="sale-refused">
      <div>{t('counterRefusal.message', { number, reason: refusalReason(sync.error, t, language) })}</div>
      <div className="row">
        <button type="button" className="btn" data-testid="sale-refused-open-sync" onClick={() => navigate({ screen: 'sync' })}>
          {t('counterRefusal.openSync')}
        </button>
      </div>
    </div>
  );
}
