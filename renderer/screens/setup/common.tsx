import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import type { SetupState, zSetupUpdate } from '../../../shared/ipc/contract-series-admin';
import { useI18n } from '../../i18n/I18nProvider';
import { describeError, errorOf, inLanguage } from '../../lib/errors';

/** What every wizard step gets: the saved state, and how to save itself and move on. */
export interface StepProps {
  state: SetupState;
  /** Records the step as done (with what it changed locally) and opens the next one. */
  saved: (patch?: z.input<typeof zSetupUpdate>) => Promise<void>;
  back: (() => void) | null;
}

/**
 * The busy flag and the refusal of a step's save: `run` clears the last refusal, keeps the form busy
 * while `work` runs, and keeps what it threw to show beside the fields.
 */
export function useStepSave() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** The message for one field of a refusal, in the UI's language; null when the refusal names other fields. */
export function useFieldError(error: unknown) {
  const { language } = useI18n();
  return (field: string): string | null => {
    const message = errorOf(error)?.fields?.[field];
    return message ? inLanguage(message, language) : null;
  };
}

/** A refusal that names no field of this form, in words (offline, service error...). */
export function FormError({ error, fields }: { error: unknown; fields: readonly string[] }) {
  const { t } = useI18n();
  if (!error) return null;
  const named = Object.keys(errorOf(error)?.fields ?? {});
  if (named.length > 0 && named.every((f) => fields.includes(f))) return null;
  return (
    <div className="banner bad small" role="alert" data-testid="setup-error">
      {describeError(error, t)}
    </div>
  );
}

export function StepCard(props: { title: string; intro: ReactNode; children: ReactNode; testId: string }) {
  return (
    <section className="card setup-step" data-testid={props.testId}>
      <header>
        <h2>{props.title}</h2>
      </header>
      <div className="body col">
        <p className="setup-intro">{props.intro}</p>
        {props.children}
      </div>
    </section>
  );
}

export function StepFooter(props: { back: (() => void) | null; busy: boolean; skip?: () => void; submitLabel?: string }) {
  const { t } = useI18n();
  return (
    <div className="row setup-footer">
      {props.back ? (
        <button type="button" className="btn" onClick={props.back} disabled={props.busy} data-testid="setup-back">
          {t('setup.back')}
        </button>
      ) : null}
      <span className="spacer" />
      {props.skip ? (
        <button type="button" className="btn" onClick={props.skip} disabled={props.busy} data-testid="setup-skip">
          {t('setup.skip')}
        </button>
      ) : null}
      <button type="submit" className="btn primary" disabled={props.busy} data-testid="setup-next">
        {props.busy ? t('setup.saving') : (props.submitLabel ?? t('setup.saveNext'))}
      </button>
    </div>
  );
}
