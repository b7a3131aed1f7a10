import { useState, type FormEvent } from 'react';
import type { SeriesView } from '../../../shared/ipc';
import { navigate } from '../../app/router';
import { Field } from '../../components/Field';
import { useToast } from '../../components/Toasts';
import { useIpcMutation } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { describeError, errorOf, inLanguage } from '../../lib/errors';
import { previewNumber } from './preview';

function useFields(error: unknown) {
  const { language } = useI18n();
  return (field: string): string | null => {
    const m = errorOf(error)?.fields?.[field];
    return m ? inLanguage(m, language) : null;
  };
}

/** A new invoice or receipt series: name, first number, and the first number as it will print. */
export function NewSeriesForm({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const toast = useToast();
  const create = useIpcMutation('series.create');
  const [kind, setKind] = useState<'invoice' | 'receipt'>('invoice');
  const [name, setName] = useState('');
  const [start, setStart] = useState('1');
  const [description, setDescription] = useState('');
  const field = useFields(create.error);
  const startNumber = /^\d{1,9}$/.test(start.trim()) ? Number(start.trim()) : NaN;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const s = await create.mutateAsync({ kind, name: name.trim(), start_number: startNumber, description: description.trim() });
      toast(t('seriesAdmin.created'), 'ok');
      onClose();
      navigate({ screen: 'series', id: s.id });
    } catch {
      // Shown at the fields below.
    }
  };
  const generic = create.error && !errorOf(create.error)?.fields ? describeError(create.error, t) : null;
  const nameError = field('name');
  return (
    <form className="card" data-testid="series-new-form" onSubmit={(e) => void submit(e)} noValidate>
      <header>
        <h2>{t('seriesAdmin.new')}</h2>
      </header>
      <div className="body col">
        <div className="segmented" role="group" aria-label={t('seriesAdmin.kind')}>
          <button type="button" aria-pressed={kind === 'invoice'} onClick={() => setKind('invoice')} data-testid="series-new-invoice">
            {t('seriesAdmin.newInvoice')}
          </button>
          <button type="button" aria-pressed={kind === 'receipt'} onClick={() => setKind('receipt')} data-testid="series-new-receipt">
            {t('seriesAdmin.newReceipt')}
          </button>
        </div>
        <div className="form-grid">
          <Field label={t(kind === 'invoice' ? 'setup.series.name' : 'setup.series.prefix')} error={nameError}>
            <input className="input" data-testid="series-new-name" value={name} maxLength={20} onChange={(e) => { setName(e.target.value.toUpperCase()); create.reset(); }} />
          </Field>
          <Field label={t('setup.series.start')} error={field('start_number')}>
            <input className="input num" data-testid="series-new-start" value={start} inputMode="numeric" onChange={(e) => { setStart(e.target.value); create.reset(); }} />
          </Field>
          <Field label={t('seriesAdmin.description')} span2>
            <input className="input" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
          </Field>
        </div>
        <p className="muted small">{t('setup.series.startHelp')}</p>
        <div className="setup-preview" data-testid="series-new-preview">
          <span className="muted small">{t('setup.series.preview')}</span>
          <strong>{previewNumber(kind, name, startNumber) || '—'}</strong>
        </div>
        {generic ? <div className="banner bad small" role="alert">{generic}</div> : null}
        <div className="row">
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            {t('seriesAdmin.cancel')}
          </button>
          <button type="submit" className="btn primary" disabled={create.isPending} data-testid="series-new-save">
            {t('seriesAdmin.save')}
          </button>
        </div>
      </div>
    </form>
  );
}

