import { useState } from 'react';
import { todayInBucharest } from '../../../shared/dates';
import { ActionDialog } from '../../components/ActionDialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Field } from '../../components/Field';
import { useIpcMutation, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { formatDate } from '../../lib/format';

/**
 * Settings of the service this computer runs ("Pe acest calculator"): open it to the shop's network
 * for a second counter (off by default, with the warning in plain words), the address that counter
 * types, and its keys (made, named, revoked here; a key's secret is shown once).
 */
export function EmbeddedServiceSection() {
  const { t } = useI18n();
  const status = useIpcQuery('setup.status', undefined);
  const setOpen = useIpcMutation('setup.setNetworkOpen');
  // What the owner just asked for, shown at once while the service re-binds.
  const [wanted, setWanted] = useState<boolean | null>(null);
  if (!status.data || status.data.mode !== 'embedded') return null;
  const embedded = status.data.embedded;
  return (
    <div className="card" data-testid="embedded-service">
      <header>
        <h2>{t('embedded.title')}</h2>
        <span className={embedded.running ? 'badge ok' : 'badge bad'}>{embedded.running ? t('embedded.running') : t('embedded.stopped')}</span>
        {embedded.port ? <span className="muted small">{t('embedded.port', { port: String(embedded.port) })}</span> : null}
      </header>
      <div className="body col" style={{ gap: 10 }}>
        <span className="muted small">{t('embedded.help')}</span>
        <label className="row" style={{ gap: 8, fontWeight: 600 }}>
          <input
            type="checkbox"
            data-testid="embedded-network-open"
            checked={wanted ?? embedded.network_open}
            disabled={setOpen.isPending}
            onChange={(e) => {
              setWanted(e.target.checked);
              setOpen.mutate({ open: e.target.checked }, { onSettled: () => setWanted(null) });
            }}
          />
          {t('embedded.network')}
        </label>
        <div className="banner warn small">{t('embedded.networkWarning')}</div>
        <ErrorMessage error={setOpen.error} />
        {embedded.network_open ? (
          <div className="col" data-testid="embedded-addresses" style={{ gap: 4 }}>
            <span>{t('embedded.addresses')}</span>
            {embedded.addresses.length ? (
              embedded.addresses.map((a) => (
                <code key={a} data-testid="embedded-address" style={{ fontSize: 15, fontWeight: 600 }}>
                  {a}
                </code>
              ))
            ) : (
              <span className="muted">{t('embedded.noAddress')}</span>
            )}
          </div>
        ) : null}
        <CounterKeys />
      </div>
    </div>
  );
}

function CounterKeys() {
  const { t } = useI18n();
  const keys = useIpcQuery('setup.keys.list', undefined);
  const create = useIpcMutation('setup.keys.create');
  const revoke = useIpcMutation('setup.keys.revoke');
  const [name, setName] = useState('');
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const made = create.data;
  return (
    <div className="col" style={{ gap: 8 }} data-testid="embedded-keys">
      <strong>{t('embedded.keys')}</strong>
      <div className="row" style={{ gap: 8, alignItems: 'flex-end' }}>
        <div className="grow">
          <Field label={t('embedded.keyName')}>
            <input className="input" data-testid="embedded-key-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          </Field>
        </div>
        <button
          type="button"
          className="btn primary"
          data-testid="embedded-key-create"
          disabled={!name.trim() || create.isPending}
          onClick={() => void create.mutateAsync({ name: name.trim() }).then(() => setName('')).catch(() => undefined)}
        >
          {t('embedded.keyCreate')}
        </button>
      </div>
      <ErrorMessage error={create.error} />
      {made ? (
        <div className="banner ok col" style={{ gap: 4 }}>
          <span>{t('embedded.keyCreated', { name: made.name })}</span>
          <code data-testid="embedded-key-secret" style={{ fontSize: 15, userSelect: 'all' }}>
            {made.api_key}
          </code>
        </div>
      ) : null}
      {keys.data && keys.data.filter((k) => !k.own).length === 0 ? <span className="muted small">{t('embedded.keysEmpty')}</span> : null}
      <table className="lines-table" data-testid="embedded-key-table">
        <tbody>
          {(keys.data ?? []).map((k) => (
            <tr key={k.id} data-testid="embedded-key-row" data-status={k.status}>
              <td>
                {k.name}
                {k.own ? <span className="muted small"> ({t('embedded.keyOwn')})</span> : null}
              </td>
              <td className="muted small">{k.key_hint}</td>
              <td className="muted small">{formatDate(todayInBucharest(new Date(k.created_at * 1000)))}</td>
              <td>
                <span className={k.status === 'active' ? 'badge ok' : 'badge bad'}>
                  {k.status === 'active' ? t('embedded.keyActive') : k.status === 'revoked' ? t('embedded.keyRevoked') : t('embedded.keyExpired')}
                </span>
              </td>
              <td style={{ textAlign: 'right' }}>
                {!k.own && k.status === 'active' ? (
                  <button type="button" className="btn danger" data-testid="embedded-key-revoke" onClick={() => setRevoking({ id: k.id, name: k.name })}>
                    {t('embedded.keyRevoke')}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {revoking ? (
        <ActionDialog
          title={t('embedded.keyRevoke')}
          onClose={() => setRevoking(null)}
          tone="danger"
          error={revoke.error}
          confirmLabel={t('embedded.keyRevoke')}
          confirmTestId="embedded-key-revoke-confirm"
          onConfirm={() => revoke.mutateAsync({ id: revoking.id }).then(() => setRevoking(null))}
        >
          {t('embedded.keyRevokeConfirm', { name: revoking.name })}
        </ActionDialog>
      ) : null}
    </div>
  );
}
