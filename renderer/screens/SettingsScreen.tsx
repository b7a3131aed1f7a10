import { useState, type ReactNode } from 'react';
import { ActionDialog } from '../components/ActionDialog';
import type { ChannelOutput, Settings } from '../../shared/ipc';
import { formatIban } from '../../shared/ro/iban';
import { Field } from '../components/Field';
import { useToast } from '../components/Toasts';
import { useIpcMutation, useIpcQuery } from '../data/hooks';
import { useI18n } from '../i18n/I18nProvider';
import { describeError, describeIpcError, errorOf, inLanguage } from '../lib/errors';
import { formatBani, parseAmountInput } from '../lib/format';
import { countyName } from '../lib/counties';
import { DeviceSetupSection } from './setup/DeviceSetupSection';
import { EmbeddedServiceSection } from './embedded-service/EmbeddedServiceSection';
import { ScaleLabelsSection } from './counter/ScaleLabelsSection';

function Section(props: { title: string; children: ReactNode; testId?: string; help?: string }) {
  return (
    <div className="card" data-testid={props.testId}>
      <header>
        <h2>{props.title}</h2>
        {props.help ? <span className="muted small">{props.help}</span> : null}
      </header>
      <div className="body col">{props.children}</div>
    </div>
  );
}

export function SettingsScreen({ settings }: { settings: Settings | undefined }) {
  const { t } = useI18n();
  if (!settings) return <div className="content empty">{t('common.loading')}</div>;
  return (
    <div className="content" data-testid="settings-screen">
      <div className="cards" style={{ gridTemplateColumns: 'repeat(auto-fill, minmax(460px, 1fr))' }}>
        <ConnectionSection settings={settings} />
        <EmbeddedServiceSection />
        <DeviceSection settings={settings} />
        <EfacturaSection settings={settings} />
        <CashSection settings={settings} />
        <ScaleLabelsSection />
        <CompanyProfileSection />
        <DeviceSetupSection />
      </div>
    </div>
  );
}

function ConnectionSection({ settings }: { settings: Settings }) {
  const { t } = useI18n();
  const toast = useToast();
  const update = useIpcMutation('settings.update');
  const setKey = useIpcMutation('settings.setApiKey');
  const clearKey = useIpcMutation('settings.clearApiKey');
  const [url, setUrl] = useState(settings.api_url);
  const [key, setKeyText] = useState('');
  const [changing, setChanging] = useState(!settings.has_api_key);
  const keyShapeOk = /^sk_(live|test)_[0-9A-Za-z]{24}$/.test(key.trim());
  const result = setKey.data;
  return (
    <Section title={t('settings.connection')} testId="settings-connection">
      <Field label={t('settings.apiUrl')}>
        <div className="row">
          <input className="input grow" data-testid="settings-api-url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://api.tejghea.ro/v1" />
          <button
            type="button"
            className="btn"
            data-testid="settings-api-url-save"
            disabled={url === settings.api_url || update.isPending}
            onClick={() =>
              void update
                .mutateAsync({ api_url: url.trim() })
                .then(() => toast(t('common.saved'), 'ok'))
                .catch((e: unknown) => toast(describeError(e, t), 'bad'))
            }
          >
            {t('common.save')}
          </button>
        </div>
      </Field>
      <Field label={t('settings.apiKey')} error={result && !result.stored && result.error ? describeIpcError(result.error, t) : null}>
        {settings.has_api_key && !changing ? (
          <div className="row" data-testid="settings-key-set">
            <span className="badge ok">✓ {t('settings.keySet')}</span>
            <span className="muted small grow">{t('settings.keyHidden')}</span>
            <button type="button" className="btn" onClick={() => setChanging(true)}>
              {t('settings.changeKey')}
            </button>
            <button type="button" className="btn danger" onClick={() => void clearKey.mutateAsync(undefined).then(() => setChanging(true))}>
              {t('settings.removeKey')}
            </button>
          </div>
        ) : (
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              if (!keyShapeOk) return;
              void setKey
                .mutateAsync({ api_key: key.trim() })
                .then((r) => {
                  if (r.stored) {
                    setKeyText('');
                    setChanging(false);
                    toast(r.verified ? t('settings.keyVerified') : t('settings.keyStoredUnverified'), r.verified ? 'ok' : 'info');
                  }
                })
                .catch((e2: unknown) => toast(describeError(e2, t), 'bad'));
            }}
          >
            <input
              className={`input grow${key && !keyShapeOk ? ' invalid' : ''}`}
              type="password"
              autoComplete="off"
              data-testid="settings-api-key"
              placeholder="sk_live_…"
              value={key}
              onChange={(e) => setKeyText(e.target.value)}
            />
            <button type="submit" className="btn primary" data-testid="settings-api-key-save" disabled={!keyShapeOk || setKey.isPending}>
              {t('settings.saveKey')}
            </button>
          </form>
        )}
        <span className="hint">{t('settings.keyHint')}</span>
      </Field>
      <dl className="facts">
        <dt>{t('settings.company')}</dt>
        <dd data-testid="settings-company">{settings.company ? `${settings.company.name} (CUI ${settings.company.cui})` : '—'}</dd>
      </dl>
      <WorkPointField settings={settings} />
    </Section>
  );
}

