import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import type { ProductView } from '../../../shared/ipc';
import { SuggestionList } from '../../components/SuggestionList';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useT } from '../../i18n/I18nProvider';
import { formatMoney } from '../../lib/format';
import { looksLikeCode, parseCounterEntry, WedgeDetector } from '../../counter/scanner';
import { useI18n } from '../../i18n/I18nProvider';

export interface ProductSearchHandle {
  focus(): void;
}

interface Props {
  onAdd(product: ProductView, quantityMilli: number): void;
  onNotFound(query: string): void;
  /** Keys the search box does not use itself when empty: line navigation and quantity nudges. */
  onEmptyKey(key: string): boolean;
}

/**
 * The counter's one input: a product name, a code, or a scanner's digits then Enter. `3*code`
 * adds three. Arrow keys move through the suggestions; Enter adds the highlighted one, or the product
 * whose code is exactly what was typed (what a scanner sends), looked up fresh so a fast scan never
 * races the suggestion list.
 */
export const ProductSearch = forwardRef<ProductSearchHandle, Props>(function ProductSearch(props, ref) {
  const t = useT();
  const { language } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const wedge = useRef(new WedgeDetector());
  useImperativeHandle(ref, () => ({ focus: () => input.current?.focus() }), []);

  const entry = parseCounterEntry(text);
  const query = entry.query;
  const { data, isPlaceholderData } = useIpcQuery('products.list', { search: query, limit: 8, offset: 0 }, { enabled: open && query.length > 0, keepPrevious: true });
  const suggestions = query.length > 0 ? (data?.items ?? []) : [];

  /**
   * `scanned`: the text arrived as a scanner's burst. Then only an exact code counts: a code that is
   * not in the catalog must say so, not add whichever product merely contains those digits.
   */
  async function commit(scanned: boolean): Promise<void> {
    const current = parseCounterEntry(text);
    if (!current.query) return;
    let chosen: ProductView | undefined;
    if (looksLikeCode(current.query) || scanned) {
      const fresh = await callIpc('products.list', { search: current.query, limit: 20, offset: 0 });
      chosen = fresh.items.find((p) => p.code === current.query);
    }
    if (!chosen && scanned) {
      props.onNotFound(current.query);
      setText('');
      setOpen(false);
      return;
    }
    // The highlighted suggestion only if the list on screen answers what is typed now (not an older search).
    if (!chosen && open && !isPlaceholderData && data) chosen = suggestions[active];
    if (!chosen) {
      const fresh = await callIpc('products.list', { search: current.query, limit: 8, offset: 0 });
      // A fresh search: its first result is what the highlighted row would have been.
      chosen = fresh.items[0];
    }
    if (chosen) {
      props.onAdd(chosen, current.quantity_milli);
      setText('');
      setOpen(false);
      setActive(0);
    } else {
      props.onNotFound(current.query);
    }
  }

  return (
    <div className="search product" role="combobox" aria-expanded={open && suggestions.length > 0} aria-haspopup="listbox">
      <span className="glyph" aria-hidden="true">⌕</span>
      <input
        ref={input}
        className="input"
        data-testid="product-search"
        aria-label={t('counter.searchProduct')}
        placeholder={t('counter.searchPlaceholder')}
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          const scan = wedge.current.key(e.key, e.timeStamp);
          if (e.key === 'Enter') {
            e.preventDefault();
            // A burst ending in Enter is a scan only if it also looks like a code: automation and
            // very fast typists produce bursts of words too.
            void commit(scan !== null && scan.code === text.trim() && /^(?=.*\d)[0-9A-Za-z-]{4,}$/.test(scan.code));
            return;
          }
          if (e.key === 'Escape' && text) {
            e.preventDefault();
            e.stopPropagation();
            setText('');
            setOpen(false);
            return;
          }
          if (open && suggestions.length > 0 && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault();
            setActive((i) => (e.key === 'ArrowDown' ? Math.min(suggestions.length - 1, i + 1) : Math.max(0, i - 1)));
            return;
          }
          if (text === '' && props.onEmptyKey(e.key)) e.preventDefault();
        }}
      />
      {open && suggestions.length > 0 ? (
        <SuggestionList
          items={suggestions}
          active={active}
          testId="product-suggestions"
          onPick={(p) => {
            props.onAdd(p, entry.quantity_milli);
            setText('');
            setOpen(false);
          }}
        >
          {(p) => (
            <>
              <span>{p.name}</span>
              <span className="code">{p.code ?? ''}</span>
              <span className="price num">
                {formatMoney(p.price_bani, p.currency, language)}
                <span className="muted small"> / {p.unit}</span>
              </span>
            </>
          )}
        </SuggestionList>
      ) : null}
    </div>
  );
});
