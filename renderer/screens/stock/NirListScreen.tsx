import { useState } from 'react';
import { toBani } from '../../../shared/money';
import type { NirSummary } from '../../../shared/ipc/contract-stock';
import { renderNirHtml } from '../../../shared/print/nir-template';
import { navigate } from '../../app/router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Modal } from '../../components/Modal';
import { useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { formatDate, formatMoney, formatQuantity, formatScaled } from '../../lib/format';
import { useDebounced } from '../../lib/use-debounced';
import { printHtml } from '../../print/print-document';
import { currentSeller } from '../../print/print-invoice';

/**
 * "Recepții (NIR)": the work point's NIRs as the service numbered them, newest first (read from the
 * service: a NIR is never made offline, so there is nothing local to show without it). A row opens
 * the NIR's lines and prints it again on form 14-3-1A.
 */
export function NirListScreen() {
  const { t, language } = useI18n();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<NirSummary | null>(null);
  const debounced = useDebounced(search.trim(), 200);
  const list = useIpcQuery('stock.nirs', { page, ...(debounced ? { search: debounced } : {}) }, { keepPrevious: true });
  return (
    <div className="content" data-testid="nir-list-screen" style={{ overflowY: 'auto' }}>
      <div className="toolbar">
        <input
          className="input"
          type="search"
          data-testid="nir-list-search"
          style={{ width: 280 }}
          placeholder={t('nirList.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
        <span className="spacer" />
        <button className="btn primary" data-testid="nir-list-new" onClick={() => navigate({ screen: 'nir' })}>
          {t('stock.newNir')}
        </button>
      </div>
      {list.error ? <ErrorMessage error={list.error} /> : null}
      {list.data && list.data.items.length === 0 ? <div className="empty">{t('nirList.none')}</div> : null}
      {list.data && list.data.items.length > 0 ? (
        <table className="grid" data-testid="nir-list" style={{ maxWidth: 1100 }}>
          <thead>
            <tr>
              <th>{t('nirList.col.number')}</th>
              <th>{t('nirList.col.date')}</th>
              <th>{t('nirList.col.supplier')}</th>
              <th>{t('nirList.col.document')}</th>
              <th className="num">{t('nirList.col.value')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((n) => (
              <tr key={n.id} data-testid="nir-row" className="clickable" tabIndex={0} onClick={() => setOpen(n)} onKeyDown={(e) => e.key === 'Enter' && setOpen(n)} style={{ cursor: 'pointer' }}>
                <td>
                  <strong>{n.full_number}</strong>
                  {n.from_bill ? <span className="badge small" style={{ marginLeft: 6 }}>{t('nirList.fromBill')}</span> : null}
                </td>
                <td>{formatDate(n.date)}</td>
                <td>{n.supplier_name}</td>
                <td>{n.document_number ?? '—'}</td>
                <td className="num">{formatMoney(toBani(n.total_cost), 'RON', language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="toolbar">
        {page > 1 ? (
          <button className="btn" onClick={() => setPage((p) => p - 1)}>
            {t('nirList.previous')}
          </button>
        ) : null}
        {list.data?.has_more ? (
          <button className="btn" onClick={() => setPage((p) => p + 1)}>
            {t('stock.mv.more')}
          </button>
        ) : null}
      </div>
      {open ? <NirDialog nir={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

function NirDialog(props: { nir: NirSummary; onClose(): void }) {
  const { t, language } = useI18n();
  const settings = useIpcQuery('settings.get', undefined);
  const view = useIpcQuery('stock.nir', { id: props.nir.id });
  const [printing, setPrinting] = useState(false);
  async function print(): Promise<void> {
    if (!view.data) return;
    setPrinting(true);
    try {
      const seller = await currentSeller(settings.data);
      await printHtml(renderNirHtml(view.data, seller));
    } finally {
      setPrinting(false);
    }
  }
  return (
    <Modal
      title={t('nirList.title', { number: props.nir.full_number })}
      onClose={props.onClose}
      wide
      testId="nir-dialog"
      footer={
        <button className="btn primary" data-testid="nir-dialog-print" disabled={!view.data || printing} onClick={() => void print()}>
          {t('nir.print')}
        </button>
      }
    >
      <p>
        {props.nir.supplier_name} · {props.nir.document_number ?? '—'} · {formatDate(props.nir.date)}
        {view.data ? ` · ${view.data.warehouse_name}` : ''}
      </p>
      {view.error ? <ErrorMessage error={view.error} /> : null}
      {view.data ? (
        <div style={{ maxHeight: 380, overflow: 'auto' }}>
          <table className="grid" data-testid="nir-dialog-lines">
            <thead>
              <tr>
                <th>{t('nir.line.product')}</th>
                <th className="num">{t('nir.line.invoiced')}</th>
                <th className="num">{t('nir.line.received')}</th>
                <th className="num">{t('nir.line.unitCost')}</th>
                <th className="num">{t('nir.line.value')}</th>
              </tr>
            </thead>
            <tbody>
              {(view.data.nir.lines ?? []).map((l, i) => (
                <tr key={l.position}>
                  <td>{view.data!.lines[i]?.name ?? l.supplier_item}</td>
                  <td className="num">{formatQuantity(l.quantity_invoiced, language)}</td>
                  <td className="num">{formatQuantity(l.quantity_received, language)}</td>
                  <td className="num">{formatScaled(Math.round(l.unit_cost * 100_000), 5, language, 2)} lei</td>
                  <td className="num">{formatMoney(toBani(l.value), 'RON', language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p>
        <strong>{t('nir.total', { amount: formatMoney(toBani(props.nir.total_cost), 'RON', language) })}</strong>
      </p>
    </Modal>
  );
}
