import type { PrintLayout } from '../../../shared/ipc/contract-series-admin';
import { useToast } from '../../components/Toasts';
import { useIpcMutation, useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { describeError } from '../../lib/errors';

/** In Settings: this device's printer layout (also chosen in the wizard), and the way back into the wizard. */
export function DeviceSetupSection() {
  const { t } = useI18n();
  const toast = useToast();
  const setup = useIpcQuery('setup.get', undefined);
  const update = useIpcMutation('setup.update');
  const save = (patch: { print_layout?: PrintLayout; onboarding_done?: boolean }) =>
    void update.mutateAsync(patch).then(() => toast(t('common.saved'), 'ok')).catch((e: unknown) => toast(describeError(e, t), 'bad'));
  const layout = setup.data?.print_layout ?? 'a4';
  return (
    <div className="card" data-testid="settings-printer">
      <header>
        <h2>{t('setup.printer.setting')}</h2>
      </header>
      <div className="body col">
        <div className="segmented" role="group" aria-label={t('setup.printer.setting')}>
          {(['a4', '80mm'] as const).map((option) => (
            <button key={option} type="button" aria-pressed={layout === option} data-testid={`settings-layout-${option}`} onClick={() => save({ print_layout: option })}>
              {t(option === 'a4' ? 'setup.printer.a4' : 'setup.printer.roll')}
            </button>
          ))}
        </div>
        <p className="muted small">{t(layout === 'a4' ? 'setup.printer.a4Help' : 'setup.printer.rollHelp')}</p>
        <div>
          <button type="button" className="btn" data-testid="settings-restart-setup" onClick={() => save({ onboarding_done: false })}>
            {t('setup.restart')}
          </button>
        </div>
      </div>
    </div>
  );
}
