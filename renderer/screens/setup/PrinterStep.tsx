import { useState, type FormEvent } from 'react';
import type { PrintLayout } from '../../../shared/ipc/contract-series-admin';
import { useI18n } from '../../i18n/I18nProvider';
import { FormError, StepCard, StepFooter, type StepProps, useStepSave } from './common';

/** Step 7: A4 sheets or an 80 mm thermal roll, for this computer only (another counter may differ). */
export function PrinterStep({ state, saved, back }: StepProps) {
  const { t } = useI18n();
  const [layout, setLayout] = useState<PrintLayout>(state.print_layout);
  const { busy, error, run } = useStepSave();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await run(async () => {
      await saved({ completed: ['printer'], print_layout: layout, onboarding_done: true });
    });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <StepCard testId="setup-step-printer" title={t('setup.printer.title')} intro={t('setup.printer.intro')}>
        <div className="setup-layouts">
          {(['a4', '80mm'] as const).map((option) => (
            <label key={option} className={`setup-layout${layout === option ? ' chosen' : ''}`}>
              <input type="radio" name="layout" value={option} checked={layout === option} onChange={() => setLayout(option)} data-testid={`setup-layout-${option}`} />
              <span className={`setup-paper ${option === 'a4' ? 'a4' : 'roll'}`} aria-hidden="true" />
              <strong>{t(option === 'a4' ? 'setup.printer.a4' : 'setup.printer.roll')}</strong>
              <span className="muted small">{t(option === 'a4' ? 'setup.printer.a4Help' : 'setup.printer.rollHelp')}</span>
            </label>
          ))}
        </div>
        <FormError error={error} fields={[]} />
        <StepFooter back={back} busy={busy} submitLabel={t('setup.finish')} />
      </StepCard>
    </form>
  );
}
