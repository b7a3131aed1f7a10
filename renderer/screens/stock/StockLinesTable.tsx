import type { CSSProperties, Dispatch, ReactNode, SetStateAction } from 'react';
import { useI18n } from '../../i18n/I18nProvider';

/**
 * The editable table of a stock document (NIR, transfer): one row a line, a remove button on each (the
 * last line is emptied rather than removed, so there is always a row to type in), "Adaugă linie"
 * under it and the document's figure beside that. The cells are the screen's own.
 */
export function StockLinesTable<L extends { key: number }>(props: {
  testId: string;
  style?: CSSProperties;
  headers: ReactNode;
  lines: readonly L[];
  setLines: Dispatch<SetStateAction<L[]>>;
  emptyLine: () => L;
  cells: (line: L, index: number) => ReactNode;
  addTestId: string;
  /** Beside the "add line" button: a total, for example. */
  aside?: ReactNode;
}) {
  const { t } = useI18n();
  const { setLines, emptyLine } = props;
  return (
    <>
      <table className="grid" data-testid={props.testId} style={props.style}>
        <thead>
          <tr>
            {props.headers}
            <th />
          </tr>
        </thead>
        <tbody>
          {props.lines.map((line, i) => (
            <tr key={line.key}>
              {props.cells(line, i)}
              <td>
                <button className="btn ghost" aria-label={t('nir.removeLine')} title={t('nir.removeLine')} onClick={() => setLines((ls) => (ls.length > 1 ? ls.filter((x) => x.key !== line.key) : [emptyLine()]))}>
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="toolbar" style={{ marginTop: 8 }}>
        <button className="btn" data-testid={props.addTestId} onClick={() => setLines((ls) => [...ls, emptyLine()])}>
          {t('nir.addLine')}
        </button>
        {props.aside}
      </div>
    </>
  );
}

/** What a stock document ends with: the service's refusal in words, and the one button that saves. */
export function StockSaveBar(props: { error: string | null; errorTestId: string; saveTestId: string; busy: boolean; disabled?: boolean; label: string; onSave(): void }) {
  const { t } = useI18n();
  return (
    <>
      {props.error ? (
        <div className="banner bad" role="alert" data-testid={props.errorTestId}>
          {props.error}
        </div>
      ) : null}
      <div className="toolbar">
        <button className="btn primary" data-testid={props.saveTestId} disabled={props.busy || props.disabled} onClick={props.onSave}>
          {props.busy ? t('nir.saving') : props.label}
        </button>
      </div>
    </>
  );
}
