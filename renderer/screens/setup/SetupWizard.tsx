import { useEffect, useState, type ComponentType } from 'react';
import type { z } from 'zod';
import { SETUP_STEPS, type SetupStep, type zSetupUpdate } from '../../../shared/ipc/contract-series-admin';
import { navigate } from '../../app/router';
import { useIpcMutation, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n';
import { BankStep } from './BankStep';
import { CapitalStep } from './CapitalStep';
import type { StepProps } from './common';
import { CounterStep } from './CounterStep';
import { InvoiceSeriesStep } from './InvoiceSeriesStep';
import { LogoStep } from './LogoStep';
import { PrinterStep } from './PrinterStep';
import { ReceiptSeriesStep } from './ReceiptSeriesStep';

const STEPS: Record<SetupStep, { label: MessageKey; view: ComponentType<StepProps> }> = {
  bank: { label: 'setup.nav.bank', view: BankStep },
  capital: { label: 'setup.nav.capital', view: CapitalStep },
  logo: { label: 'setup.nav.logo', view: LogoStep },
  invoiceSeries: { label: 'setup.nav.invoiceSeries', view: InvoiceSeriesStep },
  receiptSeries: { label: 'setup.nav.receiptSeries', view: ReceiptSeriesStep },
  counter: { label: 'setup.nav.counter', view: CounterStep },
  printer: { label: 'setup.nav.printer', view: PrinterStep },
};

/**
 * The setup wizard (issue 12), shown while `onboarding_done` is false, after the company exists and
 * the app talks to its service. Every step saves what it did before the next opens, so leaving and
 * coming back resumes at the first step not done; a step already done can be opened again.
 */
export function SetupWizard() {
  const { t } = useI18n();
  const setup = useIpcQuery('setup.get', undefined);
  const settings = useIpcQuery('settings.get', undefined);
  const update = useIpcMutation('setup.update');
  const [current, setCurrent] = useState<SetupStep | null>(null);
  const state = setup.data;

  // From its first screen the wizard is written down as started: a series made in it must not end it.
  useEffect(() => {
    if (state?.source === 'inferred' && !state.onboarding_done && !update.isPending) update.mutate({ onboarding_done: false });
  }, [state?.source, state?.onboarding_done]);

  if (!state) return <div className="setup-shell" data-testid="setup-wizard" />;
  const firstOpen = SETUP_STEPS.find((s) => !state.completed.includes(s)) ?? 'printer';
  const step = current ?? firstOpen;
  const index = SETUP_STEPS.indexOf(step);
  const View = STEPS[step].view;

  const saved = async (patch: z.input<typeof zSetupUpdate> = {}) => {
    const next = await update.mutateAsync({ completed: [step], ...patch });
    if (next.onboarding_done) {
      navigate({ screen: 'counter' });
      return;
    }
    setCurrent(SETUP_STEPS[index + 1] ?? null);
  };
  const back = index > 0 ? () => setCurrent(SETUP_STEPS[index - 1]!) : null;

  return (
    <div className="setup-shell" data-testid="setup-wizard">
      <aside className="setup-nav" aria-label={t('setup.title')}>
        <div className="brand">
          <span className="logo">T</span> Tejghea
        </div>
        <h1>{t('setup.title')}</h1>
        <p className="small">{settings.data?.company?.name ?? ''}</p>
        <ol>
          {SETUP_STEPS.map((s, i) => {
            const done = state.completed.includes(s);
            return (
              <li key={s} className={`${s === step ? 'current' : ''}${done ? ' done' : ''}`}>
                <button type="button" onClick={() => setCurrent(s)} aria-current={s === step ? 'step' : undefined} data-testid={`setup-nav-${s}`}>
                  <span className="n">{done ? '✓' : i + 1}</span> {t(STEPS[s].label)}
                </button>
              </li>
            );
          })}
        </ol>
        <p className="small setup-resume">{t('setup.resumeNote')}</p>
        <button type="button" className="btn setup-later" data-testid="setup-later" onClick={() => update.mutate({ onboarding_done: true })}>
          {t('setup.later')}
        </button>
      </aside>
      <main className="setup-main">
        <div className="setup-progress small muted">{t('setup.progress', { n: index + 1, total: SETUP_STEPS.length })}</div>
        <View key={step} state={state} saved={saved} back={back} />
      </main>
    </div>
  );
}
