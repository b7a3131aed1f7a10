import { useState } from 'react';
import { callIpc, useIpcQuery } from '../data/hooks';
import { useT } from '../i18n/I18nProvider';
import { SuggestionList } from './SuggestionList';

export interface PickedClient {
  id: string;
  name: string;
}

/** A compact client chooser for filters and forms: type a name or CUI, pick from the list. */
export function ClientSelect(props: { value: PickedClient | null; onChange(value: PickedClient | null): void; placeholder?: string; testId?: string }) {
  const t = useT();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const query = text.trim().replace(/^ro(?=\d)/i, '');
  const { data, isPlaceholderData } = useIpcQuery('clients.list', { search: query, limit: 8, offset: 0 }, { enabled: open && query.length > 0, keepPrevious: true });
  const options = query ? (data?.items ?? []) : [];
  if (props.value) {
    return (
      <span className="badge info" data-testid={props.testId} style={{ padding: '5px 10px' }}>
        {props.value.name}
        <button type="button" className="btn ghost" style={{ padding: '0 4px' }} aria-label={t('common.clear')} onClick={() => props.onChange(null)}>
          ✕
        </button>
      </span>
    );
  }
  const choose = (id: string, name: string) => {
    props.onChange({ id, name });
    setText('');
    setOpen(false);
  };
  return (
    <span style={{ position: 'relative', display: 'inline-block' }}>
      <input
        className="input"
        data-testid={props.testId}
        placeholder={props.placeholder ?? t('filters.client')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((i) => Math.min(options.length - 1, i + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((i) => Math.max(0, i - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            // Only a list that answers the current text; otherwise search it now.
            if (!isPlaceholderData && data) {
              const c = options[active];
              if (c) choose(c.id, c.name);
            } else if (query) {
              void callIpc('clients.list', { search: query, limit: 1, offset: 0 }).then((r) => {
                const c = r.items[0];
                if (c) choose(c.id, c.name);
              });
            }
          }
        }}
      />
      {open && options.length > 0 ? (
        <SuggestionList items={options} active={active} onPick={(c) => choose(c.id, c.name)} style={{ minWidth: 280 }}>
          {(c) => (
            <>
              <span>{c.name}</span>
              <span className="code">{c.cui ?? ''}</span>
              <span />
            </>
          )}
        </SuggestionList>
      ) : null}
    </span>
  );
}
