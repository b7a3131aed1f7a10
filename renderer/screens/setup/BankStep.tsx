import { useState, type FormEvent } from 'react';
import { normalizeIban, roBankName, validateRoIban } from '../../../shared/ro/iban';
import { callIpc } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n';
import { Field } from '../../components/Field';
import { FormError, StepCard, StepFooter, useFieldError, type StepProps, useStepSave } from './common';

const IBAN_PROBLEM: Record<'format' | 'length' | 'checksum', MessageKey> = {
  format: 'setup.bank.error.format',
  length: 'setup.bank.error.length',
  checksum: 'setup.bank.error.checksum',
};

/** Step 1: the account buyers pay into. Made on the service (a bank account) and printed from the company profile. */
export function BankStep({ saved, back }: StepProps) {
  const { t } = useI18n();
  const [iban, setIban] = useState('');
  const [bank, setBank] = useState('');
  const { busy, error, run } = useStepSave();
  const [local, setLocal] = useState<string | null>(null);
  const fieldError = useFieldError(error);
  const guessed = roBankName(normalizeIban(iban));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = normalizeIban(iban);
    if (value === '') return setLocal(t('setup.bank.error.required'));
    if (value.startsWith('RO')) {
      const check = validateRoIban(value);
      if (!check.ok && check.reason !== 'country') return setLocal(t(IBAN_PROBLEM[check.reason]));
    }
    setLocal(null);
    await run(async () => {
      // A resumed wizard may have made the account already: the same IBAN is not made twice.
      const existing = (await callIpc('bankAccounts.list', undefined)).find((a) => a.iban === value);
      const account = existing ?? (await callIpc('bankAccounts.create', { iban: value, bank: bank.trim() || null, is_default: true }));
      await callIpc('company.updateProfile', { iban: account.iban, bank: account.bank });
      await saved({ completed: ['bank'] });
    });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <StepCard testId="setup-step-bank" title={t('setup.bank.title')} intro={t('setup.bank.intro')}>
        <div className="form-grid">
          <Field label={t('setup.bank.iban')} error={local ?? fieldError('iban')} span2>
            <input className={`input${local || fieldError('iban') ? ' invalid' : ''}`} data-testid="setup-iban" value={iban} autoFocus
              placeholder="RO49 AAAA 1B31 0075 9384 0000" onChange={(e) => {
                setIban(e.target.value);
                setLocal(null);
              }} />
          </Field>
          <Field label={t('setup.bank.bank')}>
            <input className="input" data-testid="setup-bank-name" value={bank} placeholder={guessed ?? ''} onChange={(e) => setBank(e.target.value)} />
          </Field>
        </div>
        {guessed ? <p className="muted small">{t('setup.bank.guessed', { bank: guessed })}</p> : null}
        <FormError error={error} fields={['iban']} />
        <StepFooter back={back} busy={busy} skip={() => void saved({ completed: ['bank'] })} />
      </StepCard>
    </form>
  );
}
