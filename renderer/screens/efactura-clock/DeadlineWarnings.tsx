import { navigate } from '../../app/router';
import { useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { formatDate } from '../../lib/format';

/**
 * ANAF's clock in the sync centre: fiscal invoices not yet accepted in RO e-Factura whose 5-working-day
 * upload deadline is near, today or past, each with its last day and a way to open it. Nothing shows
 * while every invoice is in time.
 */
export function DeadlineWarnings() {
  const { t } = useI18n();
  const deadlines = useIpcQuery('efactura.deadlines', undefined, { refetchIntervalMs: 60_000 });
  const items = deadlines.data?.items ?? [];
  if (items.length === 0) return null;
  const worst = items.some((i) => i.state === 'overdue') ? 'bad' : 'warn';
  return (
    <div className="card" data-testid="efactura-deadlines">
      <header>
        <h2>{t('efacturaClock.title')}</h2>
        <span className="muted small">{t('efacturaClock.help')}</span>
      </header>
      <div className={`banner ${worst}`}>{t('efacturaClock.summary', { count: items.length })}</div>
      <table className="grid">
        <thead>
          <tr>
            <th>{t('efacturaClock.number')}</th>
            <th>{t('efacturaClock.issued')}</th>
            <th>{t('efacturaClock.deadline')}</th>
            <th>{t('efacturaClock.state')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <tr key={i.id} data-testid="efactura-deadline-row" data-state={i.state}>
              <td>{i.full_number ?? '—'}</td>
              <td>{formatDate(i.issue_date)}</td>
              <td>
                <strong>{formatDate(i.deadline)}</strong>
              </td>
              <td style={{ color: i.state === 'overdue' ? 'var(--bad)' : 'var(--warn, #b26a00)' }}>
                {t(`efacturaClock.state.${i.state}`)}
                {i.efactura_status === 'rejected' ? ` · ${t('efacturaClock.rejected')}` : ''}
              </td>
              <td>
                <button type="button" className="btn small" onClick={() => navigate({ screen: 'invoices', id: i.id })}>
                  {t('efacturaClock.open')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
