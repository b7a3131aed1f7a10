import { cartTotals, type Cart } from '../../counter/cart';
import { useI18n } from '../../i18n/I18nProvider';
import { plural } from '../../i18n/plural';
import { formatMoney, formatTimestamp } from '../../lib/format';

/** The carts put aside ("în așteptare"), each resumed with one click. */
export function ParkedCarts(props: { carts: readonly Cart[]; onResume(id: string): void }) {
  const { t, language } = useI18n();
  if (props.carts.length === 0) return null;
  return (
    <div className="card parked" data-testid="parked-carts">
      <strong>{t('till.parkedTitle')}</strong>
      <ul className="parked-list">
        {props.carts.map((c) => (
          <li key={c.id} className="row" data-testid="parked-cart">
            <span className="grow small">
              {formatTimestamp(c.parked_at)} · {c.client?.name ?? t('till.noClientYet')} · {plural(t, language, 'till.lines', c.lines.length)} ·{' '}
              {formatMoney(cartTotals(c).total_bani, 'RON', language)}
            </span>
            <button type="button" className="btn small" data-testid="resume-cart" onClick={() => props.onResume(c.id)}>
              {t('till.resume')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
