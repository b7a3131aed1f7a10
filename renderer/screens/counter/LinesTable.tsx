import { Fragment, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { linePriceE4, type LineAmounts } from '../../../shared/invoice-math';
import { LINE_VAT_CATEGORIES } from '../../../shared/schemas/invoice';
import { useI18n } from '../../i18n/I18nProvider';
import { formatBani, formatPriceE4, formatQuantity, formatScaled, parsePercentInput } from '../../lib/format';
import type { CartAction, CartLine } from '../../counter/cart';
import { readUnitPrice } from '../../counter/price-input';
import { readQuantity } from '../../counter/scanner';
import type { LineStockWarning } from '../../counter/stock-warning';

/**
 * An inline number cell: the text is the cashier's while the cell has focus and is committed on
 * Enter or when leaving it. Enter also hands the keyboard back to the search box.
 */
function NumberCell(props: {
  value: string;
  parse(text: string): number | null;
  onCommit(value: number): void;
  onDone(): void;
  testId: string;
  label: string;
  narrow?: boolean;
  /** Room for a price with 4 decimals ("1.234,5678"). */
  wide?: boolean;
  /**
   * A refused text stays in the cell, marked, with its reason, when the focus leaves it (a click on
   * "Emite" included): the counter issues nothing while it does (CounterScreen's doIssue), so a sale
   * never goes out at the old value the cashier meant to change. Escape in the cell puts the value back.
   */
  holdRefused?: boolean;
  /** Why the text is refused, in words (shown under the cell); null when `parse` alone decides. */
  problem?(text: string): string | null;
}) {
  const [text, setText] = useState(props.value);
  const [invalid, setInvalid] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const ref = useRef<HTMLInputElement>(null);
  const editing = useRef(false);
  // Escape has already put the value back: the blur that follows must not judge the abandoned text.
  const abandoned = useRef(false);
  // Typed since the cell took the focus and not yet committed.
  const dirty = useRef(false);
  // One pending "hide the message" at a time, so an old one cannot hide a newer reason.
  const hideMessage = useRef<ReturnType<typeof setTimeout> | null>(null);
  const clearHideMessage = () => {
    if (hideMessage.current !== null) clearTimeout(hideMessage.current);
    hideMessage.current = null;
  };
  useEffect(() => clearHideMessage, []);
  useEffect(() => {
    if (!editing.current) setText(props.value);
  }, [props.value]);
  const commit = (): boolean => {
    clearHideMessage();
    const parsed = props.parse(text);
    if (parsed === null) {
      setInvalid(true);
      setMessage(props.problem?.(text) ?? null);
      return false;
    }
    setInvalid(false);
    setMessage(null);
    dirty.current = false;
    props.onCommit(parsed);
    return true;
  };
  return (
    <>
    <input
      ref={ref}
      className={`input num${props.narrow ? ' narrow' : ''}${props.wide ? ' wide' : ''}${invalid ? ' invalid' : ''}`}
      data-testid={props.testId}
      aria-label={props.label}
      aria-invalid={invalid}
      value={text}
      inputMode="decimal"
      onFocus={(e) => {
        editing.current = true;
        abandoned.current = false;
        dirty.current = false;
        e.target.select();
      }}
      onChange={(e) => {
        abandoned.current = false;
        dirty.current = true;
        setText(e.target.value);
      }}
      onBlur={() => {
        editing.current = false;
        if (abandoned.current) {
          abandoned.current = false;
          return;
        }
        if (!commit()) {
          if (props.holdRefused) return;
          setText(props.value);
        }
        setInvalid(false);
        hideMessage.current = setTimeout(() => setMessage(null), 4000);
      }}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        if ((e.key === 'F9' || (e.key === 'Enter' && e.ctrlKey)) && dirty.current) {
          // Issuing with text typed here: the sale takes it, or nothing is issued. The counter's own
          // key handler would sell the cart as it was before this cell, so the key stops here and,
          // once the value is in the cart and rendered, is pressed again for the counter.
          e.preventDefault();
          e.stopPropagation();
          if (commit()) {
            const again = { key: e.key, ctrlKey: e.ctrlKey, bubbles: true, cancelable: true };
            setTimeout(() => ref.current?.dispatchEvent(new globalThis.KeyboardEvent('keydown', again)), 0);
          }
        } else if (e.key === 'Enter') {
          e.preventDefault();
          if (commit()) props.onDone();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          abandoned.current = true;
          clearHideMessage();
          setText(props.value);
          setInvalid(false);
          setMessage(null);
          props.onDone();
        }
      }}
    />
    {message ? (
      <span className="cell-error small" role="alert" data-testid={`${props.testId}-error`}>
        {message}
      </span>
    ) : null}
    </>
  );
}

