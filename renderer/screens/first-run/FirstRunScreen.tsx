import { useState } from 'react';
import type { ConnectResult } from '../../../shared/ipc/contract-setup';
import { validateCui } from '../../../shared/ro/cui';
import { Field } from '../../components/Field';
import { useIpcMutation } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import type { Translate } from '../../i18n';
import { describeError, errorOf, inLanguage } from '../../lib/errors';

type Way = 'embedded' | 'remote';

/**
 * The first screen of a fresh installation: where the firm's data lives. "Pe acest calculator" (the
 * default) runs the Invoicing Service inside the app; "Conectare la un serviciu" checks a hosted
 * one's address and key before saving them. Either way, the app continues when it is done.
 */
export function FirstRunScreen() {
  const { t } = useI18n();
  const [way, setWay] = useState<Way>('embedded');
  return (
    <div className="content" data-testid="first-run" style={{ display: 'flex', justifyContent: 'center', overflow: 'auto' }}>
      <div className="col" style={{ width: 'min(760px, 100%)', gap: 14, paddingTop: 20 }}>
        <div className="row" style={{ gap: 10, alignItems: 'center' }}>
          <span className="logo" style={{ fontSize: 22, fontWeight: 700, background: 'var(--brand)', color: '#fff', borderRadius: 8, padding: '4px 12px' }}>
            T
          </span>
          <div className="col" style={{ gap: 2 }}>
            <h1 data-testid="first-run-title" style={{ fontSize: 22 }}>
              {t('firstRun.title')}
            </h1>
            <span className="muted">{t('firstRun.subtitle')}</span>
          </div>
        </div>
        <div className="row wrap" role="radiogroup" aria-label={t('firstRun.title')} style={{ gap: 12 }}>
          <WayCard way="embedded" current={way} onPick={setWay} title={t('firstRun.embedded')} text={t('firstRun.embeddedHelp')} badge={t('firstRun.recommended')} />
          <WayCard way="remote" current={way} onPick={setWay} title={t('firstRun.remote')} text={t('firstRun.remoteHelp')} />
        </div>
        {way === 'embedded' ? <EmbeddedForm /> : <RemoteForm />}
      </div>
    </div>
  );
}

function WayCard(props: { way: Way; current: Way; onPick: (w: Way) => void; title: string; text: string; badge?: string }) {
  const picked = props.way === props.current;
  return (
    <button
      type="button"
      role="radio"
      aria-checked={picked}
      data-testid={`first-run-${props.way}`}
      className="card"
      onClick={() => props.onPick(props.way)}
      style={{ flex: '1 1 300px', textAlign: 'left', padding: '12px 14px', cursor: 'pointer', borderColor: picked ? 'var(--brand)' : undefined, borderWidth: 2, background: picked ? 'var(--accent-soft)' : undefined }}
    >
      <div className="row" style={{ gap: 8, alignItems: 'center' }}>
        <strong style={{ fontSize: 15 }}>{props.title}</strong>
        {props.badge ? <span className="badge ok">{props.badge}</span> : null}
      </div>
      <div className="muted small" style={{ marginTop: 4 }}>
        {props.text}
      </div>
    </button>
  );
}

interface CompanyForm {
  cui: string;
  name: string;
  reg_com: string;
  street: string;
  city: string;
  county: string;
  postal_code: string;
  vat_payer: boolean;
  vat_on_collection: boolean;
}

const EMPTY: CompanyForm = { cui: '', name: '', reg_com: '', street: '', city: '', county: '', postal_code: '', vat_payer: false, vat_on_collection: false };

function cuiError(cui: string, t: Translate): string | null {
  if (!cui.trim()) return t('firstRun.cuiRequired');
  const checked = validateCui(cui);
  if (checked.ok) return null;
  return checked.reason === 'checksum' ? t('firstRun.cuiChecksum') : t('firstRun.cuiFormat');
}

type LookupNote = 'found' | 'not_found' | 'unreachable' | null;

