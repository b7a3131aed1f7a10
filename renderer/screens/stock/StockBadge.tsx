import { useI18n } from '../../i18n/I18nProvider';
import { formatQuantity } from '../../lib/format';

/**
 * What the shelf holds, beside a product at the counter and in the products list: green with stock,
 * red at or below zero (sold without stock: the firm allows it, the cashier sees it). Nothing for a
 * service or a product whose stock is not known.
 */
export function StockBadge(props: { stock: number | null | undefined; unit: string }) {
  const { t, language } = useI18n();
  if (props.stock === null || props.stock === undefined) return null;
  return (
    <span className={`badge ${props.stock > 0 ? 'ok' : 'bad'}`} data-testid="stock-badge" title={t('stock.badgeTitle')}>
      {t('stock.badge', { qty: formatQuantity(props.stock, language), unit: props.unit })}
    </span>
  );
}