export function LinesTable(props: {
  lines: CartLine[];
  amounts: LineAmounts[];
  selected: number;
  dispatch(action: CartAction): void;
  onDone(): void;
  reverseCharge: boolean;
  /** Per line: more than the cached stock holds (a warning, never a block: the service has the last word). */
  stockWarnings?: readonly (LineStockWarning | null)[];
}) {
  const { t, language } = useI18n();
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  useEffect(() => {
    // In the next frame's own layout, not a forced one inside the scan's task (2–3 ms of each scan).
    const frame = requestAnimationFrame(() => bodyRef.current?.querySelector('tr.selected')?.scrollIntoView({ block: 'nearest' }));
    return () => cancelAnimationFrame(frame);
  }, [props.selected, props.lines.length]);
  if (props.lines.length === 0) {
    return (
      <div className="empty" data-testid="cart-empty">
        <div style={{ fontSize: 40, opacity: 0.35 }}>▤</div>
        <p>{t('counter.emptyCart')}</p>
        <p className="small">{t('counter.emptyCartHint')}</p>
      </div>
    );
  }
  return (
    <table className="grid lines-table" data-testid="cart-lines">
      <thead>
        <tr>
          <th>#</th>
          <th>{t('counter.col.product')}</th>
          <th className="num">{t('counter.col.quantity')}</th>
          <th className="num price">{t('counter.col.price')}</th>
          <th className="num">{t('counter.col.discount')}</th>
          <th className="num">{t('counter.col.vat')}</th>
          <th className="num">{t('counter.col.total')}</th>
          <th aria-label={t('common.actions')} />
        </tr>
      </thead>
      <tbody ref={bodyRef}>
        {props.lines.map((line, index) => {
          const a = props.amounts[index];
          const selected = index === props.selected;
          const select = () => props.dispatch({ type: 'select', index });
          // Under reverse charge every line is AE: neither a category nor an exemption applies.
          const zeroRate = line.vat_rate_bp === 0 && !props.reverseCharge;
          return (
            <Fragment key={line.key}>
              <tr className={`${selected ? 'selected' : ''}${zeroRate ? ' has-zero-rate' : ''}`} data-testid="cart-line" onClick={select}>
                <td className="idx">{index + 1}</td>
                <td className="desc">
                  {/* Two lines at most, so a long catalogue name cannot push the amounts off a 1280-pixel screen. */}
                  <span className="name" title={line.description}>
                    {line.description}
                  </span>
                  <span className="code">{line.code ?? ''}</span>
                  {props.stockWarnings?.[index] ? (
                    <span className="stock-warn small" role="status" data-testid="line-stock-warning" data-rule={props.stockWarnings[index]!.rule}>
                      {t(props.stockWarnings[index]!.rule === 'block' ? 'counter.stockWarning.block' : 'counter.stockWarning.allow', {
                        qty: formatQuantity(props.stockWarnings[index]!.in_stock, language),
                        unit: props.stockWarnings[index]!.unit,
                      })}
                    </span>
                  ) : null}
                </td>
                <td className="num">
                  <NumberCell
                    value={formatScaled(line.quantity_milli, 3, language, 0)}
                    parse={(text) => {
                      const read = readQuantity(text);
                      return 'milli' in read ? read.milli : null;
                    }}
                    problem={(text) => {
                      const read = readQuantity(text);
                      return 'problem' in read ? t(`till.qty.${read.problem}`) : null;
                    }}
                    onCommit={(milli) => props.dispatch({ type: 'setQuantity', index, quantity_milli: milli })}
                    onDone={props.onDone}
                    testId="line-quantity"
                    label={t('counter.col.quantity')}
                  />{' '}
                  <span className="muted small">{line.unit}</span>
                </td>
                {/*
                  The price is typed as the product states it: a shelf price (with VAT) is billed as it is, a
                  net price gets VAT added; said under the cell, so the cashier knows which one to type.
                */}
                <td className="num" data-testid="line-price" title={t('counter.price.edit', { kind: line.price_includes_vat ? t('products.gross') : t('products.net') })}>
                  <NumberCell
                    value={formatPriceE4(linePriceE4(line), language)}
                    parse={(text) => {
                      const read = readUnitPrice(text);
                      return 'e4' in read ? read.e4 : null;
                    }}
                    problem={(text) => {
                      const read = readUnitPrice(text);
                      return 'problem' in read ? t(`counter.price.${read.problem}`) : null;
                    }}
                    onCommit={(e4) => props.dispatch({ type: 'setUnitPrice', index, unit_price_e4: e4 })}
                    onDone={props.onDone}
                    testId="line-price-input"
                    label={t('counter.col.price')}
                    wide
                    holdRefused
                  />
                  <div className="muted small" data-testid="line-price-kind">
                    {line.price_includes_vat ? t('products.gross') : t('products.net')}
                    {line.base_quantity_milli && line.base_quantity_milli !== 1000 ? ` / ${formatQuantity(line.base_quantity_milli / 1000, language)} ${line.unit}` : ''}
                  </div>
                </td>
                <td className="num">
                  <NumberCell
                    value={formatScaled(line.discount_bp, 2, language, 0)}
                    parse={parsePercentInput}
                    onCommit={(bp) => props.dispatch({ type: 'setDiscount', index, discount_bp: bp })}
                    onDone={props.onDone}
                    testId="line-discount"
                    label={t('counter.col.discount')}
                    narrow
                  />
                  %
                </td>
                <td className="num">
                  {props.reverseCharge ? 'TI' : `${formatScaled(line.vat_rate_bp, 2, language, 0)}%`}
                  <div className="muted small">{a ? formatBani(a.vat_bani, language) : ''}</div>
                </td>
                <td className="num" data-testid="line-total">
                  <strong>{a ? formatBani(a.total_bani, language) : ''}</strong>
                </td>
                <td>
                  <button type="button" className="btn ghost" data-testid="line-remove" aria-label={t('counter.removeLine')} title={t('counter.removeLine')} onClick={() => props.dispatch({ type: 'remove', index })}>
                    ✕
                  </button>
                </td>
              </tr>
              {zeroRate ? (
                // A row of its own across the line: in the product cell the select and the reason would
                // widen the table past the amounts on a 1280-pixel window.
                <tr className={`zero-rate${selected ? ' selected' : ''}`} onClick={select}>
                  <td />
                  <td colSpan={7}>
                    <div className="zero-rate-controls">
                      <select
                        data-testid="line-vat-category"
                        aria-label={t('counter.vatCategory')}
                        title={t('counter.vatCategory')}
                        value={line.vat_category ?? 'E'}
                        onChange={(e) => {
                          const category = LINE_VAT_CATEGORIES.find((c) => c === e.target.value) ?? null;
                          props.dispatch({ type: 'setVatCategory', index, category });
                        }}
                      >
                        {LINE_VAT_CATEGORIES.map((c) => (
                          <option key={c} value={c}>
                            {t(`counter.vatCategory.${c}`)}
                          </option>
                        ))}
                      </select>
                      {(line.vat_category ?? 'E') === 'E' ? (
                        <input
                          className="input"
                          data-testid="line-exemption"
                          placeholder={t('counter.exemptionReason')}
                          aria-label={t('counter.exemptionReason')}
                          value={line.vat_exemption_reason ?? ''}
                          onChange={(e) => props.dispatch({ type: 'setExemption', index, reason: e.target.value || null })}
                        />
                      ) : null}
                    </div>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
