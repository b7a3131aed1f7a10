import { useState, type FormEvent } from 'react';
import { LOGO_MAX_CHARS } from '../../../shared/ipc/contract-series-admin';
import { useI18n } from '../../i18n/I18nProvider';
import { FormError, StepCard, StepFooter, type StepProps, useStepSave } from './common';

/** The largest image file accepted: its data URL stays under LOGO_MAX_CHARS. */
export const LOGO_MAX_BYTES = 256 * 1024;
const TYPES = ['image/png', 'image/jpeg', 'image/webp'];

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/**
 * Step 3: the logo, printed at the top of this device's documents. The service's company profile has
 * no logo member, so it is kept on the device (docs/api-decisions.md, "Logo").
 */
export function LogoStep({ state, saved, back }: StepProps) {
  const { t } = useI18n();
  const [logo, setLogo] = useState<string | null>(state.logo);
  const [local, setLocal] = useState<string | null>(null);
  const { busy, error, run } = useStepSave();

  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (!TYPES.includes(file.type)) return setLocal(t('setup.logo.error.type'));
    if (file.size > LOGO_MAX_BYTES) return setLocal(t('setup.logo.error.size', { kb: Math.ceil(file.size / 1024) }));
    const url = await readAsDataUrl(file);
    if (url.length > LOGO_MAX_CHARS) return setLocal(t('setup.logo.error.size', { kb: Math.ceil(file.size / 1024) }));
    setLocal(null);
    setLogo(url);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await run(async () => {
      await saved({ completed: ['logo'], logo });
    });
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <StepCard testId="setup-step-logo" title={t('setup.logo.title')} intro={t('setup.logo.intro')}>
        <div className="row" style={{ alignItems: 'flex-start', gap: 16 }}>
          <div className="setup-logo-box" data-testid="setup-logo-preview">
            {logo ? <img src={logo} alt={t('setup.logo.preview')} /> : <span className="muted small">{t('setup.logo.empty')}</span>}
          </div>
          <div className="col">
            <input type="file" accept={TYPES.join(',')} data-testid="setup-logo-file" onChange={(e) => void choose(e.target.files?.[0])} />
            <span className="muted small">{t('setup.logo.limits')}</span>
            {local ? <span className="error-text small" role="alert" data-testid="setup-logo-error">{local}</span> : null}
            {logo ? (
              <button type="button" className="btn" onClick={() => setLogo(null)}>
                {t('setup.logo.remove')}
              </button>
            ) : null}
          </div>
        </div>
        <FormError error={error} fields={[]} />
        <StepFooter back={back} busy={busy} submitLabel={logo ? undefined : t('setup.logo.without')} />
      </StepCard>
    </form>
  );
}