/** Editing a series (name, description, start), making it the default, and what its mode means, in words. */
export function SeriesEditCard({ s }: { s: SeriesView }) {
  const { t } = useI18n();
  const toast = useToast();
  const update = useIpcMutation('series.update');
  const primary = useIpcMutation('series.setPrimary');
  const [name, setName] = useState(s.name);
  const [description, setDescription] = useState(s.description);
  const [start, setStart] = useState(String(s.start_number));
  const field = useFields(update.error);
  const startNumber = /^\d{1,9}$/.test(start.trim()) ? Number(start.trim()) : NaN;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await update.mutateAsync({
        id: s.id,
        ...(name.trim() !== s.name ? { name: name.trim() } : {}),
        ...(description.trim() !== s.description ? { description: description.trim() } : {}),
        ...(startNumber !== s.start_number ? { start_number: startNumber } : {}),
      });
      toast(t('seriesAdmin.saved'), 'ok');
    } catch {
      // Shown at the fields below.
    }
  };
  const generic = update.error && !errorOf(update.error)?.fields ? describeError(update.error, t) : null;
  const explain =
    s.mode === 'exclusive' ? t('seriesAdmin.lockExplainMine')
    : s.lock && !s.locked_by_me ? t('seriesAdmin.lockExplainOther', { device: s.lock.device_name })
    : s.mode === 'shared' ? t('seriesAdmin.poolExplain', { available: s.pool.available, target: s.pool.target, low: s.pool.low_water })
    : null;
  return (
    <form className="card" data-testid="series-edit" onSubmit={(e) => void submit(e)} noValidate>
      <header>
        <h2>{t('seriesAdmin.edit')}</h2>
        <span className="spacer" />
        {s.kind === 'invoice' && !s.is_primary ? (
          <button type="button" className="btn" data-testid="series-set-primary" disabled={primary.isPending}
            onClick={() => void primary.mutateAsync({ id: s.id }).then(() => toast(t('seriesAdmin.primaryDone'), 'ok')).catch((e: unknown) => toast(describeError(e, t), 'bad'))}>
            {t('seriesAdmin.setPrimary')}
          </button>
        ) : null}
      </header>
      <div className="body col">
        <p className="small" data-testid="series-example">{t('seriesAdmin.nextExample', { example: s.next_full_number ?? s.example_full_number })}</p>
        {explain ? <p className="muted small" data-testid="series-mode-explain">{explain}</p> : null}

        <div className="form-grid">
          <Field label={t(s.kind === 'invoice' ? 'setup.series.name' : 'setup.series.prefix')} error={field('name')}>
            <input className="input" data-testid="series-edit-name" value={name} maxLength={20} disabled={s.is_used && s.kind === 'receipt'} onChange={(e) => { setName(e.target.value.toUpperCase()); update.reset(); }} />
          </Field>
          <Field label={t('setup.series.start')} error={field('start_number')}>
            <input className="input num" data-testid="series-edit-start" value={start} inputMode="numeric" onChange={(e) => { setStart(e.target.value); update.reset(); }} />
          </Field>
          <Field label={t('seriesAdmin.description')} span2>
            <input className="input" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
          </Field>
        </div>
        {s.is_used ? <p className="muted small">{t('seriesAdmin.startUsed')}</p> : null}
        {generic ? <div className="banner bad small" role="alert">{generic}</div> : null}
        <div className="row">
          <span className="spacer" />
          <button type="submit" className="btn primary" disabled={update.isPending} data-testid="series-edit-save">
            {t('seriesAdmin.save')}
          </button>
        </div>
      </div>
    </form>
  );
}

/** The size of this device's stock of reserved numbers for a shared series, in words and two numbers. */
export function PoolSettings({ s }: { s: SeriesView }) {
  const { t } = useI18n();
  const toast = useToast();
  const setMode = useIpcMutation('series.setMode');
  const [target, setTarget] = useState(String(s.pool.target));
  const [low, setLow] = useState(String(s.pool.low_water));
  const field = useFields(setMode.error);
  const targetN = /^\d{1,4}$/.test(target.trim()) ? Number(target.trim()) : NaN;
  const lowN = /^\d{1,4}$/.test(low.trim()) ? Number(low.trim()) : NaN;
  const local =
    !Number.isInteger(targetN) || targetN < 1 || targetN > 1000 ? t('seriesAdmin.pool.errorTarget')
    : !Number.isInteger(lowN) || lowN < 0 || lowN >= targetN ? t('seriesAdmin.pool.errorLow')
    : null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (local) return;
    try {
      await setMode.mutateAsync({ id: s.id, mode: 'shared', pool_target: targetN, low_water: lowN });
      toast(t('seriesAdmin.saved'), 'ok');
    } catch (error) {
      toast(describeError(error, t), 'bad');
    }
  };
  return (
    <form className="col" data-testid="series-pool-settings" onSubmit={(e) => void submit(e)} noValidate>
      <div className="form-grid">
        <Field label={t('seriesAdmin.pool.target')} error={field('pool_target')}>
          <input className="input num" inputMode="numeric" value={target} onChange={(e) => setTarget(e.target.value)} data-testid="series-pool-target" />
        </Field>
        <Field label={t('seriesAdmin.pool.low')} error={field('low_water') ?? local}>
          <input className="input num" inputMode="numeric" value={low} onChange={(e) => setLow(e.target.value)} data-testid="series-pool-low" />
        </Field>
      </div>
      <div className="row">
        <span className="spacer" />
        <button type="submit" className="btn" disabled={setMode.isPending || local !== null}>
          {t('seriesAdmin.save')}
        </button>
      </div>
    </form>
  );
}
