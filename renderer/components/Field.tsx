import type { ReactNode } from 'react';

/** A labelled form field: the label, the control(s), and the error under them when there is one. */
export function Field(props: { label: ReactNode; children: ReactNode; error?: ReactNode; span2?: boolean }) {
  return (
    <label className={props.span2 ? 'field span2' : 'field'}>
      {props.label}
      {props.children}
      {props.error ? <span className="error">{props.error}</span> : null}
    </label>
  );
}
