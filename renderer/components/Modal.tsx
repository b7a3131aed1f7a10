import { useEffect, useRef, type ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';

/**
 * A dialog: Escape closes it, focus moves into it when it opens and back where it was when it
 * closes, so a keyboard-only cashier never loses the caret.
 */
export function Modal(props: { title: ReactNode; onClose: () => void; children: ReactNode; footer?: ReactNode; wide?: boolean; testId?: string }) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>('[autofocus], input, select, textarea, button:not(.close)');
    first?.focus();
    return () => previous?.focus?.();
  }, []);
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        ref={ref}
        className={`modal${props.wide ? ' wide' : ''}`}
        role="dialog"
        aria-modal="true"
        data-testid={props.testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <header>
          <h2>{props.title}</h2>
          <span className="spacer" />
          <button type="button" className="btn ghost close" aria-label={t('common.close')} title={t('common.close')} onClick={props.onClose}>
            ✕
          </button>
        </header>
        <div className="body">{props.children}</div>
        {props.footer ? <footer>{props.footer}</footer> : null}
      </div>
    </div>
  );
}