function EmbeddedForm() {
  const { t, language } = useI18n();
  const lookup = useIpcMutation('setup.lookupCompany');
  const create = useIpcMutation('setup.createEmbedded');
  const [form, setForm] = useState<CompanyForm>(EMPTY);
  // The CUI is checked from the first lookup; the name only once the user tries to create the firm.
  const [touched, setTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [note, setNote] = useState<LookupNote>(null);
  const set = <K extends keyof CompanyForm>(key: K, value: CompanyForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const cuiProblem = cuiError(form.cui, t);
  const nameProblem = form.name.trim() ? null : t('firstRun.nameRequired');
  const serverFields = errorOf(create.error)?.fields ?? {};

  const runLookup = async () => {
    setTouched(true);
    if (cuiProblem) return;
    setNote(null);
    const found = await lookup.mutateAsync({ cui: form.cui }).catch(() => ({ status: 'unreachable' as const }));
    if (found.status === 'found') {
      const c = found.company;
      setForm((f) => ({ ...f, name: c.name, reg_com: c.reg_com, street: c.street, city: c.city, county: c.county, postal_code: c.postal_code, vat_payer: c.vat_payer, vat_on_collection: c.vat_on_collection }));
      setNote('found');
    } else if (found.status === 'not_found' || found.status === 'unreachable') {
      setNote(found.status);
    }
  };

  const submit = () => {
    setTouched(true);
    setSubmitted(true);
    if (cuiProblem || nameProblem) return;
    const text = (v: string) => (v.trim() ? v.trim() : undefined);
    const optional = {
      reg_com: text(form.reg_com), street: text(form.street), city: text(form.city), county: text(form.county), postal_code: text(form.postal_code),
    };
    create.mutate({
      cui: form.cui.trim(),
      name: form.name.trim(),
      vat_payer: form.vat_payer,
      vat_on_collection: form.vat_on_collection,
      ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    });
  };

  return (
    <div className="card" data-testid="first-run-embedded-form">
      <header>
        <h2>{t('firstRun.companyTitle')}</h2>
        <span className="muted small">{t('firstRun.companyHelp')}</span>
      </header>
      <div className="body col" style={{ gap: 10 }}>
        <div className="row" style={{ gap: 8, alignItems: 'flex-end' }}>
          <div className="grow">
            <Field label={t('firstRun.cui')} error={touched && cuiProblem ? cuiProblem : serverFields.cui ? inLanguage(serverFields.cui, language) : null}>
              <input
                className={touched && cuiProblem ? 'input invalid' : 'input'}
                data-testid="fr-cui"
                value={form.cui}
                inputMode="numeric"
                placeholder="RO12345674"
                onChange={(e) => set('cui', e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') void runLookup();
                }}
              />
            </Field>
          </div>
          <button type="button" className="btn" data-testid="fr-lookup" disabled={lookup.isPending} onClick={() => void runLookup()} style={{ marginBottom: touched && cuiProblem ? 22 : 0 }}>
            {lookup.isPending ? t('firstRun.lookingUp') : t('firstRun.lookup')}
          </button>
        </div>
        {note ? (
          <div className={note === 'found' ? 'banner ok' : 'banner warn'} data-testid="fr-lookup-note" data-note={note}>
            {note === 'found' ? t('firstRun.lookupFound') : note === 'not_found' ? t('firstRun.lookupNotFound') : t('firstRun.lookupUnreachable')}
          </div>
        ) : null}
        <div className="form-grid">
          <Field label={t('firstRun.name')} span2 error={submitted && nameProblem ? nameProblem : null}>
            <input className={submitted && nameProblem ? 'input invalid' : 'input'} data-testid="fr-name" value={form.name} onChange={(e) => set('name', e.target.value)} />
          </Field>
          <Field label={t('firstRun.regCom')} error={serverFields.reg_com ? inLanguage(serverFields.reg_com, language) : null}>
            <input className="input" data-testid="fr-reg-com" value={form.reg_com} placeholder="J40/1234/2020" onChange={(e) => set('reg_com', e.target.value)} />
          </Field>
          <Field label={t('firstRun.street')} span2>
            <input className="input" data-testid="fr-street" value={form.street} onChange={(e) => set('street', e.target.value)} />
          </Field>
          <Field label={t('firstRun.city')}>
            <input className="input" data-testid="fr-city" value={form.city} onChange={(e) => set('city', e.target.value)} />
          </Field>
          <Field label={t('firstRun.county')} error={serverFields.county ? inLanguage(serverFields.county, language) : null}>
            <input className="input" data-testid="fr-county" value={form.county} onChange={(e) => set('county', e.target.value)} />
          </Field>
          <Field label={t('firstRun.postalCode')}>
            <input className="input" data-testid="fr-postal-code" value={form.postal_code} onChange={(e) => set('postal_code', e.target.value)} />
          </Field>
        </div>
        <div className="row wrap" style={{ gap: 18 }}>
          <label className="row" style={{ gap: 6 }}>
            <input type="checkbox" data-testid="fr-vat-payer" checked={form.vat_payer} onChange={(e) => set('vat_payer', e.target.checked)} />
            {t('firstRun.vatPayer')}
          </label>
          <label className="row" style={{ gap: 6 }}>
            <input type="checkbox" data-testid="fr-vat-on-collection" checked={form.vat_on_collection} onChange={(e) => set('vat_on_collection', e.target.checked)} />
            {t('firstRun.vatOnCollection')}
          </label>
        </div>
        {create.error ? (
          <div className="banner bad" data-testid="fr-create-error">
            {inLanguage(describeError(create.error, t), language)}
          </div>
        ) : null}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <button type="button" className="btn primary big" data-testid="fr-create" disabled={create.isPending} onClick={submit}>
            {create.isPending ? t('firstRun.creating') : t('firstRun.create')}
          </button>
        </div>
      </div>
    </div>
  );
}

/** The sentence (with what to do) for each way a connection check can fail. */
export function connectProblem(result: ConnectResult, t: Translate): string | null {
  switch (result.problem) {
    case 'none':
      return null;
    case 'unreachable':
      return t('firstRun.problem.unreachable', { url: result.base_url });
    case 'wrong_key':
      return t('firstRun.problem.wrongKey');
    case 'missing_v1':
      return t('firstRun.problem.missingV1', { url: result.suggested_url });
    case 'not_a_service':
      return t('firstRun.problem.notAService', { url: result.base_url });
    case 'refused':
      return t('firstRun.problem.refused', { status: String(result.status), message: result.message });
    case 'other_company':
      return t('firstRun.problem.otherCompany', { key: result.key_company, local: result.local_company });
  }
}

function RemoteForm() {
  const { t, language } = useI18n();
  const connect = useIpcMutation('setup.connectService');
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const [touched, setTouched] = useState(false);
  const urlProblem = !url.trim() ? t('firstRun.urlRequired') : /^https?:\/\/[^\s]+$/i.test(url.trim()) ? null : t('firstRun.urlInvalid');
  const keyProblem = /^sk_(live|test)_[0-9A-Za-z]{24}$/.test(key.trim()) ? null : t('firstRun.keyInvalid');
  const result = connect.data;
  const problem = result ? connectProblem(result, t) : null;
  const fields = errorOf(connect.error)?.fields ?? {};
  const submit = (base = url) => {
    setTouched(true);
    if (urlProblem || keyProblem) return;
    connect.mutate({ base_url: base.trim(), api_key: key.trim() });
  };
  const urlMessage = touched && urlProblem ? urlProblem : fields.base_url ? inLanguage(fields.base_url, language) : result && ['unreachable', 'missing_v1', 'not_a_service'].includes(result.problem) ? problem : null;
  const keyMessage = touched && keyProblem ? keyProblem : result && ['wrong_key', 'other_company', 'refused'].includes(result.problem) ? problem : null;
  return (
    <div className="card" data-testid="first-run-remote-form">
      <header>
        <h2>{t('firstRun.remoteTitle')}</h2>
        <span className="muted small">{t('firstRun.remoteFormHelp')}</span>
      </header>
      <div className="body col" style={{ gap: 10 }}>
        <Field label={t('firstRun.url')} error={urlMessage ? <span data-testid="fr-url-error">{urlMessage}</span> : null}>
          <input className={urlMessage ? 'input invalid' : 'input'} data-testid="fr-url" value={url} placeholder="https://server/v1" onChange={(e) => setUrl(e.target.value)} />
        </Field>
        {result?.problem === 'missing_v1' ? (
          <div className="row">
            <button
              type="button"
              className="btn"
              data-testid="fr-use-suggested"
              onClick={() => {
                setUrl(result.suggested_url);
                submit(result.suggested_url);
              }}
            >
              {t('firstRun.useSuggested', { url: result.suggested_url })}
            </button>
          </div>
        ) : null}
        <Field label={t('firstRun.key')} error={keyMessage ? <span data-testid="fr-key-error">{keyMessage}</span> : null}>
          <input className={keyMessage ? 'input invalid' : 'input'} data-testid="fr-key" type="password" autoComplete="off" value={key} placeholder="sk_live_…" onChange={(e) => setKey(e.target.value)} />
        </Field>
        {connect.error ? (
          <div className="banner bad" data-testid="fr-connect-error">
            {inLanguage(describeError(connect.error, t), language)}
          </div>
        ) : null}
        <div className="row" style={{ justifyContent: 'flex-end' }}>
          <button type="button" className="btn primary big" data-testid="fr-connect" disabled={connect.isPending} onClick={() => submit()}>
            {connect.isPending ? t('firstRun.checking') : t('firstRun.connect')}
          </button>
        </div>
      </div>
    </div>
  );
}
