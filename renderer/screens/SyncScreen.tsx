import { useEffect, useState } from 'react';
import { ActionDialog } from '../components/ActionDialog';
import type { OutboxItem } from '../../shared/ipc';
import { navigate, type Route } from '../app/router';
import { useToast } from '../components/Toasts';
import { useIpcMutation, useIpcQuery } from '../data/hooks';
import { useI18n } from '../i18n/I18nProvider';
import { ipc } from '../ipc';
import { describeError, describeIpcError } from '../lib/errors';
import { formatTimestamp } from '../lib/format';
import { DeadlineWarnings } from './efactura-clock/DeadlineWarnings';

type Progress = { phase: string; resource: string | null; done: number; total: number | null };

function editRoute(item: OutboxItem): Route | null {
  switch (item.entity_type) {
    case 'client':
      return { screen: 'clients', id: item.entity_id };
    case 'product':
      return { screen: 'products', id: item.entity_id };
    case 'invoice':
      return { screen: 'invoices', id: item.entity_id };
    case 'receipt':
      return { screen: 'receipts', id: item.entity_id };
    default:
      return null;
  }
}

/**
 * The sync centre: whether the device reaches the server, what waits to be sent, what failed and
 * the server's reason in words, with retry, fix (opens the record) and discard for each item.
 */
