import { useEffect, useState } from 'react';
import type { Bani } from '../../../shared/money';
import { cartTender, type Cart, type CartAction } from '../../counter/cart';
import { useI18n } from '../../i18n/I18nProvider';
import { formatBani, formatMoney, parseAmountInput } from '../../lib/format';

/** A money box that keeps what is typed until it reads as an amount (the cart holds bani only). */
function AmountInput(props: { value: Bani; testId: string; onChange(bani: Bani): void; onDone(): void; invalid: string }) {
  const { language } = useI18n();
  const [text, setText] = useState(props.value ? formatBani(props.value, language) : '');
  const [bad, setBad] = useState(false);
  useEffect(() => {
    // Reset from outside (a new cart): show the cart's amount again.
    if (props.value === 0) setText((current) => (parseAmountInput(current) ? '' : current));
  }, [props.value]);
  return (
    <>
      <input
        className="input num"
        inputMode="decimal"
        data-testid={props.testId}
        value={text}
        aria-invalid={bad || undefined}
        onChange={(e) => {
          setText(e.target.value);
          const bani = e.target.value.trim() === '' ? 0 : parseAmountInput(e.target.value);
          const ok = bani !== null && bani >= 0;
          setBad(!ok);
          if (ok) props.onChange(bani);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            props.onDone();
          }
        }}
      />
      {bad ? <span className="field-error small">{props.invalid}</span> : null}
    </>
  );
}

/**
 * How the customer pays a cash sale: all cash, or part by card (a split payment), and the change to
 * give back from what was handed over. A card sale is paid in full by card.
 */
export function TenderBox(props: { cart: Cart; totalBani: Bani; dispatch(action: CartAction): void; onDone(): void }) {
  const { t, language } = useI18n();
  const { cart, totalBani } = props;
  const tender = cartTender(cart, totalBani);
  if (cart.payment_method === 'card') {
    return (
      <div className="tender small" data-testid="tender">
        {t('till.cardAll')}: <strong data-testid="tender-card-total">{formatMoney(tender.card_bani, 'RON', language)}</strong>
      </div>
    );
  }
  if (cart.payment_method !== 'receipt') return null;
  return (
    <div className="tender col" data-testid="tender">
      <div className="tender-grid">
        <label className="field">
          {t('till.cardPart')}
          <AmountInput key={`card-${cart.id}`} value={cart.card_bani} testId="tender-card" invalid={t('till.amountInvalid')} onChange={(b) => props.dispatch({ type: 'setSplit', card_bani: b })} onDone={props.onDone} />
        </label>
        <label className="field">
          {t('till.cashReceived')}
          <AmountInput key={`cash-${cart.id}`} value={cart.tendered_bani} testId="tender-received" invalid={t('till.amountInvalid')} onChange={(b) => props.dispatch({ type: 'setTendered', tendered_bani: b })} onDone={props.onDone} />
        </label>
      </div>
      <div className="row wrap small">
        <span>
          {t('till.cashPart')}: <strong data-testid="tender-cash">{formatMoney(tender.cash_bani, 'RON', language)}</strong>
        </span>
        {tender.card_bani > 0 ? (
          <span>
            · {t('till.cardPartShort')}: <strong data-testid="tender-card-amount">{formatMoney(tender.card_bani, 'RON', language)}</strong>
          </span>
        ) : null}
        {cart.tendered_bani > 0 ? (
          <span>
            · {t('till.change')}: <strong data-testid="tender-change">{formatMoney(tender.change_bani, 'RON', language)}</strong>
          </span>
        ) : null}
      </div>
      {cart.tendered_bani > 0 && cart.tendered_bani < tender.cash_bani ? <div className="banner warn small" data-testid="tender-short">{t('till.cashShort')}</div> : null}
    </div>
  );
}
