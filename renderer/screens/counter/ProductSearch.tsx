import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ProductView } from '../../../shared/ipc';
import { SuggestionList } from '../../components/SuggestionList';
import { callIpc, useIpcQuery } from '../../data/hooks';
import { useT } from '../../i18n/I18nProvider';
import { formatMoney } from '../../lib/format';
import { looksLikeCode, parseCounterEntry, WedgeDetector } from '../../counter/scanner';
import { readScan, weighedQuantityMilli, type ScanReading, type WeighedRule } from '../../counter/barcode';
import { useI18n } from '../../i18n/I18nProvider';
import { foldForSearch } from '../../../shared/text/search-fold';
import { useDebounced } from '../../lib/use-debounced';
import { StockBadge } from '../stock/StockBadge';

/**
 * The shape of a code a scanner sends (a burst of it ending in Enter is a scan; see `commit`), and so
 * what is worth an exact lookup while it is being typed. Text without a digit is a name, searched by the
 * suggestions instead.
 */
const CODE_SHAPE = /^(?=.*\d)[0-9A-Za-z-]{4,}$/;

/** Longest pause of a scanner between digits is ~40 ms (WedgeDetector); a person's is 80 ms and more. */
const SUGGEST_AFTER_MS = 50;

export interface ProductSearchHandle {
  focus(): void;
  /**
   * A burst that arrived elsewhere (the client box): added when a product carries that code or
   * barcode, or it is a scale label of a known article; false otherwise (it may be a CUI typed fast).
   */
  tryProduct(code: string): Promise<boolean>;
}

interface Props {
  onAdd(product: ProductView, quantityMilli: number): void;
  /** A message for the cashier (in her language) when nothing could be added. */
  onRefused(message: string): void;
  barcodeRules: readonly WeighedRule[];
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
  const tryRef = useRef(tryProduct);
  tryRef.current = tryProduct;
  useImperativeHandle(ref, () => ({ focus: () => input.current?.focus(), tryProduct: (code: string) => tryRef.current(code) }), []);

  const entry = parseCounterEntry(text);
  const query = entry.query;
  // Suggestions wait until the typing pauses: a scanner's 13 digits would otherwise queue 13 name
  // searches over the whole catalogue in the main process ahead of the scan's exact lookup (at
  // 50 000 products that delay, not the lookup, was most of scan-to-line). People type slower than this.
  const settledQuery = useDebounced(query, SUGGEST_AFTER_MS);
  const { data, isPlaceholderData } = useIpcQuery('products.list', { search: settledQuery, limit: 8, offset: 0 }, { enabled: open && settledQuery.length > 0, keepPrevious: true });
  const suggestions = query.length > 0 && settledQuery.length > 0 ? (data?.items ?? []) : [];
  /** The list shown answers exactly what is typed now. */
  const answersTyped = settledQuery === query && !isPlaceholderData;

  /**
   * Exact lookups asked while the characters arrive, by the text they answer: a scanner's Enter comes a
   * few ms after its last digit, and finds the answer already there instead of starting the round trip
   * to the main process then. Kept only for the entry being typed (emptied when it is taken or cleared),
   * so an answer is never older than the entry it answers.
   */
  const lookahead = useRef(new Map<string, Promise<ProductView | null>>());

  function ask(code: string): Promise<ProductView | null> {
    const asked = lookahead.current;
    let answer = asked.get(code);
    if (!answer) {
      answer = callIpc('products.byCode', { code });
      // A failed lookup is asked again at Enter, where its error reaches the cashier.
      answer.catch(() => asked.delete(code));
      asked.set(code, answer);
    }
    return answer;
  }

  /**
   * A product carrying exactly this code or barcode (a scan): never one whose name merely contains it.
   * The answer is taken once: pressing Enter again on the same text asks afresh (the product may have
   * arrived with a sync meanwhile).
   */
  async function exactProduct(code: string): Promise<ProductView | null> {
    try {
      return await ask(code);
    } finally {
      lookahead.current.delete(code);
    }
  }

  /** The line shows in the same task as the answer: no wait for React's scheduler between them. */
  function add(product: ProductView, quantityMilli: number): void {
    flushSync(() => props.onAdd(product, quantityMilli));
  }

