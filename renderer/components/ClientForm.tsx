import { useState } from 'react';
import { ActionDialog } from './ActionDialog';
import type { ClientInput, ClientView } from '../../shared/ipc';
import { validateCnp } from '../../shared/ro/cnp';
import { validateCui } from '../../shared/ro/cui';
import { roBankName, validateRoIban } from '../../shared/ro/iban';
import { callIpc, useIpcMutation } from '../data/hooks';
import { useT } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n';
import { describeError, fieldErrors } from '../lib/errors';
import { Field } from './Field';

interface FormState {
  type: 'company' | 'person';
  name: string;
  cui: string;
  vat_payer: boolean;
  reg_com: string;
  cnp: string;
  address: string;
  city: string;
  county: string;
  country: string;
  email: string;
  phone: string;
  iban: string;
  bank: string;
}

/** What the cashier typed in the client box: a CUI (with or without RO) or the start of a name. */
function fromClient(c: ClientView | null, presetName: string): FormState {
  const typedCui = /^\s*(ro)?\s*\d{2,10}\s*$/i.test(presetName);
  // A typed name without a company form (SRL, SA, PFA...) is most often a private person at a counter.
  const looksLikeCompany = typedCui || /\b(s\.?r\.?l|s\.?a|pfa|i\.?i|i\.?f|srl-d|scs|snc)\b\.?/i.test(presetName) || presetName.trim() === '';
  return {
    type: c?.type ?? (looksLikeCompany ? 'company' : 'person'),
    name: c?.name ?? (typedCui ? '' : presetName),
    cui: c?.cui ?? (typedCui ? presetName.replace(/\s+/g, '').replace(/^ro/i, '') : ''),
    vat_payer: c?.vat_payer ?? /^\s*ro/i.test(presetName),
    reg_com: c?.reg_com ?? '',
    cnp: c?.cnp ?? '',
    address: c?.address ?? '',
    city: c?.city ?? '',
    county: c?.county ?? '',
    country: c?.country ?? 'RO',
    email: c?.email ?? '',
    phone: c?.phone ?? '',
    iban: c?.iban ?? '',
    bank: c?.bank ?? '',
  };
}

const nullIfEmpty = (s: string) => (s.trim() === '' ? null : s.trim());

/** Local checks, the same the host and the server apply, so a client made offline does not fail at sync. */
export function clientFormProblems(f: FormState): Partial<Record<keyof FormState, MessageKey>> {
  const problems: Partial<Record<keyof FormState, MessageKey>> = {};
  if (f.name.trim() === '') problems.name = 'clients.err.name';
  if (f.type === 'company' && f.country === 'RO') {
    if (f.cui.trim() === '') problems.cui = 'clients.err.cuiRequired';
    else if (!validateCui(f.cui).ok) problems.cui = 'clients.err.cui';
  }
  if (f.cnp.trim() !== '' && !validateCnp(f.cnp).ok) problems.cnp = 'clients.err.cnp';
  if (f.iban.trim() !== '' && f.iban.replace(/\s/g, '').toUpperCase().startsWith('RO') && !validateRoIban(f.iban).ok) problems.iban = 'clients.err.iban';
  if (f.email.trim() !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(f.email.trim())) problems.email = 'clients.err.email';
  return problems;
}

/**
 * Create or edit a client. Opened from the counter with what the cashier typed in the client box
 * (a name, or a CUI which fills the CUI field), and from the Clients screen and the sync centre
 * (to fix a client the server refused).
 */
