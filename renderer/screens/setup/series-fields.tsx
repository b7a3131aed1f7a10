import { useState, type FormEvent } from 'react';
import type { SeriesView } from '../../../shared/ipc';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { Field } from '../../components/Field';
import { previewNumber } from '../series/preview';
import { FormError, StepCard, StepFooter, useFieldError, type StepProps, useStepSave } from './common';

/**
 * The invoice and the receipt series steps: a name, a starting number (a shop moving from another
 * program continues its numbering), and the first number as it will print, live. A series the wizard
 * made before (resumed) is edited, not made twice.
 */
export function SeriesStepForm(props: StepProps & { kind: 'invoice' | 'receipt'; suggestedName: string }) {
  const { t } = useI18n();
  const { kind, state, saved, back } = props;
  const madeId = kind === 'invoice' ? state.invoice_series_id : state.receipt_series_id;
  const list = useIpcQuery('series.list', undefined);
  const made: SeriesView | undefined = list.data?.find((s) => s.id === madeId);
  const [name, setName] = useState<string | null>(null);
  const [startText, setStartText] = useState<string | null>(null);
  const { busy, error, setError, run } = useStepSave();
  const [local, setLocal] = useState<{ name?: string; start_number?: string }>({});
  const fieldError = useFieldError(error);

  const shownName = name ?? made?.name ?? props.suggestedName;
  const shownStart = startText ?? String(made?.start_number ?? 1);
  const start = /^\d{1,9}$/.test(shownStart.trim()) ? Number(shownStart.trim()) : NaN;
  const preview = previewNumber(kind, shownName, start);
  const pattern = kind === 'invoice' ? /^[A-Za-z0-9-]{1,20}$/ : /^[A-Za-z0-9]{1,20}$/;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problems: { name?: string; start_number?: string } = {};
    if (!pattern.test(shownName.trim())) problems.name = t(kind === 'invoice' ? 'setup.series.error.name' : 'setup.series.error.prefix');
    if (!Number.isInteger(start) || start < 1) problems.start_number = t('setup.series.error.start');
    setLocal(problems);
    if (problems.name || problems.start_number) return;
    await run(async () => {
      const series = made
        ? await callIpc('series.update', {
            id: made.id,
            ...(shownName.trim() !== made.name ? { name: shownName.trim() } : {}),
            ...(start !== made.start_number ? { start_number: start } : {}),
          })
        : kind === 'invoice'
          ? await callIpc('series.create', { kind, name: shownName.trim(), start_number: start, is_primary: true, description: t('setup.series.invoiceDescription') })
          : await callIpc('series.create', { kind, name: shownName.trim(), start_number: start, description: t('setup.series.receiptDescription') });
      await saved(kind === 'invoice' ? { completed: ['invoiceSeries'], invoice_series_id: series.id } : { completed: ['receiptSeries'], receipt_series_id: series.id });
    });
  };

  const nameError = local.name ?? fieldError('name');
  const startError = local.start_number ?? fieldError('start_number');
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <StepCard
        testId={kind === 'invoice' ? 'setup-step-invoice-series' : 'setup-step-receipt-series'}
        title={t(kind === 'invoice' ? 'setup.invoiceSeries.title' : 'setup.receiptSeries.title')}
        intro={t(kind === 'invoice' ? 'setup.invoiceSeries.intro' : 'setup.receiptSeries.intro')}
      >
        <div className="form-grid">
          <Field label={t(kind === 'invoice' ? 'setup.series.name' : 'setup.series.prefix')} error={nameError}>
            <input className={`input${nameError ? ' invalid' : ''}`} data-testid="setup-series-name" value={shownName} autoFocus maxLength={20}
              onChange={(e) => {
                setName(e.target.value.toUpperCase());
                setError(null);
                setLocal({});
              }} />
          </Field>
          <Field label={t('setup.series.start')} error={startError}>
            <input className={`input num${startError ? ' invalid' : ''}`} data-testid="setup-series-start" inputMode="numeric" value={shownStart}
              onChange={(e) => {
                setStartText(e.target.value);
                setError(null);
                setLocal({});
              }} />
          </Field>
        </div>
        <p className="muted small">{t('setup.series.startHelp')}</p>
        <div className="setup-preview" data-testid="setup-series-preview" aria-live="polite">
          <span className="muted small">{t('setup.series.preview')}</span>
          <strong>{preview || '—'}</strong>
        </div>
        <FormError error={error} fields={['name', 'start_number']} />
        <StepFooter back={back} busy={busy} />
      </StepCard>
    </form>
  );
}
