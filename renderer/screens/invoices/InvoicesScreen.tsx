import { useCallback, useMemo, useState } from 'react';
import type { InvoiceSummary } from '../../../shared/ipc';
import { navigate } from '../../app/router';
import { InvoiceStatusBadge, PaidBadge, SyncBadge, EfacturaBadge } from '../../components/Badges';
import { ClientSelect, type PickedClient } from '../../components/ClientSelect';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { usePagedList, VirtualList, type Column } from '../../components/VirtualList';
import { useIpcQuery } from '../../data/hooks';
import { useI18n } from '../../i18n/I18nProvider';
import { formatBani, formatDate, formatMoney } from '../../lib/format';
import { useDebounced } from '../../lib/use-debounced';

type StatusFilter = '' | 'draft' | 'issued' | 'voided' | 'storno';
type PaidFilter = '' | 'unpaid' | 'partially_paid' | 'paid';

/**
 * Every invoice on this device, drafts included, as one virtualised list read page by page from the
 * local cache. Every filter (status, payment, type, series, dates, client, text) runs in the host's
 * query, so a filtered view of 100 000 invoices costs what the first page does.
 */
export function InvoicesScreen() {
  const { t, language } = useI18n();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('');
  const [paid, setPaid] = useState<PaidFilter>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [client, setClient] = useState<PickedClient | null>(null);
  const [seriesId, setSeriesId] = useState('');
  const [docType, setDocType] = useState<'' | 'fiscal' | 'proforma'>('');
  const [unsynced, setUnsynced] = useState(false);
  const [pages, setPages] = useState<number[]>([0]);
  const [selected, setSelected] = useState(-1);
  // Short: a local query over 100 000 invoices takes a few tens of milliseconds.
  const debounced = useDebounced(search, 60);
  const seriesList = useIpcQuery('series.list', undefined);

  const input = useMemo(() => {
    const text = debounced.trim();
    return {
      ...(text ? { search: text } : {}),
      ...(seriesId ? { series_id: seriesId } : {}),
      ...(docType ? { document_type: docType } : {}),
      ...(status ? { status } : {}),
      ...(paid ? { paid_state: paid } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(client ? { client_id: client.id } : {}),
      ...(unsynced ? { unsynced: true } : {}),
    };
  }, [debounced, status, paid, from, to, client, seriesId, docType, unsynced]);

  const list = usePagedList('invoices.list', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const total = list.total ?? 0;
  const filtered = Object.keys(input).length > 0;

  const columns: Column[] = [
    { key: 'number', header: t('invoices.col.number'), width: '128px' },
    { key: 'date', header: t('invoices.col.date'), width: '84px' },
    { key: 'client', header: t('invoices.col.client'), width: 'minmax(140px, 1fr)' },
    { key: 'total', header: t('invoices.col.total'), width: '116px', className: 'num' },
    { key: 'due', header: t('invoices.col.due'), width: '96px', className: 'num' },
    { key: 'status', header: t('invoices.col.status'), width: '82px' },
    { key: 'paid', header: t('invoices.col.paid'), width: '96px' },
    { key: 'efactura', header: 'e-Factura', width: '92px' },
    { key: 'sync', header: t('invoices.col.sync'), width: '112px' },
  ];

  const cell = (inv: InvoiceSummary, key: string) => {
    switch (key) {
      case 'number':
        return inv.full_number ? <strong>{inv.full_number}</strong> : <span className="muted">{inv.document_type === 'proforma' ? t('status.proforma') : t('status.draft')}</span>;
      case 'date':
        return formatDate(inv.issue_date);
      case 'client':
        return inv.client_name ?? <span className="muted">{t('counter.endConsumer')}</span>;
      case 'total':
        return formatMoney(inv.totals.total_bani, inv.currency, language);
      case 'due':
        return inv.amount_due_bani !== 0 && inv.status !== 'draft' ? formatBani(inv.amount_due_bani, language) : '';
      case 'status':
        return <InvoiceStatusBadge status={inv.status} documentType={inv.document_type} />;
      case 'paid':
        return inv.status === 'draft' ? '' : <PaidBadge state={inv.paid_state} />;
      case 'efactura':
        return inv.status === 'draft' ? '' : <EfacturaBadge status={inv.efactura_status} />;
      case 'sync':
        return <SyncBadge sync={inv.sync} />;
      default:
        return null;
    }
  };

  return (
    <div className="content fill" data-testid="invoices-screen">
      <div className="toolbar">
        <input className="input" style={{ width: 240 }} type="search" data-testid="invoice-search" placeholder={t('invoices.searchPlaceholder')} value={search} onChange={(e) => setSearch(e.target.value)} />
        <select aria-label={t('filters.status')} data-testid="filter-status" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
          <option value="">{t('filters.allStatuses')}</option>
          <option value="draft">{t('status.draft')}</option>
          <option value="issued">{t('status.issued')}</option>
          <option value="voided">{t('status.voided')}</option>
          <option value="storno">{t('status.storno')}</option>
        </select>
        <select aria-label={t('filters.paid')} data-testid="filter-paid" value={paid} onChange={(e) => setPaid(e.target.value as PaidFilter)}>
          <option value="">{t('filters.allPaid')}</option>
          <option value="unpaid">{t('paid.unpaid')}</option>
          <option value="partially_paid">{t('paid.partially_paid')}</option>
          <option value="paid">{t('paid.paid')}</option>
        </select>
        <select aria-label={t('filters.documentType')} data-testid="filter-type" value={docType} onChange={(e) => setDocType(e.target.value as '' | 'fiscal' | 'proforma')}>
          <option value="">{t('filters.allTypes')}</option>
          <option value="fiscal">{t('series.fiscal')}</option>
          <option value="proforma">{t('status.proforma')}</option>
        </select>
        <select aria-label={t('filters.series')} data-testid="filter-series" value={seriesId} onChange={(e) => setSeriesId(e.target.value)}>
          <option value="">{t('filters.allSeries')}</option>
          {(seriesList.data ?? [])
            .filter((s) => s.kind === 'invoice')
            .map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
        </select>
        <DateRangeFilter from={from} to={to} onFrom={setFrom} onTo={setTo} testIdPrefix="filter" />
        <ClientSelect value={client} onChange={setClient} testId="filter-client" />
        <label className="check small">
          <input type="checkbox" data-testid="filter-unsynced" checked={unsynced} onChange={(e) => setUnsynced(e.target.checked)} />
          {t('filters.unsynced')}
        </label>
        {filtered ? (
          <button
            type="button"
            className="btn ghost"
            onClick={() => {
              setSearch('');
              setStatus('');
              setPaid('');
              setFrom('');
              setTo('');
              setClient(null);
              setSeriesId('');
              setDocType('');
              setUnsynced(false);
            }}
          >
            {t('filters.reset')}
          </button>
        ) : null}
        <span className="spacer" />
        <button type="button" className="btn primary" onClick={() => navigate({ screen: 'counter' })}>
          + {t('invoices.new')}
        </button>
      </div>
      <VirtualList<InvoiceSummary>
        testId="invoice-list"
        total={total}
        settled={list.settled}
        filterKey={JSON.stringify(input)}
        columns={columns}
        itemAt={list.itemAt}
        renderCell={cell}
        rowKey={(item, index) => item?.id ?? `row-${index}`}
        onVisiblePages={onVisiblePages}
        selected={selected}
        onSelect={setSelected}
        onOpen={(inv) => navigate({ screen: 'invoices', id: inv.id })}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : filtered ? t('invoices.noneFiltered') : t('invoices.none')}</div>}
      />
      <div className="vlist-foot" data-testid="invoice-count">
        <span>{t('invoices.count', { count: total })}</span>
        {list.loading ? <span>{t('common.loading')}</span> : null}
        <span className="spacer" />
        <span>
          <kbd>↑</kbd>
          <kbd>↓</kbd> {t('invoices.keysHint')}
        </span>
      </div>
    </div>
  );
}