export function SyncScreen() {
  const { t } = useI18n();
  const toast = useToast();
  const [showDone, setShowDone] = useState(false);
  const [discarding, setDiscarding] = useState<OutboxItem | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const status = useIpcQuery('sync.status', undefined);
  const outbox = useIpcQuery('outbox.list', showDone ? { states: ['pending', 'in_flight', 'failed', 'done'], limit: 200, offset: 0 } : { limit: 200, offset: 0 }, { refetchIntervalMs: 5_000 });
  const syncNow = useIpcMutation('sync.now');
  const pause = useIpcMutation('sync.pause');
  const resume = useIpcMutation('sync.resume');
  const retry = useIpcMutation('outbox.retry');

  useEffect(() => ipc().on('sync.progress', (p) => setProgress(p)), []);
  useEffect(() => {
    if (status.data && !status.data.syncing) setProgress(null);
  }, [status.data]);

  const s = status.data;
  const items = outbox.data?.items ?? [];
  return (
    <div className="content" data-testid="sync-screen">
      <div className="kpis">
        <div className="card kpi" data-testid="sync-mode">
          <div className="label">{t('sync.connection')}</div>
          <div className="value" style={{ fontSize: 22 }}>{s ? t(`sync.mode.${s.mode}`) : '…'}</div>
          <div className="sub">
            {s?.last_success_at ? `${t('sync.lastSuccess')}: ${formatTimestamp(s.last_success_at)}` : t('sync.never')}
          </div>
        </div>
        <div className="card kpi">
          <div className="label">{t('sync.waitingTitle')}</div>
          <div className="value" data-testid="sync-pending">{s ? s.outbox.pending + s.outbox.in_flight : '…'}</div>
          <div className="sub">{s?.syncing ? (progress ? t('sync.progress', { phase: t(`sync.phase.${progress.phase === 'push' ? 'push' : progress.phase === 'pull' ? 'pull' : 'numbers'}`), done: progress.done, total: progress.total ?? '?' }) : t('sync.syncing')) : t('sync.idle')}</div>
        </div>
        <div className={`card kpi${s && s.outbox.failed > 0 ? ' failed' : ''}`}>
          <div className="label">{t('sync.failedTitle')}</div>
          <div className="value" data-testid="sync-failed" style={{ color: s && s.outbox.failed > 0 ? 'var(--bad)' : undefined }}>
            {s ? s.outbox.failed : '…'}
          </div>
          <div className="sub">{t('sync.failedHelp')}</div>
        </div>
      </div>
      {s?.last_error && s.mode !== 'online' ? <div className="banner warn" data-testid="sync-last-error">{describeIpcError(s.last_error, t)}</div> : null}
      {s?.mode === 'auth_error' ? (
        <div className="banner bad">
          <span className="grow">{t('sync.authError')}</span>
          <button type="button" className="btn" onClick={() => navigate({ screen: 'settings' })}>
            {t('nav.settings')}
          </button>
        </div>
      ) : null}
      <DeadlineWarnings />
      <div className="toolbar">
        <button
          type="button"
          className="btn primary"
          data-testid="sync-now"
          disabled={syncNow.isPending}
          onClick={() => void syncNow.mutateAsync(undefined).catch((e: unknown) => toast(describeError(e, t), 'bad'))}
        >
          ⟳ {t('sync.now')}
        </button>
        {s?.mode === 'paused' ? (
          <button type="button" className="btn" onClick={() => void resume.mutateAsync(undefined)}>
            {t('sync.resume')}
          </button>
        ) : (
          <button type="button" className="btn" onClick={() => void pause.mutateAsync(undefined)}>
            {t('sync.pause')}
          </button>
        )}
        <span className="spacer" />
        <label className="check small">
          <input type="checkbox" checked={showDone} onChange={(e) => setShowDone(e.target.checked)} />
          {t('sync.showDone')}
        </label>
      </div>
      <div className="card" data-testid="outbox">
        <header>
          <h2>{t('sync.outbox')}</h2>
          <span className="muted small">{t('sync.outboxHelp')}</span>
        </header>
        {items.length === 0 ? (
          <div className="empty" data-testid="outbox-empty">
            ✓ {t('sync.outboxEmpty')}
          </div>
        ) : (
          items.map((item) => {
            const route = editRoute(item);
            return (
              <div key={item.id} className="outbox-item" data-testid="outbox-item" data-state={item.state} data-kind={item.kind}>
                <div>
                  <div className="row">
                    <strong>{item.label}</strong>
                    <OutboxState item={item} />
                  </div>
                  <div className="muted small">
                    {item.kind} · #{item.seq} · {formatTimestamp(item.created_at)}
                    {item.attempts > 0 ? ` · ${t('sync.attempts', { count: item.attempts })}` : ''}
                    {item.state === 'pending' && item.next_attempt_at ? ` · ${t('sync.nextAttempt')}: ${formatTimestamp(item.next_attempt_at)}` : ''}
                    {item.blocked_by.length > 0 ? ` · ${t('sync.blocked', { count: item.blocked_by.length })}` : ''}
                  </div>
                </div>
                <div className="row">
                  {item.can_edit && route ? (
                    <button type="button" className="btn" data-testid="outbox-edit" onClick={() => navigate(route)}>
                      {t('sync.fix')}
                    </button>
                  ) : null}
                  {item.can_retry ? (
                    <button
                      type="button"
                      className="btn primary"
                      data-testid="outbox-retry"
                      disabled={retry.isPending}
                      onClick={() => void retry.mutateAsync({ id: item.id }).catch((e: unknown) => toast(describeError(e, t), 'bad'))}
                    >
                      {t('sync.retry')}
                    </button>
                  ) : null}
                  {item.can_discard ? (
                    <button type="button" className="btn danger" data-testid="outbox-discard" onClick={() => setDiscarding(item)}>
                      {t('sync.discard')}
                    </button>
                  ) : null}
                </div>
                {item.last_error && item.state !== 'done' ? (
                  <div className="err" data-testid="outbox-error">
                    <strong>{t('sync.serverSaid')}</strong> {describeIpcError(item.last_error, t)}
                    {item.last_error.fields && Object.keys(item.last_error.fields).length > 0 ? (
                      <ul>
                        {Object.entries(item.last_error.fields).map(([field, message]) => (
                          <li key={field}>
                            <code>{field}</code>: {message}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                    <div className="small" style={{ opacity: 0.75 }}>
                      {item.last_error.type === item.last_error.code ? item.last_error.code : `${item.last_error.type} · ${item.last_error.code}`}
                    </div>
                  </div>
                ) : null}
              </div>
            );
          })
        )}
      </div>
      {discarding ? <DiscardItem item={discarding} onClose={() => setDiscarding(null)} /> : null}
    </div>
  );
}

function OutboxState({ item }: { item: OutboxItem }) {
  const t = useI18n().t;
  switch (item.state) {
    case 'pending':
      return <span className="badge info">{t('sync.state.pending')}</span>;
    case 'in_flight':
      return <span className="badge info">{t('sync.state.in_flight')}</span>;
    case 'failed':
      return <span className="badge bad">{t('sync.state.failed')}</span>;
    case 'done':
      return <span className="badge ok">{t('sync.state.synced')}</span>;
  }
}

function DiscardItem({ item, onClose }: { item: OutboxItem; onClose(): void }) {
  const t = useI18n().t;
  const toast = useToast();
  const discard = useIpcMutation('outbox.discard');
  return (
    <ActionDialog
      title={t('sync.discardTitle', { label: item.label })}
      onClose={onClose}
      error={discard.error}
      tone="danger"
      confirmLabel={t('sync.discard')}
      confirmDisabled={discard.isPending}
      onConfirm={() =>
        discard.mutateAsync({ id: item.id }).then((r) => {
          toast(t('sync.discarded', { count: r.discarded.length }), 'ok');
          onClose();
        })
      }
    >
      <p>{item.entity_type === 'invoice' ? t('sync.discardInvoiceHelp') : t('sync.discardHelp')}</p>
    </ActionDialog>
  );
}
