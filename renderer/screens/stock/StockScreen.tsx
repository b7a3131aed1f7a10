import { useCallback, useMemo, useState } from 'react';
import type { StockLevelRow } from '../../../shared/ipc/contract-stock';
import { toBani } from '../../../shared/money';
import { navigate } from '../../app/router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Modal } from '../../components/Modal';
import { usePagedList, VirtualList, type Column } from '../../components/VirtualList';
import { useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import type { MessageKey } from '../../i18n';
import { plural } from '../../i18n/plural';
import { formatDate, formatMoney, formatQuantity, formatScaled } from '../../lib/format';
import { useDebounced } from '../../lib/use-debounced';

/**
 * "Stoc": the levels of the work point's warehouses, one row per product and warehouse, from the
 * device's cache (offline too), with this counter's unsynced sales already taken off. A row opens the
 * product's movements, read from the service.
 */
export function StockScreen() {
  const { t, language } = useI18n();
  const [search, setSearch] = useState('');
  const [pages, setPages] = useState<number[]>([0]);
  const [open, setOpen] = useState<StockLevelRow | null>(null);
  const debounced = useDebounced(search, 120);
  const input = useMemo(() => (debounced.trim() ? { search: debounced.trim() } : {}), [debounced]);
  const list = usePagedList('stock.levels', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const columns: Column[] = [
    { key: 'name', header: t('stock.col.product'), width: 'minmax(220px, 1fr)' },
    { key: 'code', header: t('stock.col.code'), width: '130px' },
    { key: 'warehouse', header: t('stock.col.warehouse'), width: '150px' },
    { key: 'quantity', header: t('stock.col.quantity'), width: '150px', className: 'num' },
    { key: 'cost', header: t('stock.col.unitCost'), width: '140px', className: 'num' },
    { key: 'value', header: t('stock.col.value'), width: '140px', className: 'num' },
  ];
  return (
    <div className="content fill" data-testid="stock-screen">
      <div className="banner info small">{t('stock.cacheNote')}</div>
      <div className="toolbar">
        <input className="input" type="search" data-testid="stock-search" style={{ width: 280 }} placeholder={t('stock.search')} value={search} onChange={(e) => setSearch(e.target.value)} />
        <span className="spacer" />
        <button className="btn" data-testid="stock-open-nirs" onClick={() => navigate({ screen: 'nirs' })}>
          {t('nav.nirs')}
        </button>
        <button className="btn" data-testid="stock-open-count" onClick={() => navigate({ screen: 'stockCount' })}>
          {t('nav.stockCount')}
        </button>
        <button className="btn" data-testid="stock-open-transfer" onClick={() => navigate({ screen: 'stockTransfer' })}>
          {t('transfer.short')}
        </button>
        <button className="btn primary" data-testid="stock-new-nir" onClick={() => navigate({ screen: 'nir' })}>
          {t('stock.newNir')}
        </button>
      </div>
      <VirtualList<StockLevelRow>
        testId="stock-list"
        total={list.total ?? 0}
        columns={columns}
        itemAt={list.itemAt}
        rowKey={(r, i) => (r ? `${r.warehouse_id}:${r.product_id ?? r.product_name}` : `l${i}`)}
        onVisiblePages={onVisiblePages}
        onOpen={(r) => setOpen(r)}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : t('stock.none')}</div>}
        renderCell={(r, key) => {
          switch (key) {
            case 'name':
              return <strong>{r.product_name}</strong>;
            case 'code':
              return <span style={{ fontFamily: 'ui-monospace, Menlo, Consolas, monospace' }}>{r.product_code ?? ''}</span>;
            case 'warehouse':
              return r.warehouse_name;
            case 'quantity':
              return (
                <span title={r.unsynced ? t('stock.unsynced', { qty: formatQuantity(r.unsynced, language) }) : undefined} className={r.quantity > 0 ? '' : 'bad-text'} data-testid="stock-quantity">
                  <strong>{formatQuantity(r.quantity, language)}</strong> <span className="muted small">{r.unit}</span>
                  {r.unsynced ? <span className="muted small"> ⟳</span> : null}
                </span>
              );
            case 'cost':
              return `${formatScaled(Math.round(r.unit_cost * 100_000), 5, language, 2)} lei`;
            case 'value':
              return formatMoney(r.value_bani, 'RON', language);
            default:
              return null;
          }
        }}
      />
      <div className="vlist-foot">{plural(t, language, 'stock.rows', list.total ?? 0)}</div>
      {open ? <MovementsDialog row={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

const DOC_LABEL: Record<string, MessageKey> = {
  invoice: 'stock.doc.invoice', storno: 'stock.doc.storno', nir: 'stock.doc.nir', count: 'stock.doc.count', transfer: 'stock.doc.transfer',
};

function MovementsDialog(props: { row: StockLevelRow; onClose(): void }) {
  const { t, language } = useI18n();
  const [page, setPage] = useState(1);
  const productId = props.row.product_id;
  const moves = useIpcQuery('stock.movements', { product_id: productId ?? '-', page }, { enabled: productId !== null, keepPrevious: true });
  return (
    <Modal title={t('stock.movementsOf', { name: props.row.product_name })} onClose={props.onClose} wide testId="stock-movements">
      {productId === null ? <div className="banner info small">{t('stock.mv.notPulled')}</div> : null}
      {moves.error ? <ErrorMessage error={moves.error} /> : null}
      {moves.data ? (
        moves.data.items.length === 0 ? (
          <div className="empty">{t('stock.mv.none')}</div>
        ) : (
          <div style={{ maxHeight: 420, overflow: 'auto' }}>
            <table className="grid" data-testid="stock-movements-table">
              <thead>
                <tr>
                  <th>{t('stock.mv.date')}</th>
                  <th>{t('stock.mv.document')}</th>
                  <th>{t('stock.mv.warehouse')}</th>
                  <th className="num">{t('stock.mv.quantity')}</th>
                  <th className="num">{t('stock.mv.unitCost')}</th>
                  <th className="num">{t('stock.mv.value')}</th>
                </tr>
              </thead>
              <tbody>
                {moves.data.items.map((m) => (
                  <tr key={m.id}>
                    <td>{formatDate(m.date)}</td>
                    <td>
                      {t(DOC_LABEL[m.document_type] ?? 'stock.doc.invoice')} {m.document_label ?? ''}
                    </td>
                    <td>{m.warehouse_name}</td>
                    <td className="num">{formatQuantity(m.quantity, language)}</td>
                    <td className="num">{formatScaled(Math.round(m.unit_cost * 100_000), 5, language, 2)}</td>
                    <td className="num">{formatMoney(toBani(m.value), 'RON', language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      {moves.data?.has_more ? (
        <button className="btn" onClick={() => setPage((p) => p + 1)}>
          {t('stock.mv.more')}
        </button>
      ) : null}
    </Modal>
  );
}
