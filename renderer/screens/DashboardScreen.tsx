import { navigate } from '../app/router';
import { useIpcQuery } from '../data/hooks';
import { useI18n } from '../i18n/I18nProvider';
import { formatBani, formatMoney, formatPercent } from '../lib/format';

/**
 * The day at a glance, from the local cache (so it answers offline): today's and the month's sales,
 * VAT per rate for today, unpaid invoices, cash against the daily ceiling, what waits to sync, and
 * the last 30 days as bars.
 */
export function DashboardScreen() {
  const { t, language } = useI18n();
  const summary = useIpcQuery('dashboard.summary', undefined);
  const s = summary.data;
  const vatToday = s?.vat_today ?? [];
  const cashLimit = s?.cash_limits.b2c_daily_bani ?? 0;
  const cashShare = s && cashLimit > 0 ? s.cash_today.total_bani / cashLimit : 0;

  return (
    <div className="content" data-testid="dashboard">
      <div className="kpis">
        <div className="card kpi" data-testid="kpi-today">
          <div className="label">{t('dashboard.salesToday')}</div>
          <div className="value">{s ? formatMoney(s.invoices_today.total_bani, 'RON', language) : '…'}</div>
          <div className="sub">{s ? t('dashboard.invoicesCount', { count: s.invoices_today.count }) : ''}</div>
        </div>
        <div className="card kpi">
          <div className="label">{t('dashboard.salesMonth')}</div>
          <div className="value">{s ? formatMoney(s.invoices_month.total_bani, 'RON', language) : '…'}</div>
          <div className="sub">{s ? t('dashboard.invoicesCount', { count: s.invoices_month.count }) : ''}</div>
        </div>
        <div className="card kpi clickable" role="button" tabIndex={0} style={{ cursor: 'pointer' }} onClick={() => navigate({ screen: 'invoices' })}>
          <div className="label">{t('dashboard.unpaid')}</div>
          <div className="value" style={{ color: s && s.unpaid.count > 0 ? 'var(--warn)' : undefined }}>
            {s ? formatMoney(s.unpaid.total_bani, 'RON', language) : '…'}
          </div>
          <div className="sub">{s ? t('dashboard.invoicesCount', { count: s.unpaid.count }) : ''}</div>
        </div>
        <div className="card kpi">
          <div className="label">{t('dashboard.cashToday')}</div>
          <div className="value">{s ? formatMoney(s.cash_today.total_bani, 'RON', language) : '…'}</div>
          <div className="sub">{s ? t('dashboard.cashLimit', { limit: formatMoney(cashLimit, 'RON', language) }) : ''}</div>
          <div className={`meter${cashShare > 1 ? ' bad' : cashShare > 0.8 ? ' warn' : ''}`}>
            <div style={{ width: `${Math.min(100, Math.round(cashShare * 100))}%` }} />
          </div>
        </div>
        <div className="card kpi clickable" role="button" tabIndex={0} style={{ cursor: 'pointer' }} onClick={() => navigate({ screen: 'sync' })}>
          <div className="label">{t('dashboard.toSync')}</div>
          <div className="value" style={{ color: s && s.outbox.failed > 0 ? 'var(--bad)' : undefined }}>{s ? s.outbox.pending + s.outbox.in_flight + s.outbox.failed : '…'}</div>
          <div className="sub">{s ? `${t('dashboard.drafts', { count: s.drafts })}${s.outbox.failed ? ` · ${t('dashboard.failed', { count: s.outbox.failed })}` : ''}` : ''}</div>
        </div>
      </div>
      <div className="split" style={{ gridTemplateColumns: 'minmax(0, 1.6fr) minmax(0, 1fr)' }}>
        <div className="card">
          <header>
            <h2>{t('dashboard.chartTitle', { days: s?.daily.length ?? 30 })}</h2>
          </header>
          <div className="body">{s ? <SalesChart days={s.daily} language={language} /> : <div className="empty">{t('common.loading')}</div>}</div>
        </div>
        <div className="card" data-testid="vat-today">
          <header>
            <h2>{t('dashboard.vatToday')}</h2>
          </header>
          <table className="grid">
            <thead>
              <tr>
                <th>{t('print.col.vatRate')}</th>
                <th className="num">{t('print.taxBase')}</th>
                <th className="num">{t('print.vat')}</th>
              </tr>
            </thead>
            <tbody>
              {vatToday.map((r) => (
                <tr key={r.vat_rate}>
                  <td>{formatPercent(r.vat_rate, language)}</td>
                  <td className="num">{formatBani(r.net_bani, language)}</td>
                  <td className="num">
                    <strong>{formatBani(r.vat_bani, language)}</strong>
                  </td>
                </tr>
              ))}
              {vatToday.length > 0 ? (
                <tr>
                  <td>
                    <strong>{t('print.total')}</strong>
                  </td>
                  <td className="num">{formatBani(vatToday.reduce((a, r) => a + r.net_bani, 0), language)}</td>
                  <td className="num">
                    <strong>{formatBani(vatToday.reduce((a, r) => a + r.vat_bani, 0), language)}</strong>
                  </td>
                </tr>
              ) : (
                <tr>
                  <td colSpan={3} className="empty">
                    {summary.isLoading ? t('common.loading') : t('dashboard.noSalesToday')}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

/** Sales per day as bars, drawn by hand in SVG: no chart library for one small picture. */
function SalesChart({ days, language }: { days: { date: string; total_bani: number; count: number }[]; language: 'ro' | 'en' }) {
  const width = 640;
  const height = 220;
  const pad = { left: 64, right: 8, top: 12, bottom: 28 };
  const max = Math.max(1, ...days.map((d) => d.total_bani));
  // A round top for the axis: 1, 2 or 5 times a power of ten.
  const magnitude = 10 ** Math.floor(Math.log10(max));
  const top = [1, 2, 5, 10].map((m) => m * magnitude).find((v) => v >= max) ?? max;
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const bw = innerW / days.length;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <svg className="chart" viewBox={`0 0 ${width} ${height}`} width="100%" role="img" data-testid="sales-chart">
      {ticks.map((f) => {
        const y = pad.top + innerH * (1 - f);
        return (
          <g key={f}>
            <line className="axis" x1={pad.left} x2={width - pad.right} y1={y} y2={y} />
            <text x={pad.left - 6} y={y + 4} textAnchor="end">
              {formatBani(Math.round((top * f) / 100) * 100, language).replace(/[.,]00$/, '')}
            </text>
          </g>
        );
      })}
      {days.map((d, i) => {
        const h = (d.total_bani / top) * innerH;
        const x = pad.left + i * bw + bw * 0.15;
        return (
          <g key={d.date}>
            <rect className={`bar${i === days.length - 1 ? '' : ' alt'}`} x={x} y={pad.top + innerH - Math.max(0, h)} width={bw * 0.7} height={Math.max(0, h)} rx={2}>
              <title>{`${d.date}: ${formatBani(d.total_bani, language)} (${d.count})`}</title>
            </rect>
            {i % 3 === (days.length - 1) % 3 ? (
              <text x={x + bw * 0.35} y={height - 10} textAnchor="middle">
                {d.date.slice(8, 10)}.{d.date.slice(5, 7)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
