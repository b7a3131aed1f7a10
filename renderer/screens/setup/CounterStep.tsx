import { useState, type FormEvent } from 'react';
import type { SeriesView } from '../../../shared/ipc';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { Field } from '../../components/Field';
import { FormError, StepCard, StepFooter, useFieldError, type StepProps, useStepSave } from './common';

type Mode = 'exclusive' | 'shared';

function ModeChoice({ series, mode, onChange }: { series: SeriesView; mode: Mode; onChange: (m: Mode) => void }) {
  const { t } = useI18n();
  const name = `mode-${series.id}`;
  return (
    <fieldset className="setup-choice" data-testid={`setup-mode-${series.kind}`}>
      <legend>
        {t(series.kind === 'invoice' ? 'setup.counter.invoiceSeries' : 'setup.counter.receiptSeries', { example: series.example_full_number })}
      </legend>
      <label className="setup-option">
        <input type="radio" name={name} value="exclusive" checked={mode === 'exclusive'} onChange={() => onChange('exclusive')} data-testid={`setup-mode-${series.kind}-exclusive`} />
        <span>
          <strong>{t('setup.counter.exclusive')}</strong>
          <span className="muted small">{t('setup.counter.exclusiveHelp')}</span>
        </span>
      </label>
      <label className="setup-option">
        <input type="radio" name={name} value="shared" checked={mode === 'shared'} onChange={() => onChange('shared')} data-testid={`setup-mode-${series.kind}-shared`} />
        <span>
          <strong>{t('setup.counter.shared')}</strong>
          <span className="muted small">{t('setup.counter.sharedHelp')}</span>
        </span>
      </label>
    </fieldset>
  );
}

/**
 * Step 6: this computer as a counter: its name, and how it takes numbers from each series. Exclusive
 * (it holds the series' lock: no gaps, other counters cannot issue from it) or shared (it keeps a
 * stock of reserved numbers: several counters issue at once; an unused number becomes a documented gap).
 */
export function CounterStep({ state, saved, back }: StepProps) {
  const { t } = useI18n();
  const settings = useIpcQuery('settings.get', undefined);
  const list = useIpcQuery('series.list', undefined);
  const mine = (list.data ?? []).filter((s) => s.id === state.invoice_series_id || s.id === state.receipt_series_id);
  const [device, setDevice] = useState<string | null>(null);
  const [modes, setModes] = useState<Record<string, Mode>>({});
  const { busy, error, run } = useStepSave();
  const fieldError = useFieldError(error);
  const deviceName = device ?? settings.data?.device.name ?? '';
  const modeOf = (s: SeriesView): Mode => modes[s.id] ?? (s.mode === 'shared' ? 'shared' : 'exclusive');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await run(async () => {
      await callIpc('settings.update', {
        ...(deviceName.trim() && deviceName.trim() !== settings.data?.device.name ? { device_name: deviceName.trim() } : {}),
        ...(state.invoice_series_id ? { default_series_id: state.invoice_series_id } : {}),
      });
      for (const s of mine) {
        const mode = modeOf(s);
        if (s.mode !== mode) await callIpc('series.setMode', { id: s.id, mode });
      }
      await saved({ completed: ['counter'] });
    });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <StepCard testId="setup-step-counter" title={t('setup.counter.title')} intro={t('setup.counter.intro')}>
        <div className="form-grid">
          <Field label={t('setup.counter.deviceName')} error={fieldError('device_name')}>
            <input className="input" data-testid="setup-device-name" value={deviceName} maxLength={100} onChange={(e) => setDevice(e.target.value)} />
          </Field>
        </div>
        {mine.length === 0 ? <p className="muted">{t('setup.counter.noSeries')}</p> : null}
        {mine.map((s) => (
          <ModeChoice key={s.id} series={s} mode={modeOf(s)} onChange={(m) => setModes((prev) => ({ ...prev, [s.id]: m }))} />
        ))}
        <FormError error={error} fields={['device_name']} />
        <StepFooter back={back} busy={busy} />
      </StepCard>
    </form>
  );
}
