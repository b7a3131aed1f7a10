import { useState } from 'react';
import type { SeriesView } from '../../shared/ipc';
import { NewSeriesForm, PoolSettings, SeriesEditCard } from './series/SeriesAdmin';
import { navigate } from '../app/router';
import { useToast } from '../components/Toasts';
import { useIpcMutation, useIpcQuery } from '../data/hooks';
import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n';
import { describeError } from '../lib/errors';
import { formatTimestamp } from '../lib/format';

const GAP_REASON: Record<string, MessageKey> = {
  released: 'series.gap.released',
  expired: 'series.gap.expired',
  lock_takeover: 'series.gap.lock_takeover',
};

/**
 * Numbering series and how this device numbers offline from each: exclusive (it holds the lock, no
 * gaps) or shared (a pool of reserved numbers; unused ones become documented gaps). The gap register
 * of a series lists every number that will never be an invoice, with the reason, for the accountant.
 */
export function SeriesScreen({ id }: { id?: string }) {
  const { t } = useI18n();
  const series = useIpcQuery('series.list', undefined);
  const selected = series.data?.find((s) => s.id === id) ?? series.data?.[0];
  const [adding, setAdding] = useState(false);
  return (
    <div className="content" data-testid="series-screen">
      <div className="banner info small">{t('series.explain')}</div>
      <div className="toolbar">
        <button type="button" className="btn primary" data-testid="series-new" onClick={() => setAdding(true)} disabled={adding}>
          + {t('seriesAdmin.new')}
        </button>
      </div>
      {adding ? (
        <div style={{ marginBottom: 12, maxWidth: 720 }}>
          <NewSeriesForm onClose={() => setAdding(false)} />
        </div>
      ) : null}
      <div className="split" style={{ alignItems: 'start' }}>
        <div className="card">
          <table className="grid" data-testid="series-table">
            <thead>
              <tr>
                <th>{t('series.name')}</th>
                <th>{t('series.type')}</th>
                <th>{t('series.mode')}</th>
                <th className="num">{t('series.pool')}</th>
                <th>{t('series.next')}</th>
              </tr>
            </thead>
            <tbody>
              {(series.data ?? []).map((s) => (
                <tr key={s.id} className={`clickable${s.id === selected?.id ? ' selected' : ''}`} data-testid="series-row" onClick={() => navigate({ screen: 'series', id: s.id })}>
                  <td>
                    <strong>{s.name}</strong> {s.is_primary ? <span className="badge info">{t('series.primary')}</span> : null}
                    <div className="muted small">{s.description || s.example_full_number}</div>
                  </td>
                  <td>{s.kind === 'receipt' ? t('series.receipt') : s.document_type === 'fiscal' ? t('series.fiscal') : t('status.proforma')}</td>
                  <td>
                    <ModeBadge s={s} />
                  </td>
                  <td className="num">{s.mode === 'shared' ? `${s.pool.available} / ${s.pool.target}` : '—'}</td>
                  <td>{s.next_full_number ?? <span className="muted">{t('counter.noNumberOffline')}</span>}</td>
                </tr>
              ))}
              {series.data && series.data.length === 0 ? (
                <tr>
                  <td colSpan={5} className="empty">
                    {t('series.none')}
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
        {selected ? <SeriesPanel s={selected} /> : null}
      </div>
    </div>
  );
}

function ModeBadge({ s }: { s: SeriesView }) {
  const t = useI18n().t;
  if (s.mode === 'exclusive') return <span className="badge ok">{t('series.mode.exclusive')}</span>;
  if (s.mode === 'shared') {
    const low = s.pool.available <= s.pool.low_water;
    return <span className={`badge ${low ? 'warn' : 'info'}`}>{t('series.mode.shared')}</span>;
  }
  if (s.lock && !s.locked_by_me) return <span className="badge bad">{t('series.lockedBy', { device: s.lock.device_name })}</span>;
  return <span className="badge">{t('series.mode.none')}</span>;
}

function SeriesPanel({ s }: { s: SeriesView }) {
  const { t } = useI18n();
  const toast = useToast();
  const setMode = useIpcMutation('series.setMode');
  const refill = useIpcMutation('series.refill');
  const gaps = useIpcQuery('series.gaps', { id: s.id });
  const run = (p: Promise<unknown>, ok: string) => void p.then(() => toast(ok, 'ok')).catch((e: unknown) => toast(describeError(e, t), 'bad'));
  return (
    <div className="cards">
      <div className="card" data-testid="series-panel">
        <header>
          <h2>
            {t('series.name')} {s.name}
          </h2>
          <span className="spacer" />
          <ModeBadge s={s} />
        </header>
        <div className="body col">
          <dl className="facts">
            {/* The service's next number as an example, when this device holds none of its own to show below. */}
            {s.next_full_number ? null : (
              <>
                <dt>{t('series.format')}</dt>
                <dd data-testid="series-format-example">{s.example_full_number}</dd>
              </>
            )}
            {s.kind === 'invoice' ? (
              <>
                <dt>{t('series.year')}</dt>
                <dd>{s.year}</dd>
              </>
            ) : null}
            <dt>{t('series.next')}</dt>
            <dd>{s.next_full_number ?? '—'}</dd>
            {s.mode === 'shared' ? (
              <>
                <dt>{t('series.pool')}</dt>
                <dd data-testid="series-pool">
                  {t('series.poolText', { available: s.pool.available, target: s.pool.target, low: s.pool.low_water })}
                </dd>
              </>
            ) : null}
            {s.lock ? (
              <>
                <dt>{t('series.lock')}</dt>
                <dd>
                  {s.lock.device_name} ({s.lock.device_platform}) · {formatTimestamp(s.lock.locked_at)}
                  {s.locked_by_me ? ` · ${t('series.thisDevice')}` : ''}
                </dd>
              </>
            ) : null}
          </dl>
          <div className="row wrap">
            <button type="button" className="btn" data-testid="series-exclusive" disabled={s.mode === 'exclusive' || setMode.isPending} onClick={() => run(setMode.mutateAsync({ id: s.id, mode: 'exclusive' }), t('series.exclusiveDone'))}>
              {t('series.takeLock')}
            </button>
            <button type="button" className="btn" data-testid="series-shared" disabled={s.mode === 'shared' || setMode.isPending} onClick={() => run(setMode.mutateAsync({ id: s.id, mode: 'shared' }), t('series.sharedDone'))}>
              {t('series.usePool')}
            </button>
            {s.mode === 'shared' ? (
              <button type="button" className="btn" data-testid="series-refill" disabled={refill.isPending} onClick={() => run(refill.mutateAsync({ id: s.id }), t('series.refilled'))}>
                {t('series.refill')}
              </button>
            ) : null}
            {s.mode ? (
              <button type="button" className="btn danger" disabled={setMode.isPending} onClick={() => run(setMode.mutateAsync({ id: s.id, mode: null }), t('series.stopped'))}>
                {s.mode === 'exclusive' ? t('series.releaseLock') : t('series.stopPool')}
              </button>
            ) : null}
          </div>
          <p className="muted small">
            {s.mode === 'exclusive' ? t('series.exclusiveHelp') : s.mode === 'shared' ? t('series.sharedHelp') : s.kind === 'receipt' ? t('series.receiptNoneHelp') : t('series.noneHelp')}
          </p>
        </div>
      </div>
      <SeriesEditCard key={s.id} s={s} />
      {s.mode === 'shared' ? (
        <div className="card">
          <header>
            <h2>{t('seriesAdmin.pool.title')}</h2>
          </header>
          <div className="body">
            <PoolSettings key={s.id} s={s} />
          </div>
        </div>
      ) : null}
      <div className="card" data-testid="gap-register">
        <header>
          <h2>{t('series.gaps')}</h2>
        </header>
        <p className="body muted small" style={{ margin: 0, paddingBottom: 0 }}>{t('seriesAdmin.gapsExplain')}</p>
        {gaps.error ? (
          <div className="body muted">{describeError(gaps.error, t)}</div>
        ) : gaps.data && gaps.data.length > 0 ? (
          <table className="grid">
            <thead>
              <tr>
                <th>{t('series.gap.number')}</th>
                <th>{t('series.gap.reason')}</th>
                <th>{t('series.gap.device')}</th>
                <th>{t('series.gap.when')}</th>
              </tr>
            </thead>
            <tbody>
              {gaps.data.map((g) => (
                <tr key={g.number}>
                  <td>
                    <strong>{g.full_number}</strong>
                  </td>
                  <td>{t(GAP_REASON[g.reason] ?? 'series.gap.released')}</td>
                  <td className="muted small">{g.device_id ?? '—'}</td>
                  <td>{formatTimestamp(g.recorded_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <div className="body muted">{gaps.isLoading ? t('common.loading') : t('series.noGaps')}</div>
        )}
      </div>
    </div>
  );
}
