import { useState, type FormEvent } from 'react';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { Field } from '../../components/Field';
import { formatBani, parseAmountInput } from '../../lib/format';
import { FormError, StepCard, StepFooter, useFieldError, type StepProps, useStepSave } from './common';

/** Step 2: share capital, which an SRL or SA prints on its documents (Legea 31/1990 art. 74); a PFA has none. */
export function CapitalStep({ saved, back }: StepProps) {
  const { t } = useI18n();
  const profile = useIpcQuery('company.profile', undefined);
  const current = profile.data?.capital_social_bani;
  const [text, setText] = useState<string | null>(null);
  const [none, setNone] = useState(false);
  const { busy, error, run } = useStepSave();
  const [local, setLocal] = useState<string | null>(null);
  const fieldError = useFieldError(error);
  const shown = text ?? (current != null ? formatBani(current, 'ro') : '200,00');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let bani: number | null = null;
    if (!none) {
      bani = parseAmountInput(shown);
      if (bani === null || bani < 0) return setLocal(t('setup.capital.error.amount'));
    }
    setLocal(null);
    await run(async () => {
      await callIpc('company.updateProfile', { capital_social_bani: bani });
      await saved({ completed: ['capital'] });
    });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <StepCard testId="setup-step-capital" title={t('setup.capital.title')} intro={t('setup.capital.intro')}>
        <div className="form-grid">
          <Field label={t('setup.capital.amount')} error={local ?? fieldError('capital_social_bani')}>
            <input className={`input num${local ? ' invalid' : ''}`} data-testid="setup-capital" value={none ? '' : shown} disabled={none} autoFocus
              onChange={(e) => setText(e.target.value)} />
          </Field>
        </div>
        <label className="check">
          <input type="checkbox" checked={none} data-testid="setup-capital-none" onChange={(e) => setNone(e.target.checked)} />
          {t('setup.capital.none')}
        </label>
        <FormError error={error} fields={['capital_social_bani']} />
        <StepFooter back={back} busy={busy} />
      </StepCard>
    </form>
  );
}