/**
 * The work point this device works at. A change replaces the work point's documents in the local
 * cache (the host refuses it while some wait to be synced, and gives back the numbers it holds).
 */
function WorkPointField({ settings }: { settings: Settings }) {
  const { t } = useI18n();
  const toast = useToast();
  const update = useIpcMutation('settings.update');
  const points = useIpcQuery('catalog.workPoints', undefined, { enabled: settings.has_api_key });
  const items = points.data?.items ?? [];
  // The settings follow a change at once (settings.update answers them); the list's copy may be older.
  const current = settings.work_point?.id ?? points.data?.current_id ?? '';
  const known = items.some((w) => w.id === current);
  return (
    <Field label={t('settings.workPoint')}>
      <select
        data-testid="settings-work-point"
        value={current}
        disabled={update.isPending || items.length === 0}
        onChange={(e) => {
          const next = items.find((w) => w.id === e.target.value);
          if (!next) return;
          void update
            .mutateAsync({ work_point_id: next.id })
            .then(() => toast(t('settings.workPointChanged', { name: next.name }), 'ok'))
            .catch((err: unknown) => toast(describeError(err, t), 'bad'));
        }}
      >
        {!known ? <option value={current}>{settings.work_point?.name ?? '—'}</option> : null}
        {items.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
            {w.address ? ` · ${w.address}` : ''}
          </option>
        ))}
      </select>
      <span className="hint">
        {t('settings.workPointHelp')} {points.data?.source === 'cache' ? t('settings.workPointsCached') : ''}
      </span>
    </Field>
  );
}