export function ClientFormModal(props: { client: ClientView | null; presetName?: string; onClose(): void; onSaved(client: ClientView): void }) {
  const t = useT();
  const [f, setF] = useState<FormState>(() => fromClient(props.client, props.presetName ?? ''));
  const [touched, setTouched] = useState(false);
  const [lookup, setLookup] = useState<{ state: 'idle' | 'busy' | 'found' | 'none' | 'error'; message?: string }>({ state: 'idle' });
  const create = useIpcMutation('clients.create');
  const update = useIpcMutation('clients.update');
  const mutation = props.client ? update : create;
  const problems = clientFormProblems(f);
  const serverFields = fieldErrors(mutation.error);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setF((prev) => ({ ...prev, [key]: value }));
  const err = (key: keyof FormState): string | undefined => {
    const local = problems[key];
    if (touched && local) return t(local);
    return serverFields[key];
  };

  /** ANAF's registry by CUI (online): fills what it knows, the cashier checks and saves. */
  async function fillFromAnaf(): Promise<void> {
    if (!validateCui(f.cui).ok) {
      setTouched(true);
      return;
    }
    setLookup({ state: 'busy' });
    try {
      const found = await callIpc('clients.lookupCui', { cui: f.cui.replace(/^ro/i, '').trim() });
      if (!found) {
        setLookup({ state: 'none' });
        return;
      }
      setF((prev) => ({
        ...prev,
        name: found.name || prev.name,
        vat_payer: found.vat_payer,
        reg_com: found.reg_com || prev.reg_com,
        address: [found.street, found.street_number].filter(Boolean).join(' ') || found.address || prev.address,
        city: found.city || prev.city,
        county: found.county || prev.county,
        phone: prev.phone || found.phone,
      }));
      setLookup({ state: 'found', message: found.inactive ? t('clients.lookupInactive') : undefined });
    } catch (error) {
      setLookup({ state: 'error', message: describeError(error, t) });
    }
  }

  async function save(): Promise<void> {
    setTouched(true);
    if (Object.keys(problems).length > 0) return;
    const body: ClientInput = {
      type: f.type,
      name: f.name.trim(),
      cui: f.type === 'company' ? nullIfEmpty(f.cui.replace(/^ro/i, '')) : null,
      vat_payer: f.type === 'company' ? f.vat_payer : false,
      reg_com: f.type === 'company' ? nullIfEmpty(f.reg_com) : null,
      cnp: f.type === 'person' ? nullIfEmpty(f.cnp) : null,
      address: nullIfEmpty(f.address),
      city: nullIfEmpty(f.city),
      county: nullIfEmpty(f.county),
      country: f.country.trim().toUpperCase() || 'RO',
      email: nullIfEmpty(f.email),
      phone: nullIfEmpty(f.phone),
      iban: nullIfEmpty(f.iban.replace(/\s/g, '').toUpperCase()),
      bank: nullIfEmpty(f.bank),
    };
    const saved = props.client ? await update.mutateAsync({ id: props.client.id, patch: body }) : await create.mutateAsync(body);
    props.onSaved(saved);
  }

  const input = (key: keyof FormState, label: MessageKey, extra: { span2?: boolean; placeholder?: string; hint?: string } = {}) => (
    <Field label={t(label)} error={err(key)} span2={extra.span2}>
      <input
        className={`input${err(key) ? ' invalid' : ''}`}
        name={key}
        data-testid={`client-${key}`}
        value={String(f[key])}
        placeholder={extra.placeholder}
        onChange={(e) => set(key, e.target.value as never)}
      />
      {!err(key) && extra.hint ? <span className="hint">{extra.hint}</span> : null}
    </Field>
  );

  const bankGuess = f.iban.trim() ? roBankName(f.iban) : undefined;

  return (
    <ActionDialog
      title={props.client ? t('clients.edit') : t('clients.new')}
      onClose={props.onClose}
      testId="client-form"
      error={mutation.error}
      confirmTestId="client-save"
      confirmLabel={<>{t('common.save')} <kbd>Enter</kbd></>}
      confirmDisabled={mutation.isPending}
      onConfirm={save}
    >
      <form
        className="col"
        onSubmit={(e) => {
          e.preventDefault();
          void save().catch(() => undefined);
        }}
      >
        <div className="segmented" role="group" aria-label={t('clients.type')}>
          <button type="button" aria-pressed={f.type === 'company'} onClick={() => set('type', 'company')}>
            {t('clients.type.company')}
          </button>
          <button type="button" aria-pressed={f.type === 'person'} onClick={() => set('type', 'person')}>
            {t('clients.type.person')}
          </button>
        </div>
        <div className="form-grid">
          {f.type === 'company' ? (
            <>
              <div className="col">
                {input('cui', 'clients.cui', { placeholder: 'RO12345678' })}
                <button type="button" className="btn small" data-testid="client-lookup" disabled={lookup.state === 'busy'} onClick={() => void fillFromAnaf()}>
                  {lookup.state === 'busy' ? t('common.loading') : t('clients.lookup')}
                </button>
                {lookup.state === 'found' ? <span className="small" style={{ color: 'var(--ok)' }}>✓ {t('clients.lookupFound')}</span> : null}
                {lookup.state === 'none' ? <span className="small error-text">{t('clients.lookupNone')}</span> : null}
                {lookup.state === 'error' ? <span className="small error-text">{lookup.message}</span> : null}
                {lookup.message && lookup.state === 'found' ? <span className="small error-text">{lookup.message}</span> : null}
              </div>
              <Field label={t('clients.vatPayer')}>
                <label className="check">
                  <input type="checkbox" data-testid="client-vat_payer" checked={f.vat_payer} onChange={(e) => set('vat_payer', e.target.checked)} />
                  {t('clients.vatPayerHint')}
                </label>
              </Field>
            </>
          ) : null}
          {input('name', f.type === 'company' ? 'clients.companyName' : 'clients.personName', { span2: true })}
          {f.type === 'company' ? input('reg_com', 'clients.regCom', { placeholder: 'J40/123/2020' }) : input('cnp', 'clients.cnp', { hint: t('clients.cnpHint') })}
          {input('address', 'clients.address', { span2: true })}
          {input('city', 'clients.city')}
          {input('county', 'clients.county')}
          {input('country', 'clients.country')}
          {input('email', 'clients.email')}
          {input('phone', 'clients.phone')}
          {input('iban', 'clients.iban', { hint: bankGuess })}
          {input('bank', 'clients.bank', { placeholder: bankGuess })}
        </div>
        <button type="submit" hidden />
      </form>
    </ActionDialog>
  );
}
