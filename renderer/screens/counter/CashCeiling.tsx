import type { Settings } from '../../../shared/ipc';
import { todayInBucharest } from '../../../shared/dates';
import { useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { formatMoney } from '../../lib/format';

/** What the ceiling check needs of the buyer: a catalogue client is counted across the day's chitanțe. */
export interface CeilingBuyer {
  id: string | null;
  cui: string | null;
}

/**
 * Shown before F9 with this cart's cash part, and in the issued panel with the chitanță just made
 * (left out of the day's sum, counted as `cashBani`). The cash one person has paid today plus `cashBani` more, against the daily ceiling of Legea 70/2015
 * (settings: 5.000 lei from a legal person, 10.000 lei from a natural person), as the service's own
 * check does (server/modules/accounting/cash-ceilings.ts): the day's RON chitanțe of that client on
 * this device, all tills' once synced. A walk-in buyer cannot be counted across sales: this sale alone.
 */
export function cashOverCeiling(receivedTodayBani: number, cashBani: number, limitBani: number | undefined): boolean {
  return limitBani !== undefined && limitBani > 0 && cashBani > 0 && receivedTodayBani + cashBani > limitBani;
}

export function CashCeiling(props: { buyer: CeilingBuyer | null; cashBani: number; limits: Settings['cash_limits'] | undefined; testId: string; excludeReceiptId?: string }) {
  const { t, language } = useI18n();
  const { buyer, cashBani, limits } = props;
  const today = todayInBucharest();
  const clientId = buyer?.id ?? null;
  const received = useIpcQuery('receipts.list', { client_id: clientId ?? undefined, from: today, to: today, limit: 500, offset: 0 }, { enabled: clientId !== null && cashBani > 0 });
  const receivedBani = clientId === null ? 0 : (received.data?.items ?? []).filter((r) => r.id !== props.excludeReceiptId && !r.is_deleted && !r.is_draft && r.currency === 'RON').reduce((sum, r) => sum + r.amount_bani, 0);
  const legal = !!buyer?.cui;
  const limit = legal ? limits?.b2b_daily_bani : limits?.b2c_daily_bani;
  if (!cashOverCeiling(receivedBani, cashBani, limit)) return null;
  return (
    <div className="banner warn small" role="alert" data-testid={props.testId}>
      {t(legal ? 'cashCeiling.legal' : 'cashCeiling.natural', {
        limit: formatMoney(limit ?? 0, 'RON', language),
        total: formatMoney(receivedBani + cashBani, 'RON', language),
      })}
    </div>
  );
}
