import { useState } from 'react';
import { formatBani, formatScaled, parseAmountInput } from '../../lib/format';
import { useI18n } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n';
import { INVOICE_REFERENCE_KINDS } from '../../../shared/schemas/invoice';
import { ALLOWANCE_REASON_CHOICES, CHARGE_REASON_CHOICES, cartAdjustmentAmounts, type Cart, type CartAction, type CartAdjustment } from '../../counter/cart';

/** The label of a reason code of the short list (renderer/counter/cart.ts). */
export function reasonKey(code: string): MessageKey {
  return `counter.adj.reason.${code}` as MessageKey;
}

/**
 * Discounts and charges on the whole invoice (BG-20/BG-21): a discount as a percent of the lines at its
 * VAT rate or an amount, a charge (transport, packing) as an amount; each with a reason from a short
 * list of UNTDID 5189/7161 codes and an optional text. The amount each comes to is shown as it is sent.
 */
export function DocumentAdjustments({ cart, dispatch }: { cart: Cart; dispatch: (action: CartAction) => void }) {
  const { t } = useI18n();
  const amounts = cartAdjustmentAmounts(cart);
  // The rates the invoice's lines carry, then the standard ones: an adjustment goes with lines of its rate.
  const rates = [...new Set(cart.lines.map((l) => l.vat_rate_bp))].sort((a, b) => b - a);
  return (
    <div className="col" data-testid="adjustments">
      <strong className="small">{t('counter.adj.title')}</strong>
      {cart.adjustments.map((a, i) => (
        <AdjustmentRow key={a.key} index={i} adjustment={a} amount={amounts[i]!} rates={rates} dispatch={dispatch} />
      ))}
      <div className="row wrap">
        <button type="button" className="btn small" data-testid="add-discount" onClick={() => dispatch({ type: 'addAdjustment', charge: false })}>
          {t('counter.adj.addDiscount')}
        </button>
        <button type="button" className="btn small" data-testid="add-charge" onClick={() => dispatch({ type: 'addAdjustment', charge: true })}>
          {t('counter.adj.addCharge')}
        </button>
      </div>
    </div>
  );
}

function AdjustmentRow(props: { index: number; adjustment: CartAdjustment; amount: number; rates: number[]; dispatch: (action: CartAction) => void }) {
  const { t, language } = useI18n();
  const { index, adjustment: a, dispatch } = props;
  const percent = a.percent_bp !== null;
  // The typed text is kept as typed ("10," while typing); the cart holds what it parses to.
  const [text, setText] = useState(percent ? (a.percent_bp ? formatScaled(a.percent_bp, 2, language, 0) : '') : a.amount_bani ? formatBani(a.amount_bani, language) : '');
  const parsed = parseAmountInput(text);
  const update = (patch: Partial<Omit<CartAdjustment, 'key'>>) => dispatch({ type: 'updateAdjustment', index, patch });
  const setValue = (value: string, asPercent: boolean) => {
    setText(value);
    const n = parseAmountInput(value);
    const ok = n !== null && n >= 0;
    if (asPercent) update({ percent_bp: ok ? Math.min(n, 10_000) : 0 });
    else update({ percent_bp: null, amount_bani: ok ? n : 0 });
  };
  const codes: readonly string[] = a.charge ? CHARGE_REASON_CHOICES : ALLOWANCE_REASON_CHOICES;
  const rates = props.rates.includes(a.vat_rate_bp) ? props.rates : [...props.rates, a.vat_rate_bp];
  return (
    <div className="adjustment card" data-testid={`adjustment-${index}`} data-kind={a.charge ? 'charge' : 'discount'} style={{ padding: 8 }}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <strong className="small">{a.charge ? t('counter.adj.charge') : t('counter.adj.discount')}</strong>
        <button type="button" className="btn ghost small" data-testid="adjustment-remove" onClick={() => dispatch({ type: 'removeAdjustment', index })}>
          {t('counter.adj.remove')}
        </button>
      </div>
      <div className="row wrap" style={{ gap: 6, alignItems: 'flex-end' }}>
        <label className="field small">
          {t('counter.adj.value')}
          <input
            className={`input num${parsed === null && text !== '' ? ' invalid' : ''}`}
            style={{ width: 80 }}
            data-testid="adjustment-value"
            value={text}
            onChange={(e) => setValue(e.target.value, percent)}
          />
        </label>
        <select aria-label={t('counter.adj.value')} data-testid="adjustment-unit" value={percent ? 'percent' : 'amount'} onChange={(e) => setValue(text, e.target.value === 'percent')}>
          <option value="percent">{t('counter.adj.unit.percent')}</option>
          <option value="amount">{t('counter.adj.unit.amount')}</option>
        </select>
        <label className="field small">
          {t('counter.adj.vatRate')}
          <select data-testid="adjustment-rate" value={a.vat_rate_bp} onChange={(e) => update({ vat_rate_bp: Number(e.target.value), vat_category: null })}>
            {rates.map((r) => (
              <option key={r} value={r}>
                {formatScaled(r, 2, language, 0)}%
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="row wrap" style={{ gap: 6, marginTop: 4 }}>
        <label className="field small" style={{ width: '100%' }}>
          {t('counter.adj.reasonCode')}
          <select style={{ width: '100%', maxWidth: '100%' }} data-testid="adjustment-reason-code" value={a.reason_code} onChange={(e) => update({ reason_code: e.target.value })}>
            {codes.map((c) => (
              <option key={c} value={c}>
                {t(reasonKey(c))} ({c})
              </option>
            ))}
          </select>
        </label>
        <label className="field small" style={{ width: '100%' }}>
          {t('counter.adj.reason')}
          <input className="input" maxLength={100} data-testid="adjustment-reason" value={a.reason} onChange={(e) => update({ reason: e.target.value })} />
        </label>
      </div>
      <div className="hint small" data-testid="adjustment-amount">
        {t('counter.adj.amountIs', { amount: `${a.charge ? '' : '-'}${formatBani(props.amount, language)}` })}
      </div>
    </div>
  );
}

/** The references a buyer asks for: order, contract, delivery note (aviz), receiving note, project, tender, invoiced object. */
export function DocumentReferences({ cart, dispatch }: { cart: Cart; dispatch: (action: CartAction) => void }) {
  const { t } = useI18n();
  return (
    <div className="col" data-testid="references">
      <strong className="small">{t('counter.refs.title')}</strong>
      {INVOICE_REFERENCE_KINDS.map((kind) => (
        <label key={kind} className="field small">
          {t(`print.ref.${kind}`)}
          <input className="input" maxLength={200} data-testid={`reference-${kind}`} value={cart.references[kind] ?? ''} onChange={(e) => dispatch({ type: 'setReference', kind, value: e.target.value })} />
        </label>
      ))}
    </div>
  );
}
