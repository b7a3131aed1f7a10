import { useT } from '../i18n/I18nProvider';

/** The "from … to …" pair of date inputs that narrows a list; `testIdPrefix` names them for tests where a screen needs it. */
export function DateRangeFilter(props: { from: string; to: string; onFrom(value: string): void; onTo(value: string): void; testIdPrefix?: string }) {
  const t = useT();
  const id = (end: 'from' | 'to') => (props.testIdPrefix ? `${props.testIdPrefix}-${end}` : undefined);
  return (
    <>
      <label className="row small">
        {t('filters.from')}
        <input className="input" type="date" data-testid={id('from')} value={props.from} onChange={(e) => props.onFrom(e.target.value)} />
      </label>
      <label className="row small">
        {t('filters.to')}
        <input className="input" type="date" data-testid={id('to')} value={props.to} onChange={(e) => props.onTo(e.target.value)} />
      </label>
    </>
  );
}
