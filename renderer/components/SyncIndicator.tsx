import { navigate } from '../app/router';
import { useIpcQuery } from '../data/hooks';
import { useT } from '../i18n/I18nProvider';
import { formatTimestamp } from '../lib/format';

/**
 * Always visible in the top bar: online or offline, a pass running, and how many changes wait or
 * failed. A click opens the sync centre. Kept fresh by the host's `sync.status` event; the slow poll
 * only covers a host that stays silent.
 */
export function SyncIndicator() {
  const t = useT();
  const { data: status } = useIpcQuery('sync.status', undefined, { refetchIntervalMs: 10_000 });
  if (!status) return <span className="sync-pill offline" data-testid="sync-indicator"><span className="dot" />…</span>;
  const waiting = status.outbox.pending + status.outbox.in_flight;
  const failed = status.outbox.failed;
  // Offline, the engine keeps probing for the service: that is not "syncing" to the cashier.
  const syncing = status.syncing && status.mode === 'online';
  const cls = syncing ? 'syncing' : failed > 0 ? 'failed' : status.mode;
  const modeText = t(`sync.mode.${status.mode}`);
  const title = [
    modeText,
    status.last_success_at ? `${t('sync.lastSuccess')}: ${formatTimestamp(status.last_success_at)}` : null,
    status.last_error ? status.last_error.message : null,
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <button
      type="button"
      className={`sync-pill ${cls}`}
      data-testid="sync-indicator"
      data-mode={status.mode}
      data-pending={waiting}
      data-failed={failed}
      title={title}
      onClick={() => navigate({ screen: 'sync' })}
    >
      <span className="dot" />
      <span>{syncing ? t('sync.syncing') : modeText}</span>
      {waiting > 0 ? (
        <span>
          · <span className="count">{waiting}</span> {t('sync.waiting')}
        </span>
      ) : null}
      {failed > 0 ? (
        <span className="error-text">
          · <span className="count">{failed}</span> {t('sync.failedCount')}
        </span>
      ) : null}
    </button>
  );
}