function DeviceSection({ settings }: { settings: Settings }) {
  const { t } = useI18n();
  const toast = useToast();
  const update = useIpcMutation('settings.update');
  const series = useIpcQuery('series.list', undefined);
  const [name, setName] = useState(settings.device.name);
  const [interval, setIntervalText] = useState(String(settings.sync_interval_seconds));
  const save = (patch: Parameters<typeof update.mutateAsync>[0]) =>
    void update
      .mutateAsync(patch)
      .then(() => toast(t('common.saved'), 'ok'))
      .catch((e: unknown) => toast(describeError(e, t), 'bad'));
  return (
    <Section title={t('settings.deviceSection')} testId="settings-device">
      <Field label={t('settings.deviceName')}>
        <div className="row">
          <input className="input grow" data-testid="settings-device-name" value={name} onChange={(e) => setName(e.target.value)} />
          <button type="button" className="btn" disabled={!name.trim() || name === settings.device.name} onClick={() => save({ device_name: name.trim() })}>
            {t('common.save')}
          </button>
        </div>
        <span className="hint">
          {t('settings.deviceId')}: <code>{settings.device.id}</code> · {settings.device.platform}
        </span>
      </Field>
      <div className="field">
        <span>{t('settings.language')}</span>
        <div className="segmented" role="group" aria-label={t('settings.language')}>
          <button type="button" data-testid="lang-ro" aria-pressed={settings.locale === 'ro'} onClick={() => save({ locale: 'ro' })}>
            Română
          </button>
          <button type="button" data-testid="lang-en" aria-pressed={settings.locale === 'en'} onClick={() => save({ locale: 'en' })}>
            English
          </button>
        </div>
      </div>
      <Field label={t('settings.defaultSeries')}>
        <select value={settings.default_series_id ?? ''} onChange={(e) => save({ default_series_id: e.target.value || null })}>
          <option value="">{t('settings.primarySeries')}</option>
          {(series.data ?? [])
            .filter((s) => s.document_type === 'fiscal')
            .map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
        </select>
      </Field>
      <Field label={t('settings.syncInterval')}>
        <div className="row">
          <input className="input" style={{ width: 120 }} type="number" min={30} max={86400} value={interval} onChange={(e) => setIntervalText(e.target.value)} />
          <span className="muted">s</span>
          <button type="button" className="btn" disabled={!/^\d+$/.test(interval) || Number(interval) < 30 || Number(interval) === settings.sync_interval_seconds} onClick={() => save({ sync_interval_seconds: Number(interval) })}>
            {t('common.save')}
          </button>
        </div>
      </Field>
    </Section>
  );
}

/**
 * The e-Factura environment. Live submissions reach ANAF and cannot be withdrawn (spec, general rule
 * 8), so switching to live takes an explicit confirmation that says so.
 */
function EfacturaSection({ settings }: { settings: Settings }) {
  const { t } = useI18n();
  const toast = useToast();
  const update = useIpcMutation('settings.update');
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const env = settings.efactura_environment;
  const save = (next: 'test' | 'live') =>
    update
      .mutateAsync({ efactura_environment: next })
      .then(() => undefined)
      .catch((e: unknown) => toast(describeError(e, t), 'bad'));
  const choose = (next: 'test' | 'live') => {
    if (next === env) return;
    if (next === 'live') {
      setTyped('');
      setConfirming(true);
      return;
    }
    void save('test');
  };
  const word = t('settings.efactura.confirmWord');
  return (
    <Section title={t('settings.efactura')} testId="settings-efactura">
      <div className="segmented" role="group">
        <button type="button" data-testid="efactura-test" aria-pressed={env === 'test'} onClick={() => choose('test')}>
          {t('settings.efactura.test')}
        </button>
        <button type="button" data-testid="efactura-live" aria-pressed={env === 'live'} onClick={() => choose('live')}>
          {t('settings.efactura.live')}
        </button>
      </div>
      {env === 'live' ? <div className="warning-live">⚠ {t('settings.efactura.liveActive')}</div> : <div className="muted small">{t('settings.efactura.testHelp')}</div>}
      {confirming ? (
        <ActionDialog
          title={t('settings.efactura.confirmTitle')}
          onClose={() => setConfirming(false)}
          testId="efactura-confirm"
          tone="danger"
          confirmLabel={t('settings.efactura.switchLive')}
          confirmDisabled={typed.trim().toUpperCase() !== word.toUpperCase() || update.isPending}
          onConfirm={() => save('live').then(() => setConfirming(false))}
        >
          <div className="warning-live" style={{ marginBottom: 12 }}>
            {t('settings.efactura.irreversible')}
          </div>
          <Field label={t('settings.efactura.typeToConfirm', { word })}>
            <input className="input" data-testid="efactura-confirm-input" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </Field>
        </ActionDialog>
      ) : null}
    </Section>
  );
}

function CashSection({ settings }: { settings: Settings }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const update = useIpcMutation('settings.update');
  const [b2b, setB2b] = useState(formatBani(settings.cash_limits.b2b_daily_bani, language));
  const [b2c, setB2c] = useState(formatBani(settings.cash_limits.b2c_daily_bani, language));
  const b2bBani = parseAmountInput(b2b);
  const b2cBani = parseAmountInput(b2c);
  return (
    <Section title={t('settings.cashLimits')} help={t('settings.cashLimitsHelp')}>
      <div className="form-grid">
        <Field label={t('settings.cashB2b')}>
          <input className={`input num${b2bBani === null ? ' invalid' : ''}`} value={b2b} onChange={(e) => setB2b(e.target.value)} />
        </Field>
        <Field label={t('settings.cashB2c')}>
          <input className={`input num${b2cBani === null ? ' invalid' : ''}`} value={b2c} onChange={(e) => setB2c(e.target.value)} />
        </Field>
      </div>
      <div>
        <button
          type="button"
          className="btn"
          disabled={b2bBani === null || b2cBani === null || update.isPending}
          onClick={() =>
            void update
              .mutateAsync({ cash_limits: { b2b_daily_bani: b2bBani ?? 0, b2c_daily_bani: b2cBani ?? 0 } })
              .then(() => toast(t('common.saved'), 'ok'))
              .catch((e: unknown) => toast(describeError(e, t), 'bad'))
          }
        >
          {t('common.save')}
        </button>
      </div>
    </Section>
  );
}

/**
 * The company as printed on invoices and receipts: the service's company profile, which the device
 * keeps for offline printing. Corrections go to the service (company.updateProfile, online), so every
 * device prints the same; the answer becomes the local copy at once.
 */
function CompanyProfileSection() {
  const { t } = useI18n();
  const profile = useIpcQuery('company.profile', undefined);
  const [editing, setEditing] = useState(false);
  const p = profile.data;
  return (
    <Section title={t('settings.printProfile')} help={t('settings.printProfileHelp')} testId="settings-print-profile">
      {p ? (
        <dl className="facts" data-testid="company-profile">
          <dt>{t('clients.companyName')}</dt>
          <dd>
            <strong>{p.name}</strong>
          </dd>
          <dt>{t('clients.cui')}</dt>
          <dd>
            {p.vat_id ?? p.cui} {p.vat_payer ? <span className="badge ok">{t('clients.vatPayer')}</span> : null}{' '}
            {p.vat_on_collection ? <span className="badge info">{t('print.vatOnCollection')}</span> : null}
          </dd>
          <dt>{t('clients.regCom')}</dt>
          <dd>{p.reg_com ?? '—'}</dd>
          <dt>{t('print.capital')}</dt>
          <dd data-testid="company-capital">{p.capital_social_bani != null ? `${formatBani(p.capital_social_bani, 'ro')} lei` : '—'}</dd>
          <dt>{t('clients.address')}</dt>
          <dd>{[p.street, p.city, countyName(p.county_code)].filter(Boolean).join(', ') || '—'}</dd>
          <dt>{t('clients.iban')}</dt>
          <dd>
            {p.iban ? formatIban(p.iban) : '—'} {p.bank ? <span className="muted">· {p.bank}</span> : null}
          </dd>
        </dl>
      ) : (
        <div className="muted">{profile.isLoading ? t('common.loading') : t('settings.profileAfterSync')}</div>
      )}
      {p && p.missing_for_efactura.length > 0 ? (
        <div className="banner warn small">
          {t('settings.profileMissing')} <strong>{p.missing_for_efactura.join(', ')}</strong>
        </div>
      ) : null}
      <div className="muted small">{t('settings.profileEditHelp')}</div>
      <div className="row">
        <button type="button" className="btn" data-testid="profile-edit" disabled={!p} onClick={() => setEditing(true)}>
          {t('settings.profileEdit')}
        </button>
      </div>
      {editing && p ? <CompanyProfileForm profile={p} onClose={() => setEditing(false)} /> : null}
    </Section>
  );
}

type Profile = NonNullable<ChannelOutput<'company.profile'>>;

function CompanyProfileForm({ profile, onClose }: { profile: Profile; onClose(): void }) {
  const { t, language } = useI18n();
  const toast = useToast();
  const save = useIpcMutation('company.updateProfile');
  const [form, setForm] = useState({
    name: profile.name,
    reg_com: profile.reg_com ?? '',
    street: profile.street ?? '',
    city: profile.city ?? '',
    county: profile.county_code ?? '',
    postal_code: profile.postal_code ?? '',
    iban: profile.iban ? formatIban(profile.iban) : '',
    bank: profile.bank ?? '',
    capital: profile.capital_social_bani != null ? formatBani(profile.capital_social_bani, language) : '',
  });
  const [vatPayer, setVatPayer] = useState(profile.vat_payer);
  const [vatOnCollection, setVatOnCollection] = useState(profile.vat_on_collection);
  const capitalBani = form.capital.trim() ? parseAmountInput(form.capital) : null;
  const capitalBad = form.capital.trim() !== '' && (capitalBani === null || capitalBani < 0);
  const fields = errorOf(save.error)?.fields ?? {};
  const text = (key: keyof typeof form, label: string, testId: string) => (
    <Field label={label} error={fields[key] ? inLanguage(fields[key], language) : null}>
      <input className={`input${fields[key] ? ' invalid' : ''}`} data-testid={testId} value={form[key]} onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))} />
    </Field>
  );
  const orNull = (v: string) => (v.trim() ? v.trim() : null);
  return (
    <ActionDialog
      title={t('settings.profileEdit')}
      onClose={onClose}
      wide
      testId="profile-form"
      error={save.error}
      confirmTestId="profile-save"
      confirmLabel={t('common.save')}
      confirmDisabled={save.isPending || capitalBad || !form.name.trim()}
      onConfirm={() =>
        save
          .mutateAsync({
            name: form.name.trim(),
            vat_payer: vatPayer,
            reg_com: orNull(form.reg_com),
            street: orNull(form.street),
            city: orNull(form.city),
            county: orNull(form.county),
            postal_code: orNull(form.postal_code),
            iban: orNull(form.iban),
            bank: orNull(form.bank),
            capital_social_bani: capitalBani,
            vat_on_collection: vatOnCollection,
          })
          .then(() => {
            toast(t('settings.profileSaved'), 'ok');
            onClose();
          })
      }
    >
      <div className="form-grid">
        {text('name', t('clients.companyName'), 'profile-name')}
        {text('reg_com', t('clients.regCom'), 'profile-reg-com')}
        {text('street', t('clients.address'), 'profile-street')}
        {text('city', t('clients.city'), 'profile-city')}
        {text('county', t('settings.profileCounty'), 'profile-county')}
        {text('postal_code', t('settings.profilePostal'), 'profile-postal')}
        {text('iban', t('clients.iban'), 'profile-iban')}
        {text('bank', t('clients.bank'), 'profile-bank')}
        <Field label={t('print.capital')}>
          <input className={`input num${capitalBad ? ' invalid' : ''}`} data-testid="profile-capital" value={form.capital} placeholder="200,00" onChange={(e) => setForm((f) => ({ ...f, capital: e.target.value }))} />
        </Field>
        <label className="check">
          <input type="checkbox" checked={vatPayer} onChange={(e) => setVatPayer(e.target.checked)} />
          {t('clients.vatPayer')}
        </label>
        <label className="check">
          <input type="checkbox" data-testid="profile-vat-on-collection" checked={vatOnCollection} onChange={(e) => setVatOnCollection(e.target.checked)} />
          {t('print.vatOnCollection')}
        </label>
      </div>
    </ActionDialog>
  );
}