  /**
   * A code read by the scanner (or typed whole): the product with that exact code or barcode; else an
   * in-store code with a weight or a price inside (the counter's layout); else the reason in words.
   */
  async function commitCode(code: string, quantityMilli: number): Promise<boolean> {
    const exact = await exactProduct(code);
    if (exact) {
      add(exact, quantityMilli);
      return true;
    }
    const reading = readScan(code, props.barcodeRules);
    if (reading.kind === 'bad_check') {
      props.onRefused(t('till.scan.badCheck', { code }));
      return true;
    }
    if (reading.kind === 'weighed') {
      const line = await weighedLine(reading);
      if (line === 'zero') props.onRefused(t('till.scan.weighedZero', { code }));
      else if (line) add(line.product, line.milli);
      else props.onRefused(t('till.scan.unknownWeighed', { code, article: reading.product_keys[0] ?? '' }));
      return true;
    }
    return false;
  }

  /**
   * A scale label's article (the first of its possible keys that is a product) and the quantity its
   * weight or amount gives; `zero` when that rounds to nothing; null when no key is a product.
   */
  async function weighedLine(reading: Extract<ScanReading, { kind: 'weighed' }>): Promise<{ product: ProductView; milli: number } | 'zero' | null> {
    for (const key of reading.product_keys) {
      const product = await exactProduct(key);
      if (!product) continue;
      const gross = product.price_includes_vat ? product.price_bani : Math.round((product.price_bani * (100 + product.vat_rate)) / 100);
      const milli = weighedQuantityMilli(reading, gross);
      return milli === null ? 'zero' : { product, milli };
    }
    return null;
  }

  async function tryProduct(code: string): Promise<boolean> {
    const exact = await exactProduct(code);
    if (exact) {
      add(exact, 1000);
      return true;
    }
    const reading = readScan(code, props.barcodeRules);
    if (reading.kind !== 'weighed') return false;
    const line = await weighedLine(reading);
    if (line === null || line === 'zero') return false;
    add(line.product, line.milli);
    return true;
  }

  const clear = () => {
    lookahead.current.clear();
    setText('');
    setOpen(false);
    setActive(0);
  };

  /**
   * `scanned`: the text arrived as a scanner's burst. Then only an exact code counts: a code that is
   * not in the catalog must say so, not add whichever product merely contains those digits.
   */
  async function commit(scanned: boolean, typed: string = text): Promise<void> {
    const current = parseCounterEntry(typed);
    if (!current.query) return;
    if (current.problem) {
      props.onRefused(t(`till.qty.${current.problem}`));
      return;
    }
    if (looksLikeCode(current.query) || scanned) {
      if (await commitCode(current.query, current.quantity_milli)) {
        clear();
        return;
      }
      if (scanned) {
        props.onRefused(t('till.scan.unknown', { code: current.query }));
        clear();
        return;
      }
    }
    // Enter takes the highlighted row the cashier sees, as long as it answers what is typed now (a
    // list still showing an older, broader search is not taken on trust).
    let chosen: ProductView | undefined;
    const shown = open ? suggestions[active] : undefined;
    const folded = foldForSearch(current.query);
    if (shown && (answersTyped || foldForSearch(`${shown.name} ${shown.code ?? ''} ${shown.barcode ?? ''}`).includes(folded))) chosen = shown;
    if (!chosen) {
      const fresh = await callIpc('products.list', { search: current.query, limit: 8, offset: 0 });
      chosen = fresh.items[0];
    }
    if (chosen) {
      props.onAdd(chosen, current.quantity_milli);
      clear();
    } else {
      // Digits that match nothing are a code (typed or scanned slowly): say it is not in the catalog.
      props.onRefused(looksLikeCode(current.query) ? t('till.scan.unknown', { code: current.query }) : t('counter.notFound', { query: current.query }));
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
          const typed = parseCounterEntry(e.target.value).query;
          if (typed.length <= 64 && CODE_SHAPE.test(typed)) ask(typed).catch(() => undefined);
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onBlur={() => setTimeout(() => document.activeElement !== input.current && setOpen(false), 150)}
        onKeyDown={(e) => {
          const scan = wedge.current.key(e.key, e.timeStamp);
          if (e.key === 'Enter') {
            e.preventDefault();
            // A burst ending in Enter is a scan only if it also looks like a code: automation and
            // very fast typists produce bursts of words too.
            void commit(scan !== null && scan.code === text.trim() && CODE_SHAPE.test(scan.code));
            return;
          }
          if (e.key === 'Escape' && text) {
            e.preventDefault();
            e.stopPropagation();
            clear();
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
              <span>
                {p.name} <StockBadge stock={p.stock} unit={p.unit} />
              </span>
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
