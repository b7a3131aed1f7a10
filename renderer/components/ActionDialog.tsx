import type { ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';
import { ErrorMessage } from './ErrorMessage';
import { Modal } from './Modal';

/**
 * A dialog that does one thing: what went wrong, Cancel, and the one button that acts. `onConfirm`
 * may reject: the error is already on screen through `error` (the mutation's own), so the rejection
 * is dropped here instead of in every dialog.
 */
export function ActionDialog(props: {
  title: ReactNode;
  onClose(): void;
  children: ReactNode;
  /** The action's error, shown beside the buttons. */
  error?: unknown;
  confirmLabel: ReactNode;
  onConfirm(): Promise<unknown>;
  confirmDisabled?: boolean;
  /** How the action reads: `danger` for what cannot be undone. */
  tone?: 'primary' | 'danger';
  confirmTestId?: string;
  /** Buttons between Cancel and the action (another way to act). */
  extraActions?: ReactNode;
  wide?: boolean;
  testId?: string;
}) {
  const t = useT();
  return (
    <Modal
      title={props.title}
      onClose={props.onClose}
      wide={props.wide}
      testId={props.testId}
      footer={
        <>
          <ErrorMessage error={props.error} />
          <button type="button" className="btn" onClick={props.onClose}>
            {t('common.cancel')}
          </button>
          {props.extraActions}
          <button
            type="button"
            className={`btn ${props.tone ?? 'primary'}`}
            data-testid={props.confirmTestId ?? 'dialog-confirm'}
            disabled={props.confirmDisabled}
            onClick={() => void props.onConfirm().catch(() => undefined)}
          >
            {props.confirmLabel}
          </button>
        </>
      }
    >
      {props.children}
    </Modal>
  );
}
