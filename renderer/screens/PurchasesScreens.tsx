import { useCallback, useMemo, useState } from 'react';
import type { ChannelOutput } from '../../shared/ipc';
import { usePagedList, VirtualList, type Column } from '../components/VirtualList';
import { useIpcQuery } from '../data/hooks';
import { useI18n } from '../i18n/I18nProvider';
import { formatDate, formatMoney } from '../lib/format';

type ExpenseRow = ChannelOutput<'purchases.expenses'>['items'][number];
type BillRow = ChannelOutput<'purchases.supplierBills'>['items'][number];

function StatusBadge({ status }: { status: string }) {
  const t = useI18n().t;
  if (status === 'paid') return <span className="badge ok">{t('paid.paid')}</span>;
  if (status === 'overdue') return <span className="badge bad">{t('expenses.overdue')}</span>;
  return <span className="badge warn">{t('paid.unpaid')}</span>;
}

/**
 * Expenses as the host syncs them. Adding one (with the duplicate check before saving) and marking
 * one paid wait for their channels (renderer/NEEDED-IPC.md); the buttons say so.
 */
export function ExpensesScreen() {
  const { t, language } = useI18n();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [pages, setPages] = useState<number[]>([0]);
  const input = useMemo(() => ({ ...(from ? { from } : {}), ...(to ? { to } : {}) }), [from, to]);
  const list = usePagedList('purchases.expenses', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const columns: Column[] = [
    { key: 'reference', header: t('expenses.col.reference'), width: '140px' },
    { key: 'date', header: t('invoices.col.date'), width: '92px' },
    { key: 'description', header: t('expenses.col.description'), width: 'minmax(180px, 1fr)' },
    { key: 'due', header: t('invoices.dueDate'), width: '100px' },
    { key: 'total', header: t('invoices.col.total'), width: '130px', className: 'num' },
    { key: 'status', header: t('invoices.col.status'), width: '100px' },
    { key: 'actions', header: '', width: '150px' },
  ];
  return (
    <div className="content fill" data-testid="expenses-screen">
      <div className="banner info small">{t('expenses.duplicateInfo')}</div>
      <div className="toolbar">
        <label className="row small">
          {t('filters.from')}
          <input className="input" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="row small">
          {t('filters.to')}
          <input className="input" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <span className="spacer" />
        <button type="button" className="btn primary" disabled title={t('needed.expenses')}>
          + {t('expenses.new')}
        </button>
      </div>
      <VirtualList<ExpenseRow>
        testId="expense-list"
        total={list.total ?? 0}
        columns={columns}
        itemAt={list.itemAt}
        rowKey={(r, i) => r?.id ?? `e${i}`}
        onVisiblePages={onVisiblePages}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : t('expenses.none')}</div>}
        renderCell={(r, key) => {
          switch (key) {
            case 'reference':
              return <strong>{r.reference}</strong>;
            case 'date':
              return formatDate(r.date);
            case 'description':
              return r.description;
            case 'due':
              return formatDate(r.due_date);
            case 'total':
              return formatMoney(r.total_bani, r.currency, language);
            case 'status':
              return <StatusBadge status={r.status} />;
            case 'actions':
              return r.status !== 'paid' ? (
                <button type="button" className="btn small" disabled title={t('needed.expenses')}>
                  {t('expenses.markPaid')}
                </button>
              ) : null;
            default:
              return null;
          }
        }}
      />
      <div className="vlist-foot">{t('expenses.count', { count: list.total ?? 0 })}</div>
    </div>
  );
}

/** Supplier bills received through the SPV inbox (e-Factura), with what is still unpaid. */
export function SupplierBillsScreen() {
  const { t, language } = useI18n();
  const [unpaidOnly, setUnpaidOnly] = useState(false);
  const [pages, setPages] = useState<number[]>([0]);
  const input = useMemo(() => (unpaidOnly ? { unpaid_only: true } : {}), [unpaidOnly]);
  const list = usePagedList('purchases.supplierBills', input, pages);
  const onVisiblePages = useCallback((p: number[]) => setPages((prev) => (prev.join() === p.join() ? prev : p)), []);
  const columns: Column[] = [
    { key: 'number', header: t('bills.col.number'), width: '150px' },
    { key: 'supplier', header: t('bills.col.supplier'), width: 'minmax(180px, 1fr)' },
    { key: 'date', header: t('invoices.col.date'), width: '92px' },
    { key: 'due', header: t('invoices.dueDate'), width: '100px' },
    { key: 'total', header: t('invoices.col.total'), width: '130px', className: 'num' },
    { key: 'unpaid', header: t('bills.col.unpaid'), width: '130px', className: 'num' },
    { key: 'status', header: t('invoices.col.status'), width: '100px' },
  ];
  return (
    <div className="content fill" data-testid="bills-screen">
      <div className="toolbar">
        <label className="check">
          <input type="checkbox" checked={unpaidOnly} onChange={(e) => setUnpaidOnly(e.target.checked)} />
          {t('bills.unpaidOnly')}
        </label>
        <span className="spacer" />
        <span className="muted small">{t('bills.fromSpv')}</span>
      </div>
      <VirtualList<BillRow>
        testId="bill-list"
        total={list.total ?? 0}
        columns={columns}
        itemAt={list.itemAt}
        rowKey={(r, i) => r?.id ?? `b${i}`}
        onVisiblePages={onVisiblePages}
        empty={<div className="empty">{list.total === undefined ? t('common.loading') : t('bills.none')}</div>}
        renderCell={(r, key) => {
          switch (key) {
            case 'number':
              return <strong>{r.invoice_number}</strong>;
            case 'supplier':
              return r.supplier_name;
            case 'date':
              return formatDate(r.issue_date);
            case 'due':
              return formatDate(r.due_date);
            case 'total':
              return formatMoney(r.tax_inclusive_bani, r.currency, language);
            case 'unpaid':
              return r.unpaid_bani > 0 ? <strong>{formatMoney(r.unpaid_bani, r.currency, language)}</strong> : '—';
            case 'status':
              return <StatusBadge status={r.unpaid_bani > 0 ? (r.due_date && r.due_date < new Date().toISOString().slice(0, 10) ? 'overdue' : 'unpaid') : 'paid'} />;
            default:
              return null;
          }
        }}
      />
      <div className="vlist-foot">{t('bills.count', { count: list.total ?? 0 })}</div>
    </div>
  );
}

/**
 * Suppliers, as the bills received from them show them (name, bill count, what is owed). A full
 * supplier register waits for `purchases.suppliers` (renderer/NEEDED-IPC.md).
 */
export function SuppliersScreen() {
  const { t, language } = useI18n();
  const bills = useIpcQuery('purchases.supplierBills', { limit: 500, offset: 0 });
  const suppliers = useMemo(() => {
    const map = new Map<string, { name: string; bills: number; unpaid: Map<string, number> }>();
    for (const b of bills.data?.items ?? []) {
      const entry = map.get(b.supplier_name) ?? { name: b.supplier_name, bills: 0, unpaid: new Map() };
      entry.bills += 1;
      entry.unpaid.set(b.currency, (entry.unpaid.get(b.currency) ?? 0) + b.unpaid_bani);
      map.set(b.supplier_name, entry);
    }
    return [...map.values()].sort((a, b) => a.name.localeCompare(b.name, 'ro'));
  }, [bills.data]);
  return (
    <div className="content" data-testid="suppliers-screen">
      <div className="banner info small">{t('suppliers.derived')}</div>
      <div className="card">
        <table className="grid">
          <thead>
            <tr>
              <th>{t('bills.col.supplier')}</th>
              <th className="num">{t('suppliers.bills')}</th>
              <th className="num">{t('bills.col.unpaid')}</th>
            </tr>
          </thead>
          <tbody>
            {suppliers.length === 0 ? (
              <tr>
                <td colSpan={3} className="empty">
                  {bills.isLoading ? t('common.loading') : t('suppliers.none')}
                </td>
              </tr>
            ) : (
              suppliers.map((s) => (
                <tr key={s.name}>
                  <td>
                    <strong>{s.name}</strong>
                  </td>
                  <td className="num">{s.bills}</td>
                  <td className="num">
                    {[...s.unpaid.entries()]
                      .filter(([, v]) => v !== 0)
                      .map(([cur, v]) => formatMoney(v, cur, language))
                      .join(' + ') || '—'}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
